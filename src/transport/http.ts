/** Plain HTTP routes: identity, lobby listing, leaderboards, finished games, health. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Database } from "../db/client.js";
import { getFinishedGame } from "../db/finished-games.js";
import { findGame } from "../games/registry.js";
import { AppError, err, toErrorReply } from "../platform/errors.js";
import type { Player, TokenIssuer } from "../platform/identity.js";
import type { RoomService } from "../platform/room-service.js";
import { checkRoomId } from "../platform/room-service.js";
import { gamesList } from "./socket.js";
import { dailyGames, parseDay, type DailyChallenges } from "../platform/daily.js";
import { dailyBest, dailyBoard } from "../db/daily.js";
import { registerProfileRoutes } from "./profile-routes.js";
import { ratingLeaderboard } from "../db/profiles.js";
import { registerReplayRoutes } from "./replay-routes.js";
import { registerAccountRoutes } from "./account-routes.js";
import { BAD_TOKEN_MESSAGE, type Accounts } from "../platform/accounts.js";
import { arrayOf, bool, dailyEntry, errors, gameParam, int, leaderboardRow, nullable, num, obj, okReply, roomIdParam, roomSummary, routeDoc, str } from "./openapi.js";

function limitOf(raw: string | undefined): number {
  const n = raw === undefined ? 100 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw err("BAD_LIMIT", "limit is a whole number from 1 to 1000.");
  return n;
}

export interface HttpDeps {
  service: RoomService;
  tokens: TokenIssuer;
  db: Database;
  daily: DailyChallenges;
  nodeId: string;
  accounts: Accounts;
}

/** HTTP status of each refusal that is not a plain bad request (400). */
const STATUS: Record<string, number> = { NOT_FOUND: 404, NO_SUCH_ROOM: 404, BAD_TOKEN: 401, DAILY_SPOILER: 403 };

