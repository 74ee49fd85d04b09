/**
 * Scoring: cards in your three most numerous suits count +1 per suit, the other three -1.
 * Ties: higher score, then more positive points; still tied = shared place.
 */
import { card, SUITS, type Suit } from "../decktet/cards.js";

export interface SeatScore {
  suitCounts: Record<Suit, number>;
  /** The three most numerous suits (ties among equal counts broken by suit order; the score is the same). */
  positiveSuits: Suit[];
  negativeSuits: Suit[];
  positive: number;
  negative: number;
  score: number;
}

export function scoreCards(cards: readonly string[]): SeatScore {
  const suitCounts = Object.fromEntries(SUITS.map((s) => [s, 0])) as Record<Suit, number>;
  for (const id of cards) for (const s of card(id).suits) suitCounts[s] += 1;
  const ordered = SUITS.map((s, i) => ({ s, i, n: suitCounts[s] })).sort((a, b) => b.n - a.n || a.i - b.i);
  const positiveSuits = ordered.slice(0, 3).map((o) => o.s);
  const negativeSuits = SUITS.filter((s) => !positiveSuits.includes(s));
  const positive = positiveSuits.reduce((t, s) => t + suitCounts[s], 0);
  const negative = negativeSuits.reduce((t, s) => t + suitCounts[s], 0);
  return { suitCounts, positiveSuits, negativeSuits, positive, negative, score: positive - negative };
}

/** 1-based places: 1 + the number of seats strictly ahead (score, then positive points). */
export function rankPlaces(scores: ReadonlyArray<Pick<SeatScore, "score" | "positive">>): number[] {
  const ahead = (a: Pick<SeatScore, "score" | "positive">, b: Pick<SeatScore, "score" | "positive">) =>
    a.score > b.score || (a.score === b.score && a.positive > b.positive);
  return scores.map((mine) => 1 + scores.filter((other) => ahead(other, mine)).length);
}

export interface GoblinMarketOutcomeDetails {
  seats: SeatScore[];
}

/** Final scores, places and per-seat breakdown from the cards each seat owns. */
export function outcomeOf(owned: readonly (readonly string[])[]): {
  scores: number[];
  places: number[];
  details: GoblinMarketOutcomeDetails;
} {
  const seats = owned.map(scoreCards);
  return { scores: seats.map((s) => s.score), places: rankPlaces(seats), details: { seats } };
}
