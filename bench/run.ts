/**
 * `npm run bench`: the load benchmark (docs/performance.md).
 *
 * 1. Ours: starts the real server (`node dist/main.js`, Redis rooms, a throwaway Postgres
 *    database gb_bench_<random>, its own Redis key prefix), one node or two (--nodes 2), and
 *    from separate load-generator processes (load.ts) drives ROOMS Goblin Market rooms of SEATS
 *    players + SPECTATORS through the public protocol, one action every PERIOD ms per room.
 * 2. Baseline: the same generator drives a bare Socket.IO server (baseline-server.ts) with the
 *    same rooms, sizes, rate and payload (a typical room:state captured in step 1).
 * 3. With --queue, the quick play queue scenario on a fresh server of ours (queue-load.ts):
 *    players join a casual pool at a steady rate, accept, and leave on queue:ready.
 * 4. Reports them, and the ratios, as JSON (stdout, or --json <file>) and as a markdown table
 *    (stderr, and appended to --md <file> if asked: nothing is written into the repository's docs
 *    unless that file is one of them).
 *
 * Afterwards it drops its database and deletes its Redis keys.
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { summarizeGc, type GcSummary } from "./gc-watch.js";
import type { LoadConfig, LoadResult } from "./load.js";
import type { QueueLoadConfig, QueueLoadResult } from "./queue-load.js";
import { appendReport, machine, markdown, ratios, targets, type BenchReport, type QueueResult, type QueueSettings, type Settings, type SystemResult } from "./report.js";
import { slowCommandsSince, slowLogMark } from "./redis-slowlog.js";
import { startTimerProbe } from "./timer-probe.js";
import { CpuWindow, machineDelta, machineTimes, peakRssBytes, percentile, summarize, type KernelCounts, type MachineTimes } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The repository: the parent of this package's folder (bench/, the nearest folder above this file
 * with a package.json), whether this runs compiled (bench/dist/bench/run.js) or from source.
 */
