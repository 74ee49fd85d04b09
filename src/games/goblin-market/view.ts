/**
 * What a viewer may know. Goblin Market has no per-seat secrets: every seat and spectator
 * sees the same public facts (one view for all: see viewKey). The outcome is not repeated here:
 * the room's view carries it (`outcome`). Never included: the RNG state,
 * and the identity or order of the undrawn Auction Deck and Goblin Deck cards (counts only),
 * except for the replay of a finished game (viewer `all`).
 */
import type { Outcome, Viewer } from "../types.js";
import { bidPlaces, highBid } from "./bids.js";
import { outcomeOf, scoreCards, type SeatScore } from "./scoring.js";
import type { GoblinMarketState } from "./state.js";

/**
 * Scores by the card list they are computed from. States are immutable values (a change makes a
 * new `owned` list), so the five views of one change, and every change that leaves a seat's cards
 * alone, share one computation. Only ever read: a view is serialised, never edited.
 */
const scores = new WeakMap<readonly string[], SeatScore>();
function scoreOf(cards: readonly string[]): SeatScore {
  let s = scores.get(cards);
  if (!s) scores.set(cards, (s = scoreCards(cards)));
  return s;
}

/** What the seat whose turn it is must decide. */
export type Pending = "bid" | "take" | "choose" | null;

/** Everyone sees the same view (the envelope says which seat is yours); a finished game's replay sees the decks too. */
export function viewKey(_state: GoblinMarketState, viewer: Viewer): string {
  return viewer.kind === "all" ? "everything" : "all";
}

/**
 * The replay of a finished game (viewer `all`) also sees what nobody saw at the time: the undrawn
 * Auction Deck and Goblin Deck, top first, as they lay at that point.
 */
export function view(state: GoblinMarketState, viewer: Viewer) {
  return viewer.kind === "all"
    ? { ...publicView(state), hidden: { auctionDeck: [...state.auctionDeck], goblinDeck: [...state.goblinDeck] } }
    : publicView(state);
}

function publicView(state: GoblinMarketState) {
  const a = state.auction;
  const high = a ? highBid(a) : null;
  const pending: Pending =
    state.phase === "bidding" ? "bid" : state.phase === "taking" ? "take" : state.phase === "choosing" ? "choose" : null;
  return {
    game: state.game,
    players: state.players,
    phase: state.phase,
    turn: state.turn,
    pending,
    firstBidder: a ? a.firstBidder : null,
    seats: state.coins.map((coins, seat) => ({
      seat,
      coins,
      cards: [...state.owned[seat]],
      score: scoreOf(state.owned[seat]),
    })),
    auction: a
      ? {
          number: a.number,
          sizeCard: a.sizeCard,
          final: a.sizeCard === null,
          offer: [...a.offer],
          bids: a.bids.map((b) => ({ ...b })),
          passed: [...a.passed],
          highBid: high ? high.amount : null,
          highBidder: high ? high.seat : null,
          places: state.phase === "bidding" ? [] : bidPlaces(a),
        }
      : null,
    sizeCards: [...state.sizeCards],
    discard: [...state.discard],
    auctionDeckCount: state.auctionDeck.length,
    goblinDeckCount: state.goblinDeck.length,
    goblinFlipped: [...state.goblinFlipped],
    lastPayouts: state.lastPayouts
      ? { ...state.lastPayouts, sisterhood: [...state.lastPayouts.sisterhood], goblin: [...state.lastPayouts.goblin] }
      : null,
  };
}

export function outcome(state: GoblinMarketState): Outcome | null {
  return state.phase === "over" ? outcomeOf(state.owned) : null;
}
