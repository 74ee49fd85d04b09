/** Who must act, and the legal action templates for a seat (exact bid bounds). */
import type { LegalAction, Seat } from "../types.js";
import { highBid, isFinalChance, minBid } from "./auction.js";
import { pawnOrCourtInHand } from "./setup-actions.js";
import { EXCHANGE_COST, type SorcerousFuturesState } from "./state.js";

/** Setup: every seat that has not confirmed (simultaneous). Otherwise the seat to act. */
export function activeSeats(state: SorcerousFuturesState): Seat[] {
  if (state.phase === "over") return [];
  if (state.phase === "setup") return state.confirmed.flatMap((c, seat) => (c ? [] : [seat]));
  return state.turn === null ? [] : [state.turn];
}

export function legalActions(state: SorcerousFuturesState, seat: Seat): LegalAction[] {
  if (!activeSeats(state).includes(seat)) return [];
  switch (state.phase) {
    case "setup": {
      const out: LegalAction[] = [];
      const bad = pawnOrCourtInHand(state, seat);
      if (state.money[seat] >= EXCHANGE_COST) {
        out.push({
          type: "exchange",
          params: {
            hand: { kind: "choice", options: [...state.valuations[seat]] },
            slot: { kind: "choice", options: [0, 1] },
          },
          label: `Pay $${EXCHANGE_COST} to exchange a hand card with a face-down card`,
        });
      }
      if (bad.length > 0) {
        out.push({ type: "reveal", params: { card: { kind: "choice", options: bad } }, label: "Reveal a Pawn or Court and draw a replacement" });
      } else {
        out.push({ type: "confirm", label: "Keep these two cards as your valuations" });
      }
      return out;
    }
    case "pick":
      return [{ type: "pick", params: { card: { kind: "choice", options: [...state.market] } }, label: "Pick a card to auction" }];
    case "bidding": {
      const a = state.auction!;
      const out: LegalAction[] = [];
      const holdsHigh = isFinalChance(a, state.players) && highBid(a)?.seat === seat;
      const min = minBid(a);
      const max = state.money[seat];
      if (!holdsHigh && min <= max) {
        out.push({
          type: "bid",
          params: { amount: { kind: "int", min, max } },
          label: min === max ? `Bid $${min}` : `Bid $${min}-$${max}`,
        });
      }
      out.push({ type: "pass", label: holdsHigh ? "Pass (your high bid stands)" : "Pass" });
      return out;
    }
  }
  return [];
}
