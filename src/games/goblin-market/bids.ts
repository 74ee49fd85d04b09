/** Queries over an auction's bids: the high bid and the bidders' places. */
import type { Seat } from "../types.js";
import type { Auction, Bid } from "./state.js";

/** The current high bid, or null before anyone bids. */
export function highBid(a: Pick<Auction, "bids">): Bid | null {
  return a.bids.length > 0 ? a.bids[a.bids.length - 1] : null;
}

/**
 * Each bidder's own highest bid, best first: [winner, second place, third place, ...].
 * Players who passed without bidding have no place. Bids only rise, so there are no ties.
 */
export function bidPlaces(a: Auction): Bid[] {
  const best = new Map<Seat, number>();
  for (const b of a.bids) best.set(b.seat, Math.max(best.get(b.seat) ?? 0, b.amount));
  return [...best].map(([seat, amount]) => ({ seat, amount })).sort((x, y) => y.amount - x.amount);
}
