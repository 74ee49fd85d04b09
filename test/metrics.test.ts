/**
 * GET /metrics (src/transport/metrics.ts): scraped and parsed as Prometheus text while a whole
 * game is played, the counters and gauges follow it: sockets, rooms by status and game, moves and
 * their latency per game, a finished game that fails to be written and is written by the sweep, a
 * forced compare-and-swap conflict, timer lag by the injected clock, rate-limit refusals from a
 * socket and the account limiter, and change-feed lag between two nodes on Redis. Access: loopback
 * only without METRICS_TOKEN (a forwarded outside client is refused), the bearer token with it,
 * and no route at all with METRICS=off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import type { Room } from "../src/platform/room.js";
import { nextDue } from "../src/platform/timers.js";
import { startServer, type RunningServer } from "../src/server.js";
import { backends, guest, lcg, newPrefix, openTestDatabase, playAnyActive, REDIS_URL, startTestServer, TestClient, testConfig, until, type Backend } from "./support/harness.js";

/** One sample line: a metric name, its labels and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format (version 0.0.4), as prom-client writes it: `# HELP`/`# TYPE` lines and samples. */
function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!.replace(/\\(.)/g, (_x, c: string) => (c === "n" ? "\n" : c));
    samples.push({ name: m[1]!, labels, value: m[3] === "NaN" ? Number.NaN : Number(m[3]) });
  }
  return { samples, types };
}

class Scrape {
  constructor(
    readonly samples: Sample[],
    readonly types: Map<string, string>,
  ) {}

