/**
 * Builds one server node: HTTP (Fastify) + Socket.IO on the same port, the room store (Redis or
 * in-process), the database (Postgres or embedded PGlite), bots and the result recorder.
 */
import { Notes } from "./platform/notes.js";
import { PushNotices } from "./platform/push.js";
import { SecretBox, sealStoredSecrets } from "./platform/secret-box.js";
import { ratingsOf, reliability } from "./db/profiles.js";
import { RATING_BASE } from "./protocol/rating-display.js";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import type { Config } from "./config.js";
import { openDatabase, type Database } from "./db/client.js";
import { createLogger, type Logger } from "./logger.js";
import { TimerDriver } from "./platform/timers.js";
import { isTurnBased } from "./platform/clocks.js";
import { DowntimeWatch } from "./platform/downtime.js";
import { TokenIssuer } from "./platform/identity.js";
import { Accounts } from "./platform/accounts.js";
import { Moderation } from "./platform/moderation.js";
import { PersonalDataService } from "./platform/personal-data.js";
import { Invitations } from "./platform/invitations.js";
import { Follows } from "./platform/follows.js";
import { TwoFactor } from "./platform/two-factor.js";
import { Blocks } from "./platform/blocks.js";
import { Leaves } from "./platform/leaves.js";
import { MemoryRateLimiter, RedisRateLimiter } from "./platform/rate-limit.js";
import { MemoryRoomStore } from "./platform/memory-room-store.js";
import { RedisRoomStore } from "./platform/redis-room-store.js";
import { ResultRecorder } from "./platform/results.js";
import { DailyChallenges } from "./platform/daily.js";
import { Vacations } from "./platform/vacations.js";
import { RoomService } from "./platform/room-service.js";
import { listed } from "./platform/lobby.js";
import { MemoryQueueStore, RedisQueueStore } from "./platform/queue-store.js";
import { QueueService } from "./platform/queue-service.js";
import type { RoomStore } from "./platform/room-store.js";
import { registerRoutes } from "./transport/http.js";
import { registerOpenApi } from "./transport/openapi.js";
import { addSecurityHeaders } from "./transport/security-headers.js";
import { NOT_FOUND, serveWebClient } from "./transport/web-client.js";
import { attachSockets, LOBBY_COUNTS_EVERY_MS } from "./transport/socket.js";
import { TableChat } from "./platform/chat.js";
import { connectionCounter } from "./transport/socket-quotas.js";
import { MemoryHostedRooms, RedisHostedRooms } from "./platform/hosted-rooms.js";
import { MemoryFindSlots, RedisFindSlots } from "./platform/find-slots.js";
import { MemoryPlayerRooms, RedisPlayerRooms } from "./platform/player-rooms.js";
import { PromMetrics, registerMetricsRoute } from "./transport/metrics.js";
import { NO_METRICS, type PlatformMetrics } from "./platform/metrics.js";
import { adapterRedis as newAdapterRedis } from "./transport/adapter-redis.js";
import { checkInternals, parserOptions, useFastPaths } from "./transport/internals.js";

