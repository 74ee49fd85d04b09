/**
 * What a viewer may know. Goblin Market has no per-seat secrets: every seat and spectator
 * sees the same public facts (one view for all: see viewKey). The outcome is not repeated here:
 * the room's view carries it (`outcome`). Never included: the RNG state,
 * and the identity or order of the undrawn Auction Deck and Goblin Deck cards (counts only),
 * except for the replay of a finished game (viewer `all`).
 */
import type { Outcome, Viewer } from "../types.js";
import { bidPlaces } from "./bids.js";
import { outcomeOf, scoreCards, type SeatScore } from "./scoring.js";
import type { GoblinMarketState } from "./state.js";

/**
 * Scores by the card list they are computed from. States are immutable values (a change makes a
 * new `owned` list), so the five views of one change, and every change that leaves a seat's cards
 * alone, share one computation. Only ever read: a view is serialised, never edited.
 */
const scores = new WeakMap<readonly string[], ViewScore>();
function scoreOf(cards: readonly string[]): ViewScore {
  let s = scores.get(cards);
  if (!s) {
    const { positiveSuits, positive, negative, score } = scoreCards(cards);
    scores.set(cards, (s = { positiveSuits, positive, negative, score }));
  }
  return s;
}

/**
 * A seat's score as the view shows it: which three suits count plus (the rule breaks ties), the
 * points each way and the total. How many of each suit the seat holds follows from its `cards`
 * and the card data, and the other three suits count minus, so neither is repeated.
 */
export type ViewScore = Pick<SeatScore, "positiveSuits" | "positive" | "negative" | "score">;

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

/**
 * Each fact once: whose turn it is is the room's `active`; what that seat must decide follows
 * from `phase` (bidding: bid or pass; taking: take; choosing: choose); the high bid is the last
 * of `bids` (bids only rise); and what the last auction paid is in the log (the `sisterhood` and
 * `goblin-card` events), which every viewer holds whole; a seat's suit counts follow from its
 * cards (see ViewScore). Updates carry what changed, so a fact
 * said twice is sent twice.
 */
function publicView(state: GoblinMarketState) {
  const a = state.auction;
  return {
    game: state.game,
    players: state.players,
    phase: state.phase,
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
          places: state.phase === "bidding" ? [] : bidPlaces(a),
        }
      : null,
    sizeCards: [...state.sizeCards],
    discard: [...state.discard],
    auctionDeckCount: state.auctionDeck.length,
    goblinDeckCount: state.goblinDeck.length,
    goblinFlipped: [...state.goblinFlipped],
  };
}

export function outcome(state: GoblinMarketState): Outcome | null {
  return state.phase === "over" ? outcomeOf(state.owned) : null;
}
