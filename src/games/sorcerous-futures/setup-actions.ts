/** The simultaneous, private setup: exchange (pay $3), reveal a Pawn/Court, confirm. */
import { forget, learn } from "../knowledge.js";
import { shuffle } from "../rng.js";
import type { GameEvent, Seat } from "../types.js";
import { emit, finishSetup } from "./deal.js";
import { isPawnOrCourt } from "./sale.js";
import { EXCHANGE_COST, type SorcerousFuturesState } from "./state.js";

function replaceAt<T>(xs: readonly T[], i: number, x: T): T[] {
  const out = xs.slice();
  out[i] = x;
  return out;
}

/** Pay $3 and swap hand card `handCard` with face-down `slot`; the slot's card is now seen. */
export function exchange(
  state: SorcerousFuturesState,
  seat: Seat,
  handCard: string,
  slot: number,
  events: GameEvent[],
): SorcerousFuturesState {
  const got = state.faceDown[seat][slot];
  const valuations = replaceAt(state.valuations, seat, replaceAt(state.valuations[seat], state.valuations[seat].indexOf(handCard), got));
  const faceDown = replaceAt(state.faceDown, seat, replaceAt(state.faceDown[seat], slot, handCard));
  const paid = replaceAt(state.paid, seat, state.paid[seat] + EXCHANGE_COST);
  const s: SorcerousFuturesState = {
    ...state,
    money: replaceAt(state.money, seat, state.money[seat] - EXCHANGE_COST),
    paid,
    valuations,
    faceDown,
    knowledge: learn(learn(state.knowledge, got, [seat]), handCard, [seat]),
  };
  emit(events, s, { type: "exchange", seat, cost: EXCHANGE_COST, paid: paid[seat] });
  emit(events, s, { type: "exchange-seen", to: [seat], seat, slot, gave: handCard, got });
  return s;
}

/**
 * Reveal a Pawn or Court from hand: draw the top card as its replacement, then shuffle the
 * revealed card back into the deck.
 */
export function reveal(state: SorcerousFuturesState, seat: Seat, cardId: string, events: GameEvent[]): SorcerousFuturesState {
  const replacement = state.deck[0];
  const hand = state.valuations[seat];
  const sh = shuffle(state.rng, [...state.deck.slice(1), cardId]);
  const s: SorcerousFuturesState = {
    ...state,
    rng: sh.rng,
    deck: sh.value,
    valuations: replaceAt(state.valuations, seat, replaceAt(hand, hand.indexOf(cardId), replacement)),
    knowledge: learn(forget(state.knowledge, cardId), replacement, [seat]),
    revealed: [...state.revealed, cardId],
  };
  emit(events, s, { type: "reveal", seat, card: cardId });
  emit(events, s, { type: "replacement", to: [seat], seat, card: replacement });
  return s;
}

/** True while `seat` holds a Pawn or Court in hand (it may not be kept as a valuation). */
export function pawnOrCourtInHand(state: SorcerousFuturesState, seat: Seat): string[] {
  return state.valuations[seat].filter(isPawnOrCourt);
}

/** Confirm the hand; when everyone has, the valuations are fixed and the auctions begin. */
export function confirm(state: SorcerousFuturesState, seat: Seat, events: GameEvent[]): SorcerousFuturesState {
  const s: SorcerousFuturesState = { ...state, confirmed: replaceAt(state.confirmed, seat, true) };
  emit(events, s, { type: "confirm", seat });
  return s.confirmed.every(Boolean) ? finishSetup(s, events) : s;
}