export interface RunningServer {
  app: FastifyInstance;
  io: Server;
  service: RoomService;
  store: RoomStore;
  timers: TimerDriver;
  /** This node's heartbeat and the service's outages: tests with manualTimers call `downtime.beat()` themselves. */
  downtime: DowntimeWatch;
  /** What the platform reports to GET /metrics (NO_METRICS with METRICS=off): `metrics.rateLimited("http")` counts an HTTP refusal. */
  metrics: PlatformMetrics;
  /** Quick play: tests with manualTimers call `queue.tick()` themselves. */
  queue: QueueService;
  /** Sends this node's lobby pages the lobby's counts if they changed (tests with manualTimers call it themselves). */
  pushLobbyCounts(): Promise<void>;
  /** Records finished games in Postgres: tests call `recorder.sweep()` themselves instead of waiting for the timed one (sweepEveryMs). */
  recorder: ResultRecorder;
  db: Database;
  log: Logger;
  port: number;
  url: string;
  /**
   * Graceful drain, then close (SIGTERM/SIGINT; docs/operations.md): readiness turns false, the
   * listener closes (no new connections), timers and quick play rounds stop here (other nodes, or
   * this one after a restart, pick them up from the store), moves in flight are acknowledged,
   * clients are told to reconnect (to another node behind the balancer), finished games waiting
   * to be recorded are flushed, then Redis and Postgres are closed. Within `timeoutMs`
   * (DRAIN_TIMEOUT_MS) as far as this node decides; the caller exits after it.
   */
  drain(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Use this database instead of opening one (tests share one across nodes). */
  db?: Database;
  /** Key prefix in Redis for rooms, the adapter stream and the token secret. */
  redisPrefix?: string;
  /** How often to retry recording finished games, ms. */
  sweepEveryMs?: number;
  logger?: Logger;
  /** The server's clock: clocks, timers, daily-challenge days (tests move it). */
  now?: () => number;
  /** Don't poll for due timers or arm local ones (tests call `timers.tick()` after moving the clock). */
  manualTimers?: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The token secret: from config, else shared through Redis, else kept in the data folder. */
async function tokenSecret(config: Config, redis: Redis | undefined, prefix: string): Promise<string> {
  if (config.tokenSecret) return config.tokenSecret;
  const fresh = randomBytes(32).toString("hex");
  if (redis) {
    await redis.set(`${prefix}token-secret`, fresh, "NX");
    return (await redis.get(`${prefix}token-secret`)) ?? fresh;
  }
  const file = join(config.dataDir, "token-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, fresh, { mode: 0o600 });
  return fresh;
}

/**
 * One warning when a Redis connection is lost and one line when it is back (ioredis reconnects by
 * itself and emits "error" on every failed attempt; without a listener it prints each to stderr).
 */
function reportOutages(redis: Redis, log: Logger, which: string): void {
  let down = false;
  redis.on("error", (e: Error) => {
    if (down) return;
    down = true;
    log.warn({ redis: which, err: e.message }, "lost the connection to Redis; reconnecting");
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    log.info({ redis: which }, "connected to Redis again");
  });
}

export async function startServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.logger ?? createLogger(config.logLevel, config.nodeId, config.logFormat);
  const prefix = opts.redisPrefix ?? config.redisPrefix ?? "gb:";
  const ownsDb = !opts.db;
  const db = opts.db ?? (await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir, logger: log }));
  // Two-step login secrets sealed at rest with TOTP_KEY (secret-box.ts): the key is checked against
  // those sealed before (a missing or wrong key stops the start here), and any stored as they are get sealed.
  const box = new SecretBox(config.totpKey ?? null);
  try {
    const sealed = await sealStoredSecrets(db, box);
    if (sealed > 0) log.info({ sealed }, "two-step login secrets sealed with TOTP_KEY");
  } catch (e) {
    if (ownsDb) await db.close();
    throw e;
  }

