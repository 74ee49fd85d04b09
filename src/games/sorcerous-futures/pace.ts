/**
 * Clock presets for Sorcerous Futures. The private setup (choosing what to keep and exchange from
 * a hand, with every valuation still secret) is the longest decision of the game and everyone
 * makes it at once, and each auction bid weighs the whole market: a longer turn allowance and
 * first move than the platform's defaults.
 */
import type { ClockPreset } from "../types.js";

const s = 1000;
const min = 60 * s;

export const clockPresets: ClockPreset[] = [
  { id: "standard", label: "Standard: 45 s a turn + 4 min bank (+10 s a move)", turnMs: 45 * s, bankMs: 4 * min, incrementMs: 10 * s, firstMoveMs: 2 * min },
  { id: "quick", label: "Quick: 20 s a turn + 90 s bank (+5 s a move)", turnMs: 20 * s, bankMs: 90 * s, incrementMs: 5 * s, firstMoveMs: 60 * s },
  { id: "relaxed", label: "Relaxed: 2 min a turn + 12 min bank (+30 s a move)", turnMs: 2 * min, bankMs: 12 * min, incrementMs: 30 * s, firstMoveMs: 4 * min },
];
