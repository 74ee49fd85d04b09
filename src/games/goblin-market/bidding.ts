/** Step C: bidding clockwise until an unchallenged high bid, or everyone passes. */
import { appendLog } from "../log.js";
import type { Seat } from "../types.js";
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
function advance(state: GoblinMarketState, actor: Seat): GoblinMarketState {
  const a = state.auction!;
  const high = highBid(a);
  const stillIn = state.players - a.passed.length;
  if (high === null && stillIn === 0) return resolveAllPassed(state);
  if (high !== null && stillIn === 1) {
    const log = appendLog(state.log, { type: "auction-won", auction: a.number, seat: high.seat, amount: high.amount });
    return beginDistribution({ ...state, log });
  }
  return { ...state, turn: nextActive(a, state.players, actor) };
}

/** Apply a bid that has already been validated. */
export function placeBid(state: GoblinMarketState, seat: Seat, amount: number): GoblinMarketState {
  const a = state.auction!;
  return advance(
    {
      ...state,
      auction: { ...a, bids: [...a.bids, { seat, amount }] },
      log: appendLog(state.log, { type: "bid", seat, amount }),
    },
    seat,
  );
}

/** Apply a pass (always allowed for the seat whose turn it is). */
export function pass(state: GoblinMarketState, seat: Seat): GoblinMarketState {
  const a = state.auction!;
  return advance(
    {
      ...state,
      auction: { ...a, passed: [...a.passed, seat] },
      log: appendLog(state.log, { type: "pass", seat }),
    },
    seat,
  );
}
