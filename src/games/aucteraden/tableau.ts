/**
 * The tableau: where a card may be placed. Cells are absolute (row, col) in the 7x7 window
 * (see state.ts); the first card goes in the centre, every later card orthogonally next to a
 * placed card, the whole never more than 4 wide or 4 tall; an Ace or Crown never orthogonally
 * next to another Ace or Crown, and (extended) a Pawn or Court never next to another Pawn or Court.
 */
import { fail, ok, type Result } from "../types.js";
import { isAceOrCrown, isPawnOrCourt } from "./ranks.js";
import { CENTRE, SIDE, WINDOW, type Placed } from "./state.js";

export interface Cell {
  row: number;
  col: number;
}

/** Up, down, left, right. */
export const STEPS: ReadonlyArray<readonly [number, number]> = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

export function cardAt(tableau: readonly Placed[], row: number, col: number): string | null {
  return tableau.find((p) => p.row === row && p.col === col)?.card ?? null;
}

export function neighbours(tableau: readonly Placed[], row: number, col: number): string[] {
  return STEPS.flatMap(([dr, dc]) => {
    const c = cardAt(tableau, row + dr, col + dc);
    return c === null ? [] : [c];
  });
}

export interface Bounds {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** The smallest rectangle holding every placed card; null when the tableau is empty. */
export function bounds(tableau: readonly Placed[]): Bounds | null {
  if (tableau.length === 0) return null;
  const rows = tableau.map((p) => p.row);
  const cols = tableau.map((p) => p.col);
  return { top: Math.min(...rows), left: Math.min(...cols), bottom: Math.max(...rows), right: Math.max(...cols) };
}

export const inWindow = (row: unknown, col: unknown): boolean =>
  [row, col].every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v < WINDOW);

/**
 * Why `id` may not go at (row, col), or ok. Checks, in order: BAD_CELL (not a cell of the 7x7
 * window), FIRST_CELL (the first card goes in the centre), CELL_TAKEN, NOT_ADJACENT, TOO_BIG
 * (more than 4 wide or tall), ACE_CROWN_ADJACENT, PAWN_COURT_ADJACENT.
 */
export function checkPlacement(tableau: readonly Placed[], id: string, row: unknown, col: unknown): Result<Cell> {
  if (!inWindow(row, col)) {
    return fail("BAD_CELL", `Give row and col as whole numbers 0-${WINDOW - 1} (the first card is at row ${CENTRE}, col ${CENTRE}).`);
  }
  const r = row as number;
  const c = col as number;
  if (tableau.length === 0) {
    if (r !== CENTRE || c !== CENTRE) {
      return fail("FIRST_CELL", `The first card starts the tableau at row ${CENTRE}, col ${CENTRE} (every start is the same).`);
    }
    return ok({ row: r, col: c });
  }
  if (cardAt(tableau, r, c) !== null) return fail("CELL_TAKEN", `There is already a card at row ${r}, col ${c}.`);
  const next = neighbours(tableau, r, c);
  if (next.length === 0) return fail("NOT_ADJACENT", "A card must go directly above, below, left or right of a card already placed.");
  const b = bounds(tableau)!;
  const height = Math.max(b.bottom, r) - Math.min(b.top, r) + 1;
  const width = Math.max(b.right, c) - Math.min(b.left, c) + 1;
  if (height > SIDE || width > SIDE) return fail("TOO_BIG", `The tableau can never be more than ${SIDE} cards wide or ${SIDE} tall.`);
  if (isAceOrCrown(id) && next.some(isAceOrCrown)) {
    return fail("ACE_CROWN_ADJACENT", "An Ace or Crown may not go directly next to another Ace or Crown (diagonally is fine).");
  }
  if (isPawnOrCourt(id) && next.some(isPawnOrCourt)) {
    return fail("PAWN_COURT_ADJACENT", "A Pawn or Court may not go directly next to another Pawn or Court (diagonally is fine).");
  }
  return ok({ row: r, col: c });
}

/** Every cell where `id` may go, in reading order (row, then column). */
export function legalCells(tableau: readonly Placed[], id: string): Cell[] {
  if (tableau.length === 0) return [{ row: CENTRE, col: CENTRE }];
  const out: Cell[] = [];
  for (let row = 0; row < WINDOW; row++) {
    for (let col = 0; col < WINDOW; col++) {
      if (checkPlacement(tableau, id, row, col).ok) out.push({ row, col });
    }
  }
  return out;
}

export interface Board {
  top: number;
  left: number;
  rows: number;
  cols: number;
  /** cards[r][c]: the card at (top + r, left + c), or null. */
  cards: Array<Array<string | null>>;
}

/**
 * The rectangle a client draws: the placed cards' bounding box, widened by one column on each
 * side while it is narrower than 4 and by one row above and below while it is shorter than 4
 * (just the centre cell when empty). Every cell where a card could go next is inside it; once
 * the tableau spans 4 x 4 it is exactly that 4 x 4 grid.
 */
export function board(tableau: readonly Placed[]): Board {
  const b = bounds(tableau) ?? { top: CENTRE, left: CENTRE, bottom: CENTRE, right: CENTRE };
  const grow = tableau.length > 0;
  const h = b.bottom - b.top + 1;
  const w = b.right - b.left + 1;
  const top = grow && h < SIDE ? b.top - 1 : b.top;
  const left = grow && w < SIDE ? b.left - 1 : b.left;
  const rows = grow && h < SIDE ? h + 2 : h;
  const cols = grow && w < SIDE ? w + 2 : w;
  const cards = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => cardAt(tableau, top + r, left + c)));
  return { top, left, rows, cols, cards };
}
