/** Steps A and B: flip the size card (unless it is the final auction) and the cards on offer. */
import { card, COURTS, PAWNS } from "../decktet/cards.js";
import type { GameEvent, Seat } from "../types.js";
import type { GoblinMarketState } from "./state.js";

/** All 8 Goblin cards (4 Pawns + 4 Courts), in data order; shuffled before use. */
export const GOBLIN_CARDS: readonly string[] = [...PAWNS, ...COURTS];

/** How many cards a size card puts on offer: Ace 1, number 2, Crown 3. */
export function auctionSize(sizeCard: string): 1 | 2 | 3 {
  const r = card(sizeCard).rank;
  return r === "Ace" ? 1 : r === "Crown" ? 3 : 2;
}

/**
 * Start auction `number` with `firstBidder` to act. The Auction Deck must not be empty.
 * Reports what happened by pushing onto `events` (as every step function here does).
 */
export function startAuction(
  state: GoblinMarketState,
  firstBidder: Seat,
  number: number,
  events: GameEvent[],
): GoblinMarketState {
  let deck = state.auctionDeck;
  let sizeCard: string | null = null;
  let size: number;
  if (deck.length > 3) {
    sizeCard = deck[0];
    deck = deck.slice(1);
    size = auctionSize(sizeCard);
  } else {
    size = deck.length;
  }
  const offer = deck.slice(0, size);
  deck = deck.slice(size);
  events.push({ type: "auction-start", auction: number, sizeCard, final: sizeCard === null, offer, firstBidder });
  return {
    ...state,
    phase: "bidding",
    turn: firstBidder,
    auctionDeck: deck,
    sizeCards: sizeCard === null ? state.sizeCards : [...state.sizeCards, sizeCard],
    auction: { number, sizeCard, offer, bids: [], passed: [], firstBidder },
  };
}
