/**
 * Loaded by the benchmark into every process it measures (`node --import .../gc-watch.js`):
 * appends one line per garbage collection and per event-loop stall to the file named by
 * BENCH_GC_FILE, with wall-clock times so run.ts can count them inside the measured window and
 * line them up across processes (server, baseline server, load generators):
 *
 *   gc <epoch ms> <pause ms> scavenge|mark-compact|incremental|weak
 *   stall <epoch ms> <ms>     the event loop ran a 5 ms timer that late (GC pauses included)
 *   timer <epoch ms> <lag ms> <work>   the server fired a durable timer (platform/timers.ts) this
 *                             long after its deadline; work: timeout | bot | host-away | host-check
 *
 * The tail of this benchmark is made of such moments (docs/performance.md, seventh round), so
 * the report shows them beside the latencies. Production servers never load this module.
 */
import { appendFileSync } from "node:fs";
import { subscribe } from "node:diagnostics_channel";
import { constants, performance, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

const file = process.env.BENCH_GC_FILE;

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak",
};

/** A stall: the 5 ms timer fired this much later than it was due, at least. */
export const STALL_MS = 20;

if (file) {
  const origin = performance.timeOrigin;
  const write = (line: string): void => {
    try {
      appendFileSync(file, line + "\n");
    } catch {
      // A diagnostic must never take the process down.
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { detail?: { kind?: number } }>) {
      write(`gc ${(origin + e.startTime).toFixed(1)} ${e.duration.toFixed(2)} ${KINDS[e.detail?.kind ?? 0] ?? "other"}`);
    }
  }).observe({ entryTypes: ["gc"] });
  // The server's timers (platform/timers.ts publishes on this channel; other processes never do).
  subscribe("goblin-bazaar:timer-fired", (m) => {
    const { lagMs, work } = m as { lagMs: number; work: string };
    write(`timer ${Date.now()} ${lagMs.toFixed(1)} ${work}`);
  });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last >= STALL_MS + 5) write(`stall ${(origin + last).toFixed(1)} ${(now - last - 5).toFixed(1)}`);
    last = now;
  }, 5).unref();
}

export interface GcSummary {
  scavenges: number;
  scavengeMs: number;
  longestScavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
  /** Event-loop stalls of at least STALL_MS (GC pauses included). */
  stalls: number;
  longestStallMs: number;
  /** Durable timers fired (bot moves among them), and their deadline-to-firing lag, ms. */
  timers: number;
  timerBotMoves: number;
  timerLagP50Ms: number | null;
  timerLagP99Ms: number | null;
  timerLagMaxMs: number | null;
}

/** Counts the events of one watch file that start inside [from, to] (epoch ms). */
export function summarizeGc(text: string, from: number, to: number): GcSummary {
  const s: GcSummary = {
    scavenges: 0, scavengeMs: 0, longestScavengeMs: 0, markCompacts: 0, markCompactMs: 0, stalls: 0, longestStallMs: 0,
    timers: 0, timerBotMoves: 0, timerLagP50Ms: null, timerLagP99Ms: null, timerLagMaxMs: null,
  };
  const lags: number[] = [];
  for (const line of text.split("\n")) {
    const [what, at, ms, kind] = line.split(" ");
    const t = Number(at);
    const d = Number(ms);
    if (!(t >= from && t <= to) || !Number.isFinite(d)) continue;
    if (what === "gc" && kind === "scavenge") {
      s.scavenges++;
      s.scavengeMs += d;
      s.longestScavengeMs = Math.max(s.longestScavengeMs, d);
    } else if (what === "gc" && kind === "mark-compact") {
      s.markCompacts++;
      s.markCompactMs += d;
    } else if (what === "stall") {
      s.stalls++;
      s.longestStallMs = Math.max(s.longestStallMs, d);
    } else if (what === "timer") {
      s.timers++;
      if (kind === "bot") s.timerBotMoves++;
      lags.push(d);
    }
  }
  if (lags.length > 0) {
    lags.sort((a, b) => a - b);
    const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!;
    s.timerLagP50Ms = at(0.5);
    s.timerLagP99Ms = at(0.99);
    s.timerLagMaxMs = lags[lags.length - 1]!;
  }
  for (const k of ["scavengeMs", "longestScavengeMs", "markCompactMs", "longestStallMs"] as const) s[k] = Math.round(s[k] * 10) / 10;
  return s;
}
