/**
 * The market: prices by position, what a card may be paid with, and the refill exactly as
 * printed (shift right, first drawn card removes the cards sharing a suit with it, new cards go
 * in on the left, draw until three; extended: the Excuse removes every market card).
 */
import { card, type Suit } from "../decktet/cards.js";
import type { Step } from "../types.js";
import { isExcuse, isPawnOrCourt } from "./ranks.js";
import { MARKET_SIZE, type AucteradenState, type Market } from "./state.js";

export type Slot = 0 | 1 | 2;
export const SLOT_NAMES = ["left", "middle", "right"] as const;
export type SlotName = (typeof SLOT_NAMES)[number];
/** Chips a basic card costs in each slot. */
export const SLOT_PRICES: readonly number[] = [2, 1, 0];
/** The `pay` value of a buy that costs nothing. */
export const FREE = "none";
export type Payment = Suit | typeof FREE;

/** Chips `id` costs in `slot`: 2, 1, 0 left to right; Pawns and Courts one more. */
export function price(id: string, slot: Slot): number {
  return SLOT_PRICES[slot] + (isPawnOrCourt(id) ? 1 : 0);
}

/** The slot holding `id`, or null. */
export function slotOf(market: Market, id: string): Slot | null {
  const i = market.indexOf(id);
  return i < 0 ? null : (i as Slot);
}

/** The market's cards, left to right. */
export function marketCards(market: Market): string[] {
  return market.filter((c): c is string => c !== null);
}

/** Up to three cards (left to right) packed into the rightmost slots. */
export function packRight(cards: readonly string[]): Market {
  if (cards.length > MARKET_SIZE) throw new Error(`a market holds ${MARKET_SIZE} cards, got ${cards.length}`);
  const out: Market = [null, null, null];
  cards.forEach((c, i) => (out[MARKET_SIZE - cards.length + i] = c));
  return out;
}

/**
 * What `pay` may be for `id` in `slot` with these chips: "none" for a free card, otherwise each
 * suit of the card with enough chips left to pay the whole price (one suit only).
 */
export function payments(id: string, slot: Slot, chips: Record<Suit, number>): Payment[] {
  const cost = price(id, slot);
  if (cost === 0) return [FREE];
  return card(id).suits.filter((s) => chips[s] >= cost);
}

/** One card drawn while refilling, and the market cards it removed from the game. */
export interface Draw {
  card: string;
  removed: string[];
}

export interface Refilled {
  market: Market;
  deck: string[];
  /** Cards removed from the game, in order (removed market cards, then the Excuse). */
  discarded: string[];
  draws: Draw[];
}

/**
 * Refill a market whose remaining cards are `remaining` (left to right) from `deck` (top first).
 * 1. The remaining cards shift right (gaps filled).
 * 2. The first card drawn removes every market card sharing a suit with it; it then goes in on
 *    the left of the remaining cards (still packed right).
 * 3. Later cards go in on the left, removing nothing, until the market holds three or the deck
 *    is empty.
 * Extended: the Excuse, whenever drawn, removes every card in the market and is discarded itself
 * (it takes no place; drawing goes on).
 */
export function refill(remaining: readonly string[], deck: readonly string[]): Refilled {
  let row = [...remaining];
  let rest = [...deck];
  const discarded: string[] = [];
  const draws: Draw[] = [];
  let first = true;
  while (row.length < MARKET_SIZE && rest.length > 0) {
    const drawn = rest[0];
    rest = rest.slice(1);
    if (isExcuse(drawn)) {
      draws.push({ card: drawn, removed: row });
      discarded.push(...row, drawn);
      row = [];
    } else {
      let removed: string[] = [];
      if (first) {
        const suits = card(drawn).suits;
        removed = row.filter((id) => card(id).suits.some((s) => suits.includes(s)));
        row = row.filter((id) => !removed.includes(id));
        discarded.push(...removed);
      }
      draws.push({ card: drawn, removed });
      row = [drawn, ...row];
    }
    first = false;
  }
  return { market: packRight(row), deck: rest, discarded, draws };
}

/** Refill the state's market (at setup, after a buy or a discard); the event says what was drawn. */
export function refillMarket(state: AucteradenState): Step<AucteradenState> {
  const r = refill(marketCards(state.market), state.deck);
  return {
    state: { ...state, market: r.market, deck: r.deck, discard: [...state.discard, ...r.discarded] },
    events: [{ type: "refill", draws: r.draws, market: [...r.market], deckCount: r.deck.length }],
  };
}
