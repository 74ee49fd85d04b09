/**
 * Test harness: real servers on loopback ports, real Socket.IO clients, and the database
 * variants (embedded PGlite always; real Postgres when GB_TEST_PG_URL is set).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { loadConfig, type Config } from "../../src/config.js";
import { openDatabase, type Database } from "../../src/db/client.js";
import { createLogger } from "../../src/logger.js";
import { startServer, type RunningServer } from "../../src/server.js";
import { randomLegalAction as randomLegalActionOf } from "../../src/games/legal.js";
import type { Room } from "../../src/platform/room.js";
import { absorbPush, absorbSyncReply, baseOf, isUpdate, roomOf, type Absorbed } from "../../src/protocol/room-state.js";
import type { RoomState, RoomView } from "../../src/protocol/wire.js";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";

export const PG_URL = process.env.GB_TEST_PG_URL;
export const REDIS_URL = process.env.GB_TEST_REDIS_URL;

export interface Backend {
  name: string;
  redis: boolean;
  realPg: boolean;
}

/** Memory store + PGlite always; Redis + real Postgres when both are available. */
export function backends(): Backend[] {
  const list: Backend[] = [{ name: "in-process rooms + PGlite", redis: false, realPg: false }];
  if (REDIS_URL) list.push({ name: `Redis rooms + ${PG_URL ? "Postgres" : "PGlite"}`, redis: true, realPg: !!PG_URL });
  return list;
}

