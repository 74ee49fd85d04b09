/**
 * Changing dice on the table, reported publicly: set a face, raise/reduce (kept within 1-6), reroll,
 * move; and Clumsy's trigger when a 1 or 2 is played or moved onto an Item.
 */
import type { Seat } from "../types.js";
import { canReroll, clampPips, onItems, reroll } from "./dice.js";
import { emit, type Draft } from "./draft.js";
import { hasOngoing } from "./ongoing.js";
import type { DieSpot, GoblinTeethState } from "./state.js";

/** Set die `id` to `value` (already within 1-6). */
export function setDie(d: Draft, id: number, value: number, reason: string): void {
  const die = d.dice[id];
  const from = die.value;
  die.value = value;
  emit(d, { type: "die", die: id, owner: die.owner, from, value, reason });
}

/** Raise (delta > 0) or reduce a die, doing as much as the 1-6 range allows. */
export function nudgeDie(d: Draft, id: number, delta: number, reason: string): void {
  setDie(d, id, clampPips(d.dice[id].value + delta), reason);
}

/** Reroll a die (the caller checked canReroll) and report the result. */
export function rerollDie(d: Draft, id: number, mustDiffer: boolean, reason: string): void {
  const die = d.dice[id];
  const from = die.value;
  const to = reroll(d, id, mustDiffer);
  emit(d, { type: "die", die: id, owner: die.owner, from, value: to, reason, rolled: true });
}

export function moveDie(d: Draft, id: number, to: DieSpot, reason: string): void {
  const die = d.dice[id];
  const from = die.at;
  die.at = to;
  emit(d, { type: "move", die: id, owner: die.owner, value: die.value, from, at: to, reason });
}

/**
 * Clumsy: `actor` just played or moved these dice (each to a place other than where it was: a die
 * that did not change place did not move onto anything); for each now showing 1 or 2 on an Item,
 * a Clumsy actor may reroll any other die on that Item (queued as a decision).
 */
export function landed(d: Draft, actor: Seat, ids: readonly number[]): void {
  if (!hasOngoing(d, actor, "clumsy")) return;
  for (const id of ids) {
    const die = d.dice[id];
    if (typeof die.at === "number" && die.value <= 2) d.pending.push({ kind: "clumsy", seat: actor, slot: die.at, die: id });
  }
}

/** The dice Clumsy may reroll: the other dice on that Item whose reroll can end legally. */
export function clumsyOptions(s: GoblinTeethState, slot: number, landedDie: number): number[] {
  return onItems(s, slot).filter((id) => id !== landedDie && canReroll(s, id, false));
}
