/**
 * Decisions that interrupt play (see Decision in state.ts): Fresh Start and Blessed rerolls,
 * Clumsy, Let Me Help's draw, Share the Load's choice, Quick Fingers' discards. A decision with no
 * real choice left when it comes up (the die no longer shows 1, nothing to draw...) is dropped.
 */
import type { Seat } from "../types.js";
import { cheatSupply, discardFromHand, discardItemUnseen, drawCheats } from "./cards.js";
import { cheatActions } from "./cheats/index.js";
import { isCheat } from "./data.js";
import { canReroll, diceOf, fixTriple, offerBlessed, rollAll, rollOnce } from "./dice.js";
import { emit, type Draft } from "./draft.js";
import { clumsyOptions, rerollDie } from "./effects.js";
import { raiseReduce } from "./cheats/faces.js";
import { resolveShare } from "./cheats/draws.js";
import { hasOngoing } from "./ongoing.js";
import type { Decision, GoblinTeethState } from "./state.js";

/** True when a decision has no choice left to make (it is then skipped). */
export function decisionVoid(s: GoblinTeethState, dec: Decision): boolean {
  switch (dec.kind) {
    case "blessed":
      return !hasOngoing(s, dec.seat, "blessed") || s.dice[dec.die].value !== 1 || !canReroll(s, dec.die, false);
    case "clumsy":
      return clumsyOptions(s, dec.slot, dec.die).length === 0;
    case "help-draw":
      return cheatSupply(s) === 0;
    case "patient":
      return cheatActions(s, dec.seat, "patient").length === 0;
    default:
      return false;
  }
}

/** `reroll` for the decision at the head: Fresh Start (all your dice) or Blessed (that die). */
export function acceptReroll(d: Draft): void {
  const dec = d.pending.shift()!;
  if (dec.kind === "fresh-start") {
    const before = diceOf(dec.seat).map((id) => d.dice[id].value);
    rollAll(d, dec.seat);
    emit(d, { type: "fresh-start", seat: dec.seat, from: before, values: diceOf(dec.seat).map((id) => d.dice[id].value) });
    offerBlessed(d, diceOf(dec.seat), true);
    return;
  }
  if (dec.kind !== "blessed") throw new Error(`reroll on a ${dec.kind} decision`);
  if (d.phase === "start") {
    // The start-of-round roll: a plain reroll, then the same-value rule again.
    const die = d.dice[dec.die];
    const from = die.value;
    die.value = rollOnce(d, dec.seat);
    fixTriple(d, dec.seat, dec.die);
    emit(d, { type: "die", die: dec.die, owner: dec.seat, from, value: die.value, reason: "blessed", rolled: true });
    offerBlessed(d, [dec.die], true);
    return;
  }
  rerollDie(d, dec.die, false, "blessed");
}

/** `decline` for the decision at the head. */
export function decline(d: Draft): void {
  const dec = d.pending.shift()!;
  emit(d, { type: "decline", seat: dec.seat, decision: dec.kind });
  if (dec.kind === "fresh-start") offerBlessed(d, diceOf(dec.seat), true);
}

export function clumsyReroll(d: Draft, die: number): void {
  d.pending.shift();
  rerollDie(d, die, false, "clumsy");
}

export function helpDraw(d: Draft, seat: Seat): void {
  d.pending.shift();
  drawCheats(d, seat, 1, "let-me-help");
}

export function share(d: Draft, seat: Seat, top: string, give: string): void {
  const dec = d.pending.shift()!;
  if (dec.kind !== "share") throw new Error(`share on a ${dec.kind} decision`);
  resolveShare(d, seat, dec.cards, top, give);
}

/** One Quick Fingers discard: the card goes (a Cheat card face up to the discard pile, an Item unseen into the Item deck), then raise and reduce. */
export function quickFingersStep(d: Draft, seat: Seat, card: string, raise: number, reduce: number): void {
  if (isCheat(card)) discardFromHand(d, seat, card);
  else discardItemUnseen(d, seat, card);
  emit(d, { type: "quick-fingers", seat, discarded: isCheat(card) ? card : null, item: !isCheat(card), raise, reduce });
  raiseReduce(d, raise, reduce, "quick-fingers");
}
