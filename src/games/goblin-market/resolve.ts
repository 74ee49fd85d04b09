/**
 * The end of an auction: steps E (sisterhood money) and F (goblin money) after a win, or
 * the discard after an all-pass auction; then the next auction or the end of the game.
 */
import { shuffle } from "../rng.js";
import type { GameEvent, Seat } from "../types.js";
import { GOBLIN_CARDS, startAuction } from "./deal.js";
import { goblinPayout, payingRanks, sisterhoodPayout, type SisterhoodPayout } from "./payouts.js";
import { outcomeOf } from "./scoring.js";
import type { Bid, GoblinMarketState } from "./state.js";

/** Next auction, or game over when the Auction Deck is empty. */
export function nextAuctionOrEnd(state: GoblinMarketState, firstBidder: Seat, events: GameEvent[]): GoblinMarketState {
  const number = (state.auction?.number ?? 0) + 1;
  if (state.auctionDeck.length > 0) return startAuction(state, firstBidder, number, events);
  const { scores, places } = outcomeOf(state.owned);
  events.push({ type: "game-end", scores, places });
  return { ...state, phase: "over", turn: null, auction: null };
}

/** Everyone passed without a bid: discard the offer, no coins move, same first bidder again. */
export function resolveAllPassed(state: GoblinMarketState, events: GameEvent[]): GoblinMarketState {
  const a = state.auction!;
  const n = state.players;
  events.push({ type: "all-passed", auction: a.number, discarded: a.offer });
  const next: GoblinMarketState = {
    ...state,
    discard: [...state.discard, ...a.offer],
    auction: { ...a, offer: [] },
    lastPayouts: {
      auction: a.number,
      winner: null,
      winningBid: null,
      sisterhood: Array(n).fill(0),
      goblinCard: null,
      goblin: Array(n).fill(0),
    },
  };
  return nextAuctionOrEnd(next, a.firstBidder, events);
}

/**
 * Steps E and F after the cards are distributed (leftovers already discarded).
 * `receivers` are the seats that got a card this auction (they collect no sisterhood money).
 */
export function finishAuction(
  state: GoblinMarketState,
  win: Bid,
  receivers: readonly Seat[],
  events: GameEvent[],
): GoblinMarketState {
  const a = state.auction!;
  const n = state.players;
  const coins = state.coins.slice();

  // Step E: sisterhood money.
  const [r3, r2, r1] = payingRanks(win.amount);
  // One event for every seat paid (before 2026-11-25, one event per seat, each with `seat`,
  // `coins` and the bid's ranks): a seat's coins are the sum of its cards'.
  const sisterhood = Array<number>(n).fill(0);
  const paid: Array<{ seat: Seat; cards: SisterhoodPayout["cards"] }> = [];
  for (let seat = 0; seat < n; seat++) {
    if (receivers.includes(seat)) continue;
    const p = sisterhoodPayout(state.owned[seat], win.amount);
    if (p.coins === 0) continue;
    sisterhood[seat] = p.coins;
    coins[seat] += p.coins;
    paid.push({ seat, cards: p.cards });
  }
  if (paid.length > 0) events.push({ type: "sisterhood", winningBid: win.amount, ranks: [r3, r2, r1], paid });

  // Step F: goblin money.
  const goblinCard = state.goblinDeck[0];
  let goblinDeck = state.goblinDeck.slice(1);
  let goblinFlipped = [...state.goblinFlipped, goblinCard];
  let rng = state.rng;
  // One event for the card and what it paid: `missing[seat]` lists the card's suits that seat
  // owns none of, one coin each (before 2026-11-25 each payment was its own "goblin-money" event).
  const goblin = Array<number>(n).fill(0);
  const missing: string[][] = [];
  for (let seat = 0; seat < n; seat++) {
    const p = goblinPayout(state.owned[seat], goblinCard);
    missing.push(p.suits);
    goblin[seat] = p.coins;
    coins[seat] += p.coins;
  }
  events.push({ type: "goblin-card", card: goblinCard, missing });
  if (goblinDeck.length === 0) {
    const s = shuffle(rng, GOBLIN_CARDS);
    goblinDeck = s.value;
    rng = s.rng;
    goblinFlipped = [];
    events.push({ type: "goblin-reshuffle" });
  }

  const next: GoblinMarketState = {
    ...state,
    rng,
    coins,
    goblinDeck,
    goblinFlipped,
    auction: { ...a, offer: [] },
    lastPayouts: {
      auction: a.number,
      winner: win.seat,
      winningBid: win.amount,
      sisterhood,
      goblinCard,
      goblin,
    },
  };
  return nextAuctionOrEnd(next, win.seat, events);
}
