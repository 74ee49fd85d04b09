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
