/**
 * GET /metrics: this node's metrics in Prometheus's text format (prom-client), for a scraper.
 * The platform reports what happens through PlatformMetrics (platform/metrics.ts); PromMetrics
 * turns those reports into counters and histograms, and reads what is best read at scrape time
 * (sockets, rooms in the store) when it is scraped.
 *
 * One Registry per server, never prom-client's global one: tests run several servers in one
 * process, and each must count only its own work. The process-wide metrics (event-loop lag, GC,
 * memory, CPU: collectDefaultMetrics) are made once per process, in a registry of their own that
 * every server's scrape includes: they describe the process, which servers in it share, and each
 * set of them starts monitors that are never stopped.
 *
 * Labels are bounded: game ids (an unknown one is "other"), room statuses, kinds of timer work,
 * rate-limit scopes, write results. Never a room id or a player.
 *
 * Access (docs/operations.md, "Metrics"): with METRICS_TOKEN set, a scrape must carry
 * `Authorization: Bearer <token>`, from anywhere; without it, only loopback clients are answered:
 * the connection and, with TRUST_PROXY, every forwarded address must be loopback, so a request a
 * local proxy relays for someone else is refused, and so is one whose sender wrote
 * "X-Forwarded-For: 127.0.0.1" itself. METRICS=off registers no route at all.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Server } from "socket.io";
import { GAMES } from "../games/registry.js";
import type { Logger } from "../logger.js";
import type { FinishedGameWrite, MoveBy, PlatformMetrics, RateLimitScope } from "../platform/metrics.js";
import type { RoomSummary } from "../platform/room.js";
import type { RoomStore } from "../platform/room-store.js";
import type { DueWork } from "../platform/timers.js";

const GAME_IDS = new Set(GAMES.map((g) => g.id));
const MOVERS: readonly MoveBy[] = ["player", "bot"];
const SCOPES: readonly RateLimitScope[] = ["socket", "account", "http", "chat"];
const WRITES: readonly FinishedGameWrite[] = ["written", "already-written", "failed"];
const WORK: readonly DueWork[] = ["timeout", "bot", "host-away", "host-check", "unfilled", "notify", "reveal"];
const LISTED_STATUSES = ["open", "playing"] as const;

/** A game id as a label: one of the registry's (rooms only ever hold those), else "other". */
function gameLabel(game: string): string {
  return GAME_IDS.has(game) ? game : "other";
}

let processRegistry: Registry | undefined;

