/** Plain HTTP routes: identity, lobby listing, leaderboards, finished games, health. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Database } from "../db/client.js";
import { getFinishedGame } from "../db/finished-games.js";
import { findGame } from "../games/registry.js";
import { err } from "../platform/errors.js";
import type { Player, TokenIssuer } from "../platform/identity.js";
import type { RoomService } from "../platform/room-service.js";
import { gamesList } from "./socket.js";
import { dailyGames, parseDay, type DailyChallenges } from "../platform/daily.js";
import { dailyBest, dailyBoard } from "../db/daily.js";
import { registerProfileRoutes } from "./profile-routes.js";
import { ratingLeaderboard, ratingsOf, reliabilities } from "../db/profiles.js";
import { registerReplayRoutes } from "./replay-routes.js";
import { registerAccountRoutes } from "./account-routes.js";
import type { Vacations } from "../platform/vacations.js";
import type { Invitations } from "../platform/invitations.js";
import type { Follows } from "../platform/follows.js";
import type { Notes } from "../platform/notes.js";
import type { PushNotices } from "../platform/push.js";
import { registerAdminRoutes } from "./admin-routes.js";
import type { Moderation } from "../platform/moderation.js";
import type { PersonalDataService } from "../platform/personal-data.js";
import type { TwoFactor } from "../platform/two-factor.js";
import type { Blocks } from "../platform/blocks.js";
import type { Leaves } from "../platform/leaves.js";
import { BAD_TOKEN_MESSAGE, type Accounts } from "../platform/accounts.js";
import { MemoryRateLimiter, RedisRateLimiter } from "../platform/rate-limit.js";
import type { PlatformMetrics } from "../platform/metrics.js";
import { arrayOf, bool, dailyEntry, errors, gameId, gameParam, int, leaderboardRow, limitQuery, nullable, num, obj, okReply, roomIdParam, roomSummary, routeDoc, str } from "./openapi.js";
import { bearerToken, installValidation, refusing } from "./validation.js";
import { HttpQuotas, type HttpQuotaSettings } from "./http-quotas.js";
import { LOBBY_SHOWN_PER_GAME, PAGE_DEFAULT, PAGE_MAX, parseCursor, type Listed } from "../platform/lobby.js";

const CURSOR_MESSAGE = "before is the `next` value of the previous page.";
const BAD_DAY_MESSAGE = "A day is written YYYY-MM-DD, for example 2026-11-21.";
/** A day's form; parseDay checks that it is a day of the calendar. */
const dayQuery = refusing({ type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description: "YYYY-MM-DD (UTC); default today." }, "BAD_DAY", BAD_DAY_MESSAGE);

export interface HttpDeps {
  service: RoomService;
  tokens: TokenIssuer;
  db: Database;
  daily: DailyChallenges;
  nodeId: string;
  accounts: Accounts;
  /** Readiness (GET /api/ready): null when this node takes new connections, else why not. */
  notReady?: () => string | null;
  /** Shared HTTP quota counts (http-quotas.ts) when set, else this process's. */
  redis?: Redis;
  redisPrefix: string;
  /** The server's clock: quota windows (tests move it). */
  now: () => number;
  quotas: HttpQuotaSettings;
  /** Counts quota refusals (GET /metrics). */
  metrics?: PlatformMetrics;
  /** Reports and closed accounts (platform/moderation.ts). */
  moderation: Moderation;
  /** A player's data: its download and erasure (platform/personal-data.ts). */
  personalData: PersonalDataService;
  /** Two-step login (platform/two-factor.ts). */
  twoFactor: TwoFactor;
  /** Invitations to a seat (platform/invitations.ts): an account's switch. */
  invitations: Invitations;
  /** Following (platform/follows.ts). */
  follows: Follows;
  /** Private notes on players (platform/notes.ts). */
  notes: Notes;
  /** Notifications to closed pages (platform/push.ts). */
  push: PushNotices;
  /** Blocked players (platform/blocks.ts). */
  blocks: Blocks;
  /** Leavers (platform/leaves.ts): /api/me says whether ranked play is paused. */
  leaves: Leaves;
  /** Vacations from turn-based games (platform/vacations.ts). */
  vacations: Vacations;
  /** Set: the operators' routes exist (admin-routes.ts). */
  adminToken?: string;
}

