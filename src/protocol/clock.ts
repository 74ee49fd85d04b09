/**
 * When a running clock runs out (docs/protocol.md, "Clocks"), from what a view carries: the room's
 * clock preset and the seat's clock. Pure code with no Node imports: the server (src/platform/
 * clocks.ts) and the browser client (client/src/clock.ts) use this one function, so a view need
 * not carry the deadline itself (it changed with every move, in every viewer's update).
 *
 *   deadline = since + turnMs + bankMs        (the seat's first move: at most since + firstMoveMs)
 */
import type { ClockPreset } from "../games/types.js";

/** What the deadline depends on: a seat's clock as views show it. */
export interface RunningClock {
  bankMs: number;
  since: number | null;
  firstMove: boolean;
}

/** When the clock runs out (epoch ms), or null when it is stopped. */
export function clockDeadline(preset: Pick<ClockPreset, "turnMs" | "firstMoveMs">, c: RunningClock): number | null {
  if (c.since === null) return null;
  const budget = preset.turnMs + c.bankMs;
  return c.since + (c.firstMove ? Math.min(preset.firstMoveMs, budget) : budget);
}

/** How long an open turn-based room waits for its seats to be taken before it closes ("unfilled"). */
export const TURN_BASED_OPEN_MS = 3 * 24 * 60 * 60_000;

/** A whole span in words: "60 s", "3 min", "12 h", "1 day", "3 days" (the largest unit it is whole in). */
export function spanWords(ms: number): string {
  const sec = Math.round(ms / 1000);
  if (sec >= 86_400 && sec % 86_400 === 0) return `${sec / 86_400} day${sec === 86_400 ? "" : "s"}`;
  if (sec >= 3600 && sec % 3600 === 0) return `${sec / 3600} h`;
  if (sec >= 120 && sec % 60 === 0) return `${sec / 60} min`;
  return `${sec} s`;
}

/** About how long is left, in words: "2 days 5 h", "5 h 10 min", "12 min", "40 s". */
export function leftWords(ms: number): string {
  const sec = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(sec / 86_400);
  const h = Math.floor((sec % 86_400) / 3600);
  const m = Math.floor((sec % 3600) / 60);
  if (d > 0) return `${d} day${d === 1 ? "" : "s"}${h > 0 ? ` ${h} h` : ""}`;
  if (h > 0) return `${h} h${m > 0 ? ` ${m} min` : ""}`;
  return m > 0 ? `${m} min` : `${sec} s`;
}
