/**
 * What a viewer may know. Aucteraden has one seat and no per-seat secrets: the player and
 * spectators see the same public facts (one view for all: see viewKey). Never included: the RNG
 * state and the identity or order of the undrawn cards (their count only), even after the end;
 * only the replay of a finished game (viewer `all`) lists them.
 */
import type { Suit } from "../decktet/cards.js";
import type { Outcome, Viewer } from "../types.js";
import { mustDiscard, offers, type Offer } from "./legal.js";
import { score, SCORING_RULES, type ScoreBreakdown, type ScoringRules } from "./scoring.js";
import { board, bounds, type Board, type Bounds } from "./tableau.js";
import { STARTING_CHIPS, type AucteradenState, type Phase, type Placed } from "./state.js";

/** buy: a market card can be bought (discarding is allowed too). discard: the market must be discarded. */
export type Pending = "buy" | "discard" | null;

export interface AucteradenView {
  game: "aucteraden";
  players: 1;
  extended: boolean;
  phase: Phase;
  turn: number | null;
  pending: Pending;
  /** Placed cards in the order placed, at absolute cells of the 7x7 window (first card at 3,3). */
  tableau: Placed[];
  /** The placed cards' bounding box (null when empty). */
  bounds: Bounds | null;
  /** The rectangle to draw: bounding box plus where the tableau may still grow. */
  board: Board;
  /** The three slots, left (2 chips) to right (free), with legal cells and payments per card. */
  market: Offer[];
  chips: Record<Suit, number>;
  chipsUsed: Record<Suit, number>;
  marketDiscards: number;
  /** Cards removed from the game, in order. */
  discard: string[];
  deckCount: number;
  /** The live score (final once over), with each suit's chain cells for highlighting. */
  score: ScoreBreakdown;
  ended: AucteradenState["ended"];
  outcome: Outcome | null;
  /** Only for the replay of a finished game (viewer `all`): the undrawn cards, top first. */
  hidden?: { deck: string[] };
}

/** The player and spectators see the same view (the envelope says which seat is yours); a finished game's replay sees the deck too. */
export function viewKey(_state: AucteradenState, viewer: Viewer): string {
  return viewer.kind === "all" ? "everything" : "all";
}

/** The replay of a finished game (viewer `all`) also sees the undrawn cards, top first, as they lay then. */
export function view(state: AucteradenState, viewer: Viewer): AucteradenView {
  const over = state.phase === "over";
  return {
    ...(viewer.kind === "all" ? { hidden: { deck: [...state.deck] } } : {}),
    game: state.game,
    players: 1,
    extended: state.extended,
    phase: state.phase,
    turn: state.turn,
    pending: over ? null : mustDiscard(state) ? "discard" : "buy",
    tableau: state.tableau.map((p) => ({ ...p })),
    bounds: bounds(state.tableau),
    board: board(state.tableau),
    market: offers(state),
    chips: { ...state.chips },
    chipsUsed: Object.fromEntries(Object.entries(state.chips).map(([s, n]) => [s, STARTING_CHIPS - n])) as Record<Suit, number>,
    marketDiscards: state.marketDiscards,
    discard: [...state.discard],
    deckCount: state.deck.length,
    score: score(state.tableau, state.chips, state.marketDiscards, rulesOf(state)),
    ended: state.ended,
    outcome: outcome(state),
  };
}

/**
 * The scoring rules a state is scored by: today's while it is in play; once over, the rules that
 * scored it at its end (rules 1 for a game that ended before states recorded them).
 */
export function rulesOf(state: AucteradenState): ScoringRules {
  return state.phase === "over" ? (state.scoring ?? 1) : SCORING_RULES;
}

/** One seat: scores [VP], places [1]; details: the full score breakdown with its verdict. */
export function outcome(state: AucteradenState): Outcome | null {
  if (state.phase !== "over") return null;
  const details = score(state.tableau, state.chips, state.marketDiscards, rulesOf(state));
  return { scores: [details.total], places: [1], details };
}

/**
 * A finished state's outcome under the scoring rules a record names (`details.scoring`; none:
 * rules 1, the records written before the change), so a replay checks an old record against the
 * rules that scored it. Null if the record names rules this engine does not have.
 */
export function outcomeAsRecorded(state: AucteradenState, recorded: Outcome): { rules: string; outcome: Outcome | null } | null {
  const named = (recorded.details as { scoring?: unknown } | null | undefined)?.scoring ?? 1;
  if (named !== 1 && named !== 2) return null;
  return { rules: `Aucteraden scoring rules ${named}`, outcome: outcome({ ...state, scoring: named }) };
}
