/**
 * The quick play queue's load generator (`--queue`; docs/performance.md, "Quick play queue"),
 * run as a child process of run.ts against our server.
 *
 * Players arrive at a steady rate (`rate` per second). Each is a guest (its token made during
 * set-up, so the window holds no POST /api/guest), connects, sends `queue:join` for a casual,
 * clockless pool (no account needed, no clock timers in the rooms it makes, no bots), accepts the
 * table it is proposed (`queue:status` with a `match`) at once, and on `queue:ready` disconnects.
 * The room the queue made (started, every seat taken) then idles with nobody connected: nothing
 * closes it; it stays in Redis until run.ts deletes the run's keys.
 *
 * Measured: players whose `queue:join` was sent inside the window. Time to table runs from the
 * `queue:join` ack to `queue:ready`. Arrivals go on after the window (unmeasured) until every
 * measured player has a table or `timeoutMs` has passed, so the last measured players find
 * partners as the others did. The parent reads the server's CPU over the window itself: this
 * process sends {type: "window-end"} when the window's arrivals stop.
 *
 * IPC: {type: "ready"} after set-up, waits for {type: "go"}, then {type: "window-end"} and
 * {type: "result", result}.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { io as connect, type Socket } from "socket.io-client";
import { guestToken } from "./guest.js";

export interface QueueLoadConfig {
  urls: string[];
  game: string;
  seats: number;
  /** Players arriving per second. */
  rate: number;
  /** Measured window, s. */
  seconds: number;
  /** Arrivals before the window (unmeasured), s, so the queue is in its steady state. */
  warmSeconds: number;
  /** After the window: give up on measured players still without a table after this long, ms. */
  timeoutMs: number;
}

export interface QueueLoadResult {
  /** Players whose queue:join was sent in the window. */
  joined: number;
  /** ... and of those, got queue:ready. */
  seated: number;
  /** ... and of those, had no table when the drain ended. */
  unseated: number;
  /** queue:ready received inside the window (any player's), divided by the seats: tables formed. */
  tablesInWindow: number;
  /** ms, queue:join ack -> queue:ready, measured players. */
  timeToTable: number[];
  /** ms, queue:join sent -> its ack. */
  joinAck: number[];
  /** ms, connection opened -> connected. */
  connect: number[];
  /** queue:status pushes with a notice (a table that failed). */
  notices: number;
  errors: number;
  errorCodes: Record<string, number>;
  windowMs: number;
  setupMs: number;
  tokens: number;
  cpuSeconds: number;
  eventLoopDelayP99Ms: number;
}

type Ack = { ok: boolean; error?: { code: string; message: string }; [k: string]: unknown };
interface Status {
  match: { matchId: string; youAccepted: boolean } | null;
  notice?: string;
}

const cfg = JSON.parse(process.env.BENCH_QUEUE_CONFIG ?? "{}") as QueueLoadConfig;
const res: QueueLoadResult = {
  joined: 0,
  seated: 0,
  unseated: 0,
  tablesInWindow: 0,
  timeToTable: [],
  joinAck: [],
  connect: [],
  notices: 0,
  errors: 0,
  errorCodes: {},
  windowMs: 0,
  setupMs: 0,
  tokens: 0,
  cpuSeconds: 0,
  eventLoopDelayP99Ms: 0,
};

function countError(code: string): void {
  res.errors++;
  res.errorCodes[code] = (res.errorCodes[code] ?? 0) + 1;
}

