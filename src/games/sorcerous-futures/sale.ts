/**
 * Selling fortunes: face value, suit values (the median of the valuations of each suit) and the
 * full per-seat breakdown. Pure computations over card ids.
 */
import { card, SUITS, type Suit } from "../decktet/cards.js";

/** Rank used for valuations: Ace 1, numbers 2-9, Crown 10 (Pawns/Courts never are valuations: 0). */
export function valuationRank(id: string): number {
  return card(id).value ?? 0;
}

/** True for a Pawn or a Court. */
export function isPawnOrCourt(id: string): boolean {
  const r = card(id).rank;
  return r === "Pawn" || r === "Court";
}

/** Face value of an item: the rank of a number card (2-9); Aces, Crowns, Pawns and Courts 0. */
export function faceValue(id: string): number {
  const r = card(id).rank;
  return typeof r === "number" ? r : 0;
}

/** How many times an item pays each of its suits: Ace 1, number 1 each, Crown 3, Pawn/Court 1 each. */
export function suitMultipliers(id: string): Partial<Record<Suit, number>> {
  const c = card(id);
  const times = c.rank === "Crown" ? 3 : 1;
  return Object.fromEntries(c.suits.map((s) => [s, times]));
}

/**
 * The median of ranks: none 0, one its rank, more the middle one, or the average of the two
 * middle ones rounded up.
 */
export function median(ranks: readonly number[]): number {
  if (ranks.length === 0) return 0;
  const sorted = [...ranks].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid];
  return Math.ceil((sorted[mid - 1] + sorted[mid]) / 2);
}

export interface SuitValue {
  suit: Suit;
  /** Valuation cards of this suit. */
  cards: string[];
  value: number;
}

/** The value of every suit given all valuation cards (every seat's and any extras). */
export function suitValues(valuations: readonly string[]): SuitValue[] {
  return SUITS.map((suit) => {
    const cards = valuations.filter((id) => card(id).suits.includes(suit));
    return { suit, cards, value: median(cards.map(valuationRank)) };
  });
}

export interface ItemSale {
  card: string;
  face: number;
  /** What each of its suits pays (multiplier x suit value). */
  suits: Partial<Record<Suit, number>>;
  total: number;
}

export interface SuitSale {
  suit: Suit;
  /** Total multiplier over the seat's items (Ace 1, number 1, Crown 3, Pawn/Court 1). */
  multiplier: number;
  value: number;
  amount: number;
}

export interface SeatSale {
  seat: number;
  items: string[];
  faceValue: number;
  /** One entry per suit, in suit order (multiplier 0 included). */
  suits: SuitSale[];
  suitTotal: number;
  /** Per item, for display. */
  perItem: ItemSale[];
  total: number;
}

export function sellItems(seat: number, items: readonly string[], values: readonly SuitValue[]): SeatSale {
  const valueOf = new Map(values.map((v) => [v.suit, v.value]));
  const perItem: ItemSale[] = items.map((id) => {
    const mult = suitMultipliers(id);
    const suits: Partial<Record<Suit, number>> = {};
    let total = faceValue(id);
    for (const [s, m] of Object.entries(mult) as Array<[Suit, number]>) {
      suits[s] = m * valueOf.get(s)!;
      total += suits[s]!;
    }
    return { card: id, face: faceValue(id), suits, total };
  });
  const suits: SuitSale[] = SUITS.map((suit) => {
    const multiplier = items.reduce((t, id) => t + (suitMultipliers(id)[suit] ?? 0), 0);
    const value = valueOf.get(suit)!;
    return { suit, multiplier, value, amount: multiplier * value };
  });
  const fv = items.reduce((t, id) => t + faceValue(id), 0);
  const suitTotal = suits.reduce((t, s) => t + s.amount, 0);
  return { seat, items: [...items], faceValue: fv, suits, suitTotal, perItem, total: fv + suitTotal };
}

/** One finished game of a match, everything revealed. */
export interface GameResult {
  game: number;
  valuations: string[][];
  /** Each seat's set-aside cards (the two it did not keep): hidden until the match is over (view.ts). */
  faceDown: string[][];
  /**
   * Per seat and card of `faceDown`: whether its owner had seen it (what the owner is shown while
   * the match goes on). Absent in results written before 2026-12-02 (then nothing is shown). Never
   * in the outcome's details, which keep the shape records were written in.
   */
  faceDownSeen?: boolean[][];
  extraValuations: string[];
  extraSetAside: string[];
  suitValues: SuitValue[];
  sales: SeatSale[];
  paid: number[];
  moneyBefore: number[];
  moneyAfter: number[];
}

/** 1-based places by money: 1 + the number of seats with strictly more (ties share). */
export function placesByMoney(money: readonly number[]): number[] {
  return money.map((m) => 1 + money.filter((o) => o > m).length);
}
