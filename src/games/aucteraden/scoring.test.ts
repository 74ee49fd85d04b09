/**
 * Scoring on hand-built tableaux. Every expected number below was counted by hand from the
 * picture (the comments show each chain); none is computed by the code under test.
 * Pictures: one string per row, "." for an empty cell. Ranks: Ace 1, numbers 2-9, Crown 10,
 * Pawn/Court 0 (extended).
 */
import { describe, expect, it } from "vitest";
import { card, SUITS, type Suit } from "../decktet/cards.js";
import { chipsOf, layout, play, position } from "./fixtures.js";
import { isAceOrCrown, isPawnOrCourt } from "./ranks.js";
import { bestChain, chainVp, lengthVp, score, SCORING_RULES, verdict } from "./scoring.js";
import type { Placed } from "./state.js";
import { outcome, view } from "./view.js";

type PerSuit = Record<Suit, [length: number, vp: number]>;

interface Case {
  name: string;
  rows: string[];
  /** Chips left (default 2 of each suit: no chip penalty). */
  chips?: Partial<Record<Suit, number>>;
  discards?: number;
  suits: PerSuit;
  empty: number;
  total: number;
}

const TWO = { Moons: 2, Suns: 2, Waves: 2, Leaves: 2, Wyrms: 2, Knots: 2 };

/** The tableau obeys the placement rules: connected, at most 4 x 4, no Ace/Crown or Pawn/Court pairs side by side. */
function legalTableau(t: Placed[]): boolean {
  if (t.length === 0) return true;
  const at = new Map(t.map((p) => [`${p.row},${p.col}`, p.card]));
  const rows = t.map((p) => p.row);
  const cols = t.map((p) => p.col);
  if (Math.max(...rows) - Math.min(...rows) > 3 || Math.max(...cols) - Math.min(...cols) > 3) return false;
  for (const p of t) {
    for (const [dr, dc] of [[1, 0], [0, 1]]) {
      const q = at.get(`${p.row + dr},${p.col + dc}`);
      if (q === undefined) continue;
      if (isAceOrCrown(p.card) && isAceOrCrown(q)) return false;
      if (isPawnOrCourt(p.card) && isPawnOrCourt(q)) return false;
    }
  }
  const seen = new Set([`${t[0].row},${t[0].col}`]);
  const todo = [t[0]];
  while (todo.length > 0) {
    const p = todo.pop()!;
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const k = `${p.row + dr},${p.col + dc}`;
      if (at.has(k) && !seen.has(k)) {
        seen.add(k);
        todo.push({ row: p.row + dr, col: p.col + dc, card: at.get(k)! });
      }
    }
  }
  return seen.size === t.length;
}

const BOARD_A = [
  "ace-moons author         journey  mountain",
  "diplomat  chance-meeting lunatic  forest",
  "pact      huntress       cave     darkness",
  "bard      battle         soldier  sea",
];