  let redis: Redis | undefined;
  let adapterRedis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
    adapterRedis = newAdapterRedis(config.redisUrl, log);
    reportOutages(redis, log, "rooms");
    reportOutages(adapterRedis, log, "adapter");
  }
  // The fast paths through dependencies' private internals (transport/internals.ts): each one's
  // shapes are checked here, once, and one that fails takes the public path. FAST_PATHS=off: none.
  const checked = config.fastPaths === "on" ? await checkInternals({ redis }) : {};
  // This server's own metrics registry (GET /metrics, transport/metrics.ts); none with METRICS=off.
  const prom = config.metrics === "on" ? new PromMetrics() : undefined;
  const metrics: PlatformMetrics = prom ?? NO_METRICS;
  const clock = opts.now ?? Date.now;
  // The in-process store forgets rooms by the server's clock (a test's, when it injects one), as
  // its timers do; Redis expires them by its own.
  const store: RoomStore = redis
    ? new RedisRoomStore(redis, prefix, { corkWrites: checked.corkRedisWrites?.usable === true, metrics, keptLogs: config.keptLogs === "on" })
    : config.roomsFile
      ? MemoryRoomStore.durable(config.roomsFile, { log, now: clock })
      : new MemoryRoomStore(clock);

  const secret = await tokenSecret(config, redis, prefix);
  const tokens = new TokenIssuer(secret);
  // Counting limits (logins, registrations, table chat): shared by every node when there is Redis.
  const limiter = redis ? new RedisRateLimiter(redis, prefix, clock) : new MemoryRateLimiter(clock);
  const accounts = new Accounts(db, tokens, { limiter, now: clock, metrics, box });
  // Accounts made before look-alike names were refused get their name's skeleton (name-skeleton.ts).
  const skeletons = await accounts.backfillSkeletons();
  if (skeletons.filled > 0) log.info({ filled: skeletons.filled }, "account name skeletons filled in");
  if (skeletons.clashes.length > 0) log.warn({ names: skeletons.clashes }, "accounts whose names look like another account's kept their names; new look-alikes of them are refused");
  // The heartbeat that tells the service's downtime, which the clocks get back (downtime.ts). With
  // manualTimers it beats only when a test says so: moving the test clock is time the service was up.
  const downtime = new DowntimeWatch(store, { now: clock, log, auto: !opts.manualTimers, metrics, onOutage: () => void creditDowntime() });
  // Vacations from turn-based games (vacations.ts): kept in Postgres, applied to rooms by the service.
  const vacations = new Vacations(db, config.vacationDays, clock);
  const heldRooms = redis ? new RedisHostedRooms(redis, prefix) : new MemoryHostedRooms();
  const service = new RoomService(store, {
    downtime,
    vacations,
    shareLogs: config.sharedLogs === "on",
    metrics,
    ...(opts.now ? { now: opts.now } : {}),
    timing: { botDelayMs: config.botDelayMs, hostAwayMs: config.hostAwayMs, openCheckMs: config.openCheckMs },
    // One set per player and kind in Redis (hosted-rooms.ts): the rooms they host, and their
    // turn-based seats, each held atomically against its limit by whichever node asks.
    openRooms: { maxPerPlayer: config.maxOpenRoomsPerPlayer, hosted: heldRooms },
    maxTurnBasedGames: config.maxTurnBasedGames,
    turnBasedSeats: heldRooms,
    lobbyResyncMs: config.lobbyResyncMs,
    // With Web Push keys, changes owe notices to closed pages, kept in the room until sent (timers).
    pushes: config.push !== undefined,
    playerRooms: redis ? new RedisPlayerRooms(redis, prefix) : new MemoryPlayerRooms(),
    // The room room:find opens, named for its request so finders on any node arriving together share it.
    findSlots: redis ? new RedisFindSlots(redis, prefix) : new MemoryFindSlots(),
  });
  async function creditDowntime(): Promise<void> {
    try {
      log.info({ rooms: await service.creditDowntime() }, "clocks given back the downtime");
    } catch (e) {
      log.error({ err: e }, "could not credit the downtime to every room in play; each room's next change credits it");
    }
  }
  const daily = new DailyChallenges(service, db, secret, opts.now);
  // Quick play's queue: in Redis (shared by every node) beside the rooms, else in this process.
  const queue = new QueueService(redis ? new RedisQueueStore(redis, `${prefix}queue:`) : new MemoryQueueStore(), { now: clock });

  const app = Fastify({ loggerInstance: log as unknown as FastifyBaseLogger, bodyLimit: 64 * 1024, trustProxy: config.trustProxy,
    // Request start/end lines only at debug: info stays readable at load.
    logController: new LogController({ disableRequestLogging: () => !log.isLevelEnabled("debug") }),
    // Requests the router rejects before any route (a path segment over 100 characters, a bad
    // URL) get the same error shape as every other reply: such a path names nothing here.
    frameworkErrors: (error, _req, reply) => {
      const tooLong = (error as { code?: string }).code === "FST_ERR_MAX_PARAM_LENGTH";
      const out = reply as unknown as { status(code: number): { send(body: unknown): unknown } };
      void out.status(tooLong ? 404 : 400).send({ ok: false, error: tooLong ? NOT_FOUND : { code: "BAD_REQUEST", message: "That request could not be understood." } });
    },
  });
  // Content-Security-Policy and the other security headers on every reply (security-headers.ts).
  addSecurityHeaders(app);
  // The OpenAPI document (GET /api/openapi.json), from the routes' schemas: registered first, so it sees them.
  await registerOpenApi(app);
  /** Readiness: false until listening, and again from the moment a drain starts. */
  let phase: "starting" | "ready" | "draining" = "starting";
  const notReady = (): string | null =>
    phase === "starting" ? "This node is starting."
    : phase === "draining" ? "This node is shutting down; connect to another one."
    : redis && redis.status !== "ready" ? "This node cannot reach its room store."
    : null;
  const leaves = new Leaves(db, clock);
  const moderation = new Moderation(db, accounts, service, queue, { limiter, now: clock, log, leaves });
  const personalData = new PersonalDataService(db, accounts, service, moderation, { limiter, now: clock, log });
  const twoFactor = new TwoFactor(db, accounts, { now: clock, box });
  // A block or unblock made while queued counts at once: both players' queue entries are updated.
  const blocks: Blocks = new Blocks(db, clock, async (ids) => {
    for (const id of ids) {
      try {
        await queue.setAvoid(id, await blocks.avoidOf(id));
      } catch (e) {
        log.warn({ err: e, player: id }, "could not update a queued player's blocks; they count from their next queue join");
      }
    }
  });
  const invitations = new Invitations(db, limiter, blocks, clock);
  const follows = new Follows(db, clock);
  const notes = new Notes(db, clock);
  const push = new PushNotices(db, config.push, config.pushServices, log, clock);
  await registerRoutes(app, { notReady, service, tokens, db, daily, nodeId: config.nodeId, accounts, redis, redisPrefix: prefix, now: clock, quotas: config, metrics, moderation, personalData, twoFactor, blocks, leaves, invitations, follows, notes, push, vacations, adminToken: config.adminToken });
  const clientDir = resolve(config.clientDir ?? join(here, "..", "client", "dist"));
  await serveWebClient(app, clientDir);

  const io = new Server(app.server, {
    transports: ["websocket"],
    ...parserOptions(checked),
    maxHttpBufferSize: 1_000_000,
    serveClient: false,
    // A resumed connection meets the middlewares too (its token may have been revoked, or its
    // guest name registered, while it was away; its address's connections are counted again).
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    ...(adapterRedis
      ? { adapter: createAdapter(adapterRedis, { streamName: `${prefix}socket.io`, channelPrefix: `${prefix}socket.io`, sessionKeyPrefix: `${prefix}sio:session:`, blockTimeInMs: 1000 }) }
      : {}),
  });
  if (config.fastPaths === "on") {
    const fast = useFastPaths(io, checked, { streamsAdapter: adapterRedis !== undefined });
    for (const [path, v] of Object.entries(fast)) {
      if (!v.usable) log.warn({ fastPath: path, reason: v.reason }, "fast path off: a dependency's internals are not as expected; using its public API");
    }
  } else {
    log.info("FAST_PATHS=off: public APIs only");
  }
  // Sockets per client address, shared by every node through Redis (socket-quotas.ts).
  const connections = connectionCounter({ redis, prefix, now: clock, log, heartbeat: !opts.manualTimers, nodeName: config.nodeId });
  const quotas = {
    limits: { connectionsPerAddress: config.maxConnectionsPerAddress, subscriptionsPerSocket: config.maxSubscriptionsPerSocket, slowReaderMaxBytes: config.slowReaderMaxBytes },
    counter: connections,
    trustProxy: config.trustProxy,
  };
  const sockets = attachSockets(io, { service, shownRating: async (game, playerId) => (await ratingsOf(db, game, [playerId], clock()))[0]?.rating ?? RATING_BASE, reliabilityOf: (playerId) => reliability(db, playerId), tokens, accounts, daily, log, maxPayloadBytes: config.maxPayloadBytes, rateLimitPerSecond: config.rateLimitPerSecond, now: clock, queue: { queue, db, blocks, leaves }, blocks, leaves, moderation, metrics, quotas, chat: new TableChat(service.store, limiter, clock, metrics, (id) => moderation.silencedNow(id)), invitations, push, vacations });
  follows.onlineOf = (ids) => sockets.onlineOf(ids);
  follows.playingNow = async (id) => {
    const r = (await service.roomsOf(id)).find((x) => x.status === "playing" && !x.daily && listed(x) && !isTurnBased(x.clock));
    return r ? { roomId: r.id, game: r.game } : null;
  };
  if (prom) registerMetricsRoute(app, prom, { io, store, log, token: config.metricsToken });

  const timers = new TimerDriver(service, log, {
    pollMs: opts.manualTimers ? 0 : config.timerPollMs,
    localTimers: !opts.manualTimers,
    isPresent: sockets.isPresent,
    ...(sockets.notify ? { notify: sockets.notify } : {}),
    metrics,
  });
  // Before any timer fires: a node starting after the whole service was down learns it first.
  await downtime.start();
  // One read of every open and in-play room at start, before anyone is served, unless a node of
  // this build or a later one did it over this store already (TimerDriver.readAtStart): Your games
  // reads each player's rooms through an index (player-rooms.ts), so rooms written before it are
  // listed; and polling timers adopt rooms stored without a deadline in the same read.
  const startRead = await timers.readAtStart();
  if (startRead === null) log.info("start-up read skipped: a node of this build or a later one has read every room of this store");
  else log.info({ rooms: startRead }, "players' rooms indexed");
  timers.start();
  // This node's lobby (lobby-mirror.ts), read whole once now that the change feed is followed
  // (socket.ts): from here on kept from the changes, and read whole again every LOBBY_RESYNC_MS.
  await service.resyncLobby();
  // One quick play round per QUEUE_TICK_MS on every node (none with manualTimers: tests tick).
  let queueRound: Promise<void> | undefined;
  const queueTimer =
    opts.manualTimers || config.queueTickMs === 0
      ? undefined
      : setInterval(() => {
          if (queueRound) return;
          queueRound = queue
            .tick()
            .then(
              () => undefined,
              (e: unknown) => log.error({ err: e }, "quick play round failed"),
            )
            .finally(() => (queueRound = undefined));
        }, config.queueTickMs);
  queueTimer?.unref();
  // The lobby's counts, to this node's lobby pages (none with manualTimers: tests push).
  const lobbyCountsTimer = opts.manualTimers
    ? undefined
    : setInterval(() => void sockets.pushLobbyCounts().catch((e: unknown) => log.warn({ err: e }, "could not send the lobby's counts")), LOBBY_COUNTS_EVERY_MS);
  lobbyCountsTimer?.unref();
  const recorder = new ResultRecorder(service, db, log, metrics);
  recorder.onRecorded = (room) => {
    if (room.daily && room.ranked) sockets.dailyBoardChanged(room.game, room.daily);
  };
  recorder.startSweeping(opts.sweepEveryMs ?? 30_000);
  // Notes the games waiting now (a crash's leftovers); the first timed sweep records those still waiting.
  void recorder.sweep().catch((e) => log.error({ err: e }, "startup sweep failed"));

  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;
  log.info({ port, host: config.host, rooms: store.kind, db: db.kind }, "Goblin Bazaar listening");
  phase = "ready";

  let closed = false;
  let drained: Promise<void> | undefined;
  const running: RunningServer = {
    app,
    io,
    service,
    store,
    timers,
    downtime,
    metrics,
    queue,
    pushLobbyCounts: () => sockets.pushLobbyCounts(),
    recorder,
    db,
    log,
    port,
    url: `http://127.0.0.1:${port}`,
    drain(timeoutMs = config.drainTimeoutMs) {
      drained ??= (async () => {
        phase = "draining";
        const deadline = Date.now() + timeoutMs;
        const left = () => Math.max(0, deadline - Date.now());
        log.info({ timeoutMs }, "draining");
        app.server.close(); // the listener only: open connections stay until they are closed below
        timers.stop();
        downtime.stop();
        if (queueTimer) clearInterval(queueTimer);
        if (lobbyCountsTimer) clearInterval(lobbyCountsTimer);
        await queueRound;
        await sockets.drain(left() * 0.6);
        // Finished games not yet recorded (Postgres was slow or away) are written now if possible;
        // any left stay marked in the room store and the next node's sweep records them.
        await Promise.race([recorder.sweep().catch((e: unknown) => log.warn({ err: e }, "final sweep failed")), new Promise((r) => setTimeout(r, left()).unref())]);
        await running.close();
        log.info("drained");
      })();
      return drained;
    },
    async close() {
      if (closed) return;
      closed = true;
      timers.stop();
      downtime.stop();
      if (queueTimer) clearInterval(queueTimer);
      if (lobbyCountsTimer) clearInterval(lobbyCountsTimer);
      await queueRound;
      queue.stop();
      recorder.stop();
      io.close();
      await app.close();
      await store.close();
      await connections.close();
      redis?.disconnect();
      adapterRedis?.disconnect();
      if (ownsDb) await db.close();
    },
  };
  return running;
}
