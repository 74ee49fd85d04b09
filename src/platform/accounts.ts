/**
 * Accounts and login sessions (docs/protocol.md, "Accounts and sessions").
 *
 * A player is a guest (a signed token holding an id and a name, nothing stored) or an account (a
 * unique name, compared case-insensitively and by look, name-skeleton.ts, and a scrypt password
 * hash, in Postgres). No guest may take an account's name or one that looks like it. A guest who
 * registers with their guest token becomes the account under the same player id, so the games and
 * ratings recorded under that id stay theirs; their old guest tokens stop working.
 *
 * Every login (registration included) is a Session row; an account token names its session, and
 * is good only while that session is not revoked: `verify` reads the session and the account on
 * every HTTP request and every socket connection (no cache), so a revocation is refused at once
 * everywhere, and `onRevoke` listeners (the socket layer) disconnect the live sockets of revoked
 * sessions on every node at once.
 *
 * Rate limits (rate-limit.ts, ACCOUNT_LIMITS): failed logins per account name and per address,
 * registrations per address. A successful login clears its name's failures.
 */
import { SecretBox } from "./secret-box.js";
import { randomBytes } from "node:crypto";
import type { Database } from "../db/client.js";
import { Prisma } from "../generated/prisma/client.js";
import { AppError, err } from "./errors.js";
import { nameKey, validateName, type Player, type TokenClaims, type TokenIssuer } from "./identity.js";
import { nameLooks, type NameLooks } from "./name-skeleton.js";
import { codeMatches, newRecoveryCode } from "./recovery-codes.js";
import { checkPassword, decoyHash, hashPassword, needsRehash, verifyPassword } from "./passwords.js";
import { ACCOUNT_LIMITS, enforce, record, type Limit, type RateLimiter } from "./rate-limit.js";
import { NO_METRICS, type PlatformMetrics } from "./metrics.js";
import { badTotp, takeCode } from "./two-factor.js";
import { silenceRunning, type Silence } from "./chat.js";

export interface AccountsOptions {
  limiter: RateLimiter;
  /** The server's clock (tests move it): rate-limit windows, session times. */
  now?: () => number;
  /** Told of every refusal by the limits (GET /metrics). */
  metrics?: Pick<PlatformMetrics, "rateLimited">;
  /** Opens two-step login secrets stored sealed (secret-box.ts); absent: stored as they are. */
  box?: SecretBox;
}

/** A token's player and, for an account, its session. */
export interface Verified {
  player: Player;
  session: string | null;
  /**
   * A guest whose name an account has taken (or one that looks like it) since the token was
   * signed: the token still names the player, but only to rename it (POST /api/guest) or register
   * it; anything else refuses it with GUEST_NAME_TAKEN (guestNameTaken).
   */
  nameTaken?: true;
}

/** GUEST_NAME_TAKEN: a guest must choose another name before acting (Verified.nameTaken). */
export function guestNameTaken(name: string): AppError {
  return err("GUEST_NAME_TAKEN", `An account has registered the name "${name}" (or one that looks like it) since you chose it. Choose another name: your seats and games stay yours.`);
}

export interface SessionInfo {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  userAgent: string | null;
  current: boolean;
}

/** A new login to an account (its other devices are told: "account:login"). */
export type LoginListener = (playerId: string, login: { session: string; userAgent: string | null; at: number }) => void;

/** Sessions just revoked: their sockets must go ("all": every socket of the player). */
export type RevokeListener = (playerId: string, sessions: readonly string[] | "all") => void;

/** An account now holds `name`: guests who hold it (or a look-alike) must give it up (Verified.nameTaken). */
export type NameTakenListener = (name: string) => void;
/** An account's new name (its connected devices are told, and reconnect to act under it). */
export type RenameListener = (playerId: string, name: string) => void;

/** lastSeenAt of a session is written at most this often (not on every request). */
const SEEN_EVERY_MS = 5 * 60_000;

const BAD_LOGIN = () => err("BAD_LOGIN", "That name and password do not match an account.");
export const BAD_TOKEN_MESSAGE = "The server did not recognise your identity token (it may have been logged out); log in again or continue as a guest.";
const badToken = () => err("BAD_TOKEN", BAD_TOKEN_MESSAGE);

