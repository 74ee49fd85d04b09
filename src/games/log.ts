/** Event-log helpers shared by all games. */
import type { LogEntry, Seat, Viewer } from "./types.js";

/** An entry before `appendLog` numbers it. */
export type NewLogEntry = { type: string; to?: Seat[]; [field: string]: unknown };

/**
 * Append entries, numbering them. Returns a new array: a step that logs several entries appends
 * them in one call, so the log (the largest part of a state) is copied once, not once per entry.
 */
export function appendLog(log: readonly LogEntry[], ...entries: NewLogEntry[]): LogEntry[] {
  const out = log.slice();
  for (const entry of entries) out.push({ ...entry, n: out.length + 1 } as LogEntry);
  return out;
}

/** The entries a viewer may see: public ones, plus private ones addressed to their seat. */
export function visibleLog(log: readonly LogEntry[], viewer: Viewer): LogEntry[] {
  return log.filter((e) => e.to === undefined || (viewer.kind === "seat" && e.to.includes(viewer.seat)));
}
