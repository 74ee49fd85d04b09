/**
 * Cheat cards that change the faces of dice without rolling: Borrow, Quick Fingers (whose
 * discards are taken one at a time, see decisions.ts), Sneaky Sneaky, Swap, Table Bump.
 */
import { peekFaceDown } from "../cards.js";
import { clampPips, isPlayed, positionProblem, slotsOf, unplayed, withDice, MAX_PIPS, MIN_PIPS } from "../dice.js";
import { emit, type Draft } from "../draft.js";
import { nudgeDie, setDie } from "../effects.js";
import type { GameError } from "../../types.js";
import type { GoblinTeethState } from "../state.js";
import { allDice, dieArg, err, faceDownSlot, NONE, type CheatRule, type Fields } from "./rule.js";

/** Raise die `raise` by 1 pip, then reduce die `reduce` by 1 pip (each within 1-6): is the result legal? */
export function raiseReduceProblem(s: GoblinTeethState, raise: unknown, reduce: unknown): GameError | null {
  const bad = dieArg(s, raise, "raise") ?? dieArg(s, reduce, "reduce");
  if (bad) return bad;
  const r = raise as number;
  const l = reduce as number;
  const slots = slotsOf(s.dice, [r, l]);
  if (slots.length === 0) return null; // unplayed or Altar dice: no bid changes
  const afterRaise = withDice(s.dice, { [r]: { value: clampPips(s.dice[r].value + 1) } });
  const after = withDice(afterRaise, { [l]: { value: clampPips(afterRaise[l].value - 1) } });
  return positionProblem(after, slots, s.players);
}

export function raiseReduce(d: Draft, raise: number, reduce: number, reason: string): void {
  nudgeDie(d, raise, +1, reason);
  nudgeDie(d, reduce, -1, reason);
}

export const borrow: CheatRule = {
  params: ["raise", "reduce"],
  domains: (s) => ({ raise: allDice(s), reduce: allDice(s) }),
  check: (s, _ctx, f) => raiseReduceProblem(s, f.raise, f.reduce),
  play: (d, _ctx, f) => raiseReduce(d, f.raise as number, f.reduce as number, "borrow"),
};

/**
 * Quick Fingers: the discards come next, one decision at a time ({type:"quick-fingers"} / decline).
 * Zero discards is allowed, but with no other card in hand there is nothing it could do.
 */
export const quickFingers: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s, ctx) =>
    s.hands[ctx.seat].some((c) => c !== ctx.card) ? null : err("NOT_ENOUGH_CARDS", "Quick Fingers needs another card in your hand to discard."),
  check: () => null,
  play: (d, ctx) => {
    d.pending.unshift({ kind: "quick-fingers", seat: ctx.seat, card: ctx.card });
  },
};

function unplayedArg(s: GoblinTeethState, v: unknown, name = "die"): GameError | null {
  const bad = dieArg(s, v, name);
  if (bad) return bad;
  return isPlayed(s.dice[v as number]) ? err("NOT_UNPLAYED", `The ${name} must be an unplayed die.`) : null;
}

/**
 * Sneaky Sneaky: the peek, then the die. With no unplayed die (at the end of the round) it only
 * peeks (`die` and `value` "none"); with no face-down Item (Refresh took it away) it only sets the
 * die; with neither it can't be played.
 */
export const sneakySneaky: CheatRule = {
  params: ["die", "value"],
  free: ["value"],
  domains: (s) => (unplayed(s).length > 0 ? { die: unplayed(s), value: [3, 4] } : { die: [NONE], value: [NONE] }),
  precondition: (s) =>
    unplayed(s).length > 0 || faceDownSlot(s) !== null
      ? null
      : err("NO_UNPLAYED_DICE", "Sneaky Sneaky: there is no face-down Item to peek at and no unplayed die to set."),
  check: (s, _ctx, f) => {
    if (unplayed(s).length === 0) {
      return f.die === NONE && f.value === NONE ? null : err("NO_UNPLAYED_DICE", `No die is unplayed: Sneaky Sneaky only peeks (die and value "${NONE}").`);
    }
    return unplayedArg(s, f.die) ?? (f.value === 3 || f.value === 4 ? null : err("BAD_VALUE", "Sneaky Sneaky sets the die to 3 or 4."));
  },
  play: (d, ctx, f) => {
    const slot = faceDownSlot(d);
    if (slot !== null) {
      const item = peekFaceDown(d, ctx.seat, slot);
      emit(d, { type: "peek", seat: ctx.seat, slot });
      emit(d, { type: "peeked", to: [ctx.seat], seat: ctx.seat, slot, card: item });
    }
    if (f.die !== NONE) setDie(d, f.die as number, f.value as number, "sneaky-sneaky");
  },
};

export const swap: CheatRule = {
  params: ["die", "other"],
  domains: (s) => ({ die: unplayed(s), other: unplayed(s) }),
  check: (s, _ctx, f) =>
    unplayedArg(s, f.die) ?? unplayedArg(s, f.other, "other") ?? (f.die === f.other ? err("SAME_DIE", "Swap needs two different dice.") : null),
  play: (d, _ctx, f: Fields) => {
    const a = f.die as number;
    const b = f.other as number;
    const va = d.dice[a].value;
    const vb = d.dice[b].value;
    setDie(d, a, vb, "swap");
    setDie(d, b, va, "swap");
  },
};

export const tableBump: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s, ctx) => (unplayed(s, ctx.seat).length > 0 ? null : err("NO_UNPLAYED_DICE", "Table Bump needs an unplayed die of yours.")),
  check: () => null,
  play: (d, ctx) => {
    for (const id of unplayed(d, ctx.seat)) setDie(d, id, MIN_PIPS + MAX_PIPS - d.dice[id].value, "table-bump");
  },
};
