/**
 * The event log as a room keeps it, beside the game state (games only report events: `Step`).
 * Used by the platform and by tests; no game's rules read it.
 */
import type { GameEvent, LogEntry, Viewer } from "./types.js";

/** The log with a step's events appended and numbered (a new array; the old one is untouched). */
export function appendEvents(log: readonly LogEntry[], events: readonly GameEvent[]): LogEntry[] {
  const out = log.slice();
  for (const e of events) out.push({ ...e, n: out.length + 1 });
  return out;
}

/** Whether a viewer may see an event: a public one, or a private one addressed to their seat. */
export function maySee(e: GameEvent, viewer: Viewer): boolean {
  return e.to === undefined || (viewer.kind === "seat" && e.to.includes(viewer.seat));
}

/** The entries a viewer may see: public ones, plus private ones addressed to their seat. */
export function visibleLog<E extends GameEvent>(log: readonly E[], viewer: Viewer): E[] {
  return log.filter((e) => maySee(e, viewer));
}
