/**
 * Clock presets for Goblin Teeth. A turn is one small step (place a die, play a Cheat card, answer
 * a card's question), many per round, so each gets less time than the platform's default turn,
 * with a bank for the hard ones (a Cheat card against the whole Pot).
 */
import type { ClockPreset } from "../types.js";

const s = 1000;
const min = 60 * s;

export const clockPresets: ClockPreset[] = [
  { id: "standard", label: "Standard: 20 s a turn + 3 min bank (+5 s a move)", turnMs: 20 * s, bankMs: 3 * min, incrementMs: 5 * s, firstMoveMs: 60 * s },
  { id: "quick", label: "Quick: 10 s a turn + 1 min bank (+3 s a move)", turnMs: 10 * s, bankMs: 1 * min, incrementMs: 3 * s, firstMoveMs: 30 * s },
  { id: "relaxed", label: "Relaxed: 90 s a turn + 10 min bank (+20 s a move)", turnMs: 90 * s, bankMs: 10 * min, incrementMs: 20 * s, firstMoveMs: 3 * min },
];
