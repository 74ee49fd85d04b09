/** Event-log helpers shared by all games. */
import type { LogEntry, Seat, Viewer } from "./types.js";

/** Append an entry, numbering it. Returns a new array. */
export function appendLog(
  log: readonly LogEntry[],
  entry: { type: string; to?: Seat[]; [field: string]: unknown },
): LogEntry[] {
  return [...log, { ...entry, n: log.length + 1 } as LogEntry];
}

/** The entries a viewer may see: public ones, plus private ones addressed to their seat. */
export function visibleLog(log: readonly LogEntry[], viewer: Viewer): LogEntry[] {
  return log.filter((e) => e.to === undefined || (viewer.kind === "seat" && e.to.includes(viewer.seat)));
}
