/**
 * Clock presets for Aucteraden. Solitaire: nobody waits for the player, so a casual room has no
 * clock by default (and the daily challenge none at all); these are for a player who wants one.
 * Each turn weighs the whole tableau against the market, so turns are long.
 */
import type { ClockPreset } from "../types.js";

const s = 1000;
const min = 60 * s;

export const clockPresets: ClockPreset[] = [
  { id: "standard", label: "Standard: 1 min a turn + 10 min bank (+15 s a move)", turnMs: 1 * min, bankMs: 10 * min, incrementMs: 15 * s, firstMoveMs: 2 * min },
  { id: "relaxed", label: "Relaxed: 3 min a turn + 30 min bank (+1 min a move)", turnMs: 3 * min, bankMs: 30 * min, incrementMs: 1 * min, firstMoveMs: 5 * min },
];