/** A fresh throwaway database on the real Postgres server; dropped by the returned function. */
export async function freshPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!PG_URL) throw new Error("no real Postgres configured");
  const name = `gb_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The database two nodes of one test share: a fresh real Postgres database opened once per node
 * (each its own pool, as two processes would), else one embedded PGlite for both.
 */
export async function twoNodeDatabases(): Promise<{ a: Database; b: Database; dispose: () => Promise<void> }> {
  if (PG_URL) {
    const fresh = await freshPgDatabase();
    const a = await openDatabase({ url: fresh.url });
    const b = await openDatabase({ url: fresh.url });
    return { a, b, dispose: async () => (await a.close(), await b.close(), await fresh.drop()) };
  }
  const db = await openDatabase({ pgliteDir: "memory://" });
  return { a: db, b: db, dispose: () => db.close() };
}

/**
 * Two nodes against one Redis for a describe block (each with its own handle on one database, as
 * twoNodeDatabases gives): `t.a` and `t.b` are set by its beforeAll and closed by its afterAll.
 * `clock`: both nodes' clock (then manual timers, as startTestServer takes it).
 */
export function useTwoNodes(opts: { clock?: () => number; config?: TestServerOptions["config"] } = {}): { readonly a: RunningServer; readonly b: RunningServer } {
  const t = {} as { a: RunningServer; b: RunningServer };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const prefix = newPrefix();
    const dbs = await twoNodeDatabases();
    dispose = dbs.dispose;
    const backend = { name: "two nodes", redis: true, realPg: !!PG_URL };
    const more = opts.config ? { config: opts.config } : {};
    t.a = await startTestServer(backend, dbs.a, prefix, "node-a", opts.clock, more);
    t.b = await startTestServer(backend, dbs.b, prefix, "node-b", opts.clock, more);
  });
  afterAll(async () => {
    await t.a?.close();
    await t.b?.close();
    await dispose?.();
  });
  return t;
}

/**
 * One test server for a describe block, on a database of its own (dropped afterwards): `t.server`
 * and `t.db` are set by its beforeAll. `clock` and the rest: as startTestServer takes them.
 */
export function useTestServer(backend: Backend, opts: { clock?: () => number } & TestServerOptions = {}): { server: RunningServer; db: Database } {
  const t = {} as { server: RunningServer; db: Database };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ db: t.db, dispose } = await openTestDatabase(backend.realPg));
    const { clock, ...more } = opts;
    t.server = await startTestServer(backend, t.db, newPrefix(), more.config?.nodeId ?? "node-a", clock, more);
  });
  afterAll(async () => {
    await t.server?.close();
    await dispose?.();
  });
  return t;
}

export async function openTestDatabase(realPg: boolean): Promise<{ db: Database; dispose: () => Promise<void> }> {
  if (realPg) {
    const fresh = await freshPgDatabase();
    const db = await openDatabase({ url: fresh.url });
    return { db, dispose: async () => (await db.close(), await fresh.drop()) };
  }
  const db = await openDatabase({ pgliteDir: "memory://" });
  return { db, dispose: () => db.close() };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    port: 0,
    host: "127.0.0.1",
    logLevel: process.env.TEST_LOG_LEVEL ?? "silent",
    tokenSecret: "test-secret-test-secret-test-secret",
    dataDir: mkdtempSync(join(tmpdir(), "gb-test-")),
    // Rooms in memory only (loadConfig's default file is under ./data): a test that restarts a
    // server on the same rooms file sets its own (test/restart.test.ts).
    roomsFile: undefined,
    botDelayMs: 5,
    rateLimitPerSecond: 1000,
    // The HTTP quotas (http-quotas.ts) count per address, and every test client is 127.0.0.1;
    // test/http-quotas.test.ts sets its own.
    httpRatePerMinute: 0,
    httpIdentityRatePerMinute: 0,
    guestsPerHour: 0,
    // Tests register accounts each from its own X-Forwarded-For address (support/accounts.ts).
    trustProxy: true,
    ...overrides,
  };
}

/** A test server's settings beyond testConfig's, its Redis, its sweep and its timers. */
export interface TestServerOptions {
  /** A Redis of the test's own (test/support/own-services.ts) instead of the shared REDIS_URL. */
  redisUrl?: string;
  /** How often it sweeps for unrecorded games, ms (default 500). */
  sweepEveryMs?: number;
  /** Settings over testConfig's (limits, secrets, proxy trust, ...). */
  config?: Partial<Config>;
  /** With a clock: timers still fire by themselves (polling, as in production), not only on `server.timers.tick()`. */
  realTimers?: boolean;
}

/** `clock`: the servers' injected clock, with timers fired only by `server.timers.tick()` (unless `more.realTimers`). */
export async function startTestServer(backend: Backend, db: Database, prefix: string, nodeId = "node-a", clock?: () => number, more: TestServerOptions = {}): Promise<RunningServer> {
  const config = testConfig({ redisUrl: backend.redis ? (more.redisUrl ?? REDIS_URL) : undefined, nodeId, ...more.config });
  return startServer(config, {
    db,
    redisPrefix: prefix,
    logger: createLogger(config.logLevel, nodeId),
    sweepEveryMs: more.sweepEveryMs ?? 500,
    ...(clock ? { now: clock, manualTimers: !more.realTimers } : {}),
  });
}

export const newPrefix = () => `gbt:${randomBytes(4).toString("hex")}:`;

export interface Ack {
  ok: boolean;
  error?: { code: string; message: string };
  [k: string]: unknown;
}

/**
 * A protocol client that records every payload it receives, and keeps each room's view from
 * them with the web client's own functions (src/protocol/room-state.ts): updates applied to the
 * view of their base version, whole views taken; a gap re-syncs with `since`. Like the web client,
 * it keeps no view from a push for a room it holds none of (it did not ask to watch it): such
 * pushes are counted in `unwatched`, and a test that waits on one syncs the room itself.
 */
export class TestClient {
  readonly socket: Socket;
  /** Every event received, in order, as [event, payload]. */
  readonly received: Array<[string, unknown]> = [];
  /** Every ack received. */
  readonly acks: unknown[] = [];
  /** Every room state received as it was sent (whole views and updates), pushed or in an ack, in the order they arrived. */
  readonly states: Array<Record<string, unknown>> = [];
  /**
   * Every view this client came to hold, in order, shaped like a whole push: the view as applied,
   * with `log` = only the entries that payload brought, `logFrom` = 0 when that was every entry
   * (a whole view), else the whole push's `logFrom` (null for an update), and `base` = the version
   * the payload applied to (null when it replaced the view).
   */
  readonly applied: Array<Record<string, unknown>> = [];
  /** Every view this client came to hold, whole (as `rooms` had it), in order. */
  readonly views: RoomView[] = [];
  /** Latest view per room (whole: `log` has every entry this viewer may see), kept up to date from pushes and acks. */
  readonly rooms = new Map<string, { version: number; state: Record<string, unknown>; log: unknown[] }>();
  /** Pushes that did not follow the view held (each re-synced). */
  gaps = 0;
  /** Updates received (pushed, or in a sync reply). */
  updates = 0;
  /** Pushes for rooms this client holds no view of, and no reply gave one after (the web client keeps the newest for such a reply). */
  unwatched = 0;
  /** The newest push per room that came before a view of it (as the web client's keepEarly). */
  private readonly early = new Map<string, RoomState>();

  constructor(url: string, token?: string) {
    this.socket = connect(url, { transports: ["websocket"], auth: token ? { token } : {}, reconnection: false, forceNew: true });
    this.socket.onAny((event: string, payload: unknown) => {
      this.received.push([event, payload]);
      if (event === "room:state") {
        this.states.push(payload as Record<string, unknown>);
        this.absorb(payload as RoomState);
      }
    });
  }

  private held(roomId: string): RoomView | undefined {
    return this.rooms.get(roomId)?.state as RoomView | undefined;
  }

  /** Hold `view`, which `payload` made (from the view of version `base`, or null: replacing it). */
  private hold(view: RoomView, payload: RoomState, base: number | null): void {
    this.rooms.set(view.roomId, { version: view.version, state: view as unknown as Record<string, unknown>, log: view.log });
    const whole = !isUpdate(payload);
    const logFrom = whole ? payload.logFrom : null;
    const log = whole ? payload.log : (payload.l ?? []);
    this.applied.push({ ...view, log, logFrom, base });
    this.views.push(view);
  }

  private absorb(payload: RoomState): void {
    const held = this.held(roomOf(payload));
    if (isUpdate(payload)) this.updates++;
    if (held === undefined) {
      // As the web client: kept for the reply on its way (its keepEarly), applied after it.
      this.early.delete(roomOf(payload));
      this.early.set(roomOf(payload), payload);
      return void this.unwatched++;
    }
    const r: Absorbed = absorbPush(held, payload);
    if (r.kind === "stale") return;
    if (r.kind === "applied") return this.hold(r.view, payload, held ? (isUpdate(payload) ? baseOf(payload) : held.version) : null);
    this.gaps++;
    // A catch-up cut off by close() is the test ending (seen in CI); any other failure still surfaces.
    this.sync(roomOf(payload), r.kind === "broken").catch((e: unknown) => {
      if (!this.closed) throw e;
    });
  }

  async ready(): Promise<this> {
    if (this.socket.connected) return this;
    await new Promise<void>((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("connect_error", (e) => reject(e));
    });
    return this;
  }

  /** Send a request; a whole view in its reply is held (as the web client does), unless older than the one held. */
  async call(event: string, payload: unknown = {}): Promise<Ack> {
    const ack = (await this.socket.timeout(10_000).emitWithAck(event, payload)) as Ack;
    this.acks.push(ack);
    const state = ack.state as RoomState | undefined;
    if (state) {
      this.states.push(state as unknown as Record<string, unknown>);
      if (isUpdate(state)) this.updates++;
      else if (ack.ok && event !== "room:sync") this.takeReply(undefined, state);
      this.takeEarly(roomOf(state));
    }
    return ack;
  }

  /** A push that came before the reply that gave this room's view (the web client's keepEarly): applied after it. */
  private takeEarly(roomId: string): void {
    const early = this.early.get(roomId);
    if (early === undefined || this.held(roomId) === undefined) return;
    this.early.delete(roomId);
    this.unwatched--;
    this.absorb(early);
  }

  private takeReply(sent: RoomView | undefined, state: RoomState): Absorbed {
    const r = absorbSyncReply(this.held(roomOf(state)), sent, state);
    if (r.kind === "applied") this.hold(r.view, state, isUpdate(state) ? baseOf(state) : null);
    return r;
  }

  /**
   * `room:sync`, as the web client sends it: with `since` = the version held (none held, or
   * `whole`: without), the reply applied; an update that does not fit asks again without `since`.
   */
  async sync(roomId: string, whole = false): Promise<Ack> {
    const sent = whole ? undefined : this.held(roomId);
    const ack = await this.call("room:sync", sent ? { roomId, since: sent.version } : { roomId });
    if (ack.ok && this.takeReply(sent, ack.state as RoomState).kind === "broken") return this.sync(roomId, true);
    this.takeEarly(roomId);
    return ack;
  }

  view(roomId: string): Record<string, unknown> {
    const r = this.rooms.get(roomId);
    if (!r) throw new Error(`no view of ${roomId}`);
    return r.state;
  }

  private closed = false;

  close(): void {
    this.closed = true;
    this.socket.close();
  }
}


export async function guest(baseUrl: string, name: string): Promise<{ token: string; player: { id: string; name: string } }> {
  const res = await fetch(`${baseUrl}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
  const body = (await res.json()) as { token: string; player: { id: string; name: string } };
  return body;
}

