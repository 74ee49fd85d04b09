/**
 * Poisoner (Ongoing): before placing a die on your turn, once per turn, you may give another
 * player a card from your hand (face down: only the two of you learn which) to reduce one of
 * their dice by 2 pips (down to 1 at most; the result must leave no tie).
 */
import type { GameError, Seat } from "../types.js";
import { handOver } from "./cards.js";
import { clampPips, isDieId, positionProblem, slotsOf, withDice } from "./dice.js";
import { emit, type Draft } from "./draft.js";
import { nudgeDie } from "./effects.js";
import { hasOngoing } from "./ongoing.js";
import type { GoblinTeethState } from "./state.js";

const err = (code: string, message: string): GameError => ({ code, message });
export const POISON_PIPS = 2;

/** Why `seat` can't use Poisoner at all now (the caller checked it is their turn, before placing). */
export function poisonBlocked(s: GoblinTeethState, seat: Seat): GameError | null {
  if (!hasOngoing(s, seat, "poisoner")) return err("NO_POISONER", "Only a player with Poisoner in front of them can poison.");
  if (s.turnState.poisoned) return err("ALREADY_POISONED", "You have already used Poisoner this turn.");
  if (s.hands[seat].length === 0) return err("NOT_IN_HAND", "You have no card to give.");
  return null;
}

export function poisonDieProblem(s: GoblinTeethState, seat: Seat, die: unknown): GameError | null {
  if (!isDieId(s, die)) return err("BAD_DIE", `Choose a die of another player (die ids 0-${s.dice.length - 1}).`);
  if (s.dice[die].owner === seat) return err("NOT_OTHERS", "Poisoner reduces a die of the player you give the card to, not yours.");
  const after = withDice(s.dice, { [die]: { value: clampPips(s.dice[die].value - POISON_PIPS) } });
  return positionProblem(after, slotsOf(s.dice, [die]), s.players);
}

export function poisonProblem(s: GoblinTeethState, seat: Seat, give: unknown, die: unknown): GameError | null {
  const blocked = poisonBlocked(s, seat);
  if (blocked) return blocked;
  if (typeof give !== "string" || !s.hands[seat].includes(give)) return err("NOT_IN_HAND", "The card to give must be in your hand.");
  return poisonDieProblem(s, seat, die);
}

/** Dice Poisoner may reduce now. */
export function poisonDice(s: GoblinTeethState, seat: Seat): number[] {
  return s.dice.flatMap((_, id) => (poisonDieProblem(s, seat, id) === null ? [id] : []));
}

export function poison(d: Draft, seat: Seat, give: string, die: number): void {
  const target = d.dice[die].owner;
  handOver(d, seat, target, give);
  d.turnState.poisoned = true;
  emit(d, { type: "poison", seat, target, die });
  emit(d, { type: "given", to: [seat, target], from: seat, seat: target, card: give, reason: "poisoner" });
  nudgeDie(d, die, -POISON_PIPS, "poisoner");
}
