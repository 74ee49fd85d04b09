/**
 * The Sorcerous Futures state: plain JSON (card ids and small arrays), stored on every change.
 *
 * Secret parts (decided in view.ts, never sent as such): `rng`, `deck` (order and contents),
 * `valuations` (owner only until a game ends), `faceDown` (owner only for the cards it has
 * seen, per `knowledge`), `extraValuations` and `extraSetAside` (nobody until a game ends).
 */
import type { Knowledge } from "../knowledge.js";
import type { RngState } from "../rng.js";
import type { BaseState, Seat } from "../types.js";
import type { GameResult } from "./sale.js";

export const GAME_ID = "sorcerous-futures";
export const STARTING_MONEY = 100;
/** What one setup exchange costs. */
export const EXCHANGE_COST = 3;
export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 5;

export type Extended = "pawns" | "courts";

/** Room options as given (after parseOptions). */
export interface SorcerousFuturesOptions {
  /** Which extended cards join the deck; used (and required, default "pawns") only with 5 players. */
  extended?: Extended;
  /** Games in the match: 1 (short) or 3 (long, bankrolls carried over). */
  match?: 1 | 3;
}

/**
 * setup:   simultaneous and private; every seat that has not confirmed may act.
 * pick:    `turn` (the Excuse holder) picks a market card to auction.
 * bidding: `turn` bids or passes.
 * over:    the match is over (after the sale of its last game).
 */
export type Phase = "setup" | "pick" | "bidding" | "over";

/** One turn of an auction: a bid (amount) or a pass (null). */
export interface AuctionMove {
  seat: Seat;
  bid: number | null;
}

export interface Auction {
  /** 1-based count of auctions in this game. */
  number: number;
  card: string;
  /** The Excuse holder who opened it; they also have the final chance. */
  excuse: Seat;
  /** Turns taken so far, in order. The turn order is excuse, excuse+1, ..., excuse+n-1, excuse. */
  moves: AuctionMove[];
  /** True when the card was the market's last and so picked automatically. */
  auto: boolean;
}

export interface SorcerousFuturesState extends BaseState {
  game: typeof GAME_ID;
  rng: RngState;
  /** Effective options: extended cards in play (5 players only) and match length. */
  extended: Extended | null;
  matchGames: 1 | 3;
  /** 1-based number of the game being played in the match. */
  matchGame: number;
  phase: Phase;
  /** The one seat to act in pick/bidding; null in setup and once over. */
  turn: Seat | null;
  money: number[];
  /** Undrawn cards, top first. Secret. */
  deck: string[];
  /** Each seat's two kept cards: its hand during setup, its valuations afterwards. Owner only. */
  valuations: string[][];
  /** Each seat's two face-down cards (slots 0 and 1); set aside after setup. See `knowledge`. */
  faceDown: string[][];
  /** 3 players: two cards added to the valuations, unseen by all. */
  extraValuations: string[];
  /** 3 players: two cards set aside, unseen by all. */
  extraSetAside: string[];
  /** card id -> seats that have seen it (hidden cards only; this game's deal). */
  knowledge: Knowledge;
  /** Dollars each seat paid for exchanges in this game's setup (public). */
  paid: number[];
  confirmed: boolean[];
  /** Pawns/Courts revealed (and shuffled back) in this game's setup, in order (public). */
  revealed: string[];
  /** Excuse holder; null during setup. */
  excuse: Seat | null;
  /** Who got the Excuse first in this game (the next game of a match starts to their left). */
  firstExcuse: Seat | null;
  /** Cards per market: 5 with 4 players, else 4. */
  marketSize: number;
  /** Markets dealt so far in this game. */
  marketNumber: number;
  market: string[];
  auction: Auction | null;
  auctions: number;
  /** Items each seat bought this game, in order (public). */
  holdings: string[][];
  /** Items nobody bid on (public). */
  discard: string[];
  /** Finished games of the match, fully revealed (public). */
  results: GameResult[];
}
