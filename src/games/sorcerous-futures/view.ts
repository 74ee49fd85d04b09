/**
 * What a viewer may know: the one place hidden information is decided.
 *
 * Public: money, setup payments and confirmations, the Excuse, the market, the auction, every
 * seat's items, the discard, the Pawns/Courts revealed in setup, the deck COUNT, and the results
 * of finished games (their set-aside cards only once the match is over: resultFor). A seat also gets `mine`: its own hand/valuations and its own
 * face-down cards as far as it has seen them (null = unseen). Never included before a game's
 * end: another seat's valuations, an unseen face-down card, the 3-player extras, the deck's
 * contents or order, the RNG state. The replay of a finished game (viewer `all`) gets the
 * spectators' view plus `hidden`: every seat's valuations and face-down cards, the extras and the
 * deck as they were at that point (never the RNG).
 *
 * `unaccounted` (the expert-tracking panel) names, per suit, every card the viewer cannot place:
 * it is the game's whole card list minus what the viewer sees or knows, so it says nothing about
 * where any hidden card is (the view tests check it is independent of the hidden cards' places).
 */
import { card, SUITS, type Suit } from "../decktet/cards.js";
import { knows } from "../knowledge.js";
import type { Outcome, Viewer } from "../types.js";
import { auctionTurn, highBid, isFinalChance, minBid } from "./auction.js";
import { gameDeck } from "./deal.js";
import { placesByMoney, type GameResult } from "./sale.js";
import type { SorcerousFuturesState } from "./state.js";

export type Pending = "setup" | "pick" | "bid" | null;

/**
 * For each suit, the cards of that suit that are unaccounted for from `viewer`'s point of view:
 * not in the market or the auction, not bought, not discarded, and (for a seat) not among its
 * own valuations or the face-down cards it has seen. Derived only from what the viewer knows.
 */
export function unaccounted(state: SorcerousFuturesState, viewer: Viewer): Record<Suit, string[]> {
  const out = Object.fromEntries(SUITS.map((s) => [s, [] as string[]])) as Record<Suit, string[]>;
  if (state.phase === "over") return out;
  const seen = new Set<string>([...state.market, ...state.holdings.flat(), ...state.discard]);
  if (state.auction) seen.add(state.auction.card);
  if (viewer.kind === "seat") {
    for (const id of state.valuations[viewer.seat]) seen.add(id);
    for (const id of state.faceDown[viewer.seat]) if (knows(state.knowledge, id, viewer)) seen.add(id);
  }
  for (const id of gameDeck(state.extended)) {
    if (seen.has(id)) continue;
    for (const s of card(id).suits) out[s].push(id);
  }
  return out;
}

/** How many markets a game has: the cards left after the deal, in markets of `marketSize`. */
export function marketsPerGame(state: SorcerousFuturesState): number {
  const dealt = 4 * state.players + (state.players === 3 ? 4 : 0);
  return Math.ceil((gameDeck(state.extended).length - dealt) / state.marketSize);
}

export function view(state: SorcerousFuturesState, viewer: Viewer) {
  const n = state.players;
  const over = state.phase === "over";
  const me = viewer.kind === "seat" ? viewer.seat : null;
  const a = state.auction;
  const high = a ? highBid(a) : null;
  const pending: Pending =
    state.phase === "setup" ? "setup" : state.phase === "pick" ? "pick" : state.phase === "bidding" ? "bid" : null;
  return {
    game: state.game,
    players: n,
    ...(me !== null ? { you: me } : {}),
    matchGame: state.matchGame,
    matchGames: state.matchGames,
    extended: state.extended,
    phase: state.phase,
    turn: state.turn,
    pending,
    excuse: state.excuse,
    firstExcuse: state.firstExcuse,
    seats: state.money.map((money, seat) => ({
      seat,
      money,
      paid: state.paid[seat],
      confirmed: state.confirmed[seat],
      holdings: [...state.holdings[seat]],
      valuationCount: state.valuations[seat].length,
    })),
    mine:
      me !== null && !over
        ? {
            valuations: [...state.valuations[me]],
            faceDown: state.faceDown[me].map((id) => (knows(state.knowledge, id, viewer) ? id : null)),
            paid: state.paid[me],
            confirmed: state.confirmed[me],
          }
        : null,
    extras: n === 3 ? { valuationCount: state.extraValuations.length, setAsideCount: state.extraSetAside.length } : null,
    market: [...state.market],
    marketNumber: state.marketNumber,
    marketSize: state.marketSize,
    markets: marketsPerGame(state),
    auction: a
      ? {
          number: a.number,
          card: a.card,
          excuse: a.excuse,
          auto: a.auto,
          moves: a.moves.map((m) => ({ ...m })),
          highBid: high ? high.amount : null,
          highBidder: high ? high.seat : null,
          minBid: minBid(a),
          turn: auctionTurn(a, n),
          finalChance: isFinalChance(a, n),
        }
      : null,
    auctions: state.auctions,
    deckCount: state.deck.length,
    discard: [...state.discard],
    revealed: [...state.revealed],
    unaccounted: unaccounted(state, viewer),
    results: state.results.map((r) => resultFor(r, viewer, over)),
    outcome: outcome(state),
    // Only for the replay of a finished game: everything that was hidden at that point.
    ...(viewer.kind === "all"
      ? {
          hidden: {
            // inHand: still the seat's hand, which it may exchange (setup, not yet confirmed), not yet its valuations.
            seats: state.valuations.map((valuations, seat) => ({ seat, valuations: [...valuations], faceDown: [...state.faceDown[seat]], inHand: state.phase === "setup" && !state.confirmed[seat] })),
            extras: n === 3 ? { valuations: [...state.extraValuations], setAside: [...state.extraSetAside] } : null,
            deck: [...state.deck],
          },
        }
      : {}),
  };
}

/** A finished game's result as `viewer` sees it (what `results` holds in a view). */
export type ViewedResult = Omit<GameResult, "faceDown" | "extraSetAside" | "faceDownSeen"> & {
  faceDown: Array<Array<string | null>>;
  extraSetAside: Array<string | null>;
};

/**
 * A finished game's result as `viewer` may see it. Set-aside cards ("Other players may not look at
 * them") stay hidden while the match goes on: a seat sees its own as far as it had seen them, the
 * 3-player set-asides no one; null stands for a hidden card. Once the match is over everything is
 * shown, as the replay and the finished game's record show it (docs/rules/sorcerous-futures.md).
 */
export function resultFor(r: GameResult, viewer: Viewer, matchOver: boolean): ViewedResult {
  const { faceDownSeen, ...rest } = structuredClone(r);
  if (matchOver || viewer.kind === "all") return rest;
  return {
    ...rest,
    faceDown: rest.faceDown.map((cards, seat) => cards.map((id, i) => (viewer.kind === "seat" && viewer.seat === seat && faceDownSeen?.[seat]?.[i] ? id : null))),
    extraSetAside: rest.extraSetAside.map(() => null),
  };
}

/** Scores = final money; places by money (ties share); details: every game's full result. */
export function outcome(state: SorcerousFuturesState): Outcome | null {
  if (state.phase !== "over") return null;
  return {
    scores: [...state.money],
    places: placesByMoney(state.money),
    // Every result whole, in the shape records have always kept (without faceDownSeen): a replay's
    // outcome equals theirs.
    details: { games: state.results.map((r) => resultFor(r, { kind: "all" }, true)) },
  };
}
