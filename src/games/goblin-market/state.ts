/**
 * The Goblin Market state: plain JSON, compact (card ids and small arrays), stored on every
 * change. Nothing here can be recomputed from the rest except where noted.
 */
import type { BaseState, Seat } from "../types.js";
import type { RngState } from "../rng.js";

export const GAME_ID = "goblin-market";
export const STARTING_COINS = 10;

/**
 * bidding: step C, `turn` bids or passes.
 * taking:   step D, `turn` (the winner) takes all or takes one.
 * choosing: step D, `turn` (second place) chooses one of the two cards left in a three-card auction.
 * over:     the Auction Deck is exhausted and the last auction is resolved.
 */
export type Phase = "bidding" | "taking" | "choosing" | "over";

export interface Bid {
  seat: Seat;
  amount: number;
}

export interface Auction {
  /** 1-based count of auctions held, including all-pass ones. */
  number: number;
  /** The card flipped at step A (also kept in `sizeCards`); null for the final auction. */
  sizeCard: string | null;
  /** Cards still on offer; shrinks as cards are taken in step D. */
  offer: string[];
  /** Every bid in order; the last one is the high bid. */
  bids: Bid[];
  /** Seats that have passed in this auction (a pass is final). */
  passed: Seat[];
  firstBidder: Seat;
}

/** What the last resolved auction paid out (all zero after an all-pass auction). */
export interface Payouts {
  auction: number;
  winner: Seat | null;
  winningBid: number | null;
  sisterhood: number[];
  goblinCard: string | null;
  goblin: number[];
}

export interface GoblinMarketState extends BaseState {
  game: typeof GAME_ID;
  rng: RngState;
  phase: Phase;
  /** The one seat that must act; null once over. */
  turn: Seat | null;
  coins: number[];
  /** Cards each seat owns, in the order acquired. */
  owned: string[][];
  /** Undrawn Auction Deck, top card first. Secret. */
  auctionDeck: string[];
  /** Undrawn Goblin Deck, top card first. Secret. */
  goblinDeck: string[];
  /** Goblin cards flipped since the last (re)shuffle, in order. */
  goblinFlipped: string[];
  /** Every size card set aside so far, in order (including the current auction's). */
  sizeCards: string[];
  /** Offered cards nobody took. */
  discard: string[];
  /** The auction in progress; null once over. */
  auction: Auction | null;
  lastPayouts: Payouts | null;
}

/** Goblin Market has no options; the type is an empty object. */
export type GoblinMarketOptions = Record<string, never>;
