/** Many complete random games: every legal action accepted, the game ends, invariants hold, replays match. */
import { describe, expect, it } from "vitest";
import { SUITS } from "../decktet/cards.js";
import { replayed, started, stepped } from "../testing.js";
import type { LogEntry } from "../types.js";
import { randomGame } from "./fixtures.js";
import { aucteraden as game } from "./index.js";
import { marketCards } from "./market.js";
import { gameDeck, isAceOrCrown, isPawnOrCourt } from "./ranks.js";
import { STARTING_CHIPS, type AucteradenState } from "./state.js";

/** `log`: the game's event log so far, as a room keeps it beside the state. */
function checkInvariants(s: AucteradenState, log: readonly LogEntry[]) {
  // Card conservation: every card of the game in exactly one place.
  const places = [...s.deck, ...marketCards(s.market), ...s.tableau.map((p) => p.card), ...s.discard];
  expect(places.sort()).toEqual([...gameDeck(s.extended)].sort());
  // Chips: whole numbers 0-4, and what was paid is what the buys cost.
  let paid = 0;
  for (const suit of SUITS) {
    expect(Number.isInteger(s.chips[suit])).toBe(true);
    expect(s.chips[suit]).toBeGreaterThanOrEqual(0);
    expect(s.chips[suit]).toBeLessThanOrEqual(STARTING_CHIPS);
    paid += STARTING_CHIPS - s.chips[suit];
  }
  expect(paid).toBe(log.filter((e) => e.type === "buy").reduce((t, e) => t + (e.cost as number), 0));
  // The market is packed right and never holds the Excuse.
  const n = marketCards(s.market).length;
  expect(s.market.slice(0, 3 - n).every((c) => c === null)).toBe(true);
  expect(s.market).not.toContain("excuse");
  // The tableau: at most 4 x 4, inside the window, first card in the centre, no cell twice, rules kept.
  expect(s.tableau.length).toBeLessThanOrEqual(16);
  if (s.tableau.length > 0) expect(s.tableau[0]).toMatchObject({ row: 3, col: 3 });
  const rows = s.tableau.map((p) => p.row);
  const cols = s.tableau.map((p) => p.col);
  if (s.tableau.length > 0) {
    expect(Math.max(...rows) - Math.min(...rows)).toBeLessThanOrEqual(3);
    expect(Math.max(...cols) - Math.min(...cols)).toBeLessThanOrEqual(3);
    expect(Math.min(...rows, ...cols)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...rows, ...cols)).toBeLessThanOrEqual(6);
  }
  const at = new Map(s.tableau.map((p) => [`${p.row},${p.col}`, p.card]));
  expect(at.size).toBe(s.tableau.length);
  s.tableau.forEach((p, i) => {
    const next = [[1, 0], [-1, 0], [0, 1], [0, -1]].map(([dr, dc]) => at.get(`${p.row + dr},${p.col + dc}`)).filter((c) => c !== undefined);
    if (isAceOrCrown(p.card)) expect(next.some(isAceOrCrown)).toBe(false);
    if (isPawnOrCourt(p.card)) expect(next.some(isPawnOrCourt)).toBe(false);
    // Each card was placed next to an earlier one.
    if (i > 0) expect(s.tableau.slice(0, i).some((q) => Math.abs(q.row - p.row) + Math.abs(q.col - p.col) === 1)).toBe(true);
  });
  expect(s.marketDiscards).toBe(log.filter((e) => e.type === "market-discard").length);
  expect(game.activeSeats(s)).toEqual(s.phase === "over" ? [] : [0]);
  if (s.phase === "play") expect(game.legalActions(s, 0).length).toBeGreaterThan(0);
}

describe("random games", () => {
  it("300 seeds, standard and extended: legal actions accepted, games end, invariants hold, replays are identical", () => {
    const ends = { "tableau-full": 0, "market-empty": 0 };
    let excuses = 0;
    for (let i = 0; i < 300; i++) {
      const extended = i % 2 === 1;
      const seed = `rg-${i}`;
      const g = randomGame(seed, extended, i % 10 === 0 ? checkInvariants : undefined);
      checkInvariants(g.final, g.log);
      expect(game.isOver(g.final)).toBe(true);
      ends[g.final.ended!]++;
      if (g.final.discard.includes("excuse")) excuses++;
      const o = game.outcome(g.final)!;
      expect(o.places).toEqual([1]);
      expect(o.scores).toEqual([(o.details as { total: number }).total]);
      expect(game.legalActions(g.final, 0)).toEqual([]);

      // Replay: same seed + same actions = byte-identical JSON (state and log).
      const s = replayed(game, { players: 1, options: { extended }, seed }, g.moves.map((a) => [0, a] as const));
      expect(JSON.stringify(s.state)).toBe(JSON.stringify(g.final));
      expect(JSON.stringify(s.log)).toBe(JSON.stringify(g.log));
      expect(JSON.parse(JSON.stringify(g.final))).toEqual(g.final);
      expect(JSON.parse(JSON.stringify(g.log))).toEqual(g.log);
    }
    expect(ends["tableau-full"]).toBeGreaterThan(100);
    expect(excuses).toBeGreaterThan(50);
  });

  it("games that discard often end when the market is empty", () => {
    // Always discard: the deck runs out, then the market is empty.
    let g = started(game.setup({ players: 1, options: { extended: false }, seed: "discarder" }));
    let n = 0;
    while (!game.isOver(g.state)) {
      const r = stepped(g, game.apply(g.state, 0, { type: "discard-market" }));
      expect(r.ok).toBe(true);
      if (r.ok) g = r.value;
      n++;
      checkInvariants(g.state, g.log);
    }
    const s = g.state;
    expect(s.ended).toBe("market-empty");
    expect(s.deck).toEqual([]);
    expect(s.marketDiscards).toBe(n);
    expect(s.tableau).toEqual([]);
  });

  it("different seeds give different games", () => {
    expect(JSON.stringify(randomGame("one").final)).not.toBe(JSON.stringify(randomGame("two").final));
  });

  it("the state stays compact", () => {
    const g = randomGame("compact", true);
    expect(g.final).not.toHaveProperty("log");
    expect(JSON.stringify(g.final).length).toBeLessThan(2500);
    expect(g.log.length).toBeGreaterThan(0);
  });
});
