/**
 * Throwaway Redis and Postgres servers that a test owns, for fault tests that crash, stop and
 * restart them (test/faults.test.ts). The machine's shared services (Postgres on 5432, Redis on
 * 6379) are never touched: each server here runs from Debian's own binaries on a free loopback
 * port with its data in a temporary folder, and is stopped and deleted by `stop()` (call it in
 * afterAll) or, if the test process dies first, by an exit hook.
 *
 * - Redis: `redis-server` as a child process with AOF on and fsync at every write
 *   (`appendfsync always`), so what Redis acknowledged is on disk before the acknowledgement
 *   leaves; `crash()` is SIGKILL, `shutdown()` a clean SIGTERM, `freeze()`/`thaw()` SIGSTOP and
 *   SIGCONT, `start()` brings it back on the same port and folder (reloading the AOF).
 * - A proxy (child process) between clients and a Redis that can lose Redis's answers and drop
 *   the connections, as a network fault would: startAnswerLosingProxy.
 * - Postgres: `initdb` into a temporary folder with trust authentication, `pg_ctl` to start and
 *   stop it (`fast` or `immediate`, a crash). Postgres refuses to run as root: as root (CI runs as
 *   root), every command runs as the `postgres` user through runuser, in a folder that user owns.
 *
 * The only real waiting is for these processes to start and stop.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on 127.0.0.1 (free when asked; the server started on it takes it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Folders and processes to remove if the test process exits without its afterAll. */
const leftovers = new Set<() => void>();
let exitHookSet = false;
function onExit(cleanup: () => void): () => void {
  if (!exitHookSet) {
    exitHookSet = true;
    process.once("exit", () => {
      for (const c of leftovers) {
        try {
          c();
        } catch {
          /* best effort at exit */
        }
      }
    });
  }
  leftovers.add(cleanup);
  return () => leftovers.delete(cleanup);
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a Redis server answers PING on the port (raw RESP: no client library's reconnects involved). */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (v: boolean) => {
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => {
      reply += d.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}

/**
 * The receive queues of the established loopback connections whose local end is `port` (the
 * server's side), from /proc/net/tcp: "sl local rem st tx_queue:rx_queue ...", addresses and
 * queues in hex.
 */
function unreadOnPort(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  let total = 0;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || f[1] !== `0100007F:${hexPort}` || f[3] !== "01") continue;
    total += parseInt(f[4]!.split(":")[1]!, 16);
  }
  return total;
}

// ---- Redis ------------------------------------------------------------------------------------

export interface OwnRedis {
  port: number;
  url: string;
  /** The data folder (the AOF lives in it). */
  dir: string;
  /** Whether the server is running now. */
  readonly running: boolean;
  /** Starts the server (again) on the same port and folder, and waits until it answers PING. */
  start(): Promise<void>;
  /** SIGKILL: Redis gets no chance to do anything; only what it fsynced survives. */
  crash(): Promise<void>;
  /**
   * SIGSTOP: Redis stays connected but answers nothing; what clients send waits, unread, in its
   * connections (see unreadBytes), until it is killed (crash) or resumed.
   */
  freeze(): void;
  /** Bytes clients have sent that Redis has not read yet, over all its connections (Linux: /proc/net/tcp). */
  unreadBytes(): number;
  /** SIGCONT: a frozen Redis goes on (at once, synchronously). */
  thaw(): void;
  /** A clean shutdown (SIGTERM: Redis flushes and fsyncs the AOF, then exits). */
  shutdown(): Promise<void>;
  /** Stops the server if running and deletes its folder. */
  stop(): Promise<void>;
}

