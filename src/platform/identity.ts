/**
 * Guest identity: a player id and display name in a signed token (HMAC-SHA256). The token
 * survives reconnects and reloads; seats belong to the player id, never to a socket.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { err } from "./errors.js";

export interface Player {
  id: string;
  name: string;
}

const NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N} _.'-]{0,23}$/u;

export function validateName(raw: unknown): string {
  if (typeof raw !== "string") throw err("BAD_NAME", "Choose a name of 1 to 24 letters, digits or spaces.");
  const name = raw.normalize("NFC").trim().replace(/\s+/g, " ");
  if (!NAME_RE.test(name)) throw err("BAD_NAME", "Choose a name of 1 to 24 letters, digits or spaces.");
  return name;
}

export function newPlayerId(): string {
  return "p_" + randomBytes(12).toString("base64url");
}

export class TokenIssuer {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error("TOKEN_SECRET must be at least 16 characters");
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }

  issue(player: Player): string {
    const body = Buffer.from(JSON.stringify({ p: player.id, n: player.name, t: Date.now() })).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** The player in a token, or null when it is malformed or not signed by us. */
  verify(token: unknown): Player | null {
    if (typeof token !== "string" || token.length > 512) return null;
    const dot = token.indexOf(".");
    if (dot <= 0) return null;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(body));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
    try {
      const data = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p?: unknown; n?: unknown };
      if (typeof data.p !== "string" || typeof data.n !== "string") return null;
      return { id: data.p, name: data.n };
    } catch {
      return null;
    }
  }
}
