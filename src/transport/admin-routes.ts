/**
 * The operators' routes (docs/operations.md, "Moderation"): reports, closing and reopening
 * accounts, and reading and removing table chat. They exist only when ADMIN_TOKEN is set, and each needs `Authorization: Bearer
 * <ADMIN_TOKEN>` (compared as digests in constant time); `npm run admin` is a command line for
 * them. The rules live in platform/moderation.ts.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { err } from "../platform/errors.js";
import { OPERATOR_NOTE_MAX, REPORT_REASONS, SILENCE_MAX_MINUTES, type Moderation } from "../platform/moderation.js";
import { arrayOf, bodyOf, bool, errors, int, limitQuery, nullable, num, obj, okReply, roomIdParam, routeDoc, str } from "./openapi.js";
import { refusing } from "./validation.js";
import type { PersonalDataService } from "../platform/personal-data.js";

/** The room id rule of the path (openapi.ts roomIdParam). */
const ROOM_ID = (roomIdParam as { properties: { id: Record<string, unknown> } }).properties.id;

const digest = (s: string) => createHash("sha256").update(s).digest();

const who = obj({ id: str("Player id."), name: str() });
const report = obj({
  id: str(),
  reason: { type: "string", enum: [...REPORT_REASONS] },
  text: str("The reporter's words."),
  roomId: nullable(str("The room it happened in, if named.")),
  createdAt: num("epoch ms"),
  resolvedAt: nullable(num("epoch ms")),
  resolution: nullable(str("The operators' note.")),
  reporter: who,
  target: obj({ id: str("Player id."), name: str(), closed: bool("The reported account is closed now.") }),
});
const closingFields = {
  name: str("The account's name."),
  closed: bool("False: it was closed already, and nothing changed."),
  resigned: arrayOf(str(), "Rooms whose game was resigned."),
  left: arrayOf(str(), "Open rooms left."),
  leftQueue: bool("It was in the quick play queue, or had a table found."),
};
const refundFields = {
  days: int("How many days back its games were looked at."),
  gamesLookedAt: int("Its ranked games looked at."),
  refunds: arrayOf(obj({ playerId: str(), name: str(), gameType: str(), points: int("Display points given back (0: the player has climbed since)."), games: int("Games it covers.") }), "Given now, by player then game."),
};
const closingWithRefund = okReply(
  { ...closingFields, refund: obj(refundFields, { description: "With refund: true only: the rating given back (as refund-ratings)." }) },
  { optional: ["refund"] },
);
const nameParams = obj({ name: refusing(str("The account's name, any case."), "NO_SUCH_ACCOUNT", "Name an account.") });
const noteField = (what: string) => refusing(str(`1 to ${OPERATOR_NOTE_MAX} characters.`), "BAD_REASON", `${what} must be 1 to ${OPERATOR_NOTE_MAX} characters.`);

