/**
 * Scoring: per suit, the best chain (a path of orthogonally adjacent cards that all bear the
 * suit, ranks strictly rising along the path), VP by its length plus the Ace/Crown bonus; then
 * the penalties for chips, empty spaces and market discards; 40 VP is a win, 50 a commanding win.
 */
import { card, SUITS, type Suit } from "../decktet/cards.js";
import { chainRank, isPawnOrCourt } from "./ranks.js";
import { STEPS, type Cell } from "./tableau.js";
import { STARTING_CHIPS, TABLEAU_CELLS, type Placed } from "./state.js";

/** VP by chain length 0, 1, ..., 7 (7 or more: 30). */
export const CHAIN_VP: readonly number[] = [-5, -5, 2, 5, 9, 14, 20, 30];
export const ACE_BONUS = 1;
export const CROWN_BONUS = 2;
export const ACE_AND_CROWN_BONUS = 4;
export const CHIP_PENALTY = -5;
export const EMPTY_SPACE_PENALTY = -5;
export const MARKET_DISCARD_PENALTY = -3;
export const WIN = 40;
export const COMMANDING_WIN = 50;

export type Verdict = "commanding win" | "win" | null;

/**
 * Which reading of the chain bonus scores a game (docs/rules/aucteraden.md, "Scoring rules and
 * games scored before the change").
 * - 1: until issue 19 (2026-11-24): only chains of 2 or more cards earned a bonus, and a chain
 *   that started with an Ace, a Pawn or a Court earned the Ace bonus (a Pawn or Court needed no Ace).
 * - 2: as printed: the Ace bonus is the Ace's (first, or right after a Pawn or Court; a Pawn or
 *   Court without an Ace earns none), the Crown bonus the Crown's, and a one-card chain earns
 *   them too (a lone Ace -4, a lone Crown -3).
 * Every game is scored by SCORING_RULES; rules 1 stay only to show and replay games that ended
 * under them, keeping the score they were recorded with.
 */
export type ScoringRules = 1 | 2;
export const SCORING_RULES: ScoringRules = 2;

export function lengthVp(length: number): number {
  return CHAIN_VP[Math.min(length, CHAIN_VP.length - 1)];
}

export interface Chain {
  suit: Suit;
  length: number;
  /** The chain's cells and cards in order, lowest rank first (for highlighting). */
  cells: Cell[];
  cards: string[];
  /** VP for the length alone. */
  base: number;
  /**
   * The chain earns the Ace bonus: it holds an Ace, which can only be its first card or (extended)
   * the second, right after a Pawn or Court. `crown`: it ends with a Crown. A one-card chain that
   * is an Ace or a Crown earns its bonus too. (Under scoring rules 1, `ace` meant: 2 or more cards
   * starting with an Ace, a Pawn or a Court.)
   */
  ace: boolean;
  crown: boolean;
  /** 0, +1 (Ace), +2 (Crown) or +4 (both). */
  bonus: number;
  vp: number;
}

/** Score a chain given as its cards in order (lowest rank first), by `rules` (default: today's). */
export function chainVp(cards: readonly string[], rules: ScoringRules = SCORING_RULES): Pick<Chain, "base" | "ace" | "crown" | "bonus" | "vp"> {
  const base = lengthVp(cards.length);
  const rank = (id: string | undefined) => (id === undefined ? undefined : card(id).rank);
  const first = cards[0];
  const last = cards[cards.length - 1];
  let ace: boolean;
  let crown: boolean;
  if (rules === 1) {
    // Kept only for games scored before the change (see ScoringRules).
    const long = cards.length >= 2;
    ace = long && (rank(first) === "Ace" || isPawnOrCourt(first));
    crown = long && rank(last) === "Crown";
  } else {
    // "If a chain starts with an Ace": the bonus is the Ace's. Extended: "An Ace does not have to
    // start a chain for 1 VP if there a Pawn or Court is the first card in the chain." (sic), so an
    // Ace right after one keeps it; a Pawn or Court with no Ace earns nothing. (Ranks rise, so an
    // Ace can only be there.)
    // One card is a chain length in the printed table, so a lone Ace or Crown earns its bonus.
    ace = rank(first) === "Ace" || (first !== undefined && isPawnOrCourt(first) && rank(cards[1]) === "Ace");
    crown = rank(last) === "Crown";
  }
  const bonus = ace && crown ? ACE_AND_CROWN_BONUS : crown ? CROWN_BONUS : ace ? ACE_BONUS : 0;
  return { base, ace, crown, bonus, vp: base + bonus };
}

