/**
 * Goblin Market's bot. Everything it needs is public (Goblin Market has no per-seat secrets): its
 * own cards and coins, the lot on offer, the bids, every seat's cards, the discard and the size
 * cards, and how many cards are left to sell.
 *
 * What a lot is worth is counted in points: how much the bot's score (scoring.ts) rises if it gets
 * the lot, taking all of it or the best single card, whichever is better. Points become coins at
 * a rate that grows with the coins it can spend on the lots it may still win (coins score nothing,
 * so in the last auction any gain is worth every coin). It bids the lowest legal amount while that
 * stays within what the lot is worth to it, and passes once it does not.
 *
 * casual: the plain point gain; its coins as they are, with half the goblin money it may expect;
 * and some noise in its limit.
 * strong: also weighs how well its cards would suit the cards nobody has seen yet (holdings many
 * unseen cards fit are worth more), and counts on more of the goblin money it may expect.
 */
import { bestOf, jitter } from "../bots.js";
import { BASIC_DECK, card } from "../decktet/cards.js";
import type { Action, BotTurn } from "../types.js";
import { highBid } from "./bids.js";
import { scoreCards } from "./scoring.js";
import type { view } from "./view.js";

type GoblinMarketView = ReturnType<typeof view>;

/** Cards a normal auction uses: its size card and on average two for sale. */
const CARDS_PER_AUCTION = 3;
/** A lot's typical worth in points: the rate sets what one point costs from that. */
const POINTS_PER_LOT = 2;
/** The share of the auctions to come the bot plans to win (its coins are spread over those). */
const SHARE_OF_AUCTIONS = 0.2;
/** How many more cards the strong bot's lookahead counts on, early in the game. */
const LOOKAHEAD_CARDS = 2;

/** The bot's worth of a set of cards: its score, positive points breaking ties (as places do). */
function worth(cards: readonly string[]): number {
  const s = scoreCards(cards);
  return s.score + 0.01 * s.positive;
}

/** Points `extra` adds to `cards`. */
type Gain = (cards: readonly string[], extra: readonly string[]) => number;

const plainGain: Gain = (cards, extra) => worth([...cards, ...extra]) - worth(cards);

/**
 * The strong bot's gain: besides the points, how well the cards would suit what is still to come
 * (the basic cards nobody has seen yet): the average gain of one of them, times the cards a seat
 * may still expect to get. Holdings many unseen cards fit are worth more than holdings few do.
 */
function lookaheadGain(v: GoblinMarketView): Gain {
  const seen = new Set([...v.seats.flatMap((s) => s.cards), ...v.discard, ...v.sizeCards, ...(v.auction?.offer ?? [])]);
  const unseen = BASIC_DECK.filter((id) => !seen.has(id));
  const weight = (LOOKAHEAD_CARDS * unseen.length) / BASIC_DECK.length;
  const future = (cards: readonly string[]) => {
    if (unseen.length === 0) return 0;
    const now = worth(cards);
    let total = 0;
    for (const u of unseen) total += Math.max(0, worth([...cards, u]) - now);
    return (weight * total) / unseen.length;
  };
  return (cards, extra) => plainGain(cards, extra) + future([...cards, ...extra]) - future(cards);
}

/** Auctions still to come after this one, from the Auction Deck's count (the last takes what is left). */
function auctionsAfter(deckCount: number): number {
  if (deckCount === 0) return 0;
  if (deckCount <= 3) return 1;
  return Math.ceil((deckCount - 3) / CARDS_PER_AUCTION) + 1;
}

/** Goblin money a seat holding `cards` may expect per auction: a Pawn or Court shows half the suits, one coin each it lacks. */
function goblinIncome(cards: readonly string[]): number {
  const have = new Set(cards.flatMap((id) => card(id).suits));
  return (6 - have.size) * 0.5;
}

export function goblinMarketBot(turn: BotTurn): Action {
  const v = turn.view as GoblinMarketView;
  const me = v.seats[turn.seat];
  const gain = turn.strength === "strong" ? lookaheadGain(v) : plainGain;
  switch (v.phase) {
    case "bidding":
      return bid(v, me.cards, me.coins, turn, gain);
    case "taking":
      return take(v, me.cards, turn, gain);
    default:
      // Second place in a three-card auction: the better of the two cards left.
      return { type: "choose", card: bestOf(v.auction!.offer, (c) => gain(me.cards, [c]), turn.random)! };
  }
}

function bid(v: GoblinMarketView, mine: readonly string[], coins: number, turn: BotTurn, gain: Gain): Action {
  const a = v.auction!;
  const strong = turn.strength === "strong";
  const min = (highBid(a)?.amount ?? 0) + 1;
  if (min > coins) return { type: "pass" };
  const takeAll = gain(mine, a.offer);
  const value = a.offer.length > 1 ? Math.max(takeAll, ...a.offer.map((c) => gain(mine, [c]))) : takeAll;
  if (value <= 0) return { type: "pass" };
  const after = auctionsAfter(v.auctionDeckCount);
  let limit = coins; // the last auction: coins score nothing afterwards
  if (after > 0) {
    const income = goblinIncome(mine) * after * (strong ? 0.6 : 0.3);
    const lots = (after + 1) * SHARE_OF_AUCTIONS;
    const rate = Math.max(1, (coins + income) / Math.max(1, lots * POINTS_PER_LOT));
    limit = Math.min(coins, Math.floor(value * rate * (strong ? 1 : 1 + jitter(turn.random, 0.3))));
  }
  return min <= limit ? { type: "bid", amount: min } : { type: "pass" };
}

/** The winner: take all, or the one card that adds most (the casual bot misjudges a little). */
function take(v: GoblinMarketView, mine: readonly string[], turn: BotTurn, gain: Gain): Action {
  const a = v.auction!;
  const options: Array<{ action: Action; value: number }> = [
    { action: { type: "take-all" }, value: gain(mine, a.offer) },
    ...a.offer.map((c) => ({ action: { type: "take-one", card: c }, value: gain(mine, [c]) })),
  ];
  const noise = turn.strength === "strong" ? 0 : 0.5;
  return bestOf(options, (o) => o.value + jitter(turn.random, noise), turn.random)!.action;
}