export function registerAdminRoutes(app: FastifyInstance, deps: { moderation: Moderation; personalData: PersonalDataService; token: string }): void {
  const { moderation } = deps;
  const expected = digest(deps.token);

  async function operator(req: FastifyRequest): Promise<void> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (!m || !timingSafeEqual(digest(m[1]!), expected)) throw err("ADMIN_REQUIRED", "The operators' routes need the header Authorization: Bearer <ADMIN_TOKEN>.");
  }
  const guarded = { preValidation: operator };
  const doc = { tags: ["admin" as const], admin: true };

  app.get<{ Querystring: { all?: boolean; limit: number; before?: string } }>("/api/admin/reports", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Reports (operators)",
      description: "Newest first: open ones, or every one with all=true; `before` (a report id) pages on.",
      querystring: obj({ all: bool("Resolved ones too."), limit: limitQuery(200, 50), before: str("A report id: the ones after it.") }, { optional: ["all", "limit", "before"] }),
      response: { 200: okReply({ reports: arrayOf(report), more: bool("More after the last.") }), ...errors(400, 401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.reports({ all: req.query.all === true, limit: req.query.limit, ...(req.query.before ? { before: req.query.before } : {}) })) }));

  app.post<{ Params: { id: string }; Body: { note: string } }>("/api/admin/reports/:id/resolve", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Resolve a report (operators)",
      description: "Marks a report dealt with, with a note (kept with it; the reporter is not told).",
      params: obj({ id: str("The report's id.") }),
      body: bodyOf({ note: noteField("The note") }),
      response: { 200: okReply({ report }), ...errors(400, 401, 404, 409) },
    }),
  }, async (req) => ({ ok: true, report: await moderation.resolveReport(req.params.id, req.body.note) }));

  app.get<{ Params: { name: string } }>("/api/admin/accounts/:name", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "An account (operators)",
      description: "Whether and why it is closed, its live sessions, the reports against it (newest 50) and how many it made.",
      params: nameParams,
      response: {
        200: okReply({
          account: obj({
            playerId: str(), name: str(), createdAt: num("epoch ms"), closedAt: nullable(num("epoch ms")),
            closedBy: { type: ["string", "null"], enum: ["player", "operators", null] }, closedReason: nullable(str()),
            liveSessions: int(), reportsAgainst: arrayOf(report), reportsMade: int(),
            leaves: arrayOf(obj({
              roomId: str(), gameType: str(), kind: { type: "string", enum: ["timeout", "no-show"] }, at: num("epoch ms"), forgiven: bool(),
            }), "Ranked games it left, newest first (at most 20)."),
            rankedPausedUntil: nullable(num("Until when its ranked play is paused, epoch ms; null: it is not.")),
            reliability: obj({ games: int("Its latest ranked games with people (at most 100)."), left: int("Of those, the games it left.") }, { description: "As its profile says." }),
            refunded: nullable(obj({ players: int(), games: int(), lastAt: num("epoch ms") }, { description: "Rating given back for its games (refund-ratings): players and games settled, and when last; null: never." })),
            silenced: nullable(obj({ until: num("epoch ms"), reason: nullable(str()) }, { description: "Silenced in table chats now (silence): until when and why; null: it is not." })),
            formerly: nullable(obj({ name: str(), until: num("epoch ms") }, { description: "Its name before its last rename, held for it until then; null: none." })),
          }),
        }),
        ...errors(401, 404),
      },
    }),
  }, async (req) => ({ ok: true, account: await moderation.accountInfo(req.params.name) }));

  app.post<{ Params: { name: string } }>("/api/admin/accounts/:name/erase", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Erase an account's data (operators)",
      description:
        "As the player's own erasure (POST /api/me/erase), for a request made to the operators (say by a player who lost their password and recovery code): an open or closed account by name, or any player (a guest too) by id:<player id>. Safe to repeat. It cannot be undone.",
      params: obj({ name: refusing(str("The account's name (any case), or id:<player id>."), "NO_SUCH_ACCOUNT", "Name an account.") }),
      response: {
        200: okReply({
          name: str("The account's name (free from now on)."),
          erased: bool("False: it was erased already."),
          resigned: arrayOf(str(), "Rooms whose game was resigned."),
          left: arrayOf(str(), "Open rooms left."),
          leftQueue: bool("It was in the quick play queue, or had a table found."),
          games: int("Finished games whose seat became anonymous."),
          chats: int("Finished games whose chat held its messages."),
        }),
        ...errors(401, 404),
      },
    }),
  }, async (req) => ({ ok: true, ...(await deps.personalData.eraseByOperators(req.params.name)) }));

  app.post<{ Params: { name: string }; Body: { reason: string; refund?: boolean } }>("/api/admin/accounts/:name/close", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Close an account (operators)",
      description:
        "As the player's own closing (POST /api/account/close), with a reason the player is shown when they try to log in. With refund: true (closing for cheating), then as refund-ratings: the rating its recent ranked games cost others is given back.",
      params: nameParams,
      body: bodyOf({ reason: noteField("The reason"), refund: refusing(bool("Give back the rating its recent ranked games cost others (refund-ratings)."), "BAD_REQUEST", "refund must be true or false.") }, { optional: ["refund"] }),
      response: { 200: closingWithRefund, ...errors(400, 401, 404, 409) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.closeByOperators(req.params.name, req.body.reason, { refund: req.body.refund === true })) }));

  const message = obj({
    n: int("1, 2, ... in the room."), at: num("epoch ms"), from: obj({ id: str(), name: str(), account: bool() }, { optional: ["account"] }),
    channel: { type: "string", enum: ["players", "spectators"] }, text: str("\"\" once removed or erased."), removed: bool("The operators removed it."),
    erased: bool("Its author's data was erased (from is then no one's)."),
  }, { optional: ["removed", "erased"] });

  app.get<{ Params: { id: string } }>("/api/admin/rooms/:id/chat", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "A room's chat (operators)",
      description: "Every message of both channels, numbered, from the live room or else the game's record.",
      params: roomIdParam,
      response: { 200: okReply({ roomId: str(), live: bool("The room is in the room store."), recorded: bool("The game is recorded in Postgres."), messages: arrayOf(message) }), ...errors(400, 401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.roomChat(req.params.id)) }));

  app.post<{ Params: { id: string; n: number } }>("/api/admin/rooms/:id/chat/:n/remove", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Remove a chat message (operators)",
      description: "Its text is gone from the live room (every watcher's page drops it at once: chat:removed) and from the game's record. The original goes to the server's log only.",
      params: obj({ id: ROOM_ID, n: refusing({ type: "integer", minimum: 1, description: "The message's number." }, "NO_SUCH_MESSAGE", "Name a message by its number (1, 2, ...).") }),
      response: { 200: okReply({ message }), ...errors(400, 401, 404) },
    }),
  }, async (req) => ({ ok: true, message: await moderation.removeChat(req.params.id, req.params.n) }));

  app.post<{ Params: { name: string } }>("/api/admin/accounts/:name/forgive-leaves", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Forgive an account's leaves (operators)",
      description: "The ranked games it left no longer count (a fault of ours made it leave, say), so its ranked play is no longer paused for them. Later leaves count as usual.",
      params: nameParams,
      response: { 200: okReply({ name: str(), forgiven: int("How many leaves were forgiven now.") }), ...errors(401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.forgiveLeaves(req.params.name)) }));

  app.post<{ Params: { name: string } }>("/api/admin/accounts/:name/refund-ratings", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Give back rating lost to a closed account (operators)",
      description:
        "For an account the operators closed: every player who lost rating to it in its ranked games of the last 5 days (its newest 40) gets it back, in display points per game type, at most 150. A game is refunded once, so repeating gives nothing twice.",
      params: nameParams,
      response: {
        200: okReply({ name: str(), ...refundFields }),
        ...errors(401, 404, 409),
      },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.refundRatings(req.params.name)) }));

  app.post<{ Params: { name: string }; Body: { minutes: number; reason: string } }>("/api/admin/accounts/:name/silence", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Silence an account in table chats (operators)",
      description: `Its table chat messages are refused (SILENCED, with the time left and the reason) on every node for \`minutes\` from now (1 to ${SILENCE_MAX_MINUTES}, 30 days); it still plays. A new silence replaces the one running; its earlier messages stay unless removed.`,
      params: nameParams,
      body: bodyOf({
        minutes: refusing(int(`1 to ${SILENCE_MAX_MINUTES}.`), "BAD_DURATION", `Silence for a whole number of minutes from 1 to ${SILENCE_MAX_MINUTES} (30 days).`),
        reason: noteField("The reason"),
      }),
      response: { 200: okReply({ name: str(), until: num("epoch ms"), reason: nullable(str()) }), ...errors(400, 401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.silence(req.params.name, req.body.minutes, req.body.reason)) }));

  app.post<{ Params: { name: string } }>("/api/admin/accounts/:name/unsilence", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "End an account's silence (operators)",
      description: "Its table chat messages go through again at once.",
      params: nameParams,
      response: { 200: okReply({ name: str(), lifted: bool("False: it was not silenced.") }), ...errors(401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.unsilence(req.params.name)) }));

  app.post<{ Params: { name: string } }>("/api/admin/accounts/:name/reopen", {
    ...guarded,
    schema: routeDoc({
      ...doc,
      summary: "Reopen an account (operators)",
      description: "Its password works again (its old sessions stay ended); it shows on leaderboards again.",
      params: nameParams,
      response: { 200: okReply({ name: str(), reopened: bool("False: it was open.") }), ...errors(401, 404) },
    }),
  }, async (req) => ({ ok: true, ...(await moderation.reopen(req.params.name)) }));
}
