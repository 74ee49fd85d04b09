/**
 * Identity routes: guests, accounts and login sessions (docs/protocol.md, "Accounts and
 * sessions"). The rules live in platform/accounts.ts; this file reads requests (validated by
 * their schemas first: validation.ts) and applies renames to the tables where the player sits
 * (RoomService.renameEverywhere). Refusals get their HTTP statuses in validation.ts.
 *
 * The client address for rate limits is Fastify's `req.ip`: the socket's peer, or the
 * X-Forwarded-For client when TRUST_PROXY is set (config.ts). POST /api/guest, /api/register,
 * /api/login and /api/recover share the identity budget of http-quotas.ts, and new guests have an
 * hourly one.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { err } from "../platform/errors.js";
import { NAME_RULE, newPlayerId, validateName, type Player } from "../platform/identity.js";
import type { Accounts, Verified } from "../platform/accounts.js";
import type { RoomService } from "../platform/room-service.js";
import { REPORT_REASONS, REPORT_TEXT_MAX, type Moderation } from "../platform/moderation.js";
import { MAX_BLOCKS, type Blocks } from "../platform/blocks.js";
import type { Leaves } from "../platform/leaves.js";
import type { Vacations } from "../platform/vacations.js";
import { arrayOf, bodyOf, bool, errors, int, nullable, num, obj, okReply, player as playerShape, routeDoc, str, type RouteDoc } from "./openapi.js";
import { bearerToken, refusing } from "./validation.js";
import type { HttpQuotas } from "./http-quotas.js";
import type { Database } from "../db/client.js";
import { refundsReceived } from "../db/rating-refunds.js";
import type { PersonalDataService } from "../platform/personal-data.js";
import { TOTP_MISMATCH, type TwoFactor } from "../platform/two-factor.js";
import type { Invitations } from "../platform/invitations.js";
import { MAX_FOLLOWS, type Follows } from "../platform/follows.js";
import { MAX_NOTES, NOTE_MAX, type Notes } from "../platform/notes.js";
import { ENDPOINT_MAX, MAX_PUSH_SUBSCRIPTIONS, type PushNotices } from "../platform/push.js";

/** /api/me lists the rating refunds received this long ago, at most. */
export const REFUNDS_SHOWN_MS = 14 * 24 * 60 * 60_000;

export interface AccountRouteDeps {
  accounts: Accounts;
  twoFactor: TwoFactor;
  invitations: Invitations;
  follows: Follows;
  notes: Notes;
  push: PushNotices;
  personalData: PersonalDataService;
  service: RoomService;
  quotas: HttpQuotas;
  moderation: Moderation;
  blocks: Blocks;
  leaves: Leaves;
  vacations: Vacations;
  db: Database;
  /** The server's clock. */
  now: () => number;
}

// Body fields, each refused with the code its handler gave before the schemas were live.
const nameField = refusing(str("1 to 24 letters, digits, spaces, _ . ' - (else BAD_NAME)."), "BAD_NAME", NAME_RULE);
const newPassword = refusing({ type: "string", minLength: 8, maxLength: 200, description: "8 to 200 characters (else WEAK_PASSWORD)." }, "WEAK_PASSWORD", "Choose a password of 8 to 200 characters.");
const tokenField = (description: string) => refusing(str(description), "BAD_TOKEN", "The token must be the text POST /api/guest gave you.");
const BAD_LOGIN_MESSAGE = "That name and password do not match an account.";
/** The password asked again before a change that matters (closing the account, a new recovery code). */
const ownPassword = refusing(str("The account's password."), "BAD_LOGIN", "Your current password is not right; nothing was changed.");
const RECOVERY_MISMATCH = "That name and recovery code do not match an account.";
const recoveryCodeShape = str("The account's recovery code, shown this once: four groups of five letters and digits.");

type Body = { days: number; name: string; password: string; token?: string; old: string; new: string; reason: string; text: string; room?: string; code: string; session: string; on: boolean; player: string; endpoint: string };
/** An account's vacations from turn-based games (platform/vacations.ts VacationStatus). */
const vacationShape = obj({
  current: nullable(obj({ from: num("Began, epoch ms."), until: num("Ends, epoch ms (as planned; ending it early moves it).") }, { description: "The vacation under way; null: none." })),
  daysLeft: int("Whole days left to take in the 365 days ending now (the one under way counts all its days)."),
  allowanceDays: int("Days an account may take in any 365 (VACATION_DAYS)."),
}, { description: "Your vacations from turn-based games (null for a guest): while on one, your clocks in your turn-based games do not run." });
const totpCodeField = refusing(str("The six-digit code your authenticator app shows now."), "BAD_TOTP", TOTP_MISMATCH);

