/**
 * apply(): validate an arbitrary JSON action and apply it. Never throws and never mutates;
 * on error returns fail(code, message) and the input state is untouched.
 */
import { fail, ok, type Action, type Result, type Seat } from "../types.js";
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

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export function isSeat(state: GoblinMarketState, seat: unknown): seat is Seat {
  return typeof seat === "number" && Number.isInteger(seat) && seat >= 0 && seat < state.players;
}

export function apply(state: GoblinMarketState, seat: Seat, action: Action): Result<GoblinMarketState> {
  if (!isSeat(state, seat)) {
    const which = typeof seat === "number" ? `${seat} ` : "";
    return fail("BAD_SEAT", `There is no seat ${which}in this game (seats are 0-${state.players - 1}).`);
  }
  if (state.phase === "over" || state.auction === null) return fail("GAME_OVER", "The game is over.");

  const raw: unknown = action;
  if (!isRecord(raw) || typeof raw.type !== "string" || !Object.hasOwn(ACTIONS, raw.type)) {
    return fail("UNKNOWN_ACTION", "Unknown action: expected bid, pass, take-all, take-one or choose.");
  }
  const type = raw.type;
  const spec = ACTIONS[type];
  const keys = Object.keys(raw).filter((k) => k !== "type");
  if (keys.length !== spec.params.length || !spec.params.every((p) => Object.hasOwn(raw, p))) {
    const want = spec.params.length === 0 ? "no parameters" : `exactly: ${spec.params.join(", ")}`;
    return fail("UNKNOWN_ACTION", `A ${type} action takes ${want}.`);
  }

  if (seat !== state.turn) return fail("NOT_YOUR_TURN", `It is not your turn; waiting for seat ${state.turn}.`);
  const a = state.auction;
  if (type === "take-one" && state.phase === "bidding" && a.offer.length === 1) {
    return fail("CANNOT_TAKE_ONE", "This auction is for a single card: the winner simply takes it.");
  }
  if (spec.phase !== state.phase) return fail("WRONG_STEP", `You can't ${type} now: ${PHASE_TEXT[state.phase]}.`);

  switch (type) {
    case "bid": {
      const amount = raw.amount;
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
      return ok(placeBid(state, seat, amount));
    }
    case "pass":
      return ok(pass(state, seat));
    case "take-all":
      return ok(takeAll(state));
    case "take-one":
    case "choose": {
      const c = raw.card;
      if (typeof c !== "string" || !a.offer.includes(c)) {
        return fail("NOT_ON_OFFER", `That card is not one you may take; choose one of: ${a.offer.join(", ")}.`);
      }
      return ok(type === "take-one" ? takeOne(state, c) : choose(state, c));
    }
  }
  return fail("UNKNOWN_ACTION", "Unknown action.");
}