export async function until<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Plays a started room to the end: the seat that must act (read from the server's store)
 * picks a random legal action from its own latest view, as a thin client would.
 */
export async function playToEnd(
  store: { get(id: string): Promise<{ status: string; version: number; state?: unknown } | null> },
  roomId: string,
  clients: TestClient[],
  random: () => number,
  maxActions = 5000,
): Promise<number> {
  const { randomLegalAction } = await import("../../src/games/legal.js");
  let actions = 0;
  for (; actions < maxActions; actions++) {
    const room = (await store.get(roomId))!;
    if (room.status === "finished") return actions;
    const seat = (room.state as { turn: number }).turn;
    const me = clients[seat]!;
    const mine = await until(() => {
      const r = me.rooms.get(roomId);
      return r && r.version >= room.version ? r.state : undefined;
    }, `seat ${seat} to see v${room.version}`);
    const action = randomLegalAction(mine.legal as import("../../src/games/types.js").LegalAction[], random);
    const ack = await me.call("game:act", { roomId, action });
    if (!ack.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${JSON.stringify(ack)}`);
  }
  throw new Error("game did not end");
}

/**
 * Plays a started room to the end, the way several thin clients would: each step a random seat
 * among those the server says must act (simultaneous steps have several) waits until its own view
 * shows the room's version, checks that view agrees on who is active, and sends the action `pick`
 * chooses from that view's legal actions (default: a uniformly random one). `between(n)` runs
 * before the n-th action (0-based): a test may reconnect a client there (by replacing it in
 * `clients`) or bring in a late spectator.
 */
export async function playAnyActive(
  store: { get(id: string): Promise<{ status: string; version: number; game: string; state?: unknown } | null> },
  roomId: string,
  clients: TestClient[],
  random: () => number,
  pick: (legal: import("../../src/games/types.js").LegalAction[], random: () => number) => import("../../src/games/types.js").Action | null = (legal, r) =>
    randomLegalActionOf(legal, r),
  maxActions = 5000,
  between?: (actions: number) => Promise<void>,
): Promise<number> {
  const { findGame } = await import("../../src/games/registry.js");
  for (let actions = 0; actions < maxActions; actions++) {
    await between?.(actions);
    const room = (await store.get(roomId))!;
    if (room.status === "finished") return actions;
    const active: number[] = findGame(room.game)!.activeSeats(room.state);
    const seat = active[Math.floor(random() * active.length)]!;
    const me = clients[seat]!;
    const mine = await until(() => {
      const r = me.rooms.get(roomId);
      return r && r.version >= room.version ? r.state : undefined;
    }, `seat ${seat} to see v${room.version}`);
    if (JSON.stringify(mine.active) !== JSON.stringify(active)) throw new Error(`seat ${seat} sees active ${JSON.stringify(mine.active)}, the server ${JSON.stringify(active)}`);
    const action = pick(mine.legal as import("../../src/games/types.js").LegalAction[], random);
    if (!action) throw new Error(`seat ${seat} is active but has no legal action`);
    const ack = await me.call("game:act", { roomId, action });
    if (!ack.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${JSON.stringify(ack)}`);
  }
  throw new Error("game did not end");
}

export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 0x100000000);
}

