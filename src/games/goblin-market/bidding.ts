/** Step C: bidding clockwise until an unchallenged high bid, or everyone passes. */
import type { GameEvent, Seat } from "../types.js";
import { beginDistribution } from "./distribute.js";
import { resolveAllPassed } from "./resolve.js";
import { highBid } from "./bids.js";
import type { Auction, GoblinMarketState } from "./state.js";

/** The next seat clockwise from `seat` that has not passed. */
function nextActive(a: Auction, players: number, seat: Seat): Seat {
  for (let i = 1; i <= players; i++) {
    const s = (seat + i) % players;
    if (!a.passed.includes(s)) return s;
  }
  return seat;
}

/** After a bid or pass: end the bidding if it is over, else hand the turn on. */
function advance(state: GoblinMarketState, actor: Seat, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  const high = highBid(a);
  const stillIn = state.players - a.passed.length;
  if (high === null && stillIn === 0) return resolveAllPassed(state, events);
  if (high !== null && stillIn === 1) {
    events.push({ type: "auction-won", auction: a.number, seat: high.seat, amount: high.amount });
    return beginDistribution(state, events);
  }
  return { ...state, turn: nextActive(a, state.players, actor) };
}

/** Apply a bid that has already been validated. */
export function placeBid(state: GoblinMarketState, seat: Seat, amount: number, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  events.push({ type: "bid", seat, amount });
  return advance({ ...state, auction: { ...a, bids: [...a.bids, { seat, amount }] } }, seat, events);
}

/** Apply a pass (always allowed for the seat whose turn it is). */
export function pass(state: GoblinMarketState, seat: Seat, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  events.push({ type: "pass", seat });
  return advance({ ...state, auction: { ...a, passed: [...a.passed, seat] } }, seat, events);
}