export function registerRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { service, db, daily } = deps;

  /**
   * Who is asking: the player of an `Authorization: Bearer <token>` header (the token of
   * POST /api/guest), or null without one. A token we did not sign is BAD_TOKEN, not anonymous.
   */
  async function requester(req: FastifyRequest): Promise<Player | null> {
    const header = req.headers.authorization;
    if (header === undefined || header === "") return null;
    const m = /^Bearer (\S+)$/.exec(header);
    // Accounts.verify: signature, and for an account token a live session (accounts.ts).
    const player = m ? await deps.accounts.verify(m[1]) : null;
    if (!player) throw err("BAD_TOKEN", BAD_TOKEN_MESSAGE);
    return player;
  }

  app.setErrorHandler((e, _req, reply) => {
    if (e instanceof AppError) return reply.status(STATUS[e.code] ?? 400).send(toErrorReply(e));
    const status = (e as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) app.log.error({ err: e }, "request failed");
    return reply.status(status).send({ ok: false, error: { code: status === 413 ? "PAYLOAD_TOO_LARGE" : status < 500 ? "BAD_REQUEST" : "INTERNAL", message: status < 500 ? "That request could not be understood." : "Something went wrong on the server." } });
  });

  app.get("/api/health", {
    schema: routeDoc({
      summary: "Health of this node",
      description: "The node's id and which room store and database it uses.",
      tags: ["server"],
      response: { 200: okReply({ node: str("This node's id."), rooms: { type: "string", enum: ["redis", "memory"] }, db: { type: "string", enum: ["postgres", "pglite"] } }) },
    }),
  }, async () => ({ ok: true, node: deps.nodeId, rooms: service.store.kind, db: db.kind }));

  app.get("/api/games", {
    schema: routeDoc({
      summary: "The games this server offers",
      description: "Each game with its player counts, whether it has a daily challenge, whether its rooms may be ranked, its options and clock presets.",
      tags: ["games"],
      response: {
        200: okReply({
          games: arrayOf(obj({
            id: str(), name: str(), minPlayers: int(), maxPlayers: int(), daily: bool("Has a daily challenge."),
            rankedRooms: bool("Whether room:create may make a room of it ranked."),
            options: arrayOf({ type: "object", additionalProperties: true }, "The room options it takes (room:create)."),
            clocks: arrayOf({ type: "object", additionalProperties: true }, "Its clock presets."),
            defaultCasualClock: str("The preset id a casual room gets by default."),
          }, { open: true })),
        }),
      },
    }),
  }, async () => ({ ok: true, games: gamesList() }));

  app.get("/api/rooms", {
    schema: routeDoc({
      summary: "The lobby: open and live rooms",
      tags: ["rooms"],
      response: { 200: okReply({ open: arrayOf(roomSummary, "Rooms waiting for players."), live: arrayOf(roomSummary, "Games being played.") }) },
    }),
  }, async () => ({ ok: true, ...(await service.list()) }));

  app.get<{ Params: { game: string } }>("/api/games/:game/leaderboard", {
    schema: routeDoc({
      summary: "A game's rating leaderboard (top 100)",
      description: "Established ratings first, ranked 1, 2, ...; then provisional ones with rank null.",
      tags: ["games"],
      params: gameParam,
      response: { 200: okReply({ game: str(), players: arrayOf(leaderboardRow) }), ...errors(400) },
    }),
  }, async (req) => {
    const game = findGame(req.params.game);
    if (!game) throw err("UNKNOWN_GAME", "This server does not offer that game.");
    return { ok: true, game: game.id, players: await ratingLeaderboard(db, game.id, 100) };
  });

  registerProfileRoutes(app, { db, daily, requester });

  /**
   * A finished game with its seed and full action log: enough to replay and verify it. A daily
   * deal's record is refused to whoever may not know that deal yet, and its seed withheld (null)
   * from everyone until its day is over (DailyChallenges.finishedRecord).
   */
  app.get<{ Params: { id: string } }>("/api/finished/:id", {
    schema: routeDoc({
      summary: "A finished game's record",
      description:
        "Seats, seed, commitment, full action log and outcome: enough to replay and verify it. A game on today's daily deal is refused (DAILY_SPOILER) to whoever may not know that deal yet, and its seed is null until the day is over. The token is optional.",
      tags: ["replays"],
      bearer: true,
      params: roomIdParam,
      response: {
        200: okReply({
          game: obj({
            roomId: str(), gameType: str(), ranked: bool(), options: { description: "The room's options." },
            seed: nullable(str("Null while its daily deal's day lasts.")), commitment: str(),
            seedRevealedAt: num("When a withheld seed is published (epoch ms)."),
            actions: arrayOf(obj({ seat: int(), action: { description: "The game's action." }, at: num("epoch ms"), bot: { type: "boolean", const: true } }, { optional: ["bot"] })),
            outcome: obj({ scores: arrayOf(num()), places: arrayOf(int()), details: { description: "The game's score breakdown." } }, { optional: ["details"] }),
            startedAt: str("ISO 8601."), finishedAt: str("ISO 8601."),
            seats: arrayOf(obj({ seat: int(), playerId: nullable(str()), name: str(), isBot: bool(), forfeit: nullable({ type: "string", enum: ["timeout", "resigned"] }) }, { optional: ["forfeit"] })),
            daily: nullable(str("A daily deal's day (YYYY-MM-DD).")),
          }, { optional: ["seedRevealedAt", "daily"], open: true }),
        }),
        ...errors(400, 401, 403, 404),
      },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const game = await getFinishedGame(db, checkRoomId(req.params.id));
    if (!game) throw err("NOT_FOUND", "No finished game with that id.");
    return { ok: true, game: await daily.finishedRecord(game, viewer?.id ?? null) };
  });

  /** Today's deal of every game with a daily challenge: commitments now, yesterday's seed. */
  // `now`: the server's clock, which decides days; clients count down to `endsAt` by it, not by their own.
  app.get("/api/daily", {
    schema: routeDoc({
      summary: "Today's daily deals",
      description: "Per daily game: today's deal (its commitment, published before anyone plays it) and yesterday's, with its seed. `now` is the server's clock, which decides days.",
      tags: ["daily"],
      response: {
        200: okReply({
          now: num("The server's clock, epoch ms."),
          daily: arrayOf(obj({
            game: str(), name: str(), day: str("YYYY-MM-DD (UTC)."), commitment: str(), endsAt: num("When today's deal closes, epoch ms."),
            previous: obj({ day: str(), commitment: str(), seed: str() }),
          })),
        }),
      },
    }),
  }, async () => ({ ok: true, now: daily.now(), daily: dailyGames().map((g) => daily.info(g.id)) }));

  app.get<{ Params: { game: string }; Querystring: { day?: string; limit?: string } }>("/api/daily/:game/board", {
    schema: routeDoc({
      summary: "A day's daily-challenge board",
      description: "The finished ranked attempts of a day, best first. While the day lasts, whoever has not finished their own attempt (send the token) gets roomId and details null.",
      tags: ["daily"],
      bearer: true,
      params: gameParam,
      querystring: obj({ day: str("YYYY-MM-DD; default today (else BAD_DAY)."), limit: { type: "integer", minimum: 1, maximum: 1000, default: 100, description: "Else BAD_LIMIT." } }, { optional: ["day", "limit"] }),
      response: { 200: okReply({ game: str(), day: str(), entries: arrayOf(dailyEntry) }), ...errors(400, 401) },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const today = daily.today(req.params.game);
    const day = req.query.day === undefined ? today.day : parseDay(req.query.day);
    if (!day) throw err("BAD_DAY", "A day is written YYYY-MM-DD, for example 2026-11-21.");
    const entries = await dailyBoard(db, today.game, day, limitOf(req.query.limit));
    return { ok: true, game: today.game, day, entries: await daily.boardFor(today.game, entries, viewer?.id ?? null) };
  });

  app.get<{ Params: { game: string }; Querystring: { limit?: string } }>("/api/daily/:game/best", {
    schema: routeDoc({
      summary: "All-time best daily scores",
      description: "Each player's best daily score (its earliest day), best first; entries of a day not over are redacted as on the board.",
      tags: ["daily"],
      bearer: true,
      params: gameParam,
      querystring: obj({ limit: { type: "integer", minimum: 1, maximum: 1000, default: 100, description: "Else BAD_LIMIT." } }, { optional: ["limit"] }),
      response: { 200: okReply({ game: str(), entries: arrayOf(dailyEntry) }), ...errors(400, 401) },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const { game } = daily.today(req.params.game);
    const entries = await dailyBest(db, game, limitOf(req.query.limit));
    return { ok: true, game, entries: await daily.boardFor(game, entries, viewer?.id ?? null) };
  });

  registerReplayRoutes(app, deps);
  registerAccountRoutes(app, deps);
}