/** Negative, zero or positive as path a's cells come before, with or after b's in reading order. */
function compareCells(a: readonly Cell[], b: readonly Cell[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i].row - b[i].row || a[i].col - b[i].col;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * The chain scored for `suit`: the longest (as printed); among equally long chains the
 * highest-scoring (best bonus); among those, the one whose cells come first in reading order.
 */
export function bestChain(tableau: readonly Placed[], suit: Suit, rules: ScoringRules = SCORING_RULES): Chain {
  const nodes = tableau.filter((p) => card(p.card).suits.includes(suit));
  const at = new Map(nodes.map((p) => [`${p.row},${p.col}`, p]));
  // Only paths that cannot be extended at the end are candidates: a longest chain is one of them.
  const best = { path: [] as Placed[], vp: -Infinity };
  const consider = (path: Placed[]) => {
    const vp = chainVp(path.map((p) => p.card), rules).vp;
    const b = best.path;
    if (path.length > b.length || (path.length === b.length && (vp > best.vp || (vp === best.vp && compareCells(path, b) < 0)))) {
      best.path = path;
      best.vp = vp;
    }
  };
  const extend = (path: Placed[]) => {
    const last = path[path.length - 1];
    let longer = false;
    for (const [dr, dc] of STEPS) {
      const next = at.get(`${last.row + dr},${last.col + dc}`);
      if (next && chainRank(next.card) > chainRank(last.card)) {
        longer = true;
        extend([...path, next]);
      }
    }
    if (!longer) consider(path);
  };
  for (const start of nodes) extend([start]);
  const path = best.path;
  const cards = path.map((p) => p.card);
  return { suit, length: path.length, cells: path.map(({ row, col }) => ({ row, col })), cards, ...chainVp(cards, rules) };
}

export interface ChipPenalty {
  suit: Suit;
  /** "out": no chips of the suit left; "unused": none of them was used. */
  reason: "out" | "unused";
  vp: number;
}

export interface ScoreBreakdown {
  /** One per suit, in suit order. */
  chains: Chain[];
  chainVp: number;
  chipPenalties: ChipPenalty[];
  chipVp: number;
  emptySpaces: number;
  emptyVp: number;
  marketDiscards: number;
  discardVp: number;
  total: number;
  /** "win" at 40 VP or more, "commanding win" at 50 or more, else null. */
  verdict: Verdict;
  /**
   * The scoring rules used (ScoringRules). Absent: rules 1; breakdowns recorded before the change
   * have no such field, and a rules-1 breakdown is built without it so it equals them exactly.
   */
  scoring?: ScoringRules;
}

export function verdict(total: number): Verdict {
  return total >= COMMANDING_WIN ? "commanding win" : total >= WIN ? "win" : null;
}

/** n penalties of vp each (0, not -0, for none). */
const times = (n: number, vp: number): number => (n === 0 ? 0 : n * vp);

/** The full score of a tableau with these chips left and this many market discards, by `rules` (default: today's). */
export function score(tableau: readonly Placed[], chips: Record<Suit, number>, marketDiscards: number, rules: ScoringRules = SCORING_RULES): ScoreBreakdown {
  const chains = SUITS.map((s) => bestChain(tableau, s, rules));
  const chainTotal = chains.reduce((t, c) => t + c.vp, 0);
  const chipPenalties: ChipPenalty[] = SUITS.flatMap((suit): ChipPenalty[] =>
    chips[suit] === 0
      ? [{ suit, reason: "out", vp: CHIP_PENALTY }]
      : chips[suit] === STARTING_CHIPS
        ? [{ suit, reason: "unused", vp: CHIP_PENALTY }]
        : [],
  );
  const chipVp = chipPenalties.reduce((t, p) => t + p.vp, 0);
  const emptySpaces = TABLEAU_CELLS - tableau.length;
  const emptyVp = times(emptySpaces, EMPTY_SPACE_PENALTY);
  const discardVp = times(marketDiscards, MARKET_DISCARD_PENALTY);
  const total = chainTotal + chipVp + emptyVp + discardVp;
  return {
    chains,
    chainVp: chainTotal,
    chipPenalties,
    chipVp,
    emptySpaces,
    emptyVp,
    marketDiscards,
    discardVp,
    total,
    verdict: verdict(total),
    ...(rules === 1 ? {} : { scoring: rules }),
  };
}
