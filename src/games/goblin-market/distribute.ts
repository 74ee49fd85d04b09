/**
 * Step D: the winner takes all or takes one; then second place takes one (choosing in a
 * three-card auction), third place the last; each taker pays their own bid; leftovers are
 * discarded. Steps with no real choice resolve automatically (reported with how: "auto").
 * Each step function pushes the events it causes onto `events`, in order.
 */
import type { GameEvent, Seat } from "../types.js";
import { bidPlaces } from "./bids.js";
import { finishAuction } from "./resolve.js";
import type { Bid, GoblinMarketState } from "./state.js";

/** Give `cards` to `bid.seat`, who pays their bid; reported as a take. */
function give(
  state: GoblinMarketState,
  bid: Bid,
  cards: readonly string[],
  place: number,
  how: "all" | "one" | "choice" | "auto",
  events: GameEvent[],
): GoblinMarketState {
  const a = state.auction!;
  const owned = state.owned.slice();
  owned[bid.seat] = [...owned[bid.seat], ...cards];
  const coins = state.coins.slice();
  coins[bid.seat] -= bid.amount;
  events.push({ type: "take", seat: bid.seat, place, cards: [...cards], paid: bid.amount, how });
  return {
    ...state,
    owned,
    coins,
    auction: { ...a, offer: a.offer.filter((c) => !cards.includes(c)) },
  };
}

/** Discard whatever is left on offer, then run steps E and F. */
function discardRestAndFinish(state: GoblinMarketState, receivers: Seat[], events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  const win = bidPlaces(a)[0];
  let s = state;
  if (a.offer.length > 0) {
    events.push({ type: "discard", cards: a.offer });
    s = { ...s, discard: [...s.discard, ...a.offer], auction: { ...a, offer: [] } };
  }
  return finishAuction(s, win, receivers, events);
}

/** Called once bidding has a winner. A one-card auction resolves at once. */
export function beginDistribution(state: GoblinMarketState, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  const win = bidPlaces(a)[0];
  if (a.offer.length === 1) {
    return discardRestAndFinish(give(state, win, a.offer, 1, "auto", events), [win.seat], events);
  }
  return { ...state, phase: "taking", turn: win.seat };
}

export function takeAll(state: GoblinMarketState, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  const win = bidPlaces(a)[0];
  return discardRestAndFinish(give(state, win, a.offer, 1, "all", events), [win.seat], events);
}

/** The winner takes one card; second place follows (choosing only if two cards are left). */
export function takeOne(state: GoblinMarketState, cardId: string, events: GameEvent[]): GoblinMarketState {
  const places = bidPlaces(state.auction!);
  const s = give(state, places[0], [cardId], 1, "one", events);
  const second = places[1];
  if (second === undefined) return discardRestAndFinish(s, [places[0].seat], events);
  const left = s.auction!.offer;
  if (left.length === 1) {
    return discardRestAndFinish(give(s, second, left, 2, "auto", events), [places[0].seat, second.seat], events);
  }
  return { ...s, phase: "choosing", turn: second.seat };
}

/** Second place chooses one of the two cards left in a three-card auction; third place gets the last. */
export function choose(state: GoblinMarketState, cardId: string, events: GameEvent[]): GoblinMarketState {
  const places = bidPlaces(state.auction!);
  let s = give(state, places[1], [cardId], 2, "choice", events);
  const receivers = [places[0].seat, places[1].seat];
  const third = places[2];
  if (third !== undefined) {
    s = give(s, third, s.auction!.offer, 3, "auto", events);
    receivers.push(third.seat);
  }
  return discardRestAndFinish(s, receivers, events);
}
