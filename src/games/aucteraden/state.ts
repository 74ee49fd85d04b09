/**
 * The Aucteraden state: plain JSON (card ids, small arrays), stored on every change.
 *
 * Coordinates: the tableau lives on a fixed 7x7 window of cells, rows and columns 0-6. The first
 * card always goes in the centre cell (row 3, column 3); cards never move afterwards. Because
 * the tableau may never be more than 4 cards wide or tall and always contains the centre, every
 * card fits in the window. The rules never say where the first card goes (they place a card only
 * "up/down/left/right of an existing card on the tableau"); our reading is that it may start
 * anywhere, and fixing it in the centre loses nothing: every start is the same up to a shift.
 *
 * Secret parts (decided in view.ts, never sent as such): `rng` and `deck` (order and contents).
 */
import type { Suit } from "../decktet/cards.js";
import type { RngState } from "../rng.js";
import type { BaseState } from "../types.js";
import type { ScoringRules } from "./scoring.js";

export const GAME_ID = "aucteraden";
export const MIN_PLAYERS = 1;
export const MAX_PLAYERS = 1;
/** Chips of each suit at the start. */
export const STARTING_CHIPS = 4;
/** The tableau is at most SIDE cards wide and SIDE cards tall. */
export const SIDE = 4;
/** Cells in a full tableau. */
export const TABLEAU_CELLS = SIDE * SIDE;
/** The coordinate window is WINDOW x WINDOW cells (rows and columns 0..WINDOW-1). */
export const WINDOW = 2 * SIDE - 1;
/** Row and column of the first card. */
export const CENTRE = SIDE - 1;
/** Cards in a full market. */
export const MARKET_SIZE = 3;

/** Room options as given (after parseOptions). */
export interface AucteradenOptions {
  /** Play with the extended Decktet (Excuse, Pawns and Courts) and its extra rules. */
  extended: boolean;
}

/** play: seat 0 buys a card or discards the market. over: tableau full or market empty. */
export type Phase = "play" | "over";

export interface Placed {
  row: number;
  col: number;
  card: string;
}

/**
 * Market slots, left to right: slot 0 (left) costs 2 chips, slot 1 (middle) 1, slot 2 (right)
 * is free. Cards are always packed to the right: empty slots (null) are on the left.
 */
export type Market = [string | null, string | null, string | null];

export interface AucteradenState extends BaseState {
  game: typeof GAME_ID;
  rng: RngState;
  extended: boolean;
  phase: Phase;
  /** The seat to act: 0 while playing, null once over (as in the other games). */
  turn: 0 | null;
  /** Undrawn cards, top first. Secret. */
  deck: string[];
  market: Market;
  /** Placed cards, in the order placed (the first is at the centre). */
  tableau: Placed[];
  /** Chips left per suit; paid chips leave the game. */
  chips: Record<Suit, number>;
  /** How many times the whole market was discarded (3 VP each). */
  marketDiscards: number;
  /** Cards removed from the game, in order: market discards, cards removed by a refill, the Excuse. */
  discard: string[];
  /** Why the game ended; null while playing. */
  ended: "tableau-full" | "market-empty" | null;
  /**
   * The scoring rules that scored the game, set when it ends (scoring.ts, ScoringRules). A game in
   * play is scored by today's rules. A game that ended before the field existed has none: it was
   * scored by rules 1, and is still shown by them (see rulesOf in view.ts).
   */
  scoring?: ScoringRules;
}
