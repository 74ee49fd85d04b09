/**
 * Two-step login secrets sealed at rest (docs/operations.md, "Two-step login secrets"). A TOTP
 * secret is a credential the server must read back, so unlike a password it cannot be hashed: with
 * `TOTP_KEY` set, each is stored sealed with AES-256-GCM under that key, bound to its account (the
 * player id is the additional authenticated data, so a sealed secret copied to another account does
 * not open), as `enc1:<iv>:<ciphertext>:<tag>` (base64url). A database leak alone then gives no one
 * a way past two-step login. Without the key, secrets are stored as they are (and read either way).
 *
 * At start-up (`sealStoredSecrets`) every secret still stored as it is gets sealed, and a sealed
 * one is opened as a check of the key: a server whose key is missing or is not the one that sealed
 * them refuses to start, saying so, rather than turn every such login away. Losing the key locks
 * out nobody for good: the recovery code sets a new password and turns two-step login off.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Database } from "../db/client.js";

const PREFIX = "enc1:";

/** TOTP_KEY: 32 bytes, as 64 hexadecimal digits or in base64 / base64url. Null: not a key. */
export function parseSecretKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, "hex");
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(s)) {
    const b = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    return b.length === 32 ? b : null;
  }
  return null;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export class SecretBox {
  /** `key`: 32 bytes, or null to store secrets as they are. */
  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== 32) throw new Error("a secret box key is 32 bytes");
  }

  get sealing(): boolean {
    return this.key !== null;
  }

  /** What to store for `plain`, the secret of account `playerId`. */
  seal(plain: string, playerId: string): string {
    if (!this.key) return plain;
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, iv);
    c.setAAD(Buffer.from(playerId, "utf8"));
    const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
    return `${PREFIX}${iv.toString("base64url")}:${body.toString("base64url")}:${c.getAuthTag().toString("base64url")}`;
  }

  /** The secret `stored` holds for account `playerId`; throws when it is sealed and this box cannot open it. */
  open(stored: string, playerId: string): string {
    if (!isSealed(stored)) return stored;
    if (!this.key) throw new Error("a two-step login secret is sealed and TOTP_KEY is not set");
    const [iv, body, tag] = stored.slice(PREFIX.length).split(":");
    if (!iv || !body || !tag) throw new Error("a sealed two-step login secret is malformed");
    const d = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    d.setAAD(Buffer.from(playerId, "utf8"));
    d.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
  }
}

/**
 * At start-up: checks that the key opens the secrets sealed before (else throws, saying what to
 * do), then seals every secret still stored as it is (when a key is set). Returns how many it sealed.
 */
export async function sealStoredSecrets(db: Database, box: SecretBox, batch = 500): Promise<number> {
  const sample = await db.prisma.account.findFirst({ where: { OR: [{ totpSecret: { startsWith: PREFIX } }, { totpPending: { startsWith: PREFIX } }] }, select: { playerId: true, totpSecret: true, totpPending: true } });
  if (sample) {
    const stored = sample.totpSecret && isSealed(sample.totpSecret) ? sample.totpSecret : sample.totpPending!;
    if (!box.sealing) throw new Error("Two-step login secrets in the database are sealed, but TOTP_KEY is not set: start the server with the TOTP_KEY that sealed them (docs/operations.md).");
    try {
      box.open(stored, sample.playerId);
    } catch {
      throw new Error("TOTP_KEY does not open the two-step login secrets in the database: start the server with the key that sealed them (docs/operations.md).");
    }
  }
  if (!box.sealing) return 0;
  let sealed = 0;
  for (;;) {
    const rows = await db.prisma.account.findMany({
      where: { OR: [{ totpSecret: { not: null }, NOT: { totpSecret: { startsWith: PREFIX } } }, { totpPending: { not: null }, NOT: { totpPending: { startsWith: PREFIX } } }] },
      select: { playerId: true, totpSecret: true, totpPending: true },
      take: batch,
    });
    if (rows.length === 0) return sealed;
    for (const r of rows) {
      const data: { totpSecret?: string; totpPending?: string } = {};
      if (r.totpSecret && !isSealed(r.totpSecret)) data.totpSecret = box.seal(r.totpSecret, r.playerId);
      if (r.totpPending && !isSealed(r.totpPending)) data.totpPending = box.seal(r.totpPending, r.playerId);
      // Only if unchanged meanwhile (another node sealing at the same time, a player turning it off).
      const res = await db.prisma.account.updateMany({ where: { playerId: r.playerId, totpSecret: r.totpSecret, totpPending: r.totpPending }, data });
      sealed += res.count;
    }
  }
}
