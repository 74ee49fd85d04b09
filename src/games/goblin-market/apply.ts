/**
 * apply(): validate an arbitrary JSON action and apply it. Never throws and never mutates;
 * on error returns fail(code, message) and the input state is untouched.
 */
import { checkActionShape, checkSeat } from "../actions.js";
import { fail, ok, type Action, type GameEvent, type Result, type Seat, type Step } from "../types.js";
import { pass, placeBid } from "./bidding.js";
import { highBid } from "./bids.js";
import { choose, takeAll, takeOne } from "./distribute.js";
import type { GoblinMarketState, Phase } from "./state.js";

/** Parameters each action type takes (besides `type`), and the phase it belongs to. */
const ACTIONS: Record<string, { params: string[]; phase: Phase }> = {
  bid: { params: ["amount"], phase: "bidding" },
  pass: { params: [], phase: "bidding" },
  "take-all": { params: [], phase: "taking" },
  "take-one": { params: ["card"], phase: "taking" },
  choose: { params: ["card"], phase: "choosing" },
};

const PHASE_TEXT: Record<Phase, string> = {
  bidding: "the auction is still in bidding",
  taking: "the winner is deciding which cards to take",
  choosing: "second place is choosing a card",
  over: "the game is over",
};

/**
 * The events a step causes are collected in one array made here, per call, and pushed to by the
 * step functions in order; a refusal is decided before any of them runs, so it returns no events.
 */
export function apply(state: GoblinMarketState, seat: Seat, action: Action): Result<Step<GoblinMarketState>> {
  const seatOk = checkSeat(state.players, seat);
  if (!seatOk.ok) return seatOk;
  if (state.phase === "over" || state.auction === null) return fail("GAME_OVER", "The game is over.");

  const shape = checkActionShape(action, ACTIONS, "bid, pass, take-all, take-one or choose");
  if (!shape.ok) return shape;
  const { type, fields } = shape.value;
  const spec = ACTIONS[type];

  if (seat !== state.turn) return fail("NOT_YOUR_TURN", "It is not your turn.");
  const a = state.auction;
  if (type === "take-one" && state.phase === "bidding" && a.offer.length === 1) {
    return fail("CANNOT_TAKE_ONE", "This auction is for a single card: the winner simply takes it.");
  }
  if (spec.phase !== state.phase) return fail("WRONG_STEP", `You can't ${type} now: ${PHASE_TEXT[state.phase]}.`);

  const events: GameEvent[] = [];
  const done = (next: GoblinMarketState): Result<Step<GoblinMarketState>> => ok({ state: next, events });

  switch (type) {
    case "bid": {
      const amount = fields.amount;
      if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1) {
        return fail("BAD_AMOUNT", "A bid must be a whole number of coins, at least 1.");
      }
      const high = highBid(a);
      if (high !== null && amount <= high.amount) {
        return fail("BID_TOO_LOW", `You must bid more than the high bid of ${high.amount}.`);
      }
      if (amount > state.coins[seat]) {
        return fail("BID_TOO_HIGH", `You can't bid more than your ${state.coins[seat]} coins.`);
      }
      return done(placeBid(state, seat, amount, events));
    }
    case "pass":
      return done(pass(state, seat, events));
    case "take-all":
      return done(takeAll(state, events));
    case "take-one":
    case "choose": {
      const c = fields.card;
      if (typeof c !== "string" || !a.offer.includes(c)) {
        return fail("NOT_ON_OFFER", `That card is not one you may take; choose one of: ${a.offer.join(", ")}.`);
      }
      return done(type === "take-one" ? takeOne(state, c, events) : choose(state, c, events));
    }
  }
  return fail("UNKNOWN_ACTION", "Unknown action.");
}
