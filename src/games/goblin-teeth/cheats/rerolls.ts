/** Cheat cards that reroll dice: Distraction, Second Chance, Total Re-roll. */
import { canReroll, unplayed } from "../dice.js";
import { rerollDie } from "../effects.js";
import type { GameError, Seat } from "../../types.js";
import type { GoblinTeethState } from "../state.js";
import { allDice, dieArg, err, type CheatRule } from "./rule.js";

/** A die that may be rerolled "until it shows a different number" (some roll must end legally). */
function rerollable(s: GoblinTeethState, v: unknown, owner: (o: Seat) => boolean, whose: string): GameError | null {
  const bad = dieArg(s, v);
  if (bad) return bad;
  const id = v as number;
  if (!owner(s.dice[id].owner)) return err(whose === "yours" ? "NOT_YOURS" : "NOT_OTHERS", `Choose ${whose === "yours" ? "one of your dice" : "a die belonging to another player"}.`);
  return canReroll(s, id, true)
    ? null
    : err("CANNOT_REROLL", "No roll of that die could end without a tie or a bid over 10, so it can't be rerolled.");
}

export const distraction: CheatRule = {
  params: ["die"],
  domains: (s, ctx) => ({ die: allDice(s).filter((id) => s.dice[id].owner !== ctx.seat) }),
  check: (s, ctx, f) => rerollable(s, f.die, (o) => o !== ctx.seat, "others"),
  play: (d, _ctx, f) => rerollDie(d, f.die as number, true, "distraction"),
};

export const secondChance: CheatRule = {
  params: ["die"],
  domains: (s, ctx) => ({ die: allDice(s).filter((id) => s.dice[id].owner === ctx.seat) }),
  check: (s, ctx, f) => rerollable(s, f.die, (o) => o === ctx.seat, "yours"),
  play: (d, _ctx, f) => rerollDie(d, f.die as number, true, "second-chance"),
};

export const totalReroll: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s, ctx) => (unplayed(s, ctx.seat).length > 0 ? null : err("NO_UNPLAYED_DICE", "Total Re-roll needs an unplayed die of yours.")),
  check: () => null,
  play: (d, ctx) => {
    for (const id of unplayed(d, ctx.seat)) rerollDie(d, id, false, "total-re-roll");
  },
};