  /** The one sample of `name` whose labels are exactly `labels` (undefined: none). */
  find(name: string, labels: Record<string, string> = {}): number | undefined {
    const want = JSON.stringify(Object.entries(labels).sort());
    const hits = this.samples.filter((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want);
    if (hits.length > 1) throw new Error(`${name} ${want} appears ${hits.length} times`);
    return hits[0]?.value;
  }

  /** Like find, but the sample must be there. */
  get(name: string, labels: Record<string, string> = {}): number {
    const v = this.find(name, labels);
    if (v === undefined) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`);
    return v;
  }
}

async function scrape(server: RunningServer, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const { samples, types } = parseMetrics(text);
  return new Scrape(samples, types);
}

/** A database whose transactions fail while `failing` is set (the finished-game write uses one). */
function flaky(db: Database): { db: Database; failing: { on: boolean } } {
  const failing = { on: false };
  const prisma = new Proxy(db.prisma, {
    get(target, prop) {
      if (prop === "$transaction" && failing.on) return () => Promise.reject(new Error("the database is down (test)"));
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: { ...db, prisma }, failing };
}

const GM = { game: "goblin-market" };

describe.each(backends())("GET /metrics ($name)", (backend: Backend) => {
  let server: RunningServer;
  let dispose: () => Promise<void>;
  let failing: { on: boolean };
  let now = Date.UTC(2026, 10, 24, 12);
  const clock = () => now;

  beforeAll(async () => {
    const opened = await openTestDatabase(backend.realPg);
    dispose = opened.dispose;
    const f = flaky(opened.db);
    failing = f.failing;
    server = await startTestServer(backend, f.db, newPrefix(), "node-a", clock);
  });

  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  it("describes every metric, with the process's event loop and GC, and nothing moved yet", async () => {
    const s = await scrape(server);
    const types = Object.fromEntries(s.types);
    expect(types).toMatchObject({
      goblin_bazaar_sockets_connected: "gauge",
      goblin_bazaar_rooms: "gauge",
      goblin_bazaar_finished_games_unrecorded: "gauge",
      goblin_bazaar_games_finished_total: "counter",
      goblin_bazaar_moves_total: "counter",
      goblin_bazaar_move_duration_seconds: "histogram",
      goblin_bazaar_room_cas_conflicts_total: "counter",
      goblin_bazaar_change_feed_lag_seconds: "histogram",
      goblin_bazaar_lobby_healed_rooms_total: "counter",
      goblin_bazaar_timer_lag_seconds: "histogram",
      goblin_bazaar_finished_game_writes_total: "counter",
      goblin_bazaar_rate_limited_total: "counter",
      goblin_bazaar_downtimes_total: "counter",
      goblin_bazaar_downtime_seconds_total: "counter",
      nodejs_eventloop_lag_seconds: "gauge",
      nodejs_eventloop_lag_p99_seconds: "gauge",
      nodejs_gc_duration_seconds: "histogram",
    });
    expect(s.get("goblin_bazaar_sockets_connected")).toBe(0);
    for (const status of ["open", "playing"]) expect(s.get("goblin_bazaar_rooms", { status, ...GM })).toBe(0);
    expect(s.get("goblin_bazaar_moves_total", { ...GM, by: "player" })).toBe(0);
    expect(s.get("goblin_bazaar_room_cas_conflicts_total")).toBe(0);
    expect(s.get("goblin_bazaar_downtimes_total")).toBe(0);
    for (const scope of ["socket", "account", "http", "chat"]) expect(s.get("goblin_bazaar_rate_limited_total", { scope })).toBe(0);
    // Labels are bounded: games, statuses, kinds of work, scopes, results; never a room or player.
    const labelNames = new Set(s.samples.filter((x) => x.name.startsWith("goblin_bazaar_")).flatMap((x) => Object.keys(x.labels)));
    expect([...labelNames].sort()).toEqual(["by", "game", "le", "result", "scope", "status", "work"]);
  });

  it("follows a whole game: sockets, rooms by status, moves and their latency, a conflict, the finished game's write", async () => {
    const ids = await Promise.all(["Ann", "Bob", "Cat"].map((n) => guest(server.url, n)));
    const clients = await Promise.all(ids.map((g) => new TestClient(server.url, g.token).ready()));
    expect((await scrape(server)).get("goblin_bazaar_sockets_connected")).toBe(3);

    const created = await clients[0]!.call("room:create", { ...GM, seats: 3 });
    const roomId = created.roomId as string;
    expect((await scrape(server)).get("goblin_bazaar_rooms", { status: "open", ...GM })).toBe(1);
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    let s = await scrape(server);
    expect(s.get("goblin_bazaar_rooms", { status: "open", ...GM })).toBe(0);
    expect(s.get("goblin_bazaar_rooms", { status: "playing", ...GM })).toBe(1);

    // A compare-and-swap conflict, forced: another writer (here the store, called directly) stores
    // a version this node has not seen; the next move's first attempt, built on the version this
    // node remembers, loses its swap and is made again on the stored one.
    const before = (await server.store.get(roomId))!;
    expect((await server.store.compareAndSetOrGet({ ...before, version: before.version + 1 }, before.version)).ok).toBe(true);
    const active = (before.state as { turn: number }).turn;
    await until(() => (clients[active]!.rooms.get(roomId)?.version ?? 0) >= before.version, "the first player's view");
    const legal = clients[active]!.view(roomId).legal as Array<{ type: string }>;
    const { randomLegalAction } = await import("../src/games/legal.js");
    const first = await clients[active]!.call("game:act", { roomId, action: randomLegalAction(legal as never, lcg(1)) });
    expect(first.ok, JSON.stringify(first)).toBe(true);
    expect((await scrape(server)).get("goblin_bazaar_room_cas_conflicts_total")).toBe(1);
    await until(() => (clients[active]!.rooms.get(roomId)?.version ?? 0) >= before.version + 2, "the view after the first move");

    // The finished game's first write fails (the database is down); the sweep writes it later.
    failing.on = true;
    const moves = 1 + (await playAnyActive(server.store, roomId, clients, lcg(7)));
    s = await scrape(server);
    expect(s.get("goblin_bazaar_moves_total", { ...GM, by: "player" })).toBe(moves);
    expect(s.get("goblin_bazaar_move_duration_seconds_count", { ...GM, by: "player" })).toBe(moves);
    expect(s.get("goblin_bazaar_move_duration_seconds_bucket", { ...GM, by: "player", le: "+Inf" })).toBe(moves);
    expect(s.get("goblin_bazaar_move_duration_seconds_sum", { ...GM, by: "player" })).toBeGreaterThan(0);
    expect(s.get("goblin_bazaar_moves_total", { game: "aucteraden", by: "player" })).toBe(0);
    expect(s.get("goblin_bazaar_rooms", { status: "playing", ...GM })).toBe(0);
    expect(s.get("goblin_bazaar_games_finished_total", GM)).toBe(1);

    s = await until(async () => {
      const x = await scrape(server);
      return x.get("goblin_bazaar_finished_game_writes_total", { result: "failed" }) >= 1 && x;
    }, "the failed write counted");
    expect(s.get("goblin_bazaar_finished_game_writes_total", { result: "written" })).toBe(0);
    expect(s.get("goblin_bazaar_finished_games_unrecorded")).toBe(1);
    failing.on = false;
    s = await until(async () => {
      const x = await scrape(server);
      return x.get("goblin_bazaar_finished_game_writes_total", { result: "written" }) === 1 && x;
    }, "the sweep's write counted");
    expect(s.get("goblin_bazaar_finished_game_writes_total", { result: "already-written" })).toBe(0);
    expect(s.get("goblin_bazaar_finished_games_unrecorded")).toBe(0);
    expect(s.get("goblin_bazaar_room_cas_conflicts_total")).toBe(1);

    for (const c of clients) c.close();
    await until(async () => (await scrape(server)).get("goblin_bazaar_sockets_connected") === 0, "the sockets to close");
  });

  it("observes how late timers fire by the server's clock, and counts a bot's move", async () => {
    const ids = await Promise.all(["Dee", "Eve", "Fay"].map((n) => guest(server.url, n)));
    const clients = await Promise.all(ids.map((g) => new TestClient(server.url, g.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { ...GM, seats: 3 })).roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    const started = (await server.store.get(roomId)) as Room;
    expect(started.clock, "a casual room has a clock by default").toBeTruthy();
    const deadline = nextDue(started, server.service.timing)!;

    // The seat to move runs out of time; the timer fires 2.5 s after its deadline.
    now = deadline + 2500;
    await server.timers.tick();
    let s = await scrape(server);
    expect(s.get("goblin_bazaar_timer_lag_seconds_count", { work: "timeout" })).toBe(1);
    expect(s.get("goblin_bazaar_timer_lag_seconds_sum", { work: "timeout" })).toBeCloseTo(2.5, 6);
    expect(s.get("goblin_bazaar_timer_lag_seconds_bucket", { work: "timeout", le: "2" })).toBe(0);
    expect(s.get("goblin_bazaar_timer_lag_seconds_bucket", { work: "timeout", le: "5" })).toBe(1);

    // A bot now plays that seat: due BOT_DELAY_MS after the time-out, it moves a second later.
    const timedOut = (await server.store.get(roomId)) as Room;
    const botDue = nextDue(timedOut, server.service.timing)!;
    now = botDue + 1000;
    await server.timers.tick();
    s = await scrape(server);
    expect(s.get("goblin_bazaar_timer_lag_seconds_count", { work: "bot" })).toBe(1);
    expect(s.get("goblin_bazaar_timer_lag_seconds_sum", { work: "bot" })).toBeCloseTo(1, 6);
    expect(s.get("goblin_bazaar_moves_total", { ...GM, by: "bot" })).toBe(1);
    expect(s.get("goblin_bazaar_move_duration_seconds_count", { ...GM, by: "bot" })).toBe(1);
    for (const c of clients) c.close();
  });

  it("answers loopback clients only (a client forwarded by a trusted proxy is not one)", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ ok: false, error: { code: "FORBIDDEN", message: expect.stringMatching(/only to this machine/) } });
    // A loopback address the outside client wrote itself, left of the one its proxy added, is no help.
    expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.9" } })).status).toBe(403);
    // A local client relayed by a local proxy is answered (with TRUST_PROXY, every hop counts).
    expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
  });
  it("counts chat messages refused by a table's chat limiter", async () => {
    now += 3_600_000; // fresh windows for every limiter
    const fay = await new TestClient(server.url, (await guest(server.url, "Fay")).token).ready();
    const roomId = (await fay.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
    const before = (await scrape(server)).get("goblin_bazaar_rate_limited_total", { scope: "chat" });
    // Five in ten seconds per player per table (chat.ts CHAT_LIMITS): the sixth is refused.
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await fay.call("chat:send", { roomId, text: `m${i}` });
      codes.push(a.ok ? "ok" : a.error!.code);
    }
    expect(codes).toEqual(["ok", "ok", "ok", "ok", "ok", "RATE_LIMITED"]);
    const s = await scrape(server);
    expect(s.get("goblin_bazaar_rate_limited_total", { scope: "chat" })).toBe(before + 1);
    fay.close();
  });
});

describe("GET /metrics: a token, rate-limit refusals, METRICS=off", () => {
  const TOKEN = "metrics-token-0123456789abcdef";
  let server: RunningServer;
  let off: RunningServer;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openTestDatabase(false);
    dispose = opened.dispose;
    const config = testConfig({ metricsToken: TOKEN, rateLimitPerSecond: 2 });
    server = await startServer(config, { db: opened.db, logger: createLogger(config.logLevel, "node-token") });
    const offConfig = testConfig({ metrics: "off" });
    off = await startServer(offConfig, { db: opened.db, logger: createLogger(offConfig.logLevel, "node-off") });
  });

  afterAll(async () => {
    await server?.close();
    await off?.close();
    await dispose?.();
  });

  const auth = { authorization: `Bearer ${TOKEN}` };

  it("requires the bearer token from anyone, loopback included, when METRICS_TOKEN is set", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-wrong-token" }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("BAD_TOKEN");
    }
    // From an outside address (forwarded), the token is enough.
    const s = await scrape(server, { ...auth, "x-forwarded-for": "203.0.113.9" });
    expect(s.get("goblin_bazaar_sockets_connected")).toBe(0);
  });

  it("counts a socket's messages refused with RATE_LIMITED", async () => {
    const client = await new TestClient(server.url).ready();
    // Twenty at once against a bucket of two a second: most are refused.
    const acks = await Promise.all(Array.from({ length: 20 }, () => client.call("lobby:list")));
    const refused = acks.filter((a) => a.error?.code === "RATE_LIMITED").length;
    expect(refused).toBeGreaterThan(0);
    const s = await scrape(server, auth);
    expect(s.get("goblin_bazaar_rate_limited_total", { scope: "socket" })).toBe(refused);
    expect(s.get("goblin_bazaar_rate_limited_total", { scope: "account" })).toBe(0);
    client.close();
  });

  it("counts registrations refused by the account limiter", async () => {
    const register = (n: number) =>
      fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.77" },
        body: JSON.stringify({ name: `Limited ${n}`, password: `password of limited ${n}` }),
      });
    // Five registrations an hour from one address (rate-limit.ts ACCOUNT_LIMITS); the sixth is refused.
    for (let n = 1; n <= 5; n++) expect((await register(n)).status).toBe(200);
    const sixth = await register(6);
    expect(sixth.status).toBe(429);
    expect(((await sixth.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    expect((await scrape(server, auth)).get("goblin_bazaar_rate_limited_total", { scope: "account" })).toBe(1);
  });

  it("checks METRICS and METRICS_TOKEN, naming the variable", () => {
    expect(() => loadConfig({ METRICS: "yes" })).toThrow(/METRICS must be one of on, off/);
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be 16 to 256/);
    expect(() => loadConfig({ METRICS_TOKEN: "has a space in it, sixteen+" })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS: "off", METRICS_TOKEN: TOKEN })).toMatchObject({ metrics: "off", metricsToken: TOKEN });
    expect(loadConfig({})).toMatchObject({ metrics: "on", metricsToken: undefined });
  });

  it("has no /metrics route with METRICS=off", async () => {
    const res = await fetch(`${off.url}/metrics`);
    const text = await res.text();
    // Not found: a JSON 404, or the web client's page when it is built; never metrics.
    expect(res.headers.get("content-type")).not.toMatch(/^text\/plain/);
    expect(text).not.toContain("goblin_bazaar_");
  });
});

describe.skipIf(!REDIS_URL)("GET /metrics: change-feed lag between two nodes", () => {
  let a: RunningServer;
  let b: RunningServer;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openTestDatabase(false);
    dispose = opened.dispose;
    const prefix = newPrefix();
    const backend = { name: "redis", redis: true, realPg: false };
    a = await startTestServer(backend, opened.db, prefix, "node-a");
    b = await startTestServer(backend, opened.db, prefix, "node-b");
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dispose?.();
  });

  it("observes on one node the changes another node wrote, and never its own", async () => {
    const ann = await guest(a.url, "Ann");
    const client = await new TestClient(a.url, ann.token).ready();
    expect((await client.call("room:create", { ...GM, seats: 3 })).ok).toBe(true);
    const s = await until(async () => {
      const x = await scrape(b);
      return x.get("goblin_bazaar_change_feed_lag_seconds_count") >= 1 && x;
    }, "node B to read node A's change");
    expect(s.get("goblin_bazaar_change_feed_lag_seconds_sum")).toBeGreaterThanOrEqual(0);
    expect(s.get("goblin_bazaar_change_feed_lag_seconds_bucket", { le: "+Inf" })).toBe(s.get("goblin_bazaar_change_feed_lag_seconds_count"));
    // Node A skips its own entries in the feed: nothing observed there.
    expect((await scrape(a)).get("goblin_bazaar_change_feed_lag_seconds_count")).toBe(0);
    client.close();
  });
});
