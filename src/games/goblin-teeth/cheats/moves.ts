/**
 * Cheat cards that move dice: Let Me Help, Reposition, Sleight of Hand, Trade Places,
 * Transposition. Every move must leave no bid over 10 and no tie; a 1 or 2 moved onto an Item
 * by a Clumsy player triggers Clumsy (only a die that changed place: two dice trading places on
 * the same Item, or both on the Altar, move nothing).
 */
import { isPlayed, onAltar, onItems, positionProblem, slotsOf, unplayed, withDice } from "../dice.js";
import type { Draft } from "../draft.js";
import { landed, moveDie } from "../effects.js";
import type { GameError } from "../../types.js";
import type { Die, DieSpot, GoblinTeethState } from "../state.js";
import { allDice, allSlots, dieArg, err, slotArg, type CheatRule, type Fields } from "./rule.js";

function moveProblem(s: GoblinTeethState, id: number, to: DieSpot): GameError | null {
  const after = withDice(s.dice, { [id]: { at: to } });
  return positionProblem(after, [...new Set([...slotsOf(s.dice, [id]), ...slotsOf(after, [id])])], s.players);
}

function swapProblem(s: GoblinTeethState, a: number, b: number): GameError | null {
  const after = withDice(s.dice, { [a]: { at: s.dice[b].at }, [b]: { at: s.dice[a].at } });
  return positionProblem(after, slotsOf(s.dice, [a, b]), s.players);
}

/** Dice `die` and `other` trade places; when both are in the same place, nothing moves. */
function swapPlaces(d: Draft, ctx: { seat: number }, f: Fields, reason: string): void {
  const a = f.die as number;
  const b = f.other as number;
  const atA = d.dice[a].at;
  const atB = d.dice[b].at;
  if (atA === atB) return;
  moveDie(d, a, atB, reason);
  moveDie(d, b, atA, reason);
  landed(d, ctx.seat, [a, b]);
}

export const letMeHelp: CheatRule = {
  params: ["die", "slot"],
  domains: (s, ctx) => ({ die: unplayed(s).filter((id) => s.dice[id].owner !== ctx.seat), slot: allSlots(s) }),
  check: (s, ctx, f) => {
    const bad = dieArg(s, f.die) ?? slotArg(s, f.slot);
    if (bad) return bad;
    const die = s.dice[f.die as number];
    if (die.owner === ctx.seat) return err("NOT_OTHERS", "Let Me Help moves a die belonging to another player.");
    if (isPlayed(die)) return err("NOT_UNPLAYED", "Let Me Help moves an unplayed die.");
    return moveProblem(s, f.die as number, f.slot as number);
  },
  play: (d, ctx, f) => {
    const id = f.die as number;
    moveDie(d, id, f.slot as number, "let-me-help");
    landed(d, ctx.seat, [id]);
    d.pending.unshift({ kind: "help-draw", seat: d.dice[id].owner, card: ctx.card });
  },
};

export const reposition: CheatRule = {
  params: ["die", "slot"],
  domains: (s) => ({ die: onItems(s), slot: allSlots(s) }),
  check: (s, _ctx, f) => {
    const bad = dieArg(s, f.die) ?? slotArg(s, f.slot);
    if (bad) return bad;
    const at = s.dice[f.die as number].at;
    if (typeof at !== "number") return err("NOT_ON_ITEM", "Reposition moves a die that is on an Item.");
    if (at === f.slot) return err("SAME_SLOT", "Move the die to another Item.");
    return moveProblem(s, f.die as number, f.slot as number);
  },
  play: (d, ctx, f) => {
    moveDie(d, f.die as number, f.slot as number, "reposition");
    landed(d, ctx.seat, [f.die as number]);
  },
};

export const sleightOfHand: CheatRule = {
  params: ["die", "slot"],
  domains: (s) => ({ die: onAltar(s), slot: allSlots(s) }),
  check: (s, _ctx, f) => {
    const bad = dieArg(s, f.die) ?? slotArg(s, f.slot);
    if (bad) return bad;
    if (s.dice[f.die as number].at !== "altar") return err("NOT_ON_ALTAR", "Sleight of Hand moves a die from the Altar.");
    return moveProblem(s, f.die as number, f.slot as number);
  },
  play: (d, ctx, f) => {
    moveDie(d, f.die as number, f.slot as number, "sleight-of-hand");
    landed(d, ctx.seat, [f.die as number]);
  },
};

const played = (s: GoblinTeethState, pred: (d: Die) => boolean): number[] => allDice(s).filter((id) => isPlayed(s.dice[id]) && pred(s.dice[id]));

export const tradePlaces: CheatRule = {
  params: ["die", "other"],
  domains: (s, ctx) => ({ die: played(s, (d) => d.owner === ctx.seat), other: played(s, (d) => d.owner !== ctx.seat) }),
  check: (s, ctx, f) => {
    const bad = dieArg(s, f.die) ?? dieArg(s, f.other, "other");
    if (bad) return bad;
    const mine = s.dice[f.die as number];
    const theirs = s.dice[f.other as number];
    if (mine.owner !== ctx.seat || !isPlayed(mine)) return err("NOT_YOURS", "Choose one of your played dice (on an Item or the Altar).");
    if (theirs.owner === ctx.seat || !isPlayed(theirs)) return err("NOT_OTHERS", "Choose a played die belonging to another player.");
    return swapProblem(s, f.die as number, f.other as number);
  },
  play: (d, ctx, f) => swapPlaces(d, ctx, f, "trade-places"),
};

export const transposition: CheatRule = {
  params: ["die", "other"],
  domains: (s, ctx) => ({ die: played(s, (d) => d.owner === ctx.seat), other: played(s, (d) => d.owner === ctx.seat) }),
  check: (s, ctx, f) => {
    const bad = dieArg(s, f.die) ?? dieArg(s, f.other, "other");
    if (bad) return bad;
    for (const id of [f.die as number, f.other as number]) {
      if (s.dice[id].owner !== ctx.seat || !isPlayed(s.dice[id])) return err("NOT_YOURS", "Choose two of your played dice (on Items or the Altar).");
    }
    if (f.die === f.other) return err("SAME_DIE", "Transposition swaps two different dice.");
    return swapProblem(s, f.die as number, f.other as number);
  },
  play: (d, ctx, f) => swapPlaces(d, ctx, f, "transposition"),
};