const root = (() => {
  let dir = here;
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${here}`);
    dir = up;
  }
  return dirname(dir);
})();

const HELP = `npm run bench -- [options]
  --rooms N          rooms (default 1000)
  --seats N          players per room (default 4)
  --spectators N     spectators per room (default 1)
  --period MS        one action per room every MS milliseconds (default 1000)
  --seconds S        measured window (default 30)
  --nodes 1|2        server nodes for ours (default 1)
  --warm N           before the window, play each room 0..N actions so games are mid-way (default 50)
  --generators N     load generator processes (default 1)
  --timer-rooms N    ours: rooms that only timers move (bots in every seat), to measure timer lag
                     under the load; their bot moves count as actions in server CPU per action
                     (default 20; 0 for none, e.g. to compare with a build without timers)
  --only ours|baseline   run one side only
  --baseline-stores  the baseline also stores each move in Redis (one SET of the payload, awaited
                     before it sends anything), to see what a store on the move path costs a bare
                     server; the p99 target is not judged against such a baseline
  --json FILE        write the JSON report to FILE (default: print it on stdout)
  --md FILE          append the markdown table to FILE (created if missing; e.g. results.md
                     to collect runs). Without it the table is only printed on stderr: the
                     bench writes no file unless asked
  --label TEXT       a label for the table heading
  --profile DIR      run the server with --cpu-prof into DIR and summarise the top functions
                     (the baseline server's profile goes to DIR/baseline)
  --queue            after the move workload(s), run the quick play queue scenario on a fresh
                     server of ours: players join a casual clockless pool at a steady rate, accept
                     at once and leave on queue:ready; reports time to table and server CPU per
                     queued player beside the baseline's CPU per action (off by default: it adds
                     about a minute). With --only baseline, the queue runs beside the baseline only
  --queue-rate N     players arriving per second (default 40)
  --queue-seconds S  the queue's measured window (default: --seconds)
  --queue-seats N    table size of the pool (default 4; Goblin Market takes 3 to 6)
Environment: REDIS_URL (default redis://127.0.0.1:6379), DATABASE_URL (default
postgresql://postgres@127.0.0.1:5432/postgres; the bench makes and drops its own database there).
Diagnostics: BENCH_SERVER_NODE_ARGS (extra node flags for the server, e.g. "--trace-gc"),
BENCH_BASELINE_NODE_ARGS (the same for the baseline server),
BENCH_TIMELINE=FILE (the generator writes "<send time ms> <latency ms>" per measured action
and "<time ms> end" per game that ends in the window; the baseline's to FILE.baseline),
BENCH_SERVER_MAIN (another build's main.js), BENCH_LOAD_NODE_ARGS (node flags for the load
generator, e.g. "--cpu-prof --cpu-prof-dir /tmp/gen"), BENCH_LOG_LEVEL, BENCH_GC_DIR=DIR (keep
every process's GC and stall watch file there: gc-watch.ts says what a line holds).`;

const OPTIONS = {
  rooms: { type: "string", default: "1000" },
  seats: { type: "string", default: "4" },
  spectators: { type: "string", default: "1" },
  period: { type: "string", default: "1000" },
  seconds: { type: "string", default: "30" },
  nodes: { type: "string", default: "1" },
  warm: { type: "string", default: "50" },
  generators: { type: "string", default: "1" },
  "timer-rooms": { type: "string", default: "20" },
  only: { type: "string" },
  json: { type: "string" },
  md: { type: "string" },
  label: { type: "string" },
  profile: { type: "string" },
  queue: { type: "boolean", default: false },
  "baseline-stores": { type: "boolean", default: false },
  "queue-rate": { type: "string", default: "40" },
  "queue-seconds": { type: "string" },
  "queue-seats": { type: "string", default: "4" },
  help: { type: "boolean", default: false },
} as const;

function parse() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (e) {
    // --report FILE and --no-append are gone: the table is appended only where --md says.
    console.error(`${e instanceof Error ? e.message : String(e)}\n\n${HELP}`);
    process.exit(2);
  }
}
const args = parse();
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

function num(name: string, v: string | undefined, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number >= ${min}\n\n${HELP}`);
    process.exit(2);
  }
  return n;
}

const settings: Settings = {
  game: "goblin-market",
  rooms: num("rooms", args.rooms, 1),
  timerRooms: num("timer-rooms", args["timer-rooms"], 0),
  seats: num("seats", args.seats, 3),
  spectators: num("spectators", args.spectators, 0),
  periodMs: num("period", args.period, 1),
  seconds: num("seconds", args.seconds, 1),
  nodes: num("nodes", args.nodes, 1),
  warm: num("warm", args.warm, 0),
  generators: num("generators", args.generators, 1),
  ...(args["baseline-stores"] ? { baselineStores: true } : {}),
};
const queueSettings: QueueSettings | null = args.queue
  ? {
      game: "goblin-market",
      seats: num("queue-seats", args["queue-seats"], 3),
      rate: num("queue-rate", args["queue-rate"], 1),
      seconds: num("queue-seconds", args["queue-seconds"] ?? args.seconds, 1),
      pool: "",
    }
  : null;
if (queueSettings) {
  if (queueSettings.seats > 6) {
    console.error("--queue-seats: Goblin Market takes 3 to 6 players");
    process.exit(2);
  }
  queueSettings.pool = `${queueSettings.game}/${queueSettings.seats}/none/casual`;
}
if (settings.seats > 6) {
  console.error("--seats: Goblin Market takes 3 to 6 players");
  process.exit(2);
}
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const PG_URL = process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const runId = randomBytes(4).toString("hex");
const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];
async function cleanup(): Promise<void> {
  for (const c of children) c.kill("SIGKILL");
  for (const f of cleanups.splice(0).reverse()) await f().catch((e: unknown) => log(`cleanup: ${String(e)}`));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      const port = typeof a === "object" && a ? a.port : 0;
      srv.close(() => res(port));
    });
    srv.on("error", rej);
  });
}

function track(child: ChildProcess, name: string): ChildProcess {
  children.add(child);
  child.once("exit", (code, signal) => {
    children.delete(child);
    if (code && code !== 0) log(`${name} exited with ${code ?? signal}`);
  });
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => (clearTimeout(t), res()));
    child.kill("SIGTERM");
  });
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server at ${url} exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`server at ${url} did not become healthy`);
}

// ---------------------------------------------------------------- services

async function pgQuery<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

async function freshDatabase(tag = ""): Promise<{ name: string; url: string }> {
  const name = `gb_bench_${runId}${tag}`;
  await pgQuery(PG_URL, `CREATE DATABASE ${name}`);
  cleanups.push(async () => void (await pgQuery(PG_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** Transactions (committed + rolled back) and sessions so far in one database. */
async function pgTransactions(db: string): Promise<{ xacts: number; sessions: number }> {
  const rows = await pgQuery<{ n: string; s: string | null }>(
    PG_URL,
    "SELECT (xact_commit + xact_rollback)::text AS n, sessions::text AS s FROM pg_stat_database WHERE datname = $1",
    [db],
  ).catch(() => pgQuery<{ n: string; s: string | null }>(PG_URL, "SELECT (xact_commit + xact_rollback)::text AS n, NULL AS s FROM pg_stat_database WHERE datname = $1", [db]));
  return { xacts: Number(rows[0]?.n ?? 0), sessions: Number(rows[0]?.s ?? 0) };
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== "0");
}

async function redisCpu(redis: Redis): Promise<number | null> {
  const info = await redis.info("cpu");
  const get = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, "m").exec(info)?.[1] ?? NaN);
  const v = get("used_cpu_sys") + get("used_cpu_user");
  return Number.isFinite(v) ? v : null;
}

async function redisFootprint(redis: Redis, prefix: string): Promise<NonNullable<SystemResult["redis"]>> {
  const live: number[] = [];
  const rooms = new Map<string, number>();
  const tails = new Map<string, number>();
  let all = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    const pipe = redis.pipeline();
    for (const k of keys) {
      pipe.memory("USAGE", k, "SAMPLES", "0");
      pipe.type(k);
    }
    const res = (await pipe.exec()) ?? [];
    for (let i = 0; i < keys.length; i++) {
      const bytes = Number(res[2 * i]?.[1] ?? 0);
      all += bytes;
      if (keys[i]!.startsWith(`${prefix}room:`)) rooms.set(keys[i]!.slice(`${prefix}room:`.length), bytes);
      if (keys[i]!.startsWith(`${prefix}room-tail:`)) tails.set(keys[i]!.slice(`${prefix}room-tail:`.length), bytes);
    }
  } while (cursor !== "0");
  // A room is its hash plus its tail list (see redis-room-store.ts).
  for (const [id, bytes] of rooms) {
    const summary = await redis.hget(`${prefix}room:${id}`, "summary");
    if (summary && (JSON.parse(summary) as { status: string }).status === "playing") live.push(bytes + (tails.get(id) ?? 0));
  }
  const streamBytes = Number((await redis.memory("USAGE", `${prefix}socket.io`, "SAMPLES", "0")) ?? 0);
  const feedBytes = Number((await redis.memory("USAGE", `${prefix}room-changes`, "SAMPLES", "0")) ?? 0);
  live.sort((a, b) => a - b);
  return {
    cpuSeconds: null,
    liveRooms: live.length,
    bytesPerLiveRoomMean: live.length ? Math.round(live.reduce((a, b) => a + b, 0) / live.length) : 0,
    bytesPerLiveRoomP95: live.length ? percentile(live, 95) : 0,
    bytesPerLiveRoomMax: live.length ? live[live.length - 1]! : 0,
    streamBytes,
    feedBytes,
    allKeysBytesPerLiveRoom: live.length ? Math.round(all / live.length) : 0,
  };
}

// ---------------------------------------------------------------- load generators

/** Extra node flags from an environment variable (space-separated; none if unset). */
function envArgs(name: string): string[] {
  return (process.env[name] ?? "").split(/\s+/).filter(Boolean);
}

/**
 * Node flags of the load generator processes: a young generation large enough that the updates
 * it holds (each seat's latest, replaced every second) die young, then BENCH_LOAD_NODE_ARGS
 * (diagnostics). With V8's default the generator scavenged ~6 times a second and ran a
 * mark-compact every ~5 s, whose marking threads took both cores from the server it measures;
 * with 128 MB semi-spaces it ran none in most 30 s windows (docs/performance.md, round 7), but
 * 1-2 in some; with its old generation allowed to grow to 4x what survived its last full
 * collection (--heap-growing-percent=300: memory is no concern for the instrument) none were seen
 * in round 8's runs. The same for both targets. --no-memory-reducer: in 120 s windows V8's memory
 * reducer ran three mark-compacts in a row (~5 s apart) in the generator about 100 s in, each
 * shrinking its young generation (scavenges 60 -> 105 per window), with the server stalling
 * beside each; without it, none (docs/performance.md, round 11). --expose-gc: the generator
 * collects its heap once before each window (load.ts), so set-up's garbage is not marked in it.
 */
const LOAD_NODE_ARGS = ["--max-semi-space-size=128", "--heap-growing-percent=300", "--no-memory-reducer", "--expose-gc", ...envArgs("BENCH_LOAD_NODE_ARGS")];

/** Every measured process (servers, generators) records its GC pauses and stalls (gc-watch.ts). */
const GC_WATCH = ["--import", pathToFileURL(join(here, "gc-watch.js")).href];
let gcDirMade: string | null = null;
/** Where the watch files go: BENCH_GC_DIR (kept), else a temporary folder made on first use and removed at the end. */
function gcDir(): string {
  if (gcDirMade === null) {
    const kept = process.env.BENCH_GC_DIR;
    if (kept) {
      mkdirSync(kept, { recursive: true });
      gcDirMade = kept;
    } else {
      const dir = mkdtempSync(join(tmpdir(), "gb-bench-gc-"));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      gcDirMade = dir;
    }
  }
  return gcDirMade;
}

/** GC and stalls of the processes whose watch files are given (together), inside [from, from + window]. */
function gcOf(files: string[], from: number, seconds = settings.seconds): GcSummary | null {
  const texts = files.filter((f) => existsSync(f)).map((f) => readFileSync(f, "utf8"));
  return texts.length === 0 ? null : summarizeGc(texts.join("\n"), from, from + seconds * 1000);
}

interface Generators {
  procs: ChildProcess[];
  go(): Promise<LoadResult[]>;
}

async function startGenerators(base: Omit<LoadConfig, "rooms" | "roomOffset" | "seed">, gcFile: (g: number) => string): Promise<Generators> {
  const n = Math.min(settings.generators, settings.rooms);
  const procs: ChildProcess[] = [];
  const ready: Array<Promise<void>> = [];
  const results: Array<Promise<LoadResult>> = [];
  let offset = 0;
  for (let g = 0; g < n; g++) {
    const rooms = Math.floor(settings.rooms / n) + (g < settings.rooms % n ? 1 : 0);
    const cfg: LoadConfig = { ...base, rooms, roomOffset: offset, seed: 0x9e3779b9 ^ (g + 1), sampleFile: g === 0 ? base.sampleFile : undefined };
    offset += rooms;
    const child = track(fork(join(here, "load.js"), [], { env: { ...process.env, BENCH_LOAD_CONFIG: JSON.stringify(cfg), BENCH_GC_FILE: gcFile(g) }, execArgv: [...GC_WATCH, ...LOAD_NODE_ARGS], stdio: ["ignore", "inherit", "inherit", "ipc"] }), `load generator ${g}`);
    procs.push(child);
    let onReady!: () => void;
    ready.push(new Promise<void>((r) => (onReady = r)));
    results.push(
      new Promise<LoadResult>((res, rej) => {
        child.on("message", (m: { type: string; result?: LoadResult; message?: string; rooms?: number; setupMs?: number }) => {
          if (m.type === "ready") {
            log(`generator ${g}: ${m.rooms} rooms ready in ${((m.setupMs ?? 0) / 1000).toFixed(1)} s`);
            onReady();
          } else if (m.type === "result") res(m.result!);
          else if (m.type === "error") rej(new Error(`load generator ${g}: ${m.message}`));
        });
        child.once("exit", (code) => rej(new Error(`load generator ${g} exited (${code}) before reporting`)));
      }),
    );
  }
  // Fail fast if a generator dies during set-up.
  await Promise.race([Promise.all(ready), Promise.all(results).then(() => undefined)]);
  return {
    procs,
    async go() {
      for (const p of procs) p.send({ type: "go" });
      return Promise.all(results);
    },
  };
}

function merge(results: LoadResult[]): LoadResult {
  const m = { ...results[0]!, latencies: [] as number[], ackLatencies: [] as number[], errorCodes: {} as Record<string, number> };
  const sum = (k: keyof LoadResult) => results.reduce((a, r) => a + (r[k] as number), 0);
  for (const k of ["rooms", "sockets", "setupErrors", "warmActions", "sent", "completed", "errored", "lost", "skippedTicks", "gaps", "gamesFinished", "roomsReplaced", "cpuSeconds", "receivedBytes"] as const) {
    (m as Record<string, unknown>)[k] = sum(k);
  }
  m.setupMs = Math.max(...results.map((r) => r.setupMs));
  m.windowMs = Math.max(...results.map((r) => r.windowMs));
  m.eventLoopDelayP99Ms = Math.max(...results.map((r) => r.eventLoopDelayP99Ms));
  const sized = results.filter((r) => r.payloadBytes > 0);
  m.payloadBytes = sized.length ? Math.round(sized.reduce((a, r) => a + r.payloadBytes, 0) / sized.length) : 0;
  for (const r of results) {
    for (const x of r.latencies) m.latencies.push(x);
    for (const x of r.ackLatencies) m.ackLatencies.push(x);
    for (const [k, v] of Object.entries(r.errorCodes)) m.errorCodes[k] = (m.errorCodes[k] ?? 0) + v;
  }
  return m;
}

/** A kernel window's counts per action (`actions`: what the server did in it). */
function kernelPerAction(k: KernelCounts | null, actions: number): SystemResult["serverKernelPerAction"] {
  if (!k || actions === 0) return null;
  const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  return { userMs: r((k.userSeconds * 1e3) / actions, 3), systemMs: r((k.systemSeconds * 1e3) / actions, 3), reads: r(k.reads / actions, 2), writes: r(k.writes / actions, 2) };
}

function systemResult(r: LoadResult, serverCpu: number | null, peakRss: number | null, machine: MachineTimes | null, redisCpu: number | null): SystemResult {
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    machineCpuSeconds: machine === null ? null : round(machine.busy),
    otherCpuSeconds: machine === null || serverCpu === null ? null : round(Math.max(0, machine.busy - serverCpu - r.cpuSeconds - (redisCpu ?? 0))),
    stealSeconds: machine === null ? null : round(machine.steal),
    ioWaitSeconds: machine === null ? null : round(machine.iowait),
    sent: r.sent,
    completed: r.completed,
    errored: r.errored,
    lost: r.lost,
    skippedTicks: r.skippedTicks,
    gaps: r.gaps,
    actionsPerSecond: Math.round((r.completed / (r.windowMs / 1000)) * 10) / 10,
    latencyMs: summarize(r.latencies),
    ackLatencyMs: summarize(r.ackLatencies),
    payloadBytes: r.payloadBytes,
    bytesPerAction: r.completed === 0 ? null : Math.round(r.receivedBytes / r.completed),
    serverCpuSeconds: serverCpu,
    serverCpuMsPerAction: serverCpu === null || r.completed === 0 ? null : Math.round((serverCpu / r.completed) * 1e6) / 1e3,
    serverPeakRssMB: peakRss === null ? null : Math.round((peakRss / 1024 ** 2) * 10) / 10,
    generatorCpuSeconds: r.cpuSeconds,
    generatorEventLoopDelayP99Ms: r.eventLoopDelayP99Ms,
    setupSeconds: Math.round(r.setupMs / 100) / 10,
    errorCodes: r.errorCodes,
  };
}

// ---------------------------------------------------------------- the two runs

/** The node flags of `npm start` (package.json), so the benchmark runs the servers as production does. */
const SERVER_NODE_FLAGS = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((t) => t.startsWith("--"));

/**
 * Starts our server as the bench runs it (settings.nodes nodes, Redis under its own key prefix, a
 * throwaway database gb_bench_<run><tag>), and registers the clean-up of its keys and database.
 */
async function startOurServer(tag: string): Promise<{ db: { name: string; url: string }; prefix: string; redis: Redis; nodes: Array<{ proc: ChildProcess; url: string }> }> {
  // BENCH_SERVER_MAIN: another build's main.js (to compare builds on the same machine and day).
  const mainJs = process.env.BENCH_SERVER_MAIN ? resolve(process.env.BENCH_SERVER_MAIN) : join(root, "dist", "main.js");
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run npm run build (npm run bench does it)`);
  const db = await freshDatabase(tag);
  const prefix = `gbbench:${runId}${tag}:`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
  cleanups.push(async () => {
    await deleteKeys(redis, `${prefix}*`);
    redis.disconnect();
  });
  const dataDir = mkdtempSync(join(tmpdir(), "gb-bench-"));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const tokenSecret = randomBytes(24).toString("hex");

  const nodes: Array<{ proc: ChildProcess; url: string }> = [];
  for (let i = 0; i < settings.nodes; i++) {
    const port = await freePort();
    // --profile profiles the move workload's server only (not the queue scenario's).
    const nodeArgs = [...SERVER_NODE_FLAGS, ...GC_WATCH, ...(args.profile && tag === "" ? ["--cpu-prof", "--cpu-prof-dir", resolve(args.profile)] : [])];
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server (e.g. "--trace-gc").
    nodeArgs.push(...envArgs("BENCH_SERVER_NODE_ARGS"));
    const proc = track(
      spawn(process.execPath, [...nodeArgs, mainJs], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          REDIS_URL,
          REDIS_PREFIX: prefix,
          DATABASE_URL: db.url,
          DATA_DIR: dataDir,
          TOKEN_SECRET: tokenSecret,
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "warn",
          BOT_DELAY_MS: "600",
          RATE_LIMIT_PER_SECOND: "100000",
          // Every bench client comes from 127.0.0.1: no HTTP quotas (http-quotas.ts).
          HTTP_RATE_PER_MINUTE: "0",
          HTTP_IDENTITY_RATE_PER_MINUTE: "0",
          GUESTS_PER_HOUR: "0",
          // Every simulated player connects from this machine: no limit on sockets per address.
          MAX_CONNECTIONS_PER_ADDRESS: "0",
          NODE_ID: `bench-${i}`,
          BENCH_GC_FILE: join(gcDir(), `ours${tag}-node-${i}.txt`),
        },
        stdio: ["ignore", "inherit", "inherit"],
      }),
      `server node ${i}`,
    );
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(url, proc);
    nodes.push({ proc, url });
  }
  return { db, prefix, redis, nodes };
}

async function runOurs(sampleFile: string): Promise<{ result: SystemResult; profile?: BenchReport["profile"] }> {
  const { db, prefix, redis, nodes } = await startOurServer("");
  log(`ours: ${settings.nodes} node(s) up (database ${db.name}, Redis prefix ${prefix})`);
  const probe = await startTimerProbe(nodes[0]!.url, settings.timerRooms ?? 0);
  cleanups.push(async () => probe.stop());

  const gens = await startGenerators({
    mode: "ours",
    urls: nodes.map((n) => n.url),
    seats: settings.seats,
    spectators: settings.spectators,
    periodMs: settings.periodMs,
    seconds: settings.seconds,
    warm: settings.warm,
    actionTimeoutMs: 10_000,
    sampleFile,
  }, (g) => join(gcDir(), `ours-generator-${g}.txt`));
  // Let set-up traffic (and its database statistics) settle before the window.
  await sleep(1500);
  const cpu = new CpuWindow(nodes.map((n) => n.proc.pid!));
  const machine0 = machineTimes();
  const redisCpu0 = await redisCpu(redis);
  const countGames = async () => Number((await pgQuery<{ n: string }>(db.url, `SELECT count(*)::text AS n FROM "Game"`))[0]?.n ?? 0);
  // A backend reports its transactions to pg_stat_database when it goes idle, up to ~10 s later
  // (PostgreSQL 15+), so games recorded just before the window (many, when the warm-up ends games)
  // would have their transactions counted in it: wait until no game has been recorded for 11 s
  // (at most 30 s), so every backend has reported.
  let games0 = await countGames();
  for (let quiet = 0, i = 0; quiet < 11 && i < 30; i++) {
    await sleep(1000);
    const now = await countGames();
    quiet = now === games0 ? quiet + 1 : 0;
    games0 = now;
  }
  await sleep(1200); // our own connection's statistics reach pg_stat_database
  const xact0 = await pgTransactions(db.name);
  log(`ours: measuring for ${settings.seconds} s`);
  const slow0 = await slowLogMark(redis);
  const window0 = Date.now();
  const loads = await gens.go();
  const serverCpu = cpu.used();
  const serverKernel = cpu.kernel();
  const machine1 = machineTimes();
  const redisCpu1 = await redisCpu(redis);
  const slowCommands = await slowCommandsSince(redis, slow0);
  const load = merge(loads);
  probe.stop();
  // Finished games of the window are recorded asynchronously: let the server catch up (up to
  // 30 s) before it is stopped, or a write cut off by the stop would count as a transaction
  // without a game.
  await sleep(1500);
  for (let i = 0; i < 300 && (await redis.scard(`${prefix}rooms:unpersisted`)) > 0; i++) await sleep(100);
  const footprint = await redisFootprint(redis, prefix);
  footprint.cpuSeconds = redisCpu0 === null || redisCpu1 === null ? null : Math.round((redisCpu1 - redisCpu0) * 100) / 100;
  footprint.slowCommands = slowCommands;
  let peak: number | null = 0;
  for (const n of nodes) {
    const p = peakRssBytes(n.proc.pid!);
    peak = p === null || peak === null ? null : peak + p;
  }
  for (const g of gens.procs) await stop(g);
  await sleep(500);
  for (const n of nodes) await stop(n.proc);
  // Backends flush their statistics when they exit.
  await sleep(1200);
  const xact1 = await pgTransactions(db.name);
  // Opening a connection runs one transaction of its own; count those apart.
  const sessions = xact1.sessions - xact0.sessions;
  const xact = xact1.xacts - xact0.xacts - sessions;
  const gamesRecorded = (await countGames()) - games0;
  const result = systemResult(load, serverCpu, peak, machineDelta(machine0, machine1), footprint.cpuSeconds);
  result.gc = {
    server: gcOf(nodes.map((_, i) => join(gcDir(), `ours-node-${i}.txt`)), window0),
    generator: gcOf(gens.procs.map((_, g) => join(gcDir(), `ours-generator-${g}.txt`)), window0),
  };
  // The timer rooms' bot moves are actions of the server too.
  const botMoves = result.gc.server?.timerBotMoves ?? 0;
  result.timerBotMoves = botMoves;
  if (serverCpu !== null && load.completed + botMoves > 0) result.serverCpuMsPerAction = Math.round((serverCpu / (load.completed + botMoves)) * 1e6) / 1e3;
  result.serverKernelPerAction = kernelPerAction(serverKernel, load.completed + botMoves);
  result.gamesFinished = load.gamesFinished;
  result.redis = footprint;
  result.postgres = { gamesRecorded, transactions: xact, connectionsOpened: sessions, transactionsPerRecordedGame: gamesRecorded ? Math.round((xact / gamesRecorded) * 100) / 100 : null };
  let profile: BenchReport["profile"];
  if (args.profile) profile = summariseProfiles(resolve(args.profile));
  return { result, profile };
}

async function runBaseline(sampleFile: string | undefined, payloadBytes: number): Promise<SystemResult> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  if (sampleFile && existsSync(sampleFile)) env.BENCH_PAYLOAD_FILE = sampleFile;
  else env.BENCH_PAYLOAD_BYTES = String(payloadBytes);
  // With --profile, the baseline is profiled too (into DIR/baseline), to compare where the time goes.
  const execArgv = [...SERVER_NODE_FLAGS, ...GC_WATCH, ...(args.profile ? ["--cpu-prof", "--cpu-prof-dir", join(resolve(args.profile), "baseline")] : [])];
  // BENCH_BASELINE_NODE_ARGS: extra node flags for the baseline server (diagnostics, as for ours).
  execArgv.push(...envArgs("BENCH_BASELINE_NODE_ARGS"));
  env.BENCH_GC_FILE = join(gcDir(), "baseline-server.txt");
  if (settings.baselineStores) {
    // --baseline-stores: each move is SET in Redis under this prefix before anything is sent.
    const prefix = `gbbench:${runId}base:`;
    env.BENCH_BASELINE_REDIS_URL = REDIS_URL;
    env.BENCH_BASELINE_PREFIX = prefix;
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
    cleanups.push(async () => {
      await deleteKeys(redis, `${prefix}*`);
      redis.disconnect();
    });
  }
  const proc = track(fork(join(here, "baseline-server.js"), [], { env, execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] }), "baseline server");
  await new Promise<void>((res, rej) => {
    proc.once("message", () => res());
    proc.once("exit", (c) => rej(new Error(`baseline server exited (${c})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const gens = await startGenerators({
    mode: "baseline",
    urls: [url],
    seats: settings.seats,
    spectators: settings.spectators,
    periodMs: settings.periodMs,
    seconds: settings.seconds,
    // The same warm-up as ours (the same number of unmeasured actions per room), so both servers
    // and both generators enter the window with warmed heaps and compiled code.
    warm: settings.warm,
    actionTimeoutMs: 10_000,
  }, (g) => join(gcDir(), `baseline-generator-${g}.txt`));
  await sleep(1500);
  const cpu = new CpuWindow([proc.pid!]);
  const machine0 = machineTimes();
  log(`baseline: measuring for ${settings.seconds} s`);
  const window0 = Date.now();
  const load = merge(await gens.go());
  const serverCpu = cpu.used();
  const serverKernel = cpu.kernel();
  const machine1 = machineTimes();
  const peak = peakRssBytes(proc.pid!);
  for (const g of gens.procs) await stop(g);
  await stop(proc);
  const result = systemResult(load, serverCpu, peak, machineDelta(machine0, machine1), null);
  result.serverKernelPerAction = kernelPerAction(serverKernel, load.completed);
  result.gc = {
    server: gcOf([join(gcDir(), "baseline-server.txt")], window0),
    generator: gcOf(gens.procs.map((_, g) => join(gcDir(), `baseline-generator-${g}.txt`)), window0),
  };
  return result;
}

/**
 * The quick play queue scenario (--queue): a fresh server of ours (the same flags, Redis and a
 * database of its own), one queue generator (queue-load.ts) at a steady arrival rate. Server CPU
 * is read over the window exactly (the generator says when its window's arrivals start and stop).
 */
async function runQueue(q: QueueSettings, baseline: SystemResult | null): Promise<QueueResult> {
  const { db, prefix, redis, nodes } = await startOurServer("_q");
  log(`queue: ${settings.nodes} node(s) up (database ${db.name}, Redis prefix ${prefix})`);
  const cfg: QueueLoadConfig = { urls: nodes.map((n) => n.url), game: q.game, seats: q.seats, rate: q.rate, seconds: q.seconds, warmSeconds: 3, timeoutMs: 20_000 };
  const genGc = join(gcDir(), "queue-generator.txt");
  const gen = track(
    fork(join(here, "queue-load.js"), [], { env: { ...process.env, BENCH_QUEUE_CONFIG: JSON.stringify(cfg), BENCH_GC_FILE: genGc }, execArgv: [...GC_WATCH, ...LOAD_NODE_ARGS], stdio: ["ignore", "inherit", "inherit", "ipc"] }),
    "queue generator",
  );
  let cpu: CpuWindow | null = null;
  let machine0: MachineTimes | null = null;
  let window0 = 0;
  let serverCpu: number | null = null;
  let machineUsed: MachineTimes | null = null;
  let redis0: number | null = null;
  let redis1: Promise<number | null> = Promise.resolve(null);
  let readyUp!: () => void;
  const ready = new Promise<void>((r) => (readyUp = r));
  const result = new Promise<QueueLoadResult>((res, rej) => {
    gen.on("message", (m: { type: string; result?: QueueLoadResult; message?: string; rooms?: number; setupMs?: number }) => {
      if (m.type === "ready") {
        log(`queue generator: ${m.rooms} guest tokens ready in ${((m.setupMs ?? 0) / 1000).toFixed(1)} s`);
        readyUp();
      } else if (m.type === "window-start") {
        cpu = new CpuWindow(nodes.map((n) => n.proc.pid!));
        machine0 = machineTimes();
        window0 = Date.now();
        void redisCpu(redis).then((v) => (redis0 = v), () => {});
        log(`queue: measuring for ${q.seconds} s at ${q.rate} players/s`);
      } else if (m.type === "window-end") {
        serverCpu = cpu?.used() ?? null;
        machineUsed = machineDelta(machine0, machineTimes());
        redis1 = redisCpu(redis).catch(() => null);
      } else if (m.type === "result") res(m.result!);
      else if (m.type === "error") rej(new Error(`queue generator: ${m.message}`));
    });
    gen.once("exit", (code) => rej(new Error(`queue generator exited (${code}) before reporting`)));
  });
  await Promise.race([ready, result]);
  await sleep(1500);
  gen.send({ type: "go" });
  const load = await result;
  const r1 = await redis1;
  const redisUsed = redis0 === null || r1 === null ? null : Math.round((r1 - redis0) * 100) / 100;
  let peak: number | null = 0;
  for (const n of nodes) {
    const p = peakRssBytes(n.proc.pid!);
    peak = p === null || peak === null ? null : peak + p;
  }
  await stop(gen);
  for (const n of nodes) await stop(n.proc);
  const windowS = load.windowMs / 1000;
  const perPlayer = serverCpu === null || load.joined === 0 ? null : Math.round(((serverCpu as number) / load.joined) * 1e6) / 1e3;
  const tables = load.tablesInWindow;
  const base = baseline?.serverCpuMsPerAction ?? null;
  const m = machineUsed as MachineTimes | null;
  return {
    settings: q,
    joined: load.joined,
    seated: load.seated,
    unseated: load.unseated,
    tables,
    tablesPerSecond: windowS > 0 ? Math.round((tables / windowS) * 100) / 100 : 0,
    timeToTableMs: summarize(load.timeToTable),
    joinAckMs: summarize(load.joinAck),
    connectMs: summarize(load.connect),
    notices: load.notices,
    errors: load.errors,
    errorCodes: load.errorCodes,
    serverCpuSeconds: serverCpu,
    serverCpuMsPerPlayer: perPlayer,
    serverCpuMsPerTable: serverCpu === null || tables === 0 ? null : Math.round(((serverCpu as number) / tables) * 1e6) / 1e3,
    baselineCpuMsPerAction: base,
    perPlayerOverBaselineAction: perPlayer === null || !base ? null : Math.round((perPlayer / base) * 100) / 100,
    serverPeakRssMB: peak === null ? null : Math.round((peak / 1024 ** 2) * 10) / 10,
    generatorCpuSeconds: load.cpuSeconds,
    generatorEventLoopDelayP99Ms: load.eventLoopDelayP99Ms,
    machineCpuSeconds: m === null ? null : Math.round(m.busy * 10) / 10,
    redisCpuSeconds: redisUsed,
    otherCpuSeconds: m === null || serverCpu === null ? null : Math.round(Math.max(0, m.busy - (serverCpu as number) - load.cpuSeconds - (redisUsed ?? 0)) * 10) / 10,
    stealSeconds: m === null ? null : Math.round(m.steal * 10) / 10,
    gc: {
      server: gcOf(nodes.map((_, i) => join(gcDir(), `ours_q-node-${i}.txt`)), window0, q.seconds),
      generator: gcOf([genGc], window0, q.seconds),
    },
    setupSeconds: Math.round(load.setupMs / 100) / 10,
  };
}

/** Top self-time functions of the server's CPU profile(s). */
function summariseProfiles(dir: string): BenchReport["profile"] {
  interface Node {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }
  const self = new Map<string, number>();
  let total = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".cpuprofile"))) {
    const prof = JSON.parse(readFileSync(join(dir, f), "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    prof.samples.forEach((id, i) => {
      const n = byId.get(id)!;
      const url = n.callFrame.url.replace(/^file:\/\//, "").replace(root + "/", "");
      const key = `${n.callFrame.functionName || "(anonymous)"} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ""}`.trim();
      const dt = (prof.timeDeltas[i] ?? 0) / 1000;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    });
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([fn, ms]) => ({ fn, selfMs: Math.round(ms), share: Math.round((ms / total) * 1000) / 10 }));
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "gb-bench-run-"));
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }));
  const sampleFile = join(tmp, "sample-state.json");
  log(`settings: ${JSON.stringify(settings)}`);
  let ours: SystemResult | null = null;
  let baseline: SystemResult | null = null;
  let profile: BenchReport["profile"];
  if (args.only !== "baseline") ({ result: ours, profile } = await runOurs(sampleFile));
  if (args.only !== "ours") baseline = await runBaseline(sampleFile, ours?.payloadBytes || 2500);
  const queue = queueSettings ? await runQueue(queueSettings, baseline) : null;
  const report: BenchReport = {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    ...(args.label ? { label: args.label } : {}),
    machine: machine(),
    settings,
    ours,
    baseline,
    ratios: ratios(ours, baseline),
    targets: targets(ours, baseline, settings),
    ...(profile ? { profile } : {}),
    ...(queue ? { queue } : {}),
  };
  const json = JSON.stringify(report, null, 2);
  if (args.json) writeFileSync(args.json, json + "\n");
  else console.log(json);
  if (args.md) {
    const path = resolve(args.md);
    appendReport(path, report);
    log(`table appended to ${path}`);
  }
  console.error("\n" + markdown(report));
}

main()
  .catch(async (e: unknown) => {
    console.error("bench failed:", e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    process.exit(process.exitCode ?? 0);
  });
