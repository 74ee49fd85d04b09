/**
 * apply(): validate an arbitrary JSON action and apply it: the new state and the events it caused.
 * Never throws and never mutates; on error returns fail(code, message) and the input state is untouched.
 */
import { checkActionShape, checkSeat } from "../actions.js";
import { card, SUITS, type Suit } from "../decktet/cards.js";
import { fail, ok, type Action, type Result, type Seat, type Step } from "../types.js";
import { mustDiscard } from "./legal.js";
import { FREE, marketCards, price, slotOf, SLOT_NAMES } from "./market.js";
import type { AucteradenState } from "./state.js";
import { checkPlacement } from "./tableau.js";
import { buy, discardMarket } from "./turn.js";

/** Parameters each action type takes (besides `type`). */
const ACTIONS = {
  buy: { params: ["card", "row", "col", "pay"] },
  "discard-market": { params: [] },
} as const;

const isSuit = (v: unknown): v is Suit => typeof v === "string" && (SUITS as readonly string[]).includes(v);

export function apply(state: AucteradenState, seat: Seat, action: Action): Result<Step<AucteradenState>> {
  const seatOk = checkSeat(state.players, seat);
  if (!seatOk.ok) return seatOk;
  if (state.phase === "over") return fail("GAME_OVER", "The game is over.");

  const shape = checkActionShape(action, ACTIONS, "buy (card, row, col, pay) or discard-market");
  if (!shape.ok) return shape;
  const { type, fields } = shape.value;
  if (type === "discard-market") return ok(discardMarket(state, mustDiscard(state)));

  const id = fields.card;
  const slot = typeof id === "string" ? slotOf(state.market, id) : null;
  if (slot === null) {
    return fail("NOT_IN_MARKET", `That card is not in the market; choose one of: ${marketCards(state.market).join(", ")}.`);
  }
  const cardId = id as string;
  const cost = price(cardId, slot);
  const pay = fields.pay;
  if (pay !== FREE && !isSuit(pay)) {
    return fail("BAD_PAYMENT", `pay must be a suit (${SUITS.join(", ")}) or "${FREE}" for the free card.`);
  }
  if (cost === 0 && pay !== FREE) return fail("BAD_PAYMENT", `The ${SLOT_NAMES[slot]} card is free: send pay "${FREE}".`);
  if (cost > 0) {
    const suits = card(cardId).suits;
    if (pay === FREE) {
      return fail("BAD_PAYMENT", `The ${SLOT_NAMES[slot]} card costs ${cost} chip${cost === 1 ? "" : "s"} of one of its suits (${suits.join(", ")}).`);
    }
    if (!suits.includes(pay)) return fail("WRONG_SUIT", `Pay with chips of a suit the card bears: ${suits.join(" or ")}.`);
    if (state.chips[pay] < cost) {
      return fail("NOT_ENOUGH_CHIPS", `It costs ${cost} ${pay} chip${cost === 1 ? "" : "s"} and you have ${state.chips[pay]}.`);
    }
  }
  const cell = checkPlacement(state.tableau, cardId, fields.row, fields.col);
  if (!cell.ok) return cell;
  return ok(buy(state, cardId, slot, cell.value, pay));
}
