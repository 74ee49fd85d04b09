/** Placement rules on the 7x7 coordinate window, and the board rectangle a client draws. */
import { describe, expect, it } from "vitest";
import { layout } from "./fixtures.js";
import { board, checkPlacement, legalCells } from "./tableau.js";
import type { Placed } from "./state.js";

const code = (t: Placed[], id: string, row: unknown, col: unknown) => {
  const r = checkPlacement(t, id, row, col);
  return r.ok ? "ok" : r.error.code;
};

describe("the first card", () => {
  it("starts the tableau in the centre cell (3, 3), the only legal cell", () => {
    expect(code([], "pact", 3, 3)).toBe("ok");
    expect(code([], "pact", 0, 0)).toBe("FIRST_CELL");
    expect(code([], "pact", 3, 4)).toBe("FIRST_CELL");
    expect(legalCells([], "pact")).toEqual([{ row: 3, col: 3 }]);
    expect(legalCells([], "ace-moons")).toEqual([{ row: 3, col: 3 }]);
  });

  it("BAD_CELL for anything that is not a cell of the 7x7 window", () => {
    for (const [row, col] of [[-1, 3], [7, 3], [3, 7], [3.5, 3], [NaN, 3], ["3", 3], [null, 3], [3, undefined], [[3], 3], [Infinity, 3]]) {
      expect(code([], "pact", row, col)).toBe("BAD_CELL");
      expect(code(layout(["journey"]), "pact", row, col)).toBe("BAD_CELL");
    }
  });
});

describe("later cards", () => {
  const t = layout(["journey mountain"]); // (3,3) (3,4)

  it("go up, down, left or right of a placed card, never diagonally or apart", () => {
    for (const [r, c] of [[2, 3], [4, 3], [3, 2], [3, 5], [2, 4], [4, 4]]) expect(code(t, "pact", r, c)).toBe("ok");
    expect(code(t, "pact", 2, 2)).toBe("NOT_ADJACENT");
    expect(code(t, "pact", 4, 5)).toBe("NOT_ADJACENT");
    expect(code(t, "pact", 3, 6)).toBe("NOT_ADJACENT");
    expect(code(t, "pact", 3, 4)).toBe("CELL_TAKEN");
    expect(legalCells(t, "pact")).toEqual([
      { row: 2, col: 3 },
      { row: 2, col: 4 },
      { row: 3, col: 2 },
      { row: 3, col: 5 },
      { row: 4, col: 3 },
      { row: 4, col: 4 },
    ]);
  });

  it("the tableau never gets more than 4 wide or 4 tall, in any direction", () => {
    const row4 = layout(["journey mountain forest lunatic"]); // columns 3-6
    expect(code(row4, "pact", 3, 2)).toBe("TOO_BIG");
    expect(code(row4, "pact", 3, 7)).toBe("BAD_CELL"); // outside the window, and too wide anyway
    expect(code(row4, "pact", 2, 3)).toBe("ok");
    const col4 = layout(["journey", "mountain", "forest", "lunatic"], 0, 3); // rows 0-3
    expect(code(col4, "pact", 4, 3)).toBe("TOO_BIG");
    expect(code(col4, "pact", 0, 2)).toBe("ok");
    // Growing left then right: 4 wide is the limit whichever side it grows.
    const mid = layout(["journey mountain forest"], 3, 2); // columns 2-4
    expect(code(mid, "pact", 3, 1)).toBe("ok");
    expect(code(mid, "pact", 3, 5)).toBe("ok");
    expect(code([...mid, { row: 3, col: 1, card: "pact" }], "lunatic", 3, 5)).toBe("TOO_BIG");
  });

  it("a full 4 x 4 tableau has no legal cell", () => {
    const full = layout([
      "origin   journey  sailor  discovery",
      "darkness mill     cave    lunatic",
      "author   painter  battle  soldier",
      "merchant betrayal castle  market",
    ], 0, 0);
    expect(legalCells(full, "pact")).toEqual([]);
  });

  it("an Ace or Crown may not go orthogonally next to another Ace or Crown; diagonally is fine", () => {
    const t2 = layout(["ace-moons journey"]); // ace at (3,3)
    expect(code(t2, "huntress", 2, 3)).toBe("ACE_CROWN_ADJACENT");
    expect(code(t2, "ace-suns", 4, 3)).toBe("ACE_CROWN_ADJACENT");
    expect(code(t2, "sea", 3, 2)).toBe("ACE_CROWN_ADJACENT");
    expect(code(t2, "sea", 2, 4)).toBe("ok"); // diagonal to the Ace, above journey
    expect(code(t2, "pact", 2, 3)).toBe("ok"); // a number card next to an Ace
    const t3 = layout(["journey sea"]); // Crown at (3,4)
    expect(code(t3, "bard", 2, 4)).toBe("ACE_CROWN_ADJACENT");
    expect(code(t3, "bard", 2, 3)).toBe("ok");
    expect(legalCells(t2, "huntress")).toEqual([
      { row: 2, col: 4 },
      { row: 3, col: 5 },
      { row: 4, col: 4 },
    ]);
  });

  it("extended: a Pawn or Court may not go next to another Pawn or Court; next to Aces and Crowns is fine", () => {
    const t4 = layout(["harvest journey"]);
    expect(code(t4, "consul", 2, 3)).toBe("PAWN_COURT_ADJACENT");
    expect(code(t4, "watchman", 3, 2)).toBe("PAWN_COURT_ADJACENT");
    expect(code(t4, "island", 2, 4)).toBe("ok"); // diagonal
    expect(code(t4, "ace-suns", 2, 3)).toBe("ok");
    expect(code(layout(["ace-moons"]), "rite", 3, 4)).toBe("ok");
    expect(code(layout(["bard"]), "window", 2, 3)).toBe("ok");
  });
});

describe("the board rectangle", () => {
  it("empty: just the centre cell", () => {
    expect(board([])).toEqual({ top: 3, left: 3, rows: 1, cols: 1, cards: [[null]] });
  });

  it("one card: 3 x 3 around it", () => {
    expect(board(layout(["pact"]))).toMatchObject({ top: 2, left: 2, rows: 3, cols: 3 });
    expect(board(layout(["pact"])).cards[1][1]).toBe("pact");
  });

  it("grows one cell beyond the cards while the tableau is under 4 on that side, and is exactly 4 x 4 at the end", () => {
    const row4 = layout(["journey mountain forest lunatic"]);
    expect(board(row4)).toMatchObject({ top: 2, left: 3, rows: 3, cols: 4 });
    const l = layout(["journey mountain forest", "pact"], 2, 2);
    expect(board(l)).toMatchObject({ top: 1, left: 1, rows: 4, cols: 5 });
    const full = layout([
      "origin   journey  sailor  discovery",
      "darkness mill     cave    lunatic",
      "author   painter  battle  soldier",
      "merchant betrayal castle  market",
    ], 1, 2);
    const b = board(full);
    expect(b).toMatchObject({ top: 1, left: 2, rows: 4, cols: 4 });
    expect(b.cards[0]).toEqual(["origin", "journey", "sailor", "discovery"]);
  });

  it("every legal cell is inside the board rectangle", () => {
    const t = layout(["journey mountain", ". pact"], 2, 3);
    const b = board(t);
    for (const c of legalCells(t, "forest")) {
      expect(c.row >= b.top && c.row < b.top + b.rows && c.col >= b.left && c.col < b.left + b.cols).toBe(true);
    }
  });
});