const CASES: Case[] = [
  {
    name: "1. one card",
    rows: ["pact"],
    // Moons: pact (1) -5; Suns: pact (1) -5; the other four suits: no card, -5 each
    suits: { Moons: [1, -5], Suns: [1, -5], Waves: [0, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 15, // -75
    total: -105,
  },
  {
    name: "2. a two-card chain, no bonus",
    rows: ["journey mountain"],
    // Moons: journey 3 -> mountain 4 (2) +2; Waves: journey (1); Suns: mountain (1)
    suits: { Moons: [2, 2], Suns: [1, -5], Waves: [1, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 14, // -70
    total: -93,
  },
  {
    name: "3. starts with an Ace: +1",
    rows: ["ace-moons author journey"],
    // Moons: ace 1 -> author 2 -> journey 3 (3) 5 + 1 = 6; Knots: author (1); Waves: journey (1)
    suits: { Moons: [3, 6], Suns: [0, -5], Waves: [1, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [1, -5] },
    empty: 13, // -65
    total: -84,
  },
  {
    name: "4. ends with a Crown: +2",
    rows: ["pact huntress"],
    // Moons: pact 9 -> huntress 10 (2) 2 + 2 = 4; Suns: pact (1)
    suits: { Moons: [2, 4], Suns: [1, -5], Waves: [0, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 14, // -70
    total: -91,
  },
  {
    name: "5. an Ace and a Crown in one chain: +4, not 1 + 2 + 4",
    rows: [
      "ace-leaves origin savage sailor", //
      ".          .      end    forest",
    ],
    // Leaves: ace 1 -> origin 2 -> savage 3 -> sailor 4 -> forest 5 -> end 10 (6) 20 + 4 = 24
    // Waves: origin and sailor are not adjacent (1); Wyrms: savage (1); Moons: forest (1)
    suits: { Moons: [1, -5], Suns: [0, -5], Waves: [1, -5], Leaves: [6, 24], Wyrms: [1, -5], Knots: [0, -5] },
    empty: 10, // -50
    total: -51,
  },
  {
    name: "6. a chain that branches: the longest branch counts",
    rows: [
      ".      forest         .", //
      "author journey        mountain",
      ".      lunatic        .",
      ".      chance-meeting .",
    ],
    // Moons: author 2 -> journey 3 -> lunatic 6 -> chance-meeting 7 (4) 9
    //   (the branches journey -> forest and journey -> mountain stop at 3 cards)
    // Waves: journey 3 -> lunatic 6 (2) 2; Leaves: forest, chance-meeting apart (1)
    suits: { Moons: [4, 9], Suns: [1, -5], Waves: [2, 2], Leaves: [1, -5], Wyrms: [0, -5], Knots: [1, -5] },
    empty: 10, // -50
    total: -59,
  },
  {
    name: "7. two chains of equal length: the one with the Crown bonus counts",
    rows: [
      "forest   huntress", //
      "mountain .",
      "lunatic  diplomat",
    ],
    // Moons: mountain 4 -> forest 5 -> huntress 10 (3) 5 + 2 = 7  beats  mountain 4 -> lunatic 6 -> diplomat 8 (3) 5
    // Suns: mountain and diplomat only diagonal (1)
    suits: { Moons: [3, 7], Suns: [1, -5], Waves: [1, -5], Leaves: [1, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 11, // -55
    total: -73,
  },
  {
    name: "8. two chains of equal length and score: either scores the same",
    rows: [
      ".      mountain", //
      "author journey",
      ".      lunatic",
    ],
    // Moons: author 2 -> journey 3 -> mountain 4 (3) 5, or author -> journey -> lunatic 6 (3) 5
    // Waves: journey 3 -> lunatic 6 (2) 2
    suits: { Moons: [3, 5], Suns: [1, -5], Waves: [2, 2], Leaves: [0, -5], Wyrms: [0, -5], Knots: [1, -5] },
    empty: 12, // -60
    total: -73,
  },
  {
    name: "9. ranks must rise along the path",
    rows: ["origin sailor journey discovery"],
    // Waves: 2, 4, 3, 5 in a row: origin 2 -> sailor 4 (2), journey 3 -> sailor 4 (2), journey 3 -> discovery 5 (2);
    //   sailor 4 -> journey 3 falls, so no 3-card chain. 2
    // Leaves: origin 2 -> sailor 4 (2) 2
    suits: { Moons: [1, -5], Suns: [1, -5], Waves: [2, 2], Leaves: [2, 2], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 12, // -60
    total: -76,
  },
  {
    name: "10. full board A: a 10-card snake with Ace and Crown",
    rows: BOARD_A,
    chips: { Moons: 1, Suns: 2, Waves: 3, Leaves: 1, Wyrms: 2, Knots: 1 },
    // Moons: ace 1 -> author 2 -> journey 3 -> mountain 4 -> forest 5 -> lunatic 6 -> chance-meeting 7
    //   -> diplomat 8 -> pact 9 -> huntress 10 (10) 30 + 4 = 34
    // Suns: diplomat 8 -> pact 9 -> bard 10 (3) 5 + 2 = 7 (mountain is cut off)
    // Waves: journey 3 -> lunatic 6 -> cave 7 -> darkness 9 -> sea 10 (5) 14 + 2 = 16
    // Leaves: forest and chance-meeting apart (1) -5
    // Wyrms: battle 4 -> soldier 5 -> cave 7 -> darkness 9 (4) 9
    // Knots: battle 4 -> soldier 5 (2) 2 (author is cut off)
    suits: { Moons: [10, 34], Suns: [3, 7], Waves: [5, 16], Leaves: [1, -5], Wyrms: [4, 9], Knots: [2, 2] },
    empty: 0,
    total: 63,
  },
  {
    name: "11. full board C: two 8-card chains (7 or more: 30), no bonus",
    rows: [
      "origin   journey  sailor  discovery",
      "darkness mill     cave    lunatic",
      "author   painter  battle  soldier",
      "merchant betrayal castle  market",
    ],
    // Waves: origin 2 -> journey 3 -> sailor 4 -> discovery 5 -> lunatic 6 -> cave 7 -> mill 8 -> darkness 9 (8) 30
    // Knots: author 2 -> painter 3 -> battle 4 -> soldier 5 -> market 6 -> castle 7 -> betrayal 8 -> merchant 9 (8) 30
    // Wyrms: battle 4 -> cave 7 or battle 4 -> soldier 5 (2) 2
    // Moons (journey, lunatic, author), Suns (discovery, painter, castle), Leaves (origin, sailor, mill,
    //   merchant, market): no two side by side (1) -5 each
    suits: { Moons: [1, -5], Suns: [1, -5], Waves: [8, 30], Leaves: [1, -5], Wyrms: [2, 2], Knots: [8, 30] },
    empty: 0,
    total: 47,
  },
  {
    name: "12. exactly seven cards: 30",
    rows: [
      "origin savage sailor         forest", //
      ".      mill   chance-meeting market",
    ],
    // Leaves: origin 2 -> savage 3 -> sailor 4 -> forest 5 -> market 6 -> chance-meeting 7 -> mill 8 (7) 30
    // Waves: origin, sailor, mill apart (1); Moons: forest, chance-meeting diagonal (1); Wyrms savage, Knots market (1)
    suits: { Moons: [1, -5], Suns: [0, -5], Waves: [1, -5], Leaves: [7, 30], Wyrms: [1, -5], Knots: [1, -5] },
    empty: 9, // -45
    total: -40,
  },
  {
    name: "13. separate groups of one suit: only the longest chain counts",
    rows: [
      "author painter discovery battle", //
      ".      .       .         soldier",
      ".      .       .         market",
    ],
    // Knots: author 2 -> painter 3 (2) and battle 4 -> soldier 5 -> market 6 (3): 5
    // Suns: painter 3 -> discovery 5 (2) 2; Wyrms: battle 4 -> soldier 5 (2) 2; Leaves: market (1)
    suits: { Moons: [1, -5], Suns: [2, 2], Waves: [1, -5], Leaves: [1, -5], Wyrms: [2, 2], Knots: [3, 5] },
    empty: 10, // -50
    total: -56,
  },
  {
    name: "14. an Ace on a shorter chain gives nothing: the longest counts",
    rows: [
      "origin  savage     sailor", //
      "journey .          .",
      "forest  ace-leaves .",
    ],
    // Leaves: origin 2 -> savage 3 -> sailor 4 (3) 5  beats  ace 1 -> forest 5 (2) 2 + 1 = 3
    // Moons: journey 3 -> forest 5 (2) 2; Waves: origin 2 -> journey 3 (2) 2; Wyrms: savage (1)
    suits: { Moons: [2, 2], Suns: [0, -5], Waves: [2, 2], Leaves: [3, 5], Wyrms: [1, -5], Knots: [0, -5] },
    empty: 10, // -50
    total: -56,
  },
  {
    name: "15. a lone Ace is a one-card chain that starts with an Ace: -5 + 1",
    rows: ["ace-knots journey"],
    // Knots: ace (1) -5 + 1 = -4; Moons: journey (1); Waves: journey (1)
    suits: { Moons: [1, -5], Suns: [0, -5], Waves: [1, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [1, -4] },
    empty: 14, // -70
    total: -99,
  },
  {
    name: "16. a lone Crown is a one-card chain that ends with a Crown: -5 + 2",
    rows: ["end journey"],
    // Leaves: end (1) -5 + 2 = -3; Moons: journey (1); Waves: journey (1)
    suits: { Moons: [1, -5], Suns: [0, -5], Waves: [1, -5], Leaves: [1, -3], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 14, // -70
    total: -98,
  },
  {
    name: "17. the empty tableau at the start (chips all unused)",
    rows: [],
    chips: { Moons: 4, Suns: 4, Waves: 4, Leaves: 4, Wyrms: 4, Knots: 4 },
    // every suit: no chain -5 (-30); every suit unused -5 (-30); 16 empty spaces -80
    suits: { Moons: [0, -5], Suns: [0, -5], Waves: [0, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 16,
    total: -140,
  },
  {
    name: "18. extended: a Pawn first but no Ace: no Ace bonus (the bonus is the Ace's)",
    rows: ["harvest mountain diplomat pact"],
    // Moons: harvest 0 -> mountain 4 -> diplomat 8 -> pact 9 (4) 9, no Ace
    // Suns: the same four cards (4) 9; Leaves: harvest (1) -5, a lone Pawn earns nothing
    suits: { Moons: [4, 9], Suns: [4, 9], Waves: [0, -5], Leaves: [1, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 12, // -60
    total: -62,
  },
  {
    name: "19. extended: Court -> numbers -> Crown with no Ace: the Crown's +2 only",
    rows: ["rite savage battle calamity"],
    // Wyrms: rite 0 -> savage 3 -> battle 4 -> calamity 10 (4) 9 + 2 = 11 (as Pawn -> 5 -> Crown: +2 only)
    // Leaves: rite 0 -> savage 3 (2) 2, no Ace; Moons: rite (1); Knots: battle (1)
    suits: { Moons: [1, -5], Suns: [0, -5], Waves: [0, -5], Leaves: [2, 2], Wyrms: [4, 11], Knots: [1, -5] },
    empty: 12, // -60
    total: -67,
  },
  {
    name: "20. extended: Pawn -> Ace -> 2: the Ace keeps its +1 (once)",
    rows: ["watchman ace-moons author"],
    // Moons: watchman 0 -> ace 1 -> author 2 (3) 5 + 1 = 6
    // Knots: watchman and author apart (1); Wyrms: watchman (1)
    suits: { Moons: [3, 6], Suns: [0, -5], Waves: [0, -5], Leaves: [0, -5], Wyrms: [1, -5], Knots: [1, -5] },
    empty: 13, // -65
    total: -84,
  },
  {
    name: "21. extended: a Pawn -> Crown chain earns the Crown's +2 only; the longer chain counts",
    rows: [
      "harvest bard savage .", //
      ".       .    desert painter",
      ".       .    .      mountain",
    ],
    // Suns: desert 2 -> painter 3 -> mountain 4 (3) 5  beats  harvest 0 -> bard 10 (2) 2 + 2 = 4, no Ace
    //   (scored before the change as 2 + 4 = 6, more than 5; the longest counted then too: case 23 for today)
    // Wyrms: desert 2 -> savage 3 (2) 2; Moons: harvest, mountain apart (1); Leaves: harvest, savage apart (1)
    suits: { Moons: [1, -5], Suns: [3, 5], Waves: [0, -5], Leaves: [1, -5], Wyrms: [2, 2], Knots: [1, -5] },
    empty: 10, // -50
    total: -63,
  },
  {
    name: "22. extended full board D: an 11-card chain from a Pawn through an Ace to a Crown; Court-Crown pairs",
    rows: [
      "light-keeper ace-knots author   painter",
      "castle       market    soldier  battle",
      "betrayal     merchant  windfall darkness",
      "rite         calamity  island   sea",
    ],
    // Knots: light-keeper 0 -> ace 1 -> author 2 -> painter 3 -> battle 4 -> soldier 5 -> market 6
    //   -> castle 7 -> betrayal 8 -> merchant 9 -> windfall 10 (11) 30 + 4 = 34
    // Suns: light-keeper 0 -> castle 7 (2) 2, no Ace
    // Waves: darkness 9 -> sea 10 and island 0 -> sea 10 (2) 2 + 2 = 4 each (no Ace): darkness first in reading order
    // Leaves: market 6 -> merchant 9 (2) 2
    // Wyrms: best of five 2-card chains: rite 0 -> calamity 10 or island 0 -> calamity 10 (2) 2 + 2 = 4
    //   (rite 0 -> betrayal 8: 2; battle 4 -> soldier 5: 2; battle 4 -> darkness 9: 2)
    // Moons: author, rite apart (1) -5
    suits: { Moons: [1, -5], Suns: [2, 2], Waves: [2, 4], Leaves: [2, 2], Wyrms: [2, 4], Knots: [11, 34] },
    empty: 0,
    total: 41,
  },
  {
    name: "23. the longest chain counts even when 7+ cards score the same and a shorter one has the Crown",
    rows: [
      "author journey  mountain       forest", //
      "pact   diplomat chance-meeting lunatic",
      ".      .        huntress       .",
    ],
    // Moons: author 2 -> journey 3 -> mountain 4 -> forest 5 -> lunatic 6 -> chance-meeting 7 -> diplomat 8
    //   -> pact 9 (8) 30  counts, not  author ... chance-meeting 7 -> huntress 10 (7) 30 + 2 = 32
    // Suns: diplomat 8 -> pact 9 (2) 2 (mountain is cut off); Knots author (1); Waves journey, lunatic apart (1);
    // Leaves forest, chance-meeting diagonal (1)
    suits: { Moons: [8, 30], Suns: [2, 2], Waves: [1, -5], Leaves: [1, -5], Wyrms: [0, -5], Knots: [1, -5] },
    empty: 7, // -35
    total: -23,
  },
  {
    name: "24. board A with penalties: Moons chips out, Suns chips unused, one market discard",
    rows: BOARD_A,
    chips: { Moons: 0, Suns: 4, Waves: 2, Leaves: 2, Wyrms: 2, Knots: 2 },
    discards: 1,
    // chains as in case 10 (63); chips -5 (Moons out) -5 (Suns unused); discards -3
    suits: { Moons: [10, 34], Suns: [3, 7], Waves: [5, 16], Leaves: [1, -5], Wyrms: [4, 9], Knots: [2, 2] },
    empty: 0,
    total: 50,
  },
  {
    name: "25. two cards, chips out and unused mixed, two market discards",
    rows: ["journey mountain"],
    chips: { Moons: 0, Suns: 4, Waves: 1, Leaves: 4, Wyrms: 0, Knots: 3 },
    discards: 2,
    // chains as in case 2 (-23); chips: Moons out, Suns unused, Leaves unused, Wyrms out: -20;
    // 14 empty spaces -70; two discards -6
    suits: { Moons: [2, 2], Suns: [1, -5], Waves: [1, -5], Leaves: [0, -5], Wyrms: [0, -5], Knots: [0, -5] },
    empty: 14,
    total: -119,
  },
];

describe("scoring hand-built tableaux", () => {
  it("has at least twenty distinct tableaux", () => {
    expect(new Set(CASES.map((c) => c.rows.join("/"))).size).toBeGreaterThanOrEqual(20);
  });

  for (const c of CASES) {
    it(c.name, () => {
      const t = layout(c.rows);
      expect(legalTableau(t), "the picture obeys the placement rules").toBe(true);
      const s = score(t, chipsOf(c.chips ?? TWO), c.discards ?? 0);
      const got = Object.fromEntries(s.chains.map((ch) => [ch.suit, [ch.length, ch.vp]]));
      expect(got).toEqual(c.suits);
      expect(s.emptySpaces).toBe(c.empty);
      expect(s.emptyVp).toBe(c.empty === 0 ? 0 : -5 * c.empty);
      expect(s.total).toBe(c.total);
      // The reported chain really is a chain of its suit: adjacent cells, rising ranks, the right cards.
      for (const ch of s.chains) {
        ch.cells.forEach((cell, i) => {
          const placed = t.find((p) => p.row === cell.row && p.col === cell.col)!;
          expect(placed.card).toBe(ch.cards[i]);
          expect(card(placed.card).suits).toContain(ch.suit);
          if (i > 0) expect(Math.abs(cell.row - ch.cells[i - 1].row) + Math.abs(cell.col - ch.cells[i - 1].col)).toBe(1);
        });
      }
    });
  }
});

describe("which chain is shown", () => {
  it("the Crown chain when two equally long chains differ in bonus (case 7)", () => {
    const t = layout(["forest   huntress", "mountain .", "lunatic  diplomat"]);
    const ch = bestChain(t, "Moons");
    expect(ch.cards).toEqual(["mountain", "forest", "huntress"]);
    expect(ch.cells).toEqual([
      { row: 4, col: 3 },
      { row: 3, col: 3 },
      { row: 3, col: 4 },
    ]);
    expect([ch.ace, ch.crown, ch.bonus]).toEqual([false, true, 2]);
  });

  it("equal length and score: the one whose cells come first in reading order (case 8)", () => {
    const t = layout([".      mountain", "author journey", ".      lunatic"]);
    expect(bestChain(t, "Moons").cards).toEqual(["author", "journey", "mountain"]);
  });

  it("the Court chain over the Court chain further on (case 22, Wyrms)", () => {
    const t = layout([
      "light-keeper ace-knots author   painter",
      "castle       market    soldier  battle",
      "betrayal     merchant  windfall darkness",
      "rite         calamity  island   sea",
    ]);
    const w = bestChain(t, "Wyrms");
    expect(w.cards).toEqual(["rite", "calamity"]);
    expect([w.ace, w.crown, w.bonus, w.vp]).toEqual([false, true, 2, 4]);
    const k = bestChain(t, "Knots");
    expect(k.cards[0]).toBe("light-keeper");
    expect(k.cards.at(-1)).toBe("windfall");
  });

  it("no card of a suit: an empty chain", () => {
    expect(bestChain(layout(["pact"]), "Waves")).toMatchObject({ length: 0, cells: [], cards: [], vp: -5, bonus: 0 });
  });
});

describe("VP tables and verdicts", () => {
  it("length VP: 0-1 -5, 2 2, 3 5, 4 9, 5 14, 6 20, 7+ 30", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11].map(lengthVp)).toEqual([-5, -5, 2, 5, 9, 14, 20, 30, 30, 30, 30]);
  });

  it("bonuses: Ace +1, Crown +2, both +4; the Ace keeps its bonus behind a Pawn or Court, which earns none itself", () => {
    expect(chainVp(["ace-suns", "desert"])).toMatchObject({ base: 2, bonus: 1, vp: 3 });
    expect(chainVp(["pact", "bard"])).toMatchObject({ base: 2, bonus: 2, vp: 4 });
    expect(chainVp(["ace-suns", "desert", "painter", "bard"])).toMatchObject({ base: 9, bonus: 4, vp: 13 });
    // As printed: Pawn -> Ace -> 5: +1; Pawn -> 5 -> Crown: +2 only (Suns: the Harvest Pawn, the Discovery 5, the Bard Crown).
    expect(chainVp(["harvest", "ace-suns", "discovery"])).toMatchObject({ base: 5, ace: true, crown: false, bonus: 1, vp: 6 });
    expect(chainVp(["harvest", "discovery", "bard"])).toMatchObject({ base: 5, ace: false, crown: true, bonus: 2, vp: 7 });
    expect(chainVp(["harvest", "ace-suns", "desert", "bard"])).toMatchObject({ ace: true, crown: true, bonus: 4, vp: 13 });
    expect(chainVp(["island", "bard"])).toMatchObject({ ace: false, crown: true, bonus: 2, vp: 4 });
    expect(chainVp(["harvest", "desert"])).toMatchObject({ ace: false, crown: false, bonus: 0, vp: 2 });
    // One card is a chain length in the table (-5), and a chain of one Ace starts with an Ace.
    expect(chainVp(["ace-suns"])).toMatchObject({ ace: true, bonus: 1, vp: -4 });
    expect(chainVp(["bard"])).toMatchObject({ crown: true, bonus: 2, vp: -3 });
    expect(chainVp(["harvest"])).toMatchObject({ ace: false, bonus: 0, vp: -5 });
    expect(chainVp([])).toMatchObject({ ace: false, crown: false, bonus: 0, vp: -5 });
  });

  it("40 is a win, 50 a commanding win", () => {
    expect([39, 40, 49, 50, 63, -140].map(verdict)).toEqual([null, "win", "win", "commanding win", "commanding win", null]);
  });

  it("verdict boundaries on board A (63 in chains)", () => {
    const t = layout(BOARD_A);
    // one chip penalty (Moons out) and six discards: 63 - 5 - 18 = 40
    expect(score(t, chipsOf({ ...TWO, Moons: 0 }), 6)).toMatchObject({ total: 40, verdict: "win" });
    // three chip penalties (Moons out, Suns and Waves unused), three discards: 63 - 15 - 9 = 39
    expect(score(t, chipsOf({ ...TWO, Moons: 0, Suns: 4, Waves: 4 }), 3)).toMatchObject({ total: 39, verdict: null });
    // one chip penalty, three discards: 63 - 5 - 9 = 49
    expect(score(t, chipsOf({ ...TWO, Knots: 0 }), 3)).toMatchObject({ total: 49, verdict: "win" });
    // no penalty: 63
    expect(score(t, chipsOf(TWO), 0)).toMatchObject({ total: 63, verdict: "commanding win", chipVp: 0, discardVp: 0 });
  });

  it("chip penalties name the suit and why: out (0 left) or unused (4 left), 5 VP each", () => {
    const s = score([], chipsOf({ Moons: 0, Suns: 4, Waves: 1, Leaves: 3, Wyrms: 0, Knots: 2 }), 0);
    expect(s.chipPenalties).toEqual([
      { suit: "Moons", reason: "out", vp: -5 },
      { suit: "Suns", reason: "unused", vp: -5 },
      { suit: "Wyrms", reason: "out", vp: -5 },
    ]);
    expect(s.chipVp).toBe(-15);
  });

  it("every suit is scored", () => {
    expect(score(layout(["pact"]), chipsOf(), 0).chains.map((c) => c.suit)).toEqual([...SUITS]);
  });
});

/**
 * Issue 19, part 3: the examples, each on a tableau (so the chain is found, not handed in).
 * Suns cards: the Harvest (Pawn, 0), the Island (Court, 0), the Ace of Suns, the Desert 2, the
 * Painter 3, the Discovery 5, the Bard (Crown). `was`: the Suns chain's VP under the scoring
 * before the change (rules 1), for the record.
 */
describe("the Ace and Crown bonus as printed (issue 19 examples)", () => {
  const EXAMPLES: Array<{ name: string; rows: string[]; cards: string[]; ace: boolean; crown: boolean; bonus: number; vp: number; was: number }> = [
    // 3 cards: 5, + 1
    { name: "Pawn -> Ace -> 5: +1 (the Ace keeps its bonus behind a Pawn)", rows: ["harvest ace-suns discovery"], cards: ["harvest", "ace-suns", "discovery"], ace: true, crown: false, bonus: 1, vp: 6, was: 6 },
    // 3 cards: 5, + 2 (no Ace)
    { name: "Pawn -> 5 -> Crown: +2 only", rows: ["harvest discovery bard"], cards: ["harvest", "discovery", "bard"], ace: false, crown: true, bonus: 2, vp: 7, was: 9 },
    // 2 cards: 2, + 0
    { name: "Pawn -> 5, no Ace, no Crown: 0", rows: ["harvest discovery"], cards: ["harvest", "discovery"], ace: false, crown: false, bonus: 0, vp: 2, was: 3 },
    { name: "Court -> 5, no Ace, no Crown: 0", rows: ["island discovery"], cards: ["island", "discovery"], ace: false, crown: false, bonus: 0, vp: 2, was: 3 },
    // 1 card: -5, + 1
    { name: "a lone Ace: +1, -4 in all", rows: ["ace-suns"], cards: ["ace-suns"], ace: true, crown: false, bonus: 1, vp: -4, was: -5 },
    // 1 card: -5, + 2
    { name: "a lone Crown: +2, -3 in all", rows: ["bard"], cards: ["bard"], ace: false, crown: true, bonus: 2, vp: -3, was: -5 },
    // 4 cards: 9, + 4
    { name: "Ace -> 2 -> 3 -> Crown: +4", rows: ["ace-suns desert painter bard"], cards: ["ace-suns", "desert", "painter", "bard"], ace: true, crown: true, bonus: 4, vp: 13, was: 13 },
    // 4 cards: 9, + 4
    { name: "Pawn -> Ace -> 2 -> Crown: +4", rows: ["harvest ace-suns desert bard"], cards: ["harvest", "ace-suns", "desert", "bard"], ace: true, crown: true, bonus: 4, vp: 13, was: 13 },
    // a lone Ace (-4) and a lone Crown (-3) apart: both one card long, the higher-scoring counts (ruling 10)
    { name: "one-card chains only: the lone Crown counts over the lone Ace", rows: ["ace-suns author bard"], cards: ["bard"], ace: false, crown: true, bonus: 2, vp: -3, was: -5 },
    // no Suns card at all: -5, no bonus
    { name: "no card of the suit: -5, nothing more", rows: ["author"], cards: [], ace: false, crown: false, bonus: 0, vp: -5, was: -5 },
  ];

  for (const e of EXAMPLES) {
    it(e.name, () => {
      const t = layout(e.rows);
      expect(legalTableau(t), "the picture obeys the placement rules").toBe(true);
      const ch = bestChain(t, "Suns");
      expect(ch.cards).toEqual(e.cards);
      expect({ ace: ch.ace, crown: ch.crown, bonus: ch.bonus, vp: ch.vp }).toEqual({ ace: e.ace, crown: e.crown, bonus: e.bonus, vp: e.vp });
      expect(ch.vp).toBe(lengthVp(e.cards.length) + e.bonus);
      expect(score(t, chipsOf(TWO), 0).chains.find((c) => c.suit === "Suns")!.vp).toBe(e.vp);
      // Games that ended before the change are still shown (and replayed) by the rules that scored them.
      expect(bestChain(t, "Suns", 1).vp).toBe(e.was);
    });
  }

  it("a Pawn or Court earns no bonus of its own, alone or before a number", () => {
    expect(chainVp(["harvest"])).toMatchObject({ ace: false, crown: false, bonus: 0, vp: -5 });
    expect(chainVp(["island", "discovery"])).toMatchObject({ ace: false, bonus: 0, vp: 2 });
  });
});

describe("which scoring rules score a game", () => {
  // Knots: the Ace of Knots alone; Moons, Waves: the Journey alone. -99 today (rules 2), -100 by rules 1.
  const t = layout(["ace-knots journey"]);

  it("today's rules score every game in play and every game that ends from now on, and the breakdown says so", () => {
    expect(SCORING_RULES).toBe(2);
    const s = position({ market: ["author", "pact", "sea"], tableau: t, chips: TWO });
    expect(view(s, { kind: "spectator" }).score).toMatchObject({ total: -99, scoring: 2 });
    // The last market card bought with an empty deck ends the game (market empty): "ace-knots journey author".
    const over = play(position({ market: ["author"], tableau: t, chips: TWO, deck: [] }), [{ type: "buy", card: "author", row: 3, col: 5, pay: "none" }]);
    expect(over).toMatchObject({ phase: "over", ended: "market-empty", scoring: 2 });
    // Moons: author 2 -> journey 3 (2) 2; Knots: ace-knots, author apart (1) -5 + 1 = -4; Waves: journey (1) -5;
    // Suns, Leaves, Wyrms: none -15; 13 empty spaces -65: -87 (rules 1: -88)
    expect(outcome(over)).toMatchObject({ scores: [-87], details: { total: -87, scoring: 2 } });
    expect(view(over, { kind: "spectator" }).score.total).toBe(-87);
  });

  it("a game that ended before the change (its state names no rules) is still scored, shown and recorded by rules 1", () => {
    const old = position({ market: [], tableau: t, chips: TWO, phase: "over" });
    expect(old.scoring).toBeUndefined();
    const o = outcome(old)!;
    expect(o.scores).toEqual([-100]);
    expect(o.details).not.toHaveProperty("scoring");
    expect(o.details).toEqual(score(t, chipsOf(TWO), 0, 1));
    expect(view(old, { kind: "spectator" }).score.total).toBe(-100);
    // The same state scored by today's rules: the lone Ace earns +1.
    expect(outcome({ ...old, scoring: 2 })!.scores).toEqual([-99]);
  });
});
