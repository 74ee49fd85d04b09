/**
 * apply(): validate an arbitrary JSON action and apply it. Never throws and never mutates;
 * on error returns fail(code, message) and the input state is untouched. The step's events are
 * collected in an array created here and passed down to the rules that report them.
 */
import { checkActionShape, checkSeat } from "../actions.js";
import { fail, ok, type Action, type GameEvent, type Result, type Seat, type Step } from "../types.js";
import { auctionTurn, bid, highBid, isFinalChance, minBid, pass, pick } from "./auction.js";
import { isPawnOrCourt } from "./sale.js";
import { confirm, exchange, pawnOrCourtInHand, reveal } from "./setup-actions.js";
import { EXCHANGE_COST, type Phase, type SorcerousFuturesState } from "./state.js";

/** Parameters each action type takes (besides `type`), and the phase it belongs to. */
const ACTIONS: Record<string, { params: string[]; phase: Phase }> = {
  exchange: { params: ["hand", "slot"], phase: "setup" },
  reveal: { params: ["card"], phase: "setup" },
  confirm: { params: [], phase: "setup" },
  pick: { params: ["card"], phase: "pick" },
  bid: { params: ["amount"], phase: "bidding" },
  pass: { params: [], phase: "bidding" },
};

const PHASE_TEXT: Record<Phase, string> = {
  setup: "players are still choosing their valuations",
  pick: "the Excuse holder is picking a market card",
  bidding: "an auction is under way",
  over: "the game is over",
};

export function apply(state: SorcerousFuturesState, seat: Seat, action: Action): Result<Step<SorcerousFuturesState>> {
  const seatOk = checkSeat(state.players, seat);
  if (!seatOk.ok) return seatOk;
  if (state.phase === "over") return fail("GAME_OVER", "The game is over.");

  const shape = checkActionShape(action, ACTIONS, "exchange, reveal, confirm, pick, bid or pass");
  if (!shape.ok) return shape;
  const { type, fields } = shape.value;
  const spec = ACTIONS[type];
  const events: GameEvent[] = [];
  const done = (next: SorcerousFuturesState) => ok({ state: next, events });

  if (state.phase === "setup") {
    if (spec.phase !== "setup") return fail("WRONG_STEP", `You can't ${type} now: ${PHASE_TEXT.setup}.`);
    if (state.confirmed[seat]) return fail("ALREADY_CONFIRMED", "You have already confirmed your valuations; waiting for the others.");
    const hand = state.valuations[seat];
    switch (type) {
      case "exchange": {
        const h = fields.hand;
        if (typeof h !== "string" || !hand.includes(h)) {
          return fail("NOT_IN_HAND", `That card is not in your hand; choose one of: ${hand.join(", ")}.`);
        }
        if (fields.slot !== 0 && fields.slot !== 1) return fail("BAD_SLOT", "Choose face-down slot 0 or 1.");
        if (state.money[seat] < EXCHANGE_COST) {
          return fail("NOT_ENOUGH_MONEY", `An exchange costs $${EXCHANGE_COST} and you have $${state.money[seat]}.`);
        }
        return done(exchange(state, seat, h, fields.slot, events));
      }
      case "reveal": {
        const c = fields.card;
        if (typeof c !== "string" || !hand.includes(c)) {
          return fail("NOT_IN_HAND", `That card is not in your hand; choose one of: ${hand.join(", ")}.`);
        }
        if (!isPawnOrCourt(c)) return fail("NOT_PAWN_OR_COURT", "Only a Pawn or a Court may be revealed and replaced.");
        return done(reveal(state, seat, c, events));
      }
      case "confirm": {
        const bad = pawnOrCourtInHand(state, seat);
        if (bad.length > 0) {
          return fail(
            "PAWN_OR_COURT_IN_HAND",
            "A Pawn or Court may not be kept as a valuation: reveal it (and draw a replacement) or exchange it face down first.",
          );
        }
        return done(confirm(state, seat, events));
      }
    }
    return fail("UNKNOWN_ACTION", "Unknown action.");
  }

  if (seat !== state.turn) return fail("NOT_YOUR_TURN", "It is not your turn.");
  if (spec.phase !== state.phase) return fail("WRONG_STEP", `You can't ${type} now: ${PHASE_TEXT[state.phase]}.`);

  if (type === "pick") {
    const c = fields.card;
    if (typeof c !== "string" || !state.market.includes(c)) {
      return fail("NOT_IN_MARKET", `That card is not in the market; choose one of: ${state.market.join(", ")}.`);
    }
    return done(pick(state, c, events));
  }
  const a = state.auction!;
  if (auctionTurn(a, state.players) !== seat) return fail("NOT_YOUR_TURN", "It is not your turn.");
  if (type === "pass") return done(pass(state, seat, events));
  const amount = fields.amount;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1) {
    return fail("BAD_AMOUNT", "A bid must be a whole number of dollars, at least 1.");
  }
  const high = highBid(a);
  if (isFinalChance(a, state.players) && high?.seat === seat) {
    return fail("ALREADY_HIGH", "You already hold the high bid: pass to let it stand.");
  }
  if (amount < minBid(a)) return fail("BID_TOO_LOW", `You must bid at least $${minBid(a)} ($1 above the high bid of $${high!.amount}).`);
  if (amount > state.money[seat]) return fail("BID_TOO_HIGH", `You can't bid more than your $${state.money[seat]}.`);
  return done(bid(state, seat, amount, events));
}
