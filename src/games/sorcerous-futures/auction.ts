/**
 * Auctions: the Excuse holder picks a market card and opens; each other player in turn once;
 * then the Excuse holder has the final chance. Highest bid pays the bank and takes the card;
 * all pass = the card is discarded. Then the Excuse passes left.
 */
import type { GameEvent, Seat } from "../types.js";
import { emit, nextPick, startAuction } from "./deal.js";
import type { Auction, AuctionMove, SorcerousFuturesState } from "./state.js";

/** The seat whose turn it is after `moves` turns: excuse, excuse+1, ..., excuse+n-1, then excuse. */
export function auctionTurn(a: Auction, players: number): Seat {
  const k = a.moves.length;
  return k < players ? (a.excuse + k) % players : a.excuse;
}

/** True when the next turn is the Excuse holder's final chance. */
export function isFinalChance(a: Auction, players: number): boolean {
  return a.moves.length === players;
}

export function highBid(a: Auction): { seat: Seat; amount: number } | null {
  for (let i = a.moves.length - 1; i >= 0; i--) {
    const m = a.moves[i];
    if (m.bid !== null) return { seat: m.seat, amount: m.bid };
  }
  return null;
}

/** Lowest legal bid now: 1, or $1 above the high bid. */
export function minBid(a: Auction): number {
  return (highBid(a)?.amount ?? 0) + 1;
}

export function pick(state: SorcerousFuturesState, cardId: string, events: GameEvent[]): SorcerousFuturesState {
  return startAuction(state, cardId, false, events);
}

function move(state: SorcerousFuturesState, m: AuctionMove, events: GameEvent[]): SorcerousFuturesState {
  const a: Auction = { ...state.auction!, moves: [...state.auction!.moves, m] };
  const s: SorcerousFuturesState = { ...state, auction: a };
  emit(events, s, m.bid === null ? { type: "pass", seat: m.seat, auction: a.number } : { type: "bid", seat: m.seat, amount: m.bid, auction: a.number });
  if (a.moves.length > state.players) return resolve(s, events);
  return { ...s, turn: auctionTurn(a, state.players) };
}

export const bid = (state: SorcerousFuturesState, seat: Seat, amount: number, events: GameEvent[]) =>
  move(state, { seat, bid: amount }, events);
export const pass = (state: SorcerousFuturesState, seat: Seat, events: GameEvent[]) => move(state, { seat, bid: null }, events);

/** Hand the card to the high bidder (who pays the bank) or discard it; pass the Excuse left. */
function resolve(state: SorcerousFuturesState, events: GameEvent[]): SorcerousFuturesState {
  const a = state.auction!;
  const high = highBid(a);
  let s: SorcerousFuturesState = { ...state, auction: null };
  if (high) {
    const money = s.money.slice();
    money[high.seat] -= high.amount;
    const holdings = s.holdings.slice();
    holdings[high.seat] = [...holdings[high.seat], a.card];
    s = { ...s, money, holdings };
    emit(events, s, { type: "win", seat: high.seat, card: a.card, paid: high.amount, auction: a.number });
  } else {
    s = { ...s, discard: [...s.discard, a.card] };
    emit(events, s, { type: "discard", card: a.card, auction: a.number });
  }
  const excuse = (a.excuse + 1) % s.players;
  s = { ...s, excuse };
  emit(events, s, { type: "excuse", seat: excuse, first: false });
  return nextPick(s, events);
}