function isUniqueViolation(e: unknown): e is Prisma.PrismaClientKnownRequestError {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

/** Which unique key a P2002 broke: a name's (nameKey or nameSkeleton) or another (the account's primary key). */
function violated(e: Prisma.PrismaClientKnownRequestError): "name" | "other" {
  const meta = JSON.stringify(e.meta ?? {}) + e.message;
  return meta.includes("nameKey") || meta.includes("nameSkeleton") ? "name" : "other";
}

/** The columns an account's name's skeletons are stored in (name-skeleton.ts nameLooks). */
function skeletonColumns(looks: NameLooks): { nameSkeleton: string; nameSkeletonLower: string; nameSkeletonUpper: string } {
  return { nameSkeleton: looks.written, nameSkeletonLower: looks.lower, nameSkeletonUpper: looks.upper };
}

/** The columns a name held after a rename keeps its skeletons in. */
function formerSkeletonColumns(looks: NameLooks): { formerNameSkeleton: string; formerNameSkeletonLower: string; formerNameSkeletonUpper: string } {
  return { formerNameSkeleton: looks.written, formerNameSkeletonLower: looks.lower, formerNameSkeletonUpper: looks.upper };
}

/** An account's name may change beyond letter case once in this many days (checkRenameAllowed). */
export const RENAME_EVERY_DAYS = 30;

/** An account row's name before its last rename, while it is still held for it at `now` (null: none, or over). */
export function heldFormerName(a: { formerName: string | null; formerUntil: Date | string | null }, now: number): { name: string; until: number } | null {
  const until = a.formerUntil === null ? 0 : new Date(a.formerUntil).getTime();
  return a.formerName && until > now ? { name: a.formerName, until } : null;
}
const DAY_MS = 86_400_000;

/** The account whose name `name` is, or looks like (see nameHolder). */
export interface NameHolder {
  name: string;
  /** The same name (case aside), rather than one that only looks like it. */
  same: boolean;
  /** It is (or looks like) the name the account had before its last rename, held for it until then (epoch ms). */
  formerUntil?: number;
}

/** NAME_TAKEN for `name`, saying whose name it is or looks like; `hint` ends the message. */
export function nameTaken(name: string, holder: NameHolder, hint = "choose another."): AppError {
  if (holder.formerUntil !== undefined) {
    const day = new Date(holder.formerUntil).toISOString().slice(0, 10);
    // Not the hint: logging in takes the account's new name, so "log in if it is yours" would mislead.
    return err("NAME_TAKEN", `The name "${name}" ${holder.same ? "was" : "looks too much like"} an account's name until it was renamed recently; it is kept for that account until ${day}, so nobody can pass for it. Choose another.`);
  }
  return holder.same
    ? err("NAME_TAKEN", `The name "${name}" belongs to an account; ${hint}`)
    : err("NAME_TAKEN", `The name "${name}" looks too much like "${holder.name}", an account's name; ${hint}`);
}

/** Who closed an account (Account.closedBy). */
export type ClosedBy = "player" | "operators";

/** ACCOUNT_CLOSED: the right password of a closed account; says when, by whom and, for the operators, why. */
export function accountClosed(a: { closedAt: Date | null; closedBy: string | null; closedReason: string | null }): AppError {
  const day = (a.closedAt ?? new Date(0)).toISOString().slice(0, 10);
  return a.closedBy === "operators"
    ? err("ACCOUNT_CLOSED", `The operators closed this account on ${day}${a.closedReason ? `: ${a.closedReason}` : "."}`)
    : err("ACCOUNT_CLOSED", `You closed this account on ${day}. Its name stays reserved; ask the operators to reopen it.`);
}

/** An account's name as someone typed it to find the account (login, reports, blocks): NFC, spaces collapsed, at most 64 characters; "" for anything else. */
export function typedName(raw: unknown): string {
  return typeof raw === "string" ? raw.normalize("NFC").trim().replace(/\s+/g, " ").slice(0, 64) : "";
}

/** The account a typed name names (any case), or `id:<player id>`'s; null when there is none. */
export async function findAccount(db: Database, typed: string) {
  if (typed === "") return null;
  return typed.startsWith("id:")
    ? db.prisma.account.findUnique({ where: { playerId: typed.slice(3) } })
    : db.prisma.account.findUnique({ where: { nameKey: nameKey(typed) } });
}

function address(a: string): string {
  return a.slice(0, 64);
}

/** The failed-login limits a wrong password or recovery code counts against: per account name (its key) and per address. */
function failLimits(key: string, client: { address: string }): [byName: Limit, byAddr: Limit] {
  return [
    { key: `login-fail:name:${key}`, ...ACCOUNT_LIMITS.loginFailuresPerName },
    { key: `login-fail:addr:${address(client.address)}`, ...ACCOUNT_LIMITS.loginFailuresPerAddress },
  ];
}

export class Accounts {
  private readonly limiter: RateLimiter;
  private readonly now: () => number;
  private readonly metrics: Pick<PlatformMetrics, "rateLimited">;
  private readonly box: SecretBox;
  private readonly revokeListeners: RevokeListener[] = [];
  private readonly loginListeners: LoginListener[] = [];
  private readonly nameTakenListeners: NameTakenListener[] = [];
  private readonly renameListeners: RenameListener[] = [];

  constructor(
    private readonly db: Database,
    private readonly tokens: TokenIssuer,
    opts: AccountsOptions,
  ) {
    this.limiter = opts.limiter;
    this.now = opts.now ?? Date.now;
    this.metrics = opts.metrics ?? NO_METRICS;
    this.box = opts.box ?? new SecretBox(null);
  }

  /** RATE_LIMITED if any of the limits is reached (rate-limit.ts), counted for /metrics. */
  private async enforce(limits: readonly Limit[], what: string): Promise<void> {
    try {
      await enforce(this.limiter, limits, this.now(), what);
    } catch (e) {
      if (e instanceof AppError && e.code === "RATE_LIMITED") this.metrics.rateLimited("account");
      throw e;
    }
  }

  onRevoke(listener: RevokeListener): void {
    this.revokeListeners.push(listener);
  }

  /** Told of every login by password (the socket layer tells the account's devices that are connected). */
  onLogin(listener: LoginListener): void {
    this.loginListeners.push(listener);
  }

  /**
   * Told of every name an account takes (a registration, a rename): the socket layer disconnects
   * the guests connected under it (or a look-alike), whose next connection meets GUEST_NAME_TAKEN.
   */
  onNameTaken(listener: NameTakenListener): void {
    this.nameTakenListeners.push(listener);
  }

  /** Told of every account's rename (the socket layer tells the account's connected devices, on every node). */
  onRename(listener: RenameListener): void {
    this.renameListeners.push(listener);
  }

  private nameTaken(name: string): void {
    for (const l of this.nameTakenListeners) l(name);
  }

  /** Every socket of the player is disconnected, on every node (their data was erased: personal-data.ts). */
  disconnectEverywhere(playerId: string): void {
    this.revoked(playerId, "all");
  }

  private revoked(playerId: string, sessions: readonly string[] | "all"): void {
    if (sessions !== "all" && sessions.length === 0) return;
    for (const l of this.revokeListeners) l(playerId, sessions);
  }

  /**
   * The player a token names, or null for a token that is malformed, not ours, of a revoked or
   * unknown session, or a guest token of a player who has since registered or been erased. An account's name is
   * the account's, whatever the token says. GUEST_NAME_TAKEN for a guest whose name an account
   * has taken since (Verified.nameTaken).
   */
  async verify(token: unknown): Promise<Player | null> {
    const v = await this.resolve(token);
    if (v?.nameTaken) throw guestNameTaken(v.player.name);
    return v?.player ?? null;
  }

  async resolve(token: unknown): Promise<Verified | null> {
    const c = this.tokens.decode(token);
    return c ? this.claimed(c) : null;
  }

  /**
   * Who a connection made as `player` (with its account `session`, or as a guest: null) is now,
   * if it is still good: what resolve says of its token, read from the server's own record of it
   * (a connection resuming after a drop, before Socket.IO hands it what was sent meanwhile). An
   * account renamed meanwhile comes back under its new name; null: the connection is not good.
   */
  async current(player: Player, session: string | null): Promise<Player | null> {
    const v = await this.claimed(session ? { kind: "account", id: player.id, session } : { kind: "guest", id: player.id, name: player.name });
    return v !== null && v.nameTaken !== true ? v.player : null;
  }

  private async claimed(c: TokenClaims): Promise<Verified | null> {
    if (c.kind === "guest") {
      const looks = nameLooks(c.name);
      // Refused once the guest registered (the account's tokens take over) or had their data erased.
      // "No guest may take an account's name": one registered since the token was signed (a guest
      // name is checked when chosen, but an account may register it later) must be given up.
      const [r] = await this.db.prisma.$queryRaw<Array<{ gone: boolean; taken: boolean }>>`
        SELECT EXISTS (SELECT 1 FROM "Account" WHERE "playerId" = ${c.id}) OR EXISTS (SELECT 1 FROM "ErasedPlayer" WHERE "id" = ${c.id}) AS "gone",
          EXISTS (SELECT 1 FROM "Account" WHERE "nameKey" = ${nameKey(c.name)} OR "nameSkeleton" = ${looks.written} OR "nameSkeletonLower" = ${looks.lower} OR "nameSkeletonUpper" = ${looks.upper}) AS "taken"`;
      if (!r || r.gone) return null;
      return { player: { id: c.id, name: c.name }, session: null, ...(r.taken ? { nameTaken: true as const } : {}) };
    }
    const s = await this.db.prisma.session.findUnique({
      where: { id: c.session },
      select: { playerId: true, revokedAt: true, lastSeenAt: true, player: { select: { account: { select: { name: true, closedAt: true } } } } },
    });
    if (!s || s.playerId !== c.id || s.revokedAt !== null || !s.player.account || s.player.account.closedAt !== null) return null;
    const now = this.now();
    if (now - s.lastSeenAt.getTime() > SEEN_EVERY_MS) {
      void this.db.prisma.session.update({ where: { id: c.session }, data: { lastSeenAt: new Date(now) } }).catch(() => {});
    }
    return { player: { id: c.id, name: s.player.account.name, account: true }, session: c.session };
  }

  /**
   * Why an account token that resolve refused is refused, when it is because its account was
   * closed (by the player or the operators): ACCOUNT_CLOSED saying when, by whom and why, so the
   * holder's page says that rather than "logged out". Null for anything else (a forged token, a
   * guest's, a session of another player). Tells only the token's holder about their own account.
   */
  async closedFor(token: unknown): Promise<AppError | null> {
    const c = this.tokens.decode(token);
    if (!c || c.kind !== "account") return null;
    const s = await this.db.prisma.session.findUnique({
      where: { id: c.session },
      select: { playerId: true, player: { select: { account: { select: { closedAt: true, closedBy: true, closedReason: true } } } } },
    });
    const a = s?.playerId === c.id ? s.player.account : null;
    return a && a.closedAt !== null ? accountClosed(a) : null;
  }

  /** Like resolve, but BAD_TOKEN instead of null, and GUEST_NAME_TAKEN for a guest who must rename first. */
  async require(token: unknown): Promise<Verified> {
    const v = await this.resolve(token);
    if (!v) throw badToken();
    if (v.nameTaken) throw guestNameTaken(v.player.name);
    return v;
  }

  /** A guest's token (nothing stored). */
  guestToken(player: Player): string {
    return this.tokens.issue({ id: player.id, name: player.name });
  }

  /**
   * The account, other than `exceptPlayerId`'s, that holds this name (case-insensitively) or a
   * name that looks like it in some one case (the same skeleton as written, in small letters or in
   * capitals: name-skeleton.ts nameLooks); null when there is none.
   */
  async nameHolder(name: string, exceptPlayerId?: string): Promise<NameHolder | null> {
    const key = nameKey(name);
    const looks = nameLooks(name);
    const except = exceptPlayerId ? { NOT: { playerId: exceptPlayerId } } : {};
    const found = await this.db.prisma.account.findMany({
      where: { OR: [{ nameKey: key }, { nameSkeleton: looks.written }, { nameSkeletonLower: looks.lower }, { nameSkeletonUpper: looks.upper }], ...except },
      select: { name: true, nameKey: true },
      take: 2,
    });
    const holder = found.find((a) => a.nameKey === key) ?? found[0];
    if (holder) return { name: holder.name, same: holder.nameKey === key };
    // A name given up by a rename is held for its account a while (RENAME_EVERY_DAYS).
    const held = await this.db.prisma.account.findMany({
      where: { OR: [{ formerNameKey: key }, { formerNameSkeleton: looks.written }, { formerNameSkeletonLower: looks.lower }, { formerNameSkeletonUpper: looks.upper }], formerUntil: { gt: new Date(this.now()) }, ...except },
      select: { formerName: true, formerNameKey: true, formerUntil: true },
      take: 2,
    });
    const former = held.find((a) => a.formerNameKey === key) ?? held[0];
    return former ? { name: former.formerName!, same: former.formerNameKey === key, formerUntil: former.formerUntil!.getTime() } : null;
  }

  /** NAME_TAKEN (nameTaken) if an account other than `exceptPlayerId`'s holds or looks like this name. */
  async checkNameFree(name: string, exceptPlayerId?: string, hint?: string): Promise<void> {
    const holder = await this.nameHolder(name, exceptPlayerId);
    if (holder) throw nameTaken(name, holder, hint);
  }

  /**
   * NAME_TAKEN for a name a unique index refused: another account got it, or a look-alike of it,
   * between the check and the write.
   */
  private async lostRace(name: string, playerId: string): Promise<AppError> {
    return nameTaken(name, (await this.nameHolder(name, playerId)) ?? { name, same: true });
  }

  /**
   * Fills in the skeletons of accounts that lack some: those made before skeletons were stored
   * (migrations 20261127000000_name_skeleton, and 20261216000000_name_case_skeletons for the small
   * letters' and capitals' ones, also of names held after a rename), or all of them after the table
   * changed and the columns were cleared. Run at start-up; any number of nodes may run it at once.
   * An account whose skeleton another already holds keeps none of that kind: both keep their names,
   * and a new look-alike of either is still refused by the other's name key or skeletons. Returns
   * how many accounts were filled in and which names were left without one (the operator is told).
   */
  async backfillSkeletons(batch = 500): Promise<{ filled: number; clashes: string[] }> {
    let filled = 0;
    const clashes: string[] = [];
    let after = "";
    for (;;) {
      const rows = await this.db.prisma.account.findMany({
        where: { OR: [{ nameSkeleton: null }, { nameSkeletonLower: null }, { nameSkeletonUpper: null }], playerId: { gt: after } },
        select: { playerId: true, name: true, nameSkeleton: true, nameSkeletonLower: true, nameSkeletonUpper: true },
        orderBy: { playerId: "asc" },
        take: batch,
      });
      if (rows.length === 0) break;
      for (const a of rows) {
        const looks = nameLooks(a.name);
        let wrote = 0;
        let clash = false;
        const fill = async (where: Prisma.AccountWhereInput, data: Prisma.AccountUpdateManyMutationInput) => {
          try {
            wrote += (await this.db.prisma.account.updateMany({ where: { playerId: a.playerId, ...where }, data })).count;
          } catch (e) {
            if (!isUniqueViolation(e)) throw e;
            clash = true;
          }
        };
        if (a.nameSkeleton === null) await fill({ nameSkeleton: null }, { nameSkeleton: looks.written });
        if (a.nameSkeletonLower === null) await fill({ nameSkeletonLower: null }, { nameSkeletonLower: looks.lower });
        if (a.nameSkeletonUpper === null) await fill({ nameSkeletonUpper: null }, { nameSkeletonUpper: looks.upper });
        if (clash) clashes.push(a.name);
        else if (wrote > 0) filled++;
      }
      after = rows[rows.length - 1]!.playerId;
    }
    // Names still held after a rename made before 20261216000000_name_case_skeletons (not unique: no clashes).
    const held = await this.db.prisma.account.findMany({
      where: { formerName: { not: null }, OR: [{ formerNameSkeletonLower: null }, { formerNameSkeletonUpper: null }] },
      select: { playerId: true, formerName: true },
    });
    for (const a of held) {
      const looks = nameLooks(a.formerName!);
      await this.db.prisma.account.updateMany({ where: { playerId: a.playerId, formerName: a.formerName }, data: { formerNameSkeletonLower: looks.lower, formerNameSkeletonUpper: looks.upper } });
    }
    return { filled, clashes };
  }

  private async newSession(tx: Prisma.TransactionClient, playerId: string, userAgent: string | undefined): Promise<string> {
    const id = "s_" + randomBytes(16).toString("base64url");
    const at = new Date(this.now());
    await tx.session.create({ data: { id, playerId, createdAt: at, lastSeenAt: at, userAgent: userAgent ? userAgent.slice(0, 200) : null } });
    return id;
  }

  /** Checks a registration before anything is stored (so callers may check the tables first). */
  async checkRegistration(input: { name?: unknown; password?: unknown; token?: unknown }): Promise<{ name: string; password: string; guest: Player | null }> {
    const name = validateName(input.name);
    const password = checkPassword(input.password, { name });
    let guest: Player | null = null;
    if (input.token !== undefined && input.token !== null && input.token !== "") {
      const c = this.tokens.decode(input.token);
      if (!c) throw badToken();
      if (c.kind !== "guest") throw err("ALREADY_REGISTERED", "You are logged in to an account already; log out to register another.");
      const v = await this.resolve(input.token);
      if (!v) throw badToken();
      guest = v.player;
    }
    await this.checkNameFree(name, guest?.id);
    return { name, password, guest };
  }

  /**
   * A new account, logged in. With a guest's token (`guest`), the guest becomes the account: same
   * player id, so the games and ratings recorded under it stay theirs.
   */
  async register(
    checked: { name: string; password: string; guest: Player | null },
    client: { address: string; userAgent?: string },
  ): Promise<{ token: string; player: Player; session: string; recoveryCode: string }> {
    const limits: Limit[] = [{ key: `register:addr:${address(client.address)}`, ...ACCOUNT_LIMITS.registrationsPerAddress }];
    await this.enforce(limits, "registrations from your address");
    await record(this.limiter, limits);
    const { name, password, guest } = checked;
    const hash = await hashPassword(password);
    const recovery = newRecoveryCode();
    const playerId = guest?.id ?? "p_" + randomBytes(12).toString("base64url");
    const at = new Date(this.now());
    try {
      const session = await this.db.prisma.$transaction(async (tx) => {
        await tx.player.upsert({ where: { id: playerId }, create: { id: playerId, name, lastSeenAt: at }, update: { name, lastSeenAt: at } });
        await tx.account.create({ data: { playerId, name, nameKey: nameKey(name), ...skeletonColumns(nameLooks(name)), passwordHash: hash, recoveryHash: recovery.hash, createdAt: at } });
        return this.newSession(tx, playerId, client.userAgent);
      });
      // The guest's tokens stop working (verify refuses a registered player's guest token): their sockets go too.
      if (guest) this.revoked(playerId, "all");
      this.nameTaken(name);
      return { token: this.tokens.issueSession(playerId, session), player: { id: playerId, name, account: true }, session, recoveryCode: recovery.code };
    } catch (e) {
      if (isUniqueViolation(e)) {
        if (violated(e) === "name") throw await this.lostRace(name, playerId);
        throw err("ALREADY_REGISTERED", "This guest has become an account already; log in to it.");
      }
      throw e;
    }
  }

  /**
   * Logs in to an account: a new session and its token. BAD_LOGIN whether the name or the password
   * is wrong; with two-step login on (two-factor.ts), TOTP_REQUIRED without `code`, BAD_TOTP with a
   * wrong one (counted as a failed login).
   */
  async login(input: { name?: unknown; password?: unknown; code?: unknown }, client: { address: string; userAgent?: string }): Promise<{ token: string; player: Player; session: string }> {
    const raw = typedName(input.name);
    const key = nameKey(raw);
    const [byName, byAddr] = failLimits(key, client);
    await this.enforce([byName, byAddr], "failed logins");
    const password = typeof input.password === "string" && input.password.length <= 1000 ? input.password : "";
    const account = raw === "" ? null : await this.db.prisma.account.findUnique({ where: { nameKey: key } });
    // An unknown name costs the same hashing time as a wrong password.
    const ok = account ? await verifyPassword(password, account.passwordHash) : (await verifyPassword(password, await decoyHash()), false);
    if (!account || !ok) {
      await record(this.limiter, [byName, byAddr]);
      throw BAD_LOGIN();
    }
    if (account.closedAt) throw accountClosed(account);
    if (account.totpSecret) {
      if (input.code === undefined || input.code === null || input.code === "") {
        throw err("TOTP_REQUIRED", "Two-step login is on for this account: type the six-digit code your authenticator app shows for Goblin Bazaar.");
      }
      if (!(await takeCode(this.db, this.box, account.playerId, account, input.code, this.now()))) {
        await record(this.limiter, [byName, byAddr]);
        throw badTotp();
      }
    }
    await this.limiter.clear(byName.key, byName.windowMs);
    const rehash = needsRehash(account.passwordHash) ? await hashPassword(password) : null;
    const session = await this.db.prisma.$transaction(async (tx) => {
      if (rehash) await tx.account.update({ where: { playerId: account.playerId }, data: { passwordHash: rehash } });
      return this.newSession(tx, account.playerId, client.userAgent);
    });
    for (const l of this.loginListeners) l(account.playerId, { session, userAgent: client.userAgent ? client.userAgent.slice(0, 200) : null, at: this.now() });
    return { token: this.tokens.issueSession(account.playerId, session), player: { id: account.playerId, name: account.name, account: true }, session };
  }

  /** Ends one session (the token's). */
  async logout(v: Verified): Promise<void> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests have nothing to log out of: a guest identity lives only in this browser.");
    await this.db.prisma.session.updateMany({ where: { id: v.session, revokedAt: null }, data: { revokedAt: new Date(this.now()) } });
    this.revoked(v.player.id, [v.session]);
  }

  /**
   * Ends one live session of the account (another device's, or this one's), by its id as
   * `me` lists it: its token is refused from now on and its sockets are disconnected on every node.
   */
  async endSession(v: Verified, sessionId: unknown): Promise<void> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests have nothing to log out of: a guest identity lives only in this browser.");
    const id = typeof sessionId === "string" ? sessionId : "";
    const r = id === "" ? { count: 0 } : await this.db.prisma.session.updateMany({ where: { id, playerId: v.player.id, revokedAt: null }, data: { revokedAt: new Date(this.now()) } });
    if (r.count === 0) throw err("NO_SUCH_SESSION", "That device is not logged in to your account (it may have logged out already).");
    this.revoked(v.player.id, [id]);
  }

  /** Ends every session of the player, this one included; every socket of theirs is disconnected. */
  async logoutAll(v: Verified): Promise<number> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests have nothing to log out of: a guest identity lives only in this browser.");
    const r = await this.db.prisma.session.updateMany({ where: { playerId: v.player.id, revokedAt: null }, data: { revokedAt: new Date(this.now()) } });
    this.revoked(v.player.id, "all");
    return r.count;
  }

  /**
   * BAD_LOGIN unless `password` is the account's own (asked again before a change that matters);
   * wrong ones count against the same limits as failed logins.
   */
  async checkOwnPassword(v: Verified, password: unknown, client: { address: string }): Promise<void> {
    const account = await this.db.prisma.account.findUnique({ where: { playerId: v.player.id } });
    if (!account) throw badToken();
    const [byName, byAddr] = failLimits(account.nameKey, client);
    await this.enforce([byName, byAddr], "wrong passwords");
    const given = typeof password === "string" && password.length <= 1000 ? password : "";
    if (!(await verifyPassword(given, account.passwordHash))) {
      await record(this.limiter, [byName, byAddr]);
      throw err("BAD_LOGIN", "Your current password is not right; nothing was changed.");
    }
  }

  /**
   * Closes an account (platform/moderation.ts does the rest: seats, queue): from now on its tokens
   * and its password are refused, every session ends and every socket of the player is
   * disconnected on every node. Its name stays taken. False if it was closed already (nothing changes).
   */
  async close(playerId: string, by: ClosedBy, reason: string | null): Promise<boolean> {
    const at = new Date(this.now());
    const closed = await this.db.prisma.$transaction(async (tx) => {
      const r = await tx.account.updateMany({ where: { playerId, closedAt: null }, data: { closedAt: at, closedBy: by, closedReason: reason } });
      if (r.count === 0) return false;
      await tx.session.updateMany({ where: { playerId, revokedAt: null }, data: { revokedAt: at } });
      return true;
    });
    if (closed) this.revoked(playerId, "all");
    return closed;
  }

  /** Opens a closed account again (the operators): its password works again; its old sessions stay ended. False if it was open. */
  async reopen(playerId: string): Promise<boolean> {
    const r = await this.db.prisma.account.updateMany({ where: { playerId, NOT: { closedAt: null } }, data: { closedAt: null, closedBy: null, closedReason: null } });
    return r.count > 0;
  }

  /** A new recovery code for the account (its password again); the old code stops working. Shown once. */
  async newRecoveryCode(v: Verified, password: unknown, client: { address: string }): Promise<{ recoveryCode: string }> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests have no password to recover: register to make an account.");
    await this.checkOwnPassword(v, password, client);
    const recovery = newRecoveryCode();
    await this.db.prisma.account.update({ where: { playerId: v.player.id }, data: { recoveryHash: recovery.hash } });
    return { recoveryCode: recovery.code };
  }

  /**
   * A forgotten password: the account's name, its recovery code and a new password. Sets the
   * password, ends every session (their sockets are disconnected), logs in here, and replaces the
   * code (the one used is spent): the new one is returned, to be shown once; two-step login, if on,
   * is turned off (the player's phone may be what was lost). BAD_RECOVERY whether
   * the name or the code is wrong; failures count against the failed-login limits.
   */
  async recover(input: { name?: unknown; code?: unknown; password?: unknown }, client: { address: string; userAgent?: string }): Promise<{ token: string; player: Player; session: string; recoveryCode: string; revoked: number }> {
    const raw = typedName(input.name);
    const key = nameKey(raw);
    const [byName, byAddr] = failLimits(key, client);
    await this.enforce([byName, byAddr], "failed logins");
    const password = checkPassword(input.password, { name: raw });
    const account = raw === "" ? null : await this.db.prisma.account.findUnique({ where: { nameKey: key } });
    if (!account || !codeMatches(input.code, account.recoveryHash)) {
      await record(this.limiter, [byName, byAddr]);
      throw err("BAD_RECOVERY", "That name and recovery code do not match an account. A code works once: after a recovery, use the new one you were shown.");
    }
    if (account.closedAt) throw accountClosed(account);
    await this.limiter.clear(byName.key, byName.windowMs);
    const hash = await hashPassword(password);
    const recovery = newRecoveryCode();
    const at = new Date(this.now());
    const { session, revoked } = await this.db.prisma.$transaction(async (tx) => {
      // Spent at once: a second recovery with the same code finds the hash changed.
      // Two-step login goes off too: the code is how a player whose phone is lost gets back in.
      const spent = await tx.account.updateMany({
        where: { playerId: account.playerId, recoveryHash: account.recoveryHash },
        data: { passwordHash: hash, recoveryHash: recovery.hash, totpSecret: null, totpPending: null, totpLastStep: null },
      });
      if (spent.count === 0) throw err("BAD_RECOVERY", "That recovery code was just used. Use the new one you were shown.");
      const ended = await tx.session.updateMany({ where: { playerId: account.playerId, revokedAt: null }, data: { revokedAt: at } });
      return { session: await this.newSession(tx, account.playerId, client.userAgent), revoked: ended.count };
    });
    this.revoked(account.playerId, "all");
    return { token: this.tokens.issueSession(account.playerId, session), player: { id: account.playerId, name: account.name, account: true }, session, recoveryCode: recovery.code, revoked };
  }

  /** A new password; every other session is logged out (this one stays). */
  async changePassword(v: Verified, input: { old: unknown; new: unknown }, client: { address: string }): Promise<{ revoked: number }> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests have no password: register to make an account.");
    const next = checkPassword(input.new, { name: v.player.name });
    await this.checkOwnPassword(v, input.old, client);
    const hash = await hashPassword(next);
    const at = new Date(this.now());
    const others = await this.db.prisma.$transaction(async (tx) => {
      await tx.account.update({ where: { playerId: v.player.id }, data: { passwordHash: hash } });
      const open = await tx.session.findMany({ where: { playerId: v.player.id, revokedAt: null, NOT: { id: v.session! } }, select: { id: true } });
      await tx.session.updateMany({ where: { id: { in: open.map((s) => s.id) } }, data: { revokedAt: at } });
      return open.map((s) => s.id);
    });
    this.revoked(v.player.id, others);
    return { revoked: others.length };
  }

  /** The account's name and its live sessions (newest first). */
  /**
   * The account's name and its live sessions (newest first), and from the same row its switches:
   * invitations (invitations.ts) and a silence running now (Moderation.silence).
   */
  async me(v: Verified): Promise<{ player: Player; createdAt: number | null; sessions: SessionInfo[]; recoveryCode: boolean; twoFactor: boolean; invitations: boolean; showOnline: boolean; silenced: Silence | null }> {
    if (!v.session) return { player: v.player, createdAt: null, sessions: [], recoveryCode: false, twoFactor: false, invitations: false, showOnline: false, silenced: null };
    const account = await this.db.prisma.account.findUnique({ where: { playerId: v.player.id } });
    const sessions = await this.db.prisma.session.findMany({ where: { playerId: v.player.id, revokedAt: null }, orderBy: { createdAt: "desc" }, take: 50 });
    return {
      player: v.player,
      createdAt: account?.createdAt.getTime() ?? null,
      sessions: sessions.map((s) => ({ id: s.id, createdAt: s.createdAt.getTime(), lastSeenAt: s.lastSeenAt.getTime(), userAgent: s.userAgent, current: s.id === v.session })),
      recoveryCode: account?.recoveryHash != null,
      twoFactor: account?.totpSecret != null,
      invitations: account?.invitations ?? false,
      showOnline: account?.showOnline ?? false,
      silenced: account ? silenceRunning(account, this.now()) : null,
    };
  }

  /**
   * RENAME_TOO_SOON when `name` changes more than the letter case of the account's name and its
   * last such rename was less than RENAME_EVERY_DAYS ago (a rated name is what strangers know a
   * player by: renaming at will would shed a reputation, and lose followers and opponents).
   */
  async checkRenameAllowed(v: Verified, name: string): Promise<void> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests rename with POST /api/guest.");
    const a = await this.db.prisma.account.findUnique({ where: { playerId: v.player.id }, select: { nameKey: true, renamedAt: true } });
    if (!a || a.nameKey === nameKey(name) || !a.renamedAt) return;
    const next = a.renamedAt.getTime() + RENAME_EVERY_DAYS * DAY_MS;
    if (next <= this.now()) return;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    throw err("RENAME_TOO_SOON", `You renamed this account on ${day(a.renamedAt.getTime())}; its next new name can come from ${day(next)} (${RENAME_EVERY_DAYS} days on). Changing only capital letters is allowed at any time.`);
  }

  /** An account's new display name (unique among accounts, case-insensitively and by look). */
  async rename(v: Verified, name: string): Promise<Player> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Guests rename with POST /api/guest.");
    const at = new Date(this.now());
    try {
      await this.db.prisma.$transaction(async (tx) => {
        const before = await tx.account.findUnique({ where: { playerId: v.player.id }, select: { name: true, nameKey: true } });
        const caseOnly = before?.nameKey === nameKey(name);
        // A new name: the old one is held for the account until it may rename again.
        const former = caseOnly || !before
          ? {}
          : { renamedAt: at, formerName: before.name, formerNameKey: before.nameKey, ...formerSkeletonColumns(nameLooks(before.name)), formerUntil: new Date(at.getTime() + RENAME_EVERY_DAYS * DAY_MS) };
        await tx.account.update({ where: { playerId: v.player.id }, data: { name, nameKey: nameKey(name), ...skeletonColumns(nameLooks(name)), ...former } });
        await tx.player.update({ where: { id: v.player.id }, data: { name, lastSeenAt: at } });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw await this.lostRace(name, v.player.id);
      throw e;
    }
    this.nameTaken(name);
    for (const l of this.renameListeners) l(v.player.id, name);
    return { id: v.player.id, name, account: true };
  }
}
