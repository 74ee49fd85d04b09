/**
 * Playing an Ongoing card: it goes in front of any player (yourself included). Its effect lives
 * where it applies: Blessed/Cursed in dice.ts, Clumsy in effects.ts, Fresh Start in round.ts,
 * Lawful in cheats/index.ts, Patient in flow.ts, Poisoner in poison.ts, Polite and Priest in
 * bidding.ts.
 */
import { emit } from "../draft.js";
import { allSeats, seatArg, type CheatRule } from "./rule.js";

export const ongoing: CheatRule = {
  params: ["target"],
  domains: (s) => ({ target: allSeats(s) }),
  check: (s, _ctx, f) => seatArg(s, f.target),
  play: (d, ctx, f) => {
    d.ongoing[f.target as number].push(ctx.card);
    emit(d, { type: "ongoing", seat: ctx.seat, card: ctx.card, holder: f.target });
  },
};
