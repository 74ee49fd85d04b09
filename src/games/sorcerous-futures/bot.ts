/**
 * Sorcerous Futures' bot. It knows what its seat knows: its own two valuations, the face-down
 * cards it has seen, and everything public (money, the market, the auction, every seat's items,
 * the discard, and `unaccounted`: per suit, the cards it cannot place).
 *
 * What an item is worth: its face value plus, for each of its suits, how often it pays that suit
 * times the suit's value, which is the median of every valuation card of that suit. The bot knows
 * two of those cards; the others are among the unaccounted cards (never a Pawn or Court), so it
 * estimates each suit's value by dealing the hidden valuations at random from them many times and
 * averaging (an item's worth is linear in the suit values, so the averages are all it needs).
 *
 * Money is the score, so an item is worth bidding on only below its worth.
 * Setup: it keeps its two cards (an exchange costs $3 for a card it cannot see), revealing a Pawn
 * or Court first when it holds one. Pick: the market card worth most to it (it bids last on it).
 *
 * casual: a rough estimate (few deals), and a bid of about two thirds of the worth (noisy), or the
 * lowest bid when it is the last to act.
 * strong: a close estimate (many deals), and the bid that makes the most expected profit: the
 * worth less the price, times the chance that no one still to act outbids it (a seat can outbid
 * only with more money than the bid, and less often the closer the bid is to the item's worth).
 * As the Excuse holder it opens with a pass, keeping its final chance to bid.
 */
import { bestOf, jitter } from "../bots.js";
import { card, SUITS, type Suit } from "../decktet/cards.js";
import type { Action, BotTurn } from "../types.js";
import { faceValue, isPawnOrCourt, median, suitMultipliers, valuationRank } from "./sale.js";
import type { view } from "./view.js";

type SorcerousFuturesView = ReturnType<typeof view>;

/** Random deals of the hidden valuations per estimate. */
const DEALS = { casual: 6, strong: 32 } as const;

/** Each suit's expected value from what the seat knows. */
function suitEstimates(v: SorcerousFuturesView, deals: number, random: () => number): Record<Suit, number> {
  const hidden =
    v.seats.reduce((t, s) => t + (s.seat === v.you ? 0 : s.valuationCount), 0) + (v.extras?.valuationCount ?? 0);
  const pool = [...new Set(SUITS.flatMap((s) => v.unaccounted[s]))].filter((id) => !isPawnOrCourt(id));
  const k = Math.min(hidden, pool.length);
  // Per suit, the ranks of the valuations known for sure (the seat's own) ...
  const known = SUITS.map((s) => (v.mine?.valuations ?? []).filter((id) => card(id).suits.includes(s)).map(valuationRank));
  // ... and, per pool card, the suits (as indexes) and rank it would add.
  const cards = pool.map((id) => ({ suits: card(id).suits.map((s) => SUITS.indexOf(s)), rank: valuationRank(id) }));
  const total = SUITS.map(() => 0);
  for (let d = 0; d < deals; d++) {
    const ranks = known.map((r) => [...r]);
    // A partial Fisher-Yates shuffle: the first k cards are this deal's hidden valuations.
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(random() * (cards.length - i));
      [cards[i], cards[j]] = [cards[j], cards[i]];
      for (const s of cards[i].suits) ranks[s].push(cards[i].rank);
    }
    for (let s = 0; s < SUITS.length; s++) total[s] += median(ranks[s]);
  }
  return Object.fromEntries(SUITS.map((s, i) => [s, deals === 0 ? 0 : total[i] / deals])) as Record<Suit, number>;
}

/** An item's expected worth given suit values. */
function worth(id: string, values: Record<Suit, number>): number {
  let total = faceValue(id);
  for (const [s, m] of Object.entries(suitMultipliers(id)) as Array<[Suit, number]>) total += m * values[s];
  return total;
}

export function sorcerousFuturesBot(turn: BotTurn): Action {
  const v = turn.view as SorcerousFuturesView;
  if (v.pending === "setup") {
    const reveal = turn.legal.find((l) => l.type === "reveal");
    if (reveal?.params?.card?.kind === "choice") return { type: "reveal", card: reveal.params.card.options[0] };
    return { type: "confirm" };
  }
  const values = suitEstimates(v, DEALS[turn.strength], turn.random);
  if (v.pending === "pick") {
    const noise = turn.strength === "strong" ? 0 : 3;
    return { type: "pick", card: bestOf(v.market, (id) => worth(id, values) + jitter(turn.random, noise), turn.random)! };
  }
  return bid(v, turn, worth(v.auction!.card, values));
}

function bid(v: SorcerousFuturesView, turn: BotTurn, value: number): Action {
  const a = v.auction!;
  const me = turn.seat;
  if (!turn.legal.some((l) => l.type === "bid")) return { type: "pass" };
  const min = a.minBid;
  const max = Math.min(v.seats[me].money, Math.floor(value) - 1); // at least $1 of profit
  if (min > max) return { type: "pass" };
  const n = v.players;
  // Seats still to act after this move: the rest of the round, then the Excuse holder's final chance.
  const after: number[] = [];
  for (let k = a.moves.length + 1; k <= n; k++) after.push(k < n ? (a.excuse + k) % n : a.excuse);
  const rivals = after.filter((s) => s !== me);
  if (rivals.length === 0) return { type: "bid", amount: min };
  if (turn.strength === "casual") {
    const amount = Math.round(value * (0.65 + jitter(turn.random, 0.15)));
    return { type: "bid", amount: Math.max(min, Math.min(max, amount)) };
  }
  // The Excuse holder opening: it bids again last, knowing everyone's bids.
  if (after.includes(me)) return { type: "pass" };
  const outbid = (seat: number, amount: number) =>
    v.seats[seat].money <= amount ? 0 : 0.5 * Math.min(1, Math.max(0, (1.5 * value - amount) / value));
  const profit = (amount: number) => (value - amount) * rivals.reduce((p, s) => p * (1 - outbid(s, amount)), 1);
  const amounts = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  return { type: "bid", amount: bestOf(amounts, profit, turn.random)! };
}