/** A server whose every room version and every info-level log line are kept, for leak tests. */
export interface RecordingServer {
  server: RunningServer;
  /** Every room version written, by `<roomId>@<version>`. */
  history: Map<string, Room>;
  /** Everything the server logged (info level and up). */
  logText: string;
}

/** Starts a RecordingServer (in-process rooms, PGlite) for the enclosing describe block. */
export function useRecordingServer(): RecordingServer {
  const rec = { history: new Map<string, Room>(), logText: "" } as RecordingServer;
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestDatabase(false);
    dispose = opened.dispose;
    const sink = new Writable({ write: (chunk, _enc, done) => ((rec.logText += String(chunk)), done()) });
    rec.server = await startServer(testConfig(), { db: opened.db, logger: pino({ level: "info" }, sink) });
    rec.server.service.onChange((_p, next) => rec.history.set(`${next.id}@${next.version}`, next));
  });
  afterAll(async () => {
    await rec.server?.close();
    await dispose?.();
  });
  return rec;
}

/**
 * A server (in-process rooms, embedded PGlite) whose built web client is `files` (path under
 * client/dist -> contents), started before the describe block's tests and closed after:
 * `const t = useClientDirServer({...});` then `t.server` inside them.
 */
export function useClientDirServer(files: Record<string, string | Buffer>): { readonly server: RunningServer } {
  let server: RunningServer | undefined;
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const clientDir = mkdtempSync(join(tmpdir(), "gb-client-"));
    for (const [path, body] of Object.entries(files)) {
      mkdirSync(dirname(join(clientDir, path)), { recursive: true });
      writeFileSync(join(clientDir, path), body);
    }
    const opened = await openTestDatabase(false);
    dispose = opened.dispose;
    const config = testConfig({ clientDir });
    server = await startServer(config, { db: opened.db, logger: createLogger(config.logLevel, "client-dir") });
  });
  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });
  return {
    get server() {
      return server!;
    },
  };
}
