/**
 * Placing a die: a bid on an Item in the Pot (no total over 10, no tie; Polite may not be first
 * onto a face-up Item) or on the Altar, with one optional Altar action: draw a Cheat card (Priest:
 * one more with a 4-6) or discard all Ongoing cards in front of a player.
 */
import type { GameError, Seat } from "../types.js";
import { cheatSupply, discardCheat, drawCheats } from "./cards.js";
import { MAX_BID } from "./data.js";
import { isDieId, isPlayed, onItems, slotTotals } from "./dice.js";
import { emit, type Draft } from "./draft.js";
import { landed, moveDie } from "./effects.js";
import { hasOngoing } from "./ongoing.js";
import type { GoblinTeethState } from "./state.js";

const err = (code: string, message: string): GameError => ({ code, message });

/** Is `die` one of `seat`'s unplayed dice? */
export function ownUnplayedProblem(s: GoblinTeethState, seat: Seat, die: unknown): GameError | null {
  if (!isDieId(s, die)) return err("BAD_DIE", `Choose one of your unplayed dice (die ids 0-${s.dice.length - 1}).`);
  if (s.dice[die].owner !== seat) return err("NOT_YOURS", "That die belongs to another player.");
  if (isPlayed(s.dice[die])) return err("DIE_PLAYED", "That die is already placed this round.");
  return null;
}

/** Why `seat` may not bid die `die` on `slot`, or null (die already checked as its own and unplayed). */
export function bidProblem(s: GoblinTeethState, seat: Seat, die: number, slot: unknown): GameError | null {
  if (typeof slot !== "number" || !Number.isInteger(slot) || slot < 0 || slot >= s.pot.length) {
    return err("BAD_SLOT", `Choose an Item in the Pot: slot 0-${s.pot.length - 1}.`);
  }
  if (hasOngoing(s, seat, "polite") && !s.pot[slot].faceDown && onItems(s, slot).length === 0) {
    return err("POLITE", "Polite: you may not be the first to play a die onto a face-up Item.");
  }
  const t = slotTotals(s.dice, slot, s.players);
  const total = t[seat] + s.dice[die].value;
  if (total > MAX_BID) return err("BID_OVER_10", `That would make your bid ${total}: goblins can't count higher than ${MAX_BID}.`);
  const tied = t.findIndex((x, other) => other !== seat && x === total);
  if (tied >= 0) return err("BID_TIE", `That would make your bid ${total}, the same as another player's on that Item: goblins hate ties.`);
  return null;
}

export function placeBid(d: Draft, seat: Seat, die: number, slot: number): void {
  moveDie(d, die, slot, "bid");
  emit(d, { type: "bid", seat, die, value: d.dice[die].value, slot, total: slotTotals(d.dice, slot, d.players)[seat] });
  d.turnState.placed = true;
  landed(d, seat, [die]);
}

export type AltarTake = "nothing" | "draw" | "clear";

export function altarProblem(s: GoblinTeethState, take: AltarTake, target: unknown): GameError | null {
  if (take === "draw" && cheatSupply(s) === 0) return err("NOTHING_TO_DRAW", "The Cheat deck and the discard pile are both empty.");
  if (take === "clear") {
    if (typeof target !== "number" || !Number.isInteger(target) || target < 0 || target >= s.players) {
      return err("BAD_TARGET", `Choose a player: seat 0-${s.players - 1}.`);
    }
    if (s.ongoing[target].length === 0) return err("NO_ONGOING", "That player has no Ongoing cards in front of them.");
  }
  return null;
}

/** Seats with Ongoing cards in front of them (targets for the Altar's discard). */
export function clearTargets(s: GoblinTeethState): Seat[] {
  return s.ongoing.flatMap((cards, seat) => (cards.length > 0 ? [seat] : []));
}

export function placeOnAltar(d: Draft, seat: Seat, die: number, take: AltarTake, target?: Seat): void {
  moveDie(d, die, "altar", "altar");
  const value = d.dice[die].value;
  emit(d, { type: "altar", seat, die, value, take, ...(take === "clear" ? { target } : {}) });
  d.turnState.placed = true;
  if (take === "draw") drawCheats(d, seat, value >= 4 && hasOngoing(d, seat, "priest") ? 2 : 1, "altar");
  if (take === "clear") {
    const cards = d.ongoing[target!];
    d.ongoing[target!] = [];
    for (const c of cards) discardCheat(d, c);
    emit(d, { type: "ongoing-discarded", seat: target, cards });
  }
}
