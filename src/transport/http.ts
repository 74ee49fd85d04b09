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

  app.get("/api/health", async () => ({ ok: true, node: deps.nodeId, rooms: service.store.kind, db: db.kind }));

  app.get("/api/games", async () => ({ ok: true, games: gamesList() }));

  app.get("/api/rooms", async () => ({ ok: true, ...(await service.list()) }));

  app.get<{ Params: { game: string } }>("/api/games/:game/leaderboard", async (req) => {
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
  app.get<{ Params: { id: string } }>("/api/finished/:id", async (req) => {
    const viewer = await requester(req);
    const game = await getFinishedGame(db, checkRoomId(req.params.id));
    if (!game) throw err("NOT_FOUND", "No finished game with that id.");
    return { ok: true, game: await daily.finishedRecord(game, viewer?.id ?? null) };
  });

  /** Today's deal of every game with a daily challenge: commitments now, yesterday's seed. */
  // `now`: the server's clock, which decides days; clients count down to `endsAt` by it, not by their own.
  app.get("/api/daily", async () => ({ ok: true, now: daily.now(), daily: dailyGames().map((g) => daily.info(g.id)) }));

  app.get<{ Params: { game: string }; Querystring: { day?: string; limit?: string } }>("/api/daily/:game/board", async (req) => {
    const viewer = await requester(req);
    const today = daily.today(req.params.game);
    const day = req.query.day === undefined ? today.day : parseDay(req.query.day);
    if (!day) throw err("BAD_DAY", "A day is written YYYY-MM-DD, for example 2026-11-21.");
    const entries = await dailyBoard(db, today.game, day, limitOf(req.query.limit));
    return { ok: true, game: today.game, day, entries: await daily.boardFor(today.game, entries, viewer?.id ?? null) };
  });

  app.get<{ Params: { game: string }; Querystring: { limit?: string } }>("/api/daily/:game/best", async (req) => {
    const viewer = await requester(req);
    const { game } = daily.today(req.params.game);
    const entries = await dailyBest(db, game, limitOf(req.query.limit));
    return { ok: true, game, entries: await daily.boardFor(game, entries, viewer?.id ?? null) };
  });

  registerReplayRoutes(app, deps);
  registerAccountRoutes(app, deps);
}