/** Run `fn` over 0..n-1 with at most `limit` in flight. */
async function pool(n: number, limit: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

let measuring = false;
let inWindow = false;
const open = new Set<Socket>();
/** Measured players still without a table. */
let waiting = 0;

/** One player's life: connect, join, accept, and leave on queue:ready. */
function player(url: string, token: string, measured: boolean): void {
  const t0 = performance.now();
  let ackAt: number | null = null;
  let readyAt: number | null = null;
  let done = false;
  if (measured) waiting++;
  const socket = connect(url, { transports: ["websocket"], auth: { token }, reconnection: false, forceNew: true, timeout: 30_000 });
  open.add(socket);
  const finish = () => {
    if (done || ackAt === null || readyAt === null) return;
    done = true;
    if (measured) {
      waiting--;
      res.seated++;
      res.timeToTable.push(readyAt - ackAt);
    }
    open.delete(socket);
    socket.close();
  };
  const accepted = new Set<string>();
  socket.on("queue:status", (s: Status) => {
    if (s.notice && measuring) res.notices++;
    const m = s.match;
    if (!m || m.youAccepted || accepted.has(m.matchId)) return;
    accepted.add(m.matchId);
    socket.timeout(30_000).emit("queue:accept", { matchId: m.matchId }, (e: Error | null, ack: Ack) => {
      // The last to accept may get queue:ready (and close) before its ack: not an error.
      // NO_MATCH: the table started or failed meanwhile (a failed one sends a notice).
      if (done) return;
      if (e) countError("accept: TIMEOUT");
      else if (!ack.ok && measured) countError(`accept: ${ack.error?.code}`);
    });
  });
  socket.on("queue:ready", () => {
    readyAt = performance.now();
    if (inWindow) res.tablesInWindow += 1 / cfg.seats;
    finish();
  });
  socket.once("connect_error", (e) => {
    if (measured) (waiting--, countError(`connect: ${e.message.slice(0, 60)}`));
    open.delete(socket);
  });
  socket.once("connect", () => {
    if (measured) res.connect.push(performance.now() - t0);
    const sent = performance.now();
    socket.timeout(30_000).emit("queue:join", { game: cfg.game, seats: cfg.seats, clock: "none", ranked: false }, (e: Error | null, ack: Ack) => {
      if (e || !ack.ok) {
        if (measured) (waiting--, countError(`join: ${e ? "TIMEOUT" : ack.error?.code}`));
        open.delete(socket);
        socket.close();
        return;
      }
      ackAt = performance.now();
      if (measured) res.joinAck.push(ackAt - sent);
      finish();
    });
  });
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const interval = 1000 / cfg.rate;
  // Tokens for the warm-up, the window and the drain's arrivals (made now: the window measures
  // the queue, not guest sign-up). Arrivals stop if they run out.
  const n = Math.ceil(cfg.rate * (cfg.warmSeconds + cfg.seconds + cfg.timeoutMs / 1000)) + cfg.seats;
  const tokens: string[] = new Array(n);
  const prefix = `q${process.pid.toString(36)}`;
  await pool(n, 32, async (i) => {
    tokens[i] = await guestToken(cfg.urls[i % cfg.urls.length]!, `${prefix}-${i}`);
  });
  res.tokens = n;
  let nextToken = 0;
  const arrive = (measured: boolean): boolean => {
    if (nextToken >= tokens.length) return false;
    const i = nextToken++;
    player(cfg.urls[i % cfg.urls.length]!, tokens[i]!, measured);
    if (measured) res.joined++;
    return true;
  };
  res.setupMs = Date.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  process.send!({ type: "ready", rooms: n, setupMs: res.setupMs });
  await new Promise<void>((resolve) => process.once("message", () => resolve()));

  // Steady arrivals, on a schedule that does not drift: warm-up, window, then the drain.
  const start = performance.now();
  const windowStart = start + cfg.warmSeconds * 1000;
  const windowEnd = windowStart + cfg.seconds * 1000;
  let arrivals = 0;
  let stopped = false;
  let cpu0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let windowDone!: () => void;
  const windowOver = new Promise<void>((r) => (windowDone = r));
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    while (start + arrivals * interval <= now) {
      const at = start + arrivals * interval;
      if (at >= windowStart && !measuring && at < windowEnd) {
        measuring = inWindow = true;
        cpu0 = process.cpuUsage();
        loopDelay.enable();
        process.send!({ type: "window-start" });
      }
      if (at >= windowEnd && inWindow) {
        inWindow = false;
        windowDone();
      }
      if (!arrive(inWindow)) {
        // Out of tokens (only after the window: set-up made enough for it and the drain).
        stopped = true;
        if (inWindow) (inWindow = false, windowDone());
        return;
      }
      arrivals++;
    }
    setTimeout(tick, Math.max(0, start + arrivals * interval - performance.now()));
  };
  tick();
  await windowOver;
  res.windowMs = Math.round(performance.now() - windowStart);
  process.send!({ type: "window-end" });
  const drainEnd = Date.now() + cfg.timeoutMs;
  while (waiting > 0 && Date.now() < drainEnd) await new Promise((r) => setTimeout(r, 20));
  stopped = true;
  measuring = false;
  res.unseated = waiting;
  const cpu = process.cpuUsage(cpu0);
  loopDelay.disable();
  res.cpuSeconds = Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100;
  res.eventLoopDelayP99Ms = Math.round((loopDelay.percentile(99) / 1e6) * 100) / 100;
  res.tablesInWindow = Math.round(res.tablesInWindow);
  process.send!({ type: "result", result: res }, () => {
    for (const s of open) s.close();
    setTimeout(() => process.exit(0), 100);
  });
}

process.on("disconnect", () => process.exit(0));
main().catch((e: unknown) => {
  process.send?.({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  setTimeout(() => process.exit(1), 100);
});