function client(req: FastifyRequest): { address: string; userAgent?: string } {
  const ua = req.headers["user-agent"];
  return { address: req.ip || "unknown", ...(typeof ua === "string" ? { userAgent: ua } : {}) };
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  const { accounts, service, quotas, moderation, blocks, leaves, vacations, db, personalData, twoFactor, invitations, follows, notes, push } = deps;

  /** The requester, who must be logged in to an account. */
  async function accountOf(req: FastifyRequest): Promise<Verified> {
    const token = bearerToken(req);
    if (token === undefined) throw err("ACCOUNT_REQUIRED", "Log in to your account first.");
    const v = await accounts.require(token);
    if (!v.session) throw err("ACCOUNT_REQUIRED", "That needs an account: register (keeping this guest's games) or log in.");
    return v;
  }

  /** Whoever holds a token (a guest or an account). */
  async function holderOf(req: FastifyRequest): Promise<Verified> {
    const token = bearerToken(req);
    if (token === undefined) throw err("BAD_TOKEN", "Send your token (Authorization: Bearer <token>) to see who you are.");
    return accounts.require(token);
  }

  const asker = new WeakMap<FastifyRequest, Verified>();

  /**
   * A route. `who`: the requester it needs, found before the request is validated (preValidation),
   * so that a request without the right token is refused for that, whatever its body. `identity`:
   * it takes the identity budget of the quotas, not the general one.
   */
  function route(
    path: string,
    method: "GET" | "POST",
    doc: RouteDoc,
    handler: (req: FastifyRequest<{ Body: Body }>, who: Verified) => Promise<Record<string, unknown>>,
    opts: { who?: (req: FastifyRequest) => Promise<Verified>; identity?: boolean } = {},
  ): void {
    const { who } = opts;
    app.route<{ Body: Body }>({
      method,
      url: path,
      schema: routeDoc(doc),
      ...(opts.identity ? { config: quotas.identityRoute } : {}),
      ...(who ? { preValidation: async (req: FastifyRequest) => void asker.set(req, await who(req)) } : {}),
      handler: async (req) => ({ ok: true, ...(await handler(req, asker.get(req)!)) }),
    });
  }

  /** Shows a new name at the player's tables; refuses (before anything is stored) a name someone there has. */
  async function tablesFor(player: Player, name: string) {
    if (player.name === name) return null;
    const rooms = await service.roomsOf(player.id);
    service.checkNameFree(rooms, player.id, name);
    return rooms;
  }
  async function showAtTables(playerId: string, name: string, rooms: Awaited<ReturnType<typeof tablesFor>>) {
    if (rooms === null) return;
    const r = await service.renameEverywhere(playerId, name, rooms);
    if (r.refused.length > 0) app.log.info({ player: playerId, rooms: r.refused }, "a rename met a name taken meanwhile at a table; the old name stays there");
  }

  /**
   * A guest identity: a name in, a signed token out. With the guest's own token, renames the same
   * player (at every table they sit at, too). A name an account holds, or one that looks like it, is refused (NAME_TAKEN).
   */
  route("/api/guest", "POST", {
    summary: "Get a guest identity, or rename your guest",
    description: "A name in, a signed token out. With the guest's own token, renames the same player (at every table they sit at, too). A name an account holds, or one that looks like it, is NAME_TAKEN; an account's token is NOT_A_GUEST.",
    tags: ["accounts"],
    body: bodyOf({ name: nameField, token: tokenField("Your guest token, to rename that guest.") }, { optional: ["token"] }),
    response: { 200: okReply({ token: str(), player: playerShape }), ...errors(400, 401, 409, 413, 429) },
  }, async (req) => {
    const body = req.body;
    const name = validateName(body.name);
    const c = body.token !== undefined ? await accounts.resolve(body.token) : null;
    if (c?.session) throw err("NOT_A_GUEST", "You are logged in to an account: rename it from your account menu (POST /api/rename).");
    const existing = c?.player ?? null;
    await accounts.checkNameFree(name, undefined, "choose another, or log in if it is yours.");
    // A new identity (not a rename) counts against its address's hourly allowance.
    const address = client(req).address;
    if (!existing) await quotas.checkNewGuest(address);
    const player: Player = { id: existing?.id ?? newPlayerId(), name };
    const rooms = existing ? await tablesFor(existing, name) : null;
    const token = accounts.guestToken(player);
    await showAtTables(player.id, name, rooms);
    if (!existing) await quotas.countNewGuest(address);
    return { token, player };
  }, { identity: true });

  route("/api/register", "POST", {
    summary: "Register an account",
    description: "A new account, logged in, and its recovery code (shown once: it recovers a forgotten password, POST /api/recover). With a guest's token, the guest becomes the account (same id) and their guest tokens stop working. Names are unique case-insensitively.",
    tags: ["accounts"],
    body: bodyOf({ name: nameField, password: newPassword, token: tokenField("A guest's token, to keep that guest's games.") }, { optional: ["token"] }),
    response: { 200: okReply({ token: str(), player: playerShape, recoveryCode: recoveryCodeShape }), ...errors(400, 401, 409, 413, 429) },
  }, async (req) => {
    const checked = await accounts.checkRegistration(req.body);
    const rooms = checked.guest ? await tablesFor(checked.guest, checked.name) : null;
    const r = await accounts.register(checked, client(req));
    if (checked.guest) await showAtTables(r.player.id, r.player.name, rooms);
    return { token: r.token, player: r.player, recoveryCode: r.recoveryCode };
  }, { identity: true });

  route("/api/recover", "POST", {
    summary: "Recover a forgotten password",
    description: "The account's name, its recovery code and a new password: the password is set, every session ends (their sockets are disconnected), this request is logged in, and a new recovery code replaces the one used (shown once). A wrong name or code is BAD_RECOVERY and counts as a failed login.",
    tags: ["accounts"],
    body: bodyOf({
      name: refusing(str("The account's name, any case."), "BAD_RECOVERY", RECOVERY_MISMATCH),
      code: refusing(str("The recovery code, as shown (any case; spaces and dashes ignored)."), "BAD_RECOVERY", RECOVERY_MISMATCH),
      password: newPassword,
    }),
    response: { 200: okReply({ token: str(), player: playerShape, recoveryCode: recoveryCodeShape, revoked: int("Sessions ended.") }), ...errors(400, 401, 403, 413, 429) },
  }, async (req) => {
    const r = await accounts.recover(req.body, client(req));
    return { token: r.token, player: r.player, recoveryCode: r.recoveryCode, revoked: r.revoked };
  }, { identity: true });

  route("/api/recovery-code", "POST", {
    summary: "Make a new recovery code",
    description: "Asks for the password; the old code stops working. The new code is shown once. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ password: ownPassword }),
    response: { 200: okReply({ recoveryCode: recoveryCodeShape }), ...errors(400, 401, 403, 413, 429) },
  }, async (req, v) => accounts.newRecoveryCode(v, req.body.password, client(req)), { who: accountOf });

  route("/api/login", "POST", {
    summary: "Log in",
    description: "A new session. The name is matched case-insensitively. A wrong name or password is BAD_LOGIN. With two-step login on, `code` too: TOTP_REQUIRED without it, BAD_TOTP when wrong.",
    tags: ["accounts"],
    // Not a string is a wrong name or password (BAD_LOGIN), as the handler answered before.
    body: bodyOf({
      name: refusing(str("An account's name, any case."), "BAD_LOGIN", BAD_LOGIN_MESSAGE),
      password: refusing(str(), "BAD_LOGIN", BAD_LOGIN_MESSAGE),
      code: refusing(str("With two-step login on: the six-digit code of the authenticator app."), "BAD_TOTP", TOTP_MISMATCH),
    }, { optional: ["code"] }),
    response: { 200: okReply({ token: str(), player: playerShape }), ...errors(400, 401, 413, 429) },
  }, async (req) => {
    const r = await accounts.login(req.body, client(req));
    return { token: r.token, player: r.player };
  }, { identity: true });

  route("/api/logout", "POST", {
    summary: "Log out this session",
    description: "This session ends: its token is refused from now on and its sockets are disconnected. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({}), ...errors(401, 403) },
  }, async (_req, v) => {
    await accounts.logout(v);
    return {};
  }, { who: accountOf });

  route("/api/logout-all", "POST", {
    summary: "Log out every session",
    description: "Every session of the account ends, this one too; every socket of the player is disconnected. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ revoked: int("Sessions ended.") }), ...errors(401, 403) },
  }, async (_req, v) => ({ revoked: await accounts.logoutAll(v) }), { who: accountOf });

  route("/api/sessions/end", "POST", {
    summary: "Log out one device",
    description: "Ends one live session of your account, by its id as GET /api/me lists it (another device's, or this one's): its token is refused from then on and its sockets are disconnected on every node. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ session: refusing(str("The session's id (GET /api/me, sessions[].id)."), "NO_SUCH_SESSION", "Name one of your sessions by its id.") }),
    response: { 200: okReply({}), ...errors(401, 403, 404, 413) },
  }, async (req, v) => {
    await accounts.endSession(v, req.body.session);
    return {};
  }, { who: accountOf });

  route("/api/two-factor/setup", "POST", {
    summary: "Set up two-step login",
    description: "The password again gives a new secret for an authenticator app (base32 `secret`, and `uri`, an otpauth:// URI to show as a QR code). Two-step login is not on until POST /api/two-factor/enable takes a code made from it. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ password: ownPassword }),
    response: { 200: okReply({ secret: str("Base32, 32 letters."), uri: str("otpauth://totp/...") }), ...errors(400, 401, 403, 409, 413, 429) },
  }, async (req, v) => twoFactor.setup(v, req.body.password, client(req)), { who: accountOf });

  route("/api/two-factor/enable", "POST", {
    summary: "Turn two-step login on",
    description: "A code made from the secret of the last set-up: from now on logging in takes a code too. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ code: totpCodeField }),
    response: { 200: okReply({}), ...errors(400, 401, 403, 409, 413) },
  }, async (req, v) => {
    await twoFactor.enable(v, req.body.code);
    return {};
  }, { who: accountOf });

  route("/api/two-factor/disable", "POST", {
    summary: "Turn two-step login off",
    description: "The password and a code. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ password: ownPassword, code: totpCodeField }),
    response: { 200: okReply({}), ...errors(400, 401, 403, 409, 413, 429) },
  }, async (req, v) => {
    await twoFactor.disable(v, req.body.password, req.body.code, client(req));
    return {};
  }, { who: accountOf });

  route("/api/password", "POST", {
    summary: "Change your password",
    description: "Every other session ends; this one stays. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ old: refusing(str("The current password."), "BAD_LOGIN", "Your current password is not right; nothing was changed."), new: newPassword }),
    response: { 200: okReply({ revoked: int("Other sessions ended.") }), ...errors(400, 401, 403, 413, 429) },
  }, async (req, v) => accounts.changePassword(v, { old: req.body.old, new: req.body.new }, client(req)), { who: accountOf });

  route("/api/me", "GET", {
    summary: "Who you are, and your sessions",
    description: "A guest's token gives account false and no sessions.",
    tags: ["accounts"],
    bearer: true,
    response: {
      200: okReply({
        player: playerShape,
        createdAt: nullable(num("When the account was made, epoch ms; null for a guest.")),
        sessions: arrayOf(obj({ id: str(), createdAt: num("epoch ms"), lastSeenAt: num("epoch ms"), userAgent: nullable(str()), current: bool("This request's session.") })),
        recoveryCode: bool("The account has a recovery code (false for a guest, and for an account made before codes that has not made one)."),
        twoFactor: bool("Two-step login is on (false for a guest)."),
        invitations: bool("Other players may invite you to their tables (room:invite); false for a guest, who cannot be invited by name."),
        showOnline: bool("The players who follow you see when you are online and in which game (false for a guest, whom nobody can follow)."),
        silenced: nullable(obj({ until: num("epoch ms"), reason: nullable(str("The operators' reason.")) }, { description: "The operators silenced you in table chats: until when, and why; null: they did not (or it is over)." })),
        leaves: nullable(obj({
          recent: int("Ranked games left in the last 7 days (ran out of time without coming back, or never made a first move)."),
          pausedUntil: nullable(num("Until when ranked play is paused, epoch ms; null: it is not.")),
        }, { description: "Null for a guest." })),
        vacation: nullable(vacationShape),
        refunds: arrayOf(obj({
          game: str("The game's id."),
          points: int("Display points given back."),
          games: int("How many of your games it covers."),
          at: num("When, epoch ms."),
        }), "Rating given back in the last 14 days for ranked games against an account the operators closed for breaking the rules, newest first (empty for a guest)."),
      }),
      ...errors(401),
    },
  }, async (_req, v) => {
    const [me, left, vacation, refunds] = await Promise.all([
      accounts.me(v),
      v.session ? leaves.status(v.player.id) : null,
      v.session ? vacations.status(v.player.id) : null,
      v.session ? refundsReceived(db, v.player.id, deps.now() - REFUNDS_SHOWN_MS) : [],
    ]);
    return { player: { ...me.player, account: v.session !== null }, createdAt: me.createdAt, sessions: me.sessions, recoveryCode: me.recoveryCode, twoFactor: me.twoFactor, invitations: me.invitations, showOnline: me.showOnline, silenced: me.silenced, leaves: left, vacation, refunds };
  }, { who: holderOf });

  route("/api/me/invitations", "POST", {
    summary: "Let players invite you, or not",
    description: "Turns invitations to other players' tables (room:invite) on or off. Off, an invitation is refused with INVITE_REFUSED, in the words a block gets. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ on: refusing(bool("true: others may invite you (the default); false: no one may."), "BAD_REQUEST", "Say on: true or on: false.") }),
    response: { 200: okReply({ invitations: bool("As it is now.") }), ...errors(400, 401, 403, 413) },
  }, async (req, v) => ({ invitations: await invitations.set(v.player.id, req.body.on) }), { who: accountOf });

  route("/api/vacation", "POST", {
    summary: "Go on vacation from your turn-based games",
    description:
      "Starts a vacation of `days` whole days now: until it ends, your clock does not run in any of your turn-based games in play (a turn under way stops and goes on afterwards with the time it had; a turn that comes to you meanwhile starts when it ends), and everyone at those tables sees it. You may still move meanwhile, at no cost in time. You may not create or join a turn-based room while on vacation (ON_VACATION). An account has VACATION_DAYS days (30 unless the operators set otherwise) in any 365; ending one early gives back the whole days not begun. Games of one sitting are not affected. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ days: refusing(int("Whole days, from 1 to the allowance (else BAD_DAYS)."), "BAD_DAYS", "Take a vacation of a whole number of days.") }),
    response: { 200: okReply({ vacation: vacationShape, rooms: arrayOf(str(), "Your turn-based games in play whose clock it stopped now.") }), ...errors(400, 401, 403, 409, 413) },
  }, async (req, v) => {
    const vacation = await vacations.start(v.player.id, req.body.days);
    return { vacation, rooms: await service.applyVacation(v.player.id) };
  }, { who: accountOf });

  route("/api/vacation/end", "POST", {
    summary: "End your vacation early",
    description: "Your clocks in your turn-based games run again from now (NOT_ON_VACATION when you are not on one). The whole days begun are counted; the rest go back to your allowance. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ vacation: vacationShape, rooms: arrayOf(str(), "Your turn-based games in play whose clock runs again now.") }), ...errors(401, 403, 409) },
  }, async (_req, v) => {
    const vacation = await vacations.end(v.player.id);
    return { vacation, rooms: await service.applyVacation(v.player.id) };
  }, { who: accountOf });

  route("/api/me/online", "POST", {
    summary: "Show the players who follow you when you are online, or not",
    description: "Off, everyone who follows you sees you offline and in no game (GET /api/follows), as when a block stands between you. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ on: refusing(bool("true: followers see you online (the default); false: nobody does."), "BAD_REQUEST", "Say on: true or on: false.") }),
    response: { 200: okReply({ showOnline: bool("As it is now.") }), ...errors(400, 401, 403, 413) },
  }, async (req, v) => ({ showOnline: await follows.setShowOnline(v.player.id, req.body.on) }), { who: accountOf });

  route("/api/account/close", "POST", {
    summary: "Close your account",
    description: "Asks for the password again. The account's tokens and password are refused from then on, every socket of the player is disconnected, every game in play is resigned (a bot finishes the seat), every open room left and the quick play queue left. The name stays reserved; games and ratings stay, but leaderboards leave the account out. Only the operators can open it again.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ password: ownPassword }),
    response: { 200: okReply({ resigned: arrayOf(str(), "Rooms whose game was resigned."), left: arrayOf(str(), "Open rooms left.") }), ...errors(400, 401, 403, 413, 429) },
  }, async (req, v) => {
    const r = await moderation.closeOwn(v, req.body.password, client(req));
    return { resigned: r.resigned, left: r.left };
  }, { who: accountOf });

  const iso = (description: string) => str(`${description} (ISO 8601).`);
  const isoOrNull = (description: string) => nullable(iso(description));
  const personalDataShape = obj({
    exportedAt: iso("When this was made"),
    playerId: str("Your player id."),
    player: nullable(obj({ name: str(), createdAt: iso("First stored"), lastSeenAt: iso("Last game recorded") }, { description: "Null: nothing stored yet (a guest with no finished game)." })),
    account: nullable(obj({ name: str(), createdAt: iso("Registered"), updatedAt: iso("Last changed"), closedAt: isoOrNull("Closed"), recoveryCode: bool("It has a recovery code."), twoFactor: bool("Two-step login is on (its secret is not included)."), invitations: bool("Other players may invite you to their tables."), showOnline: bool("The players who follow you see when you are online."), silencedUntil: isoOrNull("The operators silenced you in table chats until then"), silencedReason: nullable(str("Their reason.")), renamedAt: isoOrNull("You last changed its name beyond capital letters"), formerName: nullable(str("The name before that (held for the account 30 days).")) })),
    sessions: arrayOf(obj({ createdAt: iso("Logged in"), lastSeenAt: iso("Last used (to 5 minutes)"), endedAt: isoOrNull("Logged out"), userAgent: nullable(str("The browser it was made from.")) })),
    ratings: arrayOf(obj({ game: str(), rating: int("As shown."), mu: num(), sigma: num("As stored after the last rated game (time away not applied: this is the data as kept)."), games: int(), lastGameAt: isoOrNull("Last rated game") })),
    games: arrayOf(obj({
      id: str("The game's id (its replay is /game/<id>)."), game: str(), ranked: bool(), daily: nullable(str("A daily challenge's day.")),
      startedAt: iso("Started"), finishedAt: iso("Finished"), seat: int("Your seat, from 0."), place: int(), score: num(), forfeit: nullable(str()),
      ratingBefore: nullable(int()), ratingAfter: nullable(int()),
      players: arrayOf(obj({ seat: int(), name: str(), bot: bool() })),
    }), "Every finished game you played, oldest first."),
    chat: arrayOf(obj({ game: str(), n: int(), at: iso("Sent"), channel: str(), text: str("\"\" if the operators removed it."), removed: bool() }), "Your messages in finished games' chats (as a player or a spectator)."),
    dailyAttempts: arrayOf(obj({ game: str(), day: str(), startedAt: iso("Started"), finishedAt: isoOrNull("Finished"), score: nullable(num()) })),
    reportsMade: arrayOf(obj({ reported: str(), reason: str(), text: str(), room: nullable(str()), createdAt: iso("Made"), resolved: bool("The operators dealt with it.") })),
    blocks: arrayOf(obj({ name: str(), since: iso("Blocked") })),
    follows: arrayOf(obj({ name: str(), since: iso("Followed") })),
    notes: arrayOf(obj({ about: str("The player noted."), text: str(), updatedAt: iso("Last written") }), "Your private notes on other players."),
    leaves: arrayOf(obj({ room: str(), game: str(), kind: str(), at: iso("Left"), forgiven: bool() })),
    vacations: arrayOf(obj({ from: iso("Began"), until: iso("Ended, or ends (as planned, or when ended early)") }), "Vacations from turn-based games."),
    refundsReceived: arrayOf(obj({ gameId: str(), game: str(), points: int(), at: iso("Given") })),
    pushSubscriptions: arrayOf(obj({ service: str("The push service's host."), since: iso("Subscribed") }), "Browsers notified while your pages are closed."),
  });

  // Not `route`: the reply is a download, so it names a file.
  app.route({
    method: "GET",
    url: "/api/me/data",
    schema: routeDoc({
      summary: "Download your data",
      description: `Everything stored about you, as JSON (a file download: Content-Disposition: attachment): your player and account, sessions, ratings, every finished game you played with its players, your messages in their chats, daily attempts, reports you made, blocks, leaves and refunds. A guest or an account; ten downloads an hour.`,
      tags: ["accounts"],
      bearer: true,
      response: { 200: okReply({ data: personalDataShape }), ...errors(401, 429) },
    }),
    preValidation: async (req: FastifyRequest) => void asker.set(req, await holderOf(req)),
    handler: async (req, reply) => {
      const v = asker.get(req)!;
      const data = await personalData.download(v);
      const day = data.exportedAt.slice(0, 10);
      void reply.header("content-disposition", `attachment; filename="goblin-bazaar-data-${day}.json"`);
      return { ok: true, data };
    },
  });

  route("/api/me/erase", "POST", {
    summary: "Delete your account and your data",
    description:
      "An account gives its password again; a guest types its name (name). Every game in play is resigned (a bot finishes the seat), every open room and the quick play queue left, and your name at tables still in play becomes \"Deleted player\". Then in one step: your account (its name is free again), sessions, ratings, daily attempts, reports, blocks, leaves and refunds are deleted; your seats in finished games (which are the other players' too) and your messages in their chats become anonymous. Your tokens are refused from then on and your sockets disconnected. It cannot be undone.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({
      password: refusing(str("An account's password."), "BAD_LOGIN", "Your current password is not right; nothing was changed."),
      name: refusing(str("A guest: its name, typed to confirm."), "BAD_CONFIRMATION", "Type your name to confirm; nothing was erased."),
    }, { optional: ["password", "name"] }),
    response: {
      200: okReply({
        resigned: arrayOf(str(), "Rooms whose game was resigned."),
        left: arrayOf(str(), "Open rooms left."),
        games: int("Finished games whose seat became anonymous."),
        chats: int("Finished games whose chat held your messages."),
      }),
      ...errors(400, 401, 413, 429),
    },
  }, async (req, v) => {
    const r = await personalData.eraseOwn(v, { password: req.body.password, name: req.body.name }, client(req));
    return { resigned: r.resigned, left: r.left, games: r.games, chats: r.chats };
  }, { who: holderOf });

  route("/api/reports", "POST", {
    summary: "Report a player to the operators",
    description: `An account's name, a reason and what happened (1 to ${REPORT_TEXT_MAX} characters), optionally the room it happened in. Needs an account. One open report per account you report; ten reports a day. Only the operators see reports.`,
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({
      name: refusing(str("The account reported: its name (any case), or id:<player id> (as a chat message names its author)."), "NO_SUCH_ACCOUNT", "Name the account you report."),
      reason: refusing({ type: "string", enum: [...REPORT_REASONS] }, "BAD_REPORT", `Say why: one of ${REPORT_REASONS.join(", ")}.`),
      text: refusing(str("What happened."), "BAD_REPORT", `What happened must be 1 to ${REPORT_TEXT_MAX} characters.`),
      room: refusing(str("The room (game) it happened in."), "BAD_ROOM_ID", "A room id is the id of a room or finished game."),
    }, { optional: ["room"] }),
    response: { 200: okReply({ id: str("The report's id.") }), ...errors(400, 401, 403, 404, 409, 413, 429) },
  }, async (req, v) => moderation.report(v, req.body), { who: accountOf });

  const blockedShape = obj({ id: str("Player id."), name: str(), since: num("When they were blocked, epoch ms.") });
  const blockName = refusing(str("The account: its name (any case), or id:<player id>."), "NO_SUCH_ACCOUNT", "Name an account.");

  route("/api/blocks", "GET", {
    summary: "The players you block",
    description: "Most recent first. Needs an account.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ blocked: arrayOf(blockedShape) }), ...errors(401, 403) },
  }, async (_req, v) => ({ blocked: await blocks.list(v.player.id) }), { who: accountOf });

  route("/api/block", "POST", {
    summary: "Block a player",
    description: `You and they are never seated together by quick play, neither may join a room where the other sits, and your client hides their chat messages. An account blocks accounts only (at most ${MAX_BLOCKS}); blocking twice changes nothing. They are not told.`,
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ name: blockName }),
    response: { 200: okReply({ blocked: blockedShape }), ...errors(400, 401, 403, 404, 413) },
  }, async (req, v) => ({ blocked: await blocks.block(v, req.body.name) }), { who: accountOf });

  route("/api/unblock", "POST", {
    summary: "Unblock a player",
    description: "unblocked: false if they were not blocked. Needs an account.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ name: blockName }),
    response: { 200: okReply({ id: str(), name: str(), unblocked: bool() }), ...errors(400, 401, 403, 404, 413) },
  }, async (req, v) => blocks.unblock(v, req.body.name), { who: accountOf });

  const followedShape = obj({ id: str("Player id."), name: str(), since: num("Followed since, epoch ms.") });

  route("/api/follows", "GET", {
    summary: "The players you follow",
    description: "Online ones first (a device connected now, on any node), then by name; one you block or who blocks you shows as offline. Needs an account.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ follows: arrayOf(obj({ id: str("Player id."), name: str(), since: num("Followed since, epoch ms."), online: bool(), playing: nullable(obj({ roomId: str(), game: str() }, { description: "Online and seated in a game under way (not a daily deal): watch it at /room/<roomId>; null otherwise." })) })) }), ...errors(401, 403) },
  }, async (_req, v) => ({ follows: await follows.list(v.player.id) }), { who: accountOf });

  route("/api/follow", "POST", {
    summary: "Follow a player",
    description: `See whether they are online and invite them to your table in one click. Accounts only (at most ${MAX_FOLLOWS}); following twice changes nothing. They are not told.`,
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ name: blockName }),
    response: { 200: okReply({ followed: followedShape }), ...errors(400, 401, 403, 404, 413) },
  }, async (req, v) => ({ followed: await follows.follow(v, req.body.name) }), { who: accountOf });

  route("/api/unfollow", "POST", {
    summary: "Stop following a player",
    description: "unfollowed: false if you did not follow them. Needs an account.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ name: blockName }),
    response: { 200: okReply({ id: str(), name: str(), unfollowed: bool() }), ...errors(400, 401, 403, 404, 413) },
  }, async (req, v) => follows.unfollow(v, req.body.name), { who: accountOf });

  const noteShape = obj({ id: str("The player noted (player id)."), name: str(), profile: str("Their profile's path."), text: str(), at: num("Last written, epoch ms.") });

  route("/api/notes", "GET", {
    summary: "Your notes on players",
    description: "Every private note you wrote about another player, newest first. Only you see them. Needs an account.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ notes: arrayOf(noteShape) }), ...errors(401, 403) },
  }, async (_req, v) => ({ notes: await notes.list(v.player.id) }), { who: accountOf });

  route("/api/note", "POST", {
    summary: "Write a note on a player",
    description: `Your private note about another player (a player id: accounts and guests alike), at most ${NOTE_MAX} characters; empty text deletes it (note: null). Only you see it, on their profile; they are not told. At most ${MAX_NOTES} notes. Needs an account.`,
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({
      player: refusing(str("The player's id."), "NO_SUCH_PLAYER", "Name a player by their id."),
      text: refusing({ type: "string", maxLength: NOTE_MAX, description: "The note; empty deletes it." }, "BAD_NOTE", `A note is text of at most ${NOTE_MAX} characters (empty deletes it).`),
    }),
    response: { 200: okReply({ note: nullable(noteShape) }), ...errors(400, 401, 403, 404, 413) },
  }, async (req, v) => ({ note: await notes.write(v, req.body.player, req.body.text) }), { who: accountOf });

  route("/api/push", "GET", {
    summary: "Notifications to closed pages: the server's key",
    description: "The VAPID public key a browser subscribes to this server's Web Push notices with (PushManager.subscribe's applicationServerKey), or null: this server sends none (its operators set no VAPID keys).",
    tags: ["accounts"],
    response: { 200: okReply({ publicKey: nullable(str("base64url")) }) },
  }, async () => ({ publicKey: push.publicKey }));

  const endpointField = refusing({ type: "string", minLength: 1, maxLength: ENDPOINT_MAX, description: "The subscription's endpoint: a URL of a browser's push service." }, "BAD_PUSH_SUBSCRIPTION", "That is not a subscription of a browser's push service.");
  route("/api/push/subscribe", "POST", {
    summary: "Notify this browser while your pages are closed",
    description: `Stores a browser's push subscription (PushSubscription.toJSON(): endpoint and keys) for the account: while none of its pages is open anywhere, a turn of theirs in a turn-based game is sent to it. At most ${MAX_PUSH_SUBSCRIPTIONS} browsers (the oldest is dropped). PUSH_OFF (503) when the server sends none. Needs an account.`,
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({
      endpoint: endpointField,
      keys: refusing({ type: "object", additionalProperties: true, description: "{p256dh, auth}: the browser's P-256 public key and auth secret, base64url." }, "BAD_PUSH_SUBSCRIPTION", "A subscription's keys are p256dh and auth, in base64url."),
      expirationTime: nullable(num("Ignored.")),
    }, { optional: ["expirationTime"] }),
    response: { 200: okReply({ subscriptions: int("How many browsers the account has subscribed now.") }), ...errors(400, 401, 403, 413, 503) },
  }, async (req, v) => push.subscribe(v, req.body), { who: accountOf });

  route("/api/push/unsubscribe", "POST", {
    summary: "Stop notifying this browser",
    description: "Forgets the account's subscription of that endpoint (unsubscribed: false if it had none). Needs an account.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ endpoint: endpointField }),
    response: { 200: okReply({ unsubscribed: bool() }), ...errors(400, 401, 403, 413) },
  }, async (req, v) => ({ unsubscribed: await push.unsubscribe(v, req.body.endpoint) }), { who: accountOf });

  route("/api/rename", "POST", {
    summary: "Rename your account",
    description: "The account's new display name, shown at its tables too. A name that changes more than letter case may come once every 30 days (RENAME_TOO_SOON, saying from when), and the old name is held for the account as long. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: bodyOf({ name: nameField }),
    response: { 200: okReply({ player: playerShape }), ...errors(400, 401, 403, 409, 413) },
  }, async (req, v) => {
    const name = validateName(req.body.name);
    await accounts.checkNameFree(name, v.player.id);
    const rooms = await tablesFor(v.player, name);
    await accounts.checkRenameAllowed(v, name);
    const player = await accounts.rename(v, name);
    await showAtTables(player.id, name, rooms);
    return { player };
  }, { who: accountOf });
}