/** Adds the routes, their validation and error replies (validation.ts) and their quotas (http-quotas.ts). */
export async function registerRoutes(app: FastifyInstance, deps: HttpDeps): Promise<void> {
  const { service, db, daily } = deps;
  installValidation(app);
  const limiter = deps.redis ? new RedisRateLimiter(deps.redis, deps.redisPrefix, deps.now) : new MemoryRateLimiter(deps.now);
  const quotas = new HttpQuotas(limiter, deps.quotas, deps.now, () => deps.metrics?.rateLimited("http"));
  await quotas.register(app);

  /**
   * Who is asking: the player of an `Authorization: Bearer <token>` header (the token of
   * POST /api/guest), or null without one. A token we did not sign is BAD_TOKEN, not anonymous.
   */
  async function requester(req: FastifyRequest): Promise<Player | null> {
    const token = bearerToken(req);
    if (token === undefined) return null;
    // Accounts.verify: signature, and for an account token a live session (accounts.ts).
    const player = await deps.accounts.verify(token);
    if (!player) throw err("BAD_TOKEN", BAD_TOKEN_MESSAGE);
    return player;
  }

  app.get("/api/health", {
    schema: routeDoc({
      summary: "Health of this node",
      description: "The node's id and which room store and database it uses.",
      tags: ["server"],
      response: { 200: okReply({ node: str("This node's id."), rooms: { type: "string", enum: ["redis", "memory"] }, db: { type: "string", enum: ["postgres", "pglite"] } }) },
    }),
  }, async () => ({ ok: true, node: deps.nodeId, rooms: service.store.kind, db: db.kind }));

  // Liveness (above: the process answers) and readiness (here: send it new players) are apart: a
  // draining node is alive, finishing its moves, but a balancer must stop sending it connections.
  app.get("/api/ready", {
    schema: routeDoc({
      summary: "Readiness of this node",
      description: "200 while the node takes new connections; 503 NOT_READY while it starts, drains before stopping, or has lost its room store. Balancers check this; container liveness checks /api/health.",
      tags: ["server"],
      response: { 200: okReply({ node: str("This node's id.") }), ...errors(503) },
    }),
  }, async (_req, reply) => {
    const why = deps.notReady?.() ?? null;
    if (why === null) return { ok: true, node: deps.nodeId };
    return reply.status(503).send({ ok: false, error: { code: "NOT_READY", message: why } });
  });

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
      description: `Every open room of one sitting; of the turn-based rooms waiting for players and of the games of one sitting being played, the first ${LOBBY_SHOWN_PER_GAME} of each game and how many there are (the rest: GET /api/rooms/waiting and /live).`,
      response: {
        200: okReply({
          open: arrayOf(roomSummary, `Rooms waiting for players, newest first: every one of one sitting, and of the turn-based ones the ${LOBBY_SHOWN_PER_GAME} of each game nearest to starting (fewest free seats, then the newest).`),
          live: arrayOf(roomSummary, `The newest ${LOBBY_SHOWN_PER_GAME} games of one sitting being played of each game, newest first (turn-based games in play are not listed).`),
          liveCounts: { type: "object", additionalProperties: { type: "integer" }, description: "How many games of one sitting are being played, by game id (a game with none is absent)." },
          waitingCounts: { type: "object", additionalProperties: { type: "integer" }, description: "How many turn-based rooms wait for players, by game id (a game with none is absent)." },
        }),
      },
    }),
  }, async () => ({ ok: true, ...(await service.lobbyLists()) }));

  const pages: Array<[Listed, string, string]> = [
    ["live", "The games being played, a page at a time", "Games of one sitting being played (turn-based ones are not listed), newest first (equal times by id)"],
    ["waiting", "Turn-based rooms waiting for players, a page at a time", "Open turn-based rooms, nearest to starting first: fewest free seats, then the newest, then by id"],
  ];
  for (const [which, summary, what] of pages) {
    app.get<{ Querystring: { game?: string; before?: string; limit: number } }>(`/api/rooms/${which}`, {
      schema: routeDoc({
        summary,
        description: `${what}; \`game\`: one game's only. \`next\` is null on the last page, else pass it as \`before\` (with the same \`game\`).`,
        tags: ["rooms"],
        querystring: obj(
          {
            game: gameId,
            before: refusing(str("The `next` of the previous page (else BAD_CURSOR)."), "BAD_CURSOR", CURSOR_MESSAGE),
            limit: limitQuery(PAGE_MAX, PAGE_DEFAULT),
          },
          { optional: ["game", "before", "limit"] },
        ),
        response: {
          200: okReply({ rooms: arrayOf(roomSummary, "This page's rooms, in the list's order."), total: int("How many the list holds (of `game`, if given)."), next: nullable(str("The cursor of the next page; null on the last.")) }),
          ...errors(400),
        },
      }),
    }, async (req) => {
      const before = req.query.before === undefined ? null : parseCursor(req.query.before);
      if (req.query.before !== undefined && !before) throw err("BAD_CURSOR", CURSOR_MESSAGE);
      return { ok: true, ...(await service.listPage(which, req.query.game ?? null, before, req.query.limit)) };
    });
  }

  app.get<{ Params: { game: string } }>("/api/games/:game/leaderboard", {
    schema: routeDoc({
      summary: "A game's rating leaderboard (top 100)",
      description: "Established ratings of players with a rated game in the last 30 days first, ranked 1, 2, ...; then established but inactive ones, then provisional ones, both with rank null.",
      tags: ["games"],
      params: gameParam,
      response: { 200: okReply({ game: str(), players: arrayOf(leaderboardRow) }), ...errors(400) },
    }),
  }, async (req) => {
    // The params schema admits only the ids of the games offered.
    const game = findGame(req.params.game)!;
    return { ok: true, game: game.id, players: await ratingLeaderboard(db, game.id, 100, deps.now()) };
  });

  app.get<{ Params: { game: string }; Querystring: { players: string } }>("/api/games/:game/ratings", {
    schema: routeDoc({
      summary: "Some players' ratings in a game (the players at a table)",
      description: "For each of the listed players (ids, comma-separated, at most 8) who has a rating in the game: the displayed rating, whether it is provisional and how many rated games it rests on, in the order asked. Players without one are left out. Beside them, how reliably each plays ranked games out.",
      tags: ["games"],
      params: gameParam,
      querystring: obj({
        players: refusing({ type: "string", minLength: 1, maxLength: 8 * 65, pattern: "^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){0,7}$", description: "Player ids, comma-separated (1 to 8)." }, "BAD_PLAYERS", "players is a comma-separated list of 1 to 8 player ids."),
      }),
      response: {
        200: okReply({
          game: str(),
          players: arrayOf(obj({ playerId: str(), rating: int("As players see it: 1500 for a newcomer."), provisional: bool("Shown with a \"?\"."), games: int("Rated games of this game.") })),
          reliability: arrayOf(obj({
            playerId: str(),
            games: int("Their latest ranked games with people, in any game (at most 100)."),
            left: int("Of those, the games they left (ran out of time for good, or never moved)."),
          }), "How reliably each listed player plays ranked games out (as on their profile), in the order asked; players with no ranked game left out."),
        }),
        ...errors(400),
      },
    }),
  }, async (req) => {
    const game = findGame(req.params.game)!;
    const ids = [...new Set(req.query.players.split(","))];
    const [players, reliable] = await Promise.all([ratingsOf(db, game.id, ids, deps.now()), reliabilities(db, ids)]);
    return { ok: true, game: game.id, players, reliability: reliable.filter((r) => r.games > 0) };
  });

  registerProfileRoutes(app, { db, daily, requester, now: deps.now, vacations: deps.vacations });

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
            rules: int("The game's rules version it was played under (1 for every record made before its game had a second)."),
            seedRevealedAt: num("When a withheld seed is published (epoch ms)."),
            actions: arrayOf(obj({ seat: int(), action: { description: "The game's action." }, at: num("epoch ms"), bot: { type: "boolean", const: true } }, { optional: ["bot"] })),
            outcome: obj({ scores: arrayOf(num()), places: arrayOf(int()), details: { description: "The game's score breakdown." } }, { optional: ["details"] }),
            startedAt: str("ISO 8601."), finishedAt: str("ISO 8601."),
            seats: arrayOf(obj({ seat: int(), playerId: nullable(str()), name: str(), isBot: bool(), forfeit: nullable({ type: "string", enum: ["timeout", "resigned"] }) }, { optional: ["forfeit"] })),
            daily: nullable(str("A daily deal's day (YYYY-MM-DD).")),
            chat: arrayOf(obj({
              n: int(), at: num("epoch ms"), from: obj({ id: str(), name: str() }),
              channel: { type: "string", enum: ["players", "spectators"] }, text: str(),
            }), "The table chat when the game was recorded, both channels (docs/protocol.md, Chat)."),
          }, { optional: ["seedRevealedAt", "daily", "chat"], open: true }),
        }),
        ...errors(400, 401, 403, 404),
      },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const game = await getFinishedGame(db, req.params.id);
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

  app.get<{ Params: { game: string }; Querystring: { day?: string; limit: number } }>("/api/daily/:game/board", {
    schema: routeDoc({
      summary: "A day's daily-challenge board",
      description: "The finished ranked attempts of a day, best first. While the day lasts, whoever has not finished their own attempt (send the token) gets roomId and details null.",
      tags: ["daily"],
      bearer: true,
      params: gameParam,
      querystring: obj({ day: dayQuery, limit: limitQuery(1000, 100) }, { optional: ["day", "limit"] }),
      response: { 200: okReply({ game: str(), day: str(), entries: arrayOf(dailyEntry) }), ...errors(400, 401) },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const today = daily.today(req.params.game);
    const day = req.query.day === undefined ? today.day : parseDay(req.query.day);
    if (!day) throw err("BAD_DAY", BAD_DAY_MESSAGE);
    const entries = await dailyBoard(db, today.game, day, req.query.limit);
    return { ok: true, game: today.game, day, entries: await daily.boardFor(today.game, entries, viewer?.id ?? null) };
  });

  app.get<{ Params: { game: string }; Querystring: { limit: number } }>("/api/daily/:game/best", {
    schema: routeDoc({
      summary: "All-time best daily scores",
      description: "Each player's best daily score (its earliest day), best first; entries of a day not over are redacted as on the board.",
      tags: ["daily"],
      bearer: true,
      params: gameParam,
      querystring: obj({ limit: limitQuery(1000, 100) }, { optional: ["limit"] }),
      response: { 200: okReply({ game: str(), entries: arrayOf(dailyEntry) }), ...errors(400, 401) },
    }),
  }, async (req) => {
    const viewer = await requester(req);
    const { game } = daily.today(req.params.game);
    const entries = await dailyBest(db, game, req.query.limit);
    return { ok: true, game, entries: await daily.boardFor(game, entries, viewer?.id ?? null) };
  });

  registerReplayRoutes(app, { db, daily, requester });
  registerAccountRoutes(app, { ...deps, quotas });
  if (deps.adminToken) registerAdminRoutes(app, { moderation: deps.moderation, personalData: deps.personalData, token: deps.adminToken });
}
