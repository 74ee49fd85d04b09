/**
 * Redis's slow log around a benchmark window, read only (the operator's slow log is never reset):
 * commands that take microseconds logged as slow mean Redis was not running, a stall that every
 * action of ours waits behind and the baseline never sees (docs/performance.md, round 9).
 */
import type { Redis } from "ioredis";

export interface SlowCommands {
  /** Entries added to the slow log in the window. */
  count: number;
  longestMs: number;
  /** Redis's slowlog-log-slower-than, ms (10 by default). */
  thresholdMs: number;
}

/** The id of Redis's newest slow-log entry (-1 if none), or null if the slow log cannot be read. */
export async function slowLogMark(redis: Redis): Promise<number | null> {
  try {
    const [newest] = (await redis.call("SLOWLOG", "GET", "1")) as Array<[number, ...unknown[]]>;
    return newest ? Number(newest[0]) : -1;
  } catch {
    return null;
  }
}

/**
 * Slow-log entries Redis added after `mark` (read-only: the operator's slow log is not reset),
 * counted with the longest; the slow log keeps its newest slowlog-max-len entries (128 by default).
 */
export async function slowCommandsSince(redis: Redis, mark: number | null): Promise<SlowCommands | null> {
  if (mark === null) return null;
  try {
    const entries = (await redis.call("SLOWLOG", "GET", "1000")) as Array<[number, number, number, ...unknown[]]>;
    const fresh = entries.filter((e) => Number(e[0]) > mark);
    const [, threshold] = (await redis.config("GET", "slowlog-log-slower-than")) as [string, string];
    return {
      count: fresh.length,
      longestMs: fresh.reduce((m, e) => Math.max(m, Number(e[2]) / 1000), 0),
      thresholdMs: Number(threshold) / 1000,
    };
  } catch {
    return null;
  }
}