export function redisServerAvailable(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "gb-own-redis-"));
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const kill = () => proc?.kill("SIGKILL");
  const forget = onExit(() => {
    kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const stopWith = async (signal: NodeJS.Signals) => {
    if (!proc) return;
    const p = proc;
    proc.kill(signal);
    await exited;
    if (proc === p) proc = undefined;
  };

  const redis: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get running() {
      return proc !== undefined;
    },
    async start() {
      if (proc) throw new Error("this Redis is already running");
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", ""];
      const p = spawn("redis-server", args, { stdio: ["ignore", "ignore", "pipe"] });
      proc = p;
      let stderr = "";
      p.stderr?.on("data", (d) => (stderr += d.toString()));
      exited = new Promise((resolve) => p.once("exit", () => resolve()));
      void exited.then(() => {
        if (proc === p) proc = undefined;
      });
      await waitFor(`redis-server on port ${port}`, async () => {
        if (proc !== p) throw new Error(`redis-server exited at start: ${stderr}`);
        return redisAnswers(port);
      });
    },
    crash: () => stopWith("SIGKILL"),
    freeze() {
      if (!proc) throw new Error("this Redis is not running");
      proc.kill("SIGSTOP");
    },
    unreadBytes: () => unreadOnPort(port),
    thaw() {
      if (!proc) throw new Error("this Redis is not running");
      proc.kill("SIGCONT");
    },
    shutdown: () => stopWith("SIGTERM"),
    async stop() {
      await stopWith("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      forget();
    },
  };
  await redis.start();
  return redis;
}

/**
 * A TCP proxy in a child process between the nodes and a Redis, that can lose Redis's answers:
 * `loseAnswers()` dooms every connection open now (the proxy confirms before it returns), and
 * from then on those connections pass nothing Redis sends back; 200 ms after the first answer
 * lost, the proxy closes them all. So a command Redis has carried out never gets its answer, and
 * the client's connection drops as in a network fault. New connections work normally.
 */
export interface AnswerLosingProxy {
  port: number;
  url: string;
  /** Dooms the connections open now; the returned `cut` settles once the proxy has lost an answer and closed them. */
  loseAnswers(): Promise<{ cut: Promise<void> }>;
  stop(): Promise<void>;
}

const PROXY = `
const net = require("node:net");
const [listenPort, targetPort] = process.argv.slice(-2).map(Number);
const open = new Set();
let doomed = new Set();
let cutting = false;
process.on("SIGUSR1", () => {
  doomed = new Set(open);
  process.stdout.write("doomed\\n");
});
net.createServer((client) => {
  const upstream = net.connect(targetPort, "127.0.0.1");
  const pair = { client, upstream };
  open.add(pair);
  const end = () => { open.delete(pair); client.destroy(); upstream.destroy(); };
  client.on("error", end).on("close", end);
  upstream.on("error", end).on("close", end);
  client.on("data", (d) => upstream.write(d));
  upstream.on("data", (d) => {
    if (!doomed.has(pair)) return void client.write(d);
    if (cutting) return;
    cutting = true;
    setTimeout(() => {
      for (const p of doomed) { open.delete(p); p.client.destroy(); p.upstream.destroy(); }
      doomed = new Set();
      cutting = false;
      process.stdout.write("cut\\n");
    }, 200);
  });
}).listen(listenPort, "127.0.0.1", () => process.stdout.write("listening\\n"));
`;

export async function startAnswerLosingProxy(targetPort: number): Promise<AnswerLosingProxy> {
  const port = await freePort();
  const child = spawn(process.execPath, ["-e", PROXY, String(port), String(targetPort)], { stdio: ["ignore", "pipe", "inherit"] });
  const forget = onExit(() => child.kill("SIGKILL"));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  let out = "";
  const waiters: Array<{ word: string; resolve: () => void }> = [];
  child.stdout!.on("data", (d) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf("\n")) >= 0) {
      const word = out.slice(0, nl);
      out = out.slice(nl + 1);
      const i = waiters.findIndex((w) => w.word === word);
      if (i >= 0) waiters.splice(i, 1)[0]!.resolve();
    }
  });
  const next = (word: string) => new Promise<void>((resolve) => waiters.push({ word, resolve }));
  await Promise.race([next("listening"), exited.then(() => Promise.reject(new Error("the proxy exited at start")))]);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async loseAnswers() {
      const doomed = next("doomed");
      const cut = next("cut");
      child.kill("SIGUSR1");
      await doomed;
      return { cut };
    },
    async stop() {
      child.kill("SIGKILL");
      await exited;
      forget();
    },
  };
}

// ---- Postgres ---------------------------------------------------------------------------------

