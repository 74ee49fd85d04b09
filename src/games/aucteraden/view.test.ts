/** Views: the player and spectators see the same public facts; never the deck or the RNG. */
import { describe, expect, it } from "vitest";
import { visibleLog } from "../log.js";
import { started } from "../testing.js";
import type { LegalAction, LogEntry } from "../types.js";
import { layout, position, randomGame } from "./fixtures.js";
import { aucteraden as game } from "./index.js";
import type { AucteradenState } from "./state.js";
import { view, type AucteradenView } from "./view.js";

/** True when `text` (JSON) has card id `id` as a string value (not as an object key, e.g. "market":). */
function names(text: string, id: string): boolean {
  const q = `"${id}"`;
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) if (text[i + q.length] !== ":") return true;
  return false;
}

function hasKey(value: unknown, key: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return true;
  return Object.values(value).some((v) => hasKey(v, key));
}

/** The buys a view's market offers, as "card row col pay" strings. */
const offered = (v: AucteradenView) =>
  v.market.flatMap((o) => (o.buyable ? o.cells.flatMap((c) => o.pay.map((p) => `${o.card} ${c.row} ${c.col} ${p}`)) : [])).sort();
const listed = (legal: LegalAction[]) =>
  legal
    .filter((l) => l.type === "buy")
    .map((l) => ["card", "row", "col", "pay"].map((k) => (l.params![k] as { options: unknown[] }).options[0]).join(" "))
    .sort();

/** `log`: the game's event log (as the room keeps it); its entries from `fromLog` on are checked. */
function viewProblems(s: AucteradenState, log: readonly LogEntry[], fromLog: number): string[] {
  const problems: string[] = [];
  const bad = (cond: boolean, what: string) => {
    if (cond) problems.push(what);
  };
  const spec = view(s, { kind: "spectator" });
  const seat = view(s, { kind: "seat", seat: 0 });
  bad(JSON.stringify(seat) !== JSON.stringify(spec), "seat view differs from the spectator view");
  const json = JSON.stringify(spec);
  for (const key of ["rng", "deck"]) bad(hasKey(spec, key), `has key ${key}`);
  bad(Object.hasOwn(spec, "log"), "has the log (the platform adds each viewer's events)");
  for (const word of s.rng) bad(json.includes(String(word)), "contains an RNG word");
  for (const id of s.deck) bad(names(json, id), `names undrawn ${id}`);
  bad(spec.deckCount !== s.deck.length, "deck count");
  for (const e of visibleLog(log, { kind: "spectator" }).slice(fromLog)) {
    const text = JSON.stringify(e);
    bad(e.to !== undefined, `log ${e.n}: not public`);
    for (const id of s.deck) bad(names(text, id), `log ${e.n} names undrawn ${id}`);
  }
  // The offers in the view are exactly the legal buys.
  bad(JSON.stringify(offered(spec)) !== JSON.stringify(listed(game.legalActions(s, 0))), "offers differ from the legal actions");
  bad(spec.pending !== (s.phase === "over" ? null : offered(spec).length === 0 ? "discard" : "buy"), "pending");
  // The board holds every placed card and every legal cell.
  const b = spec.board;
  for (const p of s.tableau) bad(b.cards[p.row - b.top]?.[p.col - b.left] !== p.card, `board lacks ${p.card}`);
  for (const o of spec.market) {
    for (const c of o.cells) bad(c.row < b.top || c.row >= b.top + b.rows || c.col < b.left || c.col >= b.left + b.cols, "cell off the board");
  }
  return problems;
}

describe("views", () => {
  it("at the start: the market with its legal cells and payments, chips, live score; no deck", () => {
    const { state: s, log } = started(game.setup({ players: 1, options: { extended: false }, seed: "view" }));
    const v = view(s, { kind: "spectator" });
    expect(v).toMatchObject({ game: "aucteraden", players: 1, extended: false, phase: "play", turn: 0, pending: "buy", deckCount: 33 });
    expect(v.market.map((o) => [o.slot, o.position, o.card, o.cost])).toEqual([
      [0, "left", s.market[0], 2],
      [1, "middle", s.market[1], 1],
      [2, "right", s.market[2], 0],
    ]);
    for (const o of v.market) expect(o.cells).toEqual([{ row: 3, col: 3 }]);
    expect(v.market[2].pay).toEqual(["none"]);
    expect(v.score.total).toBe(-140);
    expect(v.outcome).toBeNull();
    expect(viewProblems(s, log, 0)).toEqual([]);
  });

  it("mid-game: tableau, bounds, board, chips used, discards, and each suit's chain cells", () => {
    const s = position({
      market: ["pact", "cave", "castle"],
      tableau: layout(["ace-moons author journey"]),
      chips: { Moons: 2, Knots: 3 },
      discard: ["sea"],
      marketDiscards: 1,
    });
    const v = view(s, { kind: "spectator" });
    expect(v.tableau).toEqual(s.tableau);
    expect(v.bounds).toEqual({ top: 3, left: 3, bottom: 3, right: 5 });
    expect(v.board).toMatchObject({ top: 2, left: 2, rows: 3, cols: 5 });
    expect(v.chipsUsed).toMatchObject({ Moons: 2, Knots: 1, Suns: 0 });
    expect(v.discard).toEqual(["sea"]);
    expect(v.marketDiscards).toBe(1);
    const moons = v.score.chains.find((c) => c.suit === "Moons")!;
    expect(moons).toMatchObject({ length: 3, ace: true, vp: 6, cards: ["ace-moons", "author", "journey"] });
    expect(moons.cells).toEqual([
      { row: 3, col: 3 },
      { row: 3, col: 4 },
      { row: 3, col: 5 },
    ]);
    expect(v.score.discardVp).toBe(-3);
    // Moons 6, Knots -5, Waves -5, three empty suits -15; chips: four suits unused -20; 13 empty -65; -3
    expect(v.score.total).toBe(-107);
    expect(viewProblems(s, [], 0)).toEqual([]);
  });

  it("at the end: the outcome with the full breakdown; the undrawn cards are still not named", () => {
    const g = randomGame("view-end");
    const v = view(g.final, { kind: "seat", seat: 0 });
    expect(v.phase).toBe("over");
    expect(v.pending).toBeNull();
    expect(v.turn).toBeNull();
    expect(v.outcome).toEqual({ scores: [v.score.total], places: [1], details: v.score });
    expect(v.market.every((o) => o.cells.length === 0 && !o.buyable)).toBe(true);
    expect(viewProblems(g.final, g.log, 0)).toEqual([]);
  });

  it("through whole random games, standard and extended: nothing hidden leaks, offers match the legal actions", () => {
    let checked = 0;
    for (let i = 0; i < 30; i++) {
      let logSeen = 0;
      randomGame(`views-${i}`, i % 2 === 1, (s, log) => {
        expect(viewProblems(s, log, logSeen)).toEqual([]);
        logSeen = log.length;
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(300);
  });
});