/** The process's own metrics (nodejs_*, process_*), made on first use and shared by every server in the process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class PromMetrics implements PlatformMetrics {
  /** This server's own metrics. */
  readonly registry = new Registry();
  private readonly moves: Counter<"game" | "by">;
  private readonly moveSeconds: Histogram<"game" | "by">;
  private readonly casConflicts: Counter;
  private readonly finished: Counter<"game">;
  private readonly feedLag: Histogram;
  private readonly timerLag: Histogram<"work">;
  private readonly writes: Counter<"result">;
  private readonly refusals: Counter<"scope">;
  private readonly outages: Counter;
  private readonly outageSeconds: Counter;
  private readonly healed: Counter;

  constructor() {
    const registers = [this.registry];
    this.moves = new Counter({
      name: "goblin_bazaar_moves_total",
      help: "Game actions stored by this node, by game and by whom (player or bot); rate() gives moves per second.",
      labelNames: ["game", "by"],
      registers,
    });
    this.moveSeconds = new Histogram({
      name: "goblin_bazaar_move_duration_seconds",
      help: "From a game action's arrival to its result being stored (validation, compare-and-swap retries, the write), by game and by whom.",
      labelNames: ["game", "by"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.casConflicts = new Counter({
      name: "goblin_bazaar_room_cas_conflicts_total",
      help: "Room changes by this node that lost their compare-and-swap to another writer and were tried again on the newer room.",
      registers,
    });
    this.finished = new Counter({
      name: "goblin_bazaar_games_finished_total",
      help: "Games finished by a change made on this node, by game.",
      labelNames: ["game"],
      registers,
    });
    this.feedLag = new Histogram({
      name: "goblin_bazaar_change_feed_lag_seconds",
      help: "How late other nodes' room changes reach this node through the room store's change feed (Redis only), from the write's time in Redis.",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.healed = new Counter({
      name: "goblin_bazaar_lobby_healed_rooms_total",
      help: "Rooms of this node's lobby that a full read of the store's lists put right (a change the feed did not bring, a room that expired without one, or a read racing a change in flight).",
      registers,
    });
    this.timerLag = new Histogram({
      name: "goblin_bazaar_timer_lag_seconds",
      help: "How long after its deadline a timer fired on this node (by the server's clock), by kind of work.",
      labelNames: ["work"],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    });
    this.writes = new Counter({
      name: "goblin_bazaar_finished_game_writes_total",
      help: "Attempts by this node to write a finished game to Postgres, by result (written, already-written by another node, failed: retried by the sweep).",
      labelNames: ["result"],
      registers,
    });
    this.refusals = new Counter({
      name: "goblin_bazaar_rate_limited_total",
      help: "Requests this node refused with RATE_LIMITED, by limiter (socket, account, http, chat).",
      labelNames: ["scope"],
      registers,
    });
    this.outages = new Counter({
      name: "goblin_bazaar_downtimes_total",
      help: "Outages of the whole service (no node's heartbeat for over 5 s) recorded by this node when it came back; the clocks of games in play were stopped for them. Sum over nodes.",
      registers,
    });
    this.outageSeconds = new Counter({
      name: "goblin_bazaar_downtime_seconds_total",
      help: "How long the outages this node recorded lasted, in seconds. Sum over nodes.",
      registers,
    });
    // Every series from the start (at zero): rate() and alerts need no first occurrence.
    for (const g of GAME_IDS) {
      this.finished.inc({ game: g }, 0);
      for (const by of MOVERS) {
        this.moves.inc({ game: g, by }, 0);
        this.moveSeconds.zero({ game: g, by });
      }
    }
    for (const work of WORK) this.timerLag.zero({ work });
    for (const result of WRITES) this.writes.inc({ result }, 0);
    for (const scope of SCOPES) this.refusals.inc({ scope }, 0);
  }

  moveApplied(game: string, by: MoveBy, ms: number): void {
    const labels = { game: gameLabel(game), by };
    this.moves.inc(labels);
    this.moveSeconds.observe(labels, ms / 1000);
  }

  casConflict(): void {
    this.casConflicts.inc();
  }

  gameFinished(game: string): void {
    this.finished.inc({ game: gameLabel(game) });
  }

  changeFeedLag(ms: number): void {
    this.feedLag.observe(ms / 1000);
  }

  timerFired(work: DueWork, ms: number): void {
    this.timerLag.observe({ work }, ms / 1000);
  }

  finishedGameWrite(result: FinishedGameWrite): void {
    this.writes.inc({ result });
  }

  rateLimited(scope: RateLimitScope): void {
    this.refusals.inc({ scope });
  }

  downtime(ms: number): void {
    this.outages.inc();
    this.outageSeconds.inc(ms / 1000);
  }

  lobbyHealed(rooms: number): void {
    this.healed.inc(rooms);
  }
}

export interface MetricsRouteDeps {
  io: Server;
  store: RoomStore;
  log: Logger;
  /** METRICS_TOKEN: required as a bearer token from anyone; unset: loopback clients only. */
  token?: string;
}

/** Whether an address is this machine's (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Adds the metrics read at scrape time (sockets on this node, rooms and unrecorded games in the
 * store) and registers GET /metrics.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: PromMetrics, deps: MetricsRouteDeps): void {
  const { io, store, log } = deps;
  const registers = [metrics.registry];
  const sockets = io.of("/").sockets;
  new Gauge({
    name: "goblin_bazaar_sockets_connected",
    help: "Socket.IO connections open on this node.",
    registers,
    collect() {
      this.set(sockets.size);
    },
  });
  // Read from the store at each scrape, so every node reports the same cluster-wide numbers:
  // aggregate them with max(), not sum(). Each value is set in one synchronous step after its
  // read, so scrapes that overlap never add to each other's counts; a failed read shows as
  // unknown (no series, or NaN), never as a stale or zero count.
  new Gauge({
    name: "goblin_bazaar_rooms",
    help: "Rooms in the room store (every node's), by status (open: waiting for players; playing) and game. Absent when the store could not be read.",
    labelNames: ["status", "game"],
    registers,
    async collect() {
      let lists: RoomSummary[][];
      try {
        // Turn-based games in play are listed apart by the store; they count as playing here.
        const [open, playing, turnBased] = await Promise.all([store.list("open"), store.list("playing"), store.list("turn-based")]);
        lists = [open, [...playing, ...turnBased]];
      } catch (e) {
        this.reset();
        log.warn({ err: e }, "metrics: could not list the rooms in the store");
        return;
      }
      this.reset();
      LISTED_STATUSES.forEach((status, i) => {
        const counts = new Map([...GAME_IDS].map((g) => [g, 0]));
        for (const r of lists[i]!) counts.set(gameLabel(r.game), (counts.get(gameLabel(r.game)) ?? 0) + 1);
        for (const [game, n] of counts) this.set({ status, game }, n);
      });
    },
  });
  new Gauge({
    name: "goblin_bazaar_finished_games_unrecorded",
    help: "Finished games in the room store (every node's) whose write to Postgres has not completed yet, with ranked games called off whose no-show is not yet recorded. NaN when the store could not be read.",
    registers,
    async collect() {
      try {
        const waiting = await store.unpersisted();
        this.set(waiting.length);
      } catch (e) {
        this.set(Number.NaN);
        log.warn({ err: e }, "metrics: could not read the unrecorded games in the store");
      }
    },
  });
  const scrape = Registry.merge([processMetrics(), metrics.registry]);
  const expected = deps.token === undefined ? undefined : digest(deps.token);

  /** Why this request may not read the metrics (null: it may). */
  function refusal(req: FastifyRequest): { status: number; code: string; message: string } | null {
    if (expected) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      // Compared as digests, in constant time: the comparison says nothing about the token's length or prefix.
      if (m && timingSafeEqual(digest(m[1]!), expected)) return null;
      return { status: 401, code: "BAD_TOKEN", message: "GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>." };
    }
    // Every address the request came through must be this machine's: the connection's and, with
    // TRUST_PROXY, each forwarded one Fastify trusts (req.ips). req.ip alone would be the leftmost
    // X-Forwarded-For entry under TRUST_PROXY=true, which an outside client can write itself.
    if ((req.ips ?? [req.ip]).every(isLoopback) && isLoopback(req.ip)) return null;
    return { status: 403, code: "FORBIDDEN", message: "Metrics are served only to this machine (or with a token: METRICS_TOKEN)." };
  }

  app.get("/metrics", async (req: FastifyRequest, reply: FastifyReply) => {
    const refused = refusal(req);
    if (refused) {
      if (refused.status === 401) void reply.header("www-authenticate", 'Bearer realm="metrics"');
      return reply.status(refused.status).send({ ok: false, error: { code: refused.code, message: refused.message } });
    }
    return reply.type(scrape.contentType).send(await scrape.metrics());
  });
}