/** The newest Debian PostgreSQL's bin folder (/usr/lib/postgresql/<major>/bin), if installed. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")) && existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(a) - Number(b));
  const newest = majors[majors.length - 1];
  return newest === undefined ? undefined : join(root, newest, "bin");
}

const asRoot = process.getuid?.() === 0;

/** postgres's uid and gid, when this process runs as root (Postgres will not run as root). */
function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function runuserPath(): string | undefined {
  for (const p of ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]) if (existsSync(p)) return p;
  return undefined;
}

/** Why this machine cannot run a Postgres of the test's own, or undefined when it can. */
export function ownPostgresUnavailable(): string | undefined {
  if (!postgresBinDir()) return "no PostgreSQL binaries under /usr/lib/postgresql/*/bin";
  if (asRoot && !postgresUser()) return "running as root and there is no postgres user to run PostgreSQL as";
  if (asRoot && !runuserPath()) return "running as root and runuser is missing";
  return undefined;
}

function pgCommand(bin: string, args: string[]): [string, string[]] {
  return asRoot ? [runuserPath()!, ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

/**
 * Runs a Postgres binary (as the postgres user when this process is root) without blocking the
 * event loop (the servers under test run in this process and must go on meanwhile); throws with
 * its output on failure. cwd "/": runuser keeps the caller's folder, which postgres may not read.
 */
function pgRun(bin: string, args: string[]): Promise<void> {
  const [cmd, argv] = pgCommand(bin, args);
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, argv, { cwd: "/", stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d.toString()));
    p.stderr.on("data", (d) => (out += d.toString()));
    p.once("error", reject);
    p.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(" ")} failed (${code ?? signal}): ${out}`))));
  });
}

/** The same, blocking: only for the exit hook, where nothing asynchronous runs any more. */
function pgRunSync(bin: string, args: string[]): void {
  const [cmd, argv] = pgCommand(bin, args);
  spawnSync(cmd, argv, { cwd: "/", stdio: "ignore", timeout: 60_000 });
}

export interface OwnPostgres {
  port: number;
  /** The server's own `postgres` database; tests make their databases in it (databaseUrl). */
  url: string;
  readonly running: boolean;
  /** A URL to database `name` on this server. */
  databaseUrl(name: string): string;
  start(): Promise<void>;
  /** `fast`: disconnects clients, rolls back open transactions, shuts down cleanly; `immediate`: a crash (recovery at the next start). */
  stopServer(mode: "fast" | "immediate"): Promise<void>;
  /** Stops the server if running and deletes its folder. */
  stop(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const why = ownPostgresUnavailable();
  if (why) throw new Error(`cannot start a Postgres: ${why}`);
  const bin = postgresBinDir()!;
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), "gb-own-pg-"));
  const data = join(root, "data");
  if (asRoot) {
    const u = postgresUser()!;
    chownSync(root, u.uid, u.gid);
  }
  let running = false;
  const pgCtl = (args: string[]) => pgRun(join(bin, "pg_ctl"), ["-D", data, ...args]);
  const forget = onExit(() => {
    if (running) pgRunSync(join(bin, "pg_ctl"), ["-D", data, "stop", "-m", "immediate", "-w"]);
    rmSync(root, { recursive: true, force: true });
  });

  await pgRun(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C"]);
  const pgres: OwnPostgres = {
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    get running() {
      return running;
    },
    databaseUrl: (name) => `postgresql://postgres@127.0.0.1:${port}/${name}`,
    async start() {
      if (running) throw new Error("this Postgres is already running");
      const opts = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
      try {
        await pgCtl(["start", "-w", "-t", "60", "-l", join(root, "log"), "-o", opts]);
      } catch (e) {
        const log = existsSync(join(root, "log")) ? readFileSync(join(root, "log"), "utf8") : "";
        throw new Error(`${(e as Error).message}\n${log}`);
      }
      running = true;
    },
    async stopServer(mode) {
      if (!running) return;
      await pgCtl(["stop", "-m", mode, "-w", "-t", "60"]);
      running = false;
    },
    async stop() {
      if (running) await pgCtl(["stop", "-m", "immediate", "-w", "-t", "60"]).catch(() => {});
      running = false;
      rmSync(root, { recursive: true, force: true });
      forget();
    },
  };
  await pgres.start();
  return pgres;
}
