/** Legal action templates for one seat: only the seat whose turn it is has any. */
import type { LegalAction, Seat } from "../types.js";
import { highBid } from "./bids.js";
import type { GoblinMarketState } from "./state.js";

export function activeSeats(state: GoblinMarketState): Seat[] {
  return state.phase === "over" || state.turn === null ? [] : [state.turn];
}

export function legalActions(state: GoblinMarketState, seat: Seat): LegalAction[] {
  const a = state.auction;
  if (state.phase === "over" || a === null || seat !== state.turn) return [];
  switch (state.phase) {
    case "bidding": {
      const min = (highBid(a)?.amount ?? 0) + 1;
      const max = state.coins[seat];
      const out: LegalAction[] = [];
      if (min <= max) {
        out.push({
          type: "bid",
          params: { amount: { kind: "int", min, max } },
          label: min === max ? `Bid ${min} coin${min === 1 ? "" : "s"}` : `Bid ${min}-${max} coins`,
        });
      }
      out.push({ type: "pass", label: "Pass" });
      return out;
    }
    case "taking": {
      const bid = highBid(a)!.amount;
      return [
        { type: "take-all", label: `Take all ${a.offer.length} cards for ${bid} coins` },
        {
          type: "take-one",
          params: { card: { kind: "choice", options: [...a.offer] } },
          label: `Take one card for ${bid} coins`,
        },
      ];
    }
    case "choosing":
      return [{ type: "choose", params: { card: { kind: "choice", options: [...a.offer] } }, label: "Choose a card" }];
  }
}
