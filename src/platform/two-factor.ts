/**
 * Two-step login for accounts (docs/protocol.md, "Two-step login"): after the password, a six-digit
 * code from an authenticator app (TOTP, totp.ts), as Lichess offers it.
 *
 * Setting it up: the password again gives a new secret (kept as `totpPending`, shown once as text
 * and as a QR code); a code made from it turns two-step login on (`totpSecret`), so a secret the
 * player's app never read cannot lock them out. Turning it off takes the password and a code.
 * Logging in (Accounts.login) then takes `code` too: TOTP_REQUIRED when it is missing, BAD_TOTP when
 * it is wrong (counted against the failed-login limits, as a wrong password is). A code is good
 * once: the step of the last one taken is stored, and taking a code is one conditional update, so
 * two logins with the same code cannot both pass. The recovery code (recovery-codes.ts) still
 * recovers an account whose phone is lost: it sets a new password and turns two-step login off.
 * Secrets are stored sealed when the operators set TOTP_KEY (secret-box.ts).
 */
import type { Database } from "../db/client.js";
import type { Accounts, Verified } from "./accounts.js";
import { err } from "./errors.js";
import { matchingStep, newTotpSecret, otpauthUri } from "./totp.js";
import { SecretBox } from "./secret-box.js";

const TOTP_ON = () => err("TWO_FACTOR_ON", "Two-step login is on already; turn it off first to set up another app.");

/** What a code that does not match is told, at login, at turning it off, and by the routes' schemas. */
export const TOTP_MISMATCH = "That code does not match (or was used already): type the six digits your app shows now.";
export const badTotp = () => err("BAD_TOTP", TOTP_MISMATCH);

export class TwoFactor {
  private readonly now: () => number;
  private readonly box: SecretBox;

  constructor(
    private readonly db: Database,
    private readonly accounts: Accounts,
    opts: { now?: () => number; box?: SecretBox } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.box = opts.box ?? new SecretBox(null);
  }

  private async account(v: Verified) {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Two-step login is for accounts: register (keeping this guest's games) or log in.");
    return this.db.prisma.account.findUniqueOrThrow({ where: { playerId: v.player.id }, select: { name: true, totpSecret: true, totpPending: true, totpLastStep: true } });
  }

  /** The password again: a new secret to put in an authenticator app (not on until `enable`). */
  async setup(v: Verified, password: unknown, client: { address: string }): Promise<{ secret: string; uri: string }> {
    const a = await this.account(v);
    if (a.totpSecret) throw TOTP_ON();
    await this.accounts.checkOwnPassword(v, password, client);
    const secret = newTotpSecret();
    await this.db.prisma.account.update({ where: { playerId: v.player.id }, data: { totpPending: this.box.seal(secret, v.player.id) } });
    return { secret, uri: otpauthUri(secret, a.name) };
  }

  /** A code from the app set up: two-step login is on from now on. */
  async enable(v: Verified, code: unknown): Promise<void> {
    const a = await this.account(v);
    if (a.totpSecret) throw TOTP_ON();
    if (!a.totpPending) throw err("NO_TWO_FACTOR_SETUP", "Set up an authenticator app first (your password, then scan the code).");
    const step = matchingStep(this.box.open(a.totpPending, v.player.id), code, this.now(), null);
    if (step === null) throw err("BAD_TOTP", "That code does not match: type the six digits your app shows now for Goblin Bazaar.");
    const r = await this.db.prisma.account.updateMany({ where: { playerId: v.player.id, totpPending: a.totpPending, totpSecret: null }, data: { totpSecret: a.totpPending, totpPending: null, totpLastStep: step } });
    if (r.count === 0) throw err("NO_TWO_FACTOR_SETUP", "That set-up was replaced meanwhile; start again.");
  }

  /** The password and a code: two-step login is off. */
  async disable(v: Verified, password: unknown, code: unknown, client: { address: string }): Promise<void> {
    const a = await this.account(v);
    if (!a.totpSecret) throw err("TWO_FACTOR_OFF", "Two-step login is not on.");
    await this.accounts.checkOwnPassword(v, password, client);
    if (!(await takeCode(this.db, this.box, v.player.id, a, code, this.now()))) throw badTotp();
    await this.db.prisma.account.update({ where: { playerId: v.player.id }, data: { totpSecret: null, totpPending: null, totpLastStep: null } });
  }
}

/**
 * Takes a code for an account with two-step login on: true when it is the code of a step within
 * the window and after the last one taken, which it then records (one conditional update, so a
 * code passes once however many requests carry it).
 */
export async function takeCode(
  db: Database,
  box: SecretBox,
  playerId: string,
  a: { totpSecret: string | null; totpLastStep: number | null },
  code: unknown,
  now: number,
): Promise<boolean> {
  if (!a.totpSecret) return false;
  const step = matchingStep(box.open(a.totpSecret, playerId), code, now, a.totpLastStep);
  if (step === null) return false;
  const r = await db.prisma.account.updateMany({
    where: { playerId, totpSecret: a.totpSecret, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return r.count > 0;
}
