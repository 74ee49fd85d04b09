/** A turn: buy (pay, place), or discard the market; refill; the end of the game; the outcome. */
import { describe, expect, it } from "vitest";
import { matchesLegal } from "../legal.js";
import { chipsOf, layout, play, played, position } from "./fixtures.js";
import { aucteraden as game } from "./index.js";
import { mustDiscard } from "./legal.js";
import { view } from "./view.js";

const BOARD_A = [
  "ace-moons author         journey  mountain",
  "diplomat  chance-meeting lunatic  forest",
  "pact      huntress       cave     darkness",
  "bard      battle         soldier  sea",
];

describe("buying", () => {
  it("pays the price in chips of the chosen suit and places the card", () => {
    const s = position({ market: ["pact", "cave", "castle"], tableau: layout(["journey"]) });
    const { state: left, log } = played(s, [{ type: "buy", card: "pact", row: 2, col: 3, pay: "Suns" }]);
    expect(left.chips).toEqual(chipsOf({ Suns: 2 }));
    expect(left.tableau).toEqual([{ row: 3, col: 3, card: "journey" }, { row: 2, col: 3, card: "pact" }]);
    expect(log.find((e) => e.type === "buy")).toMatchObject({ card: "pact", slot: 0, cost: 2, pay: "Suns", row: 2, col: 3 });
    const middle = play(s, [{ type: "buy", card: "cave", row: 3, col: 4, pay: "Wyrms" }]);
    expect(middle.chips).toEqual(chipsOf({ Wyrms: 3 }));
    const right = play(s, [{ type: "buy", card: "castle", row: 4, col: 3, pay: "none" }]);
    expect(right.chips).toEqual(chipsOf());
  });

  it("extended: a Pawn or Court costs one chip more, even in the free slot", () => {
    const s = position({ extended: true, market: ["harvest", "island", "rite"], tableau: layout(["journey"]) });
    expect(play(s, [{ type: "buy", card: "harvest", row: 2, col: 3, pay: "Leaves" }]).chips).toEqual(chipsOf({ Leaves: 1 }));
    expect(play(s, [{ type: "buy", card: "island", row: 2, col: 3, pay: "Waves" }]).chips).toEqual(chipsOf({ Waves: 2 }));
    expect(play(s, [{ type: "buy", card: "rite", row: 2, col: 3, pay: "Wyrms" }]).chips).toEqual(chipsOf({ Wyrms: 3 }));
    expect(game.apply(s, 0, { type: "buy", card: "rite", row: 2, col: 3, pay: "none" })).toMatchObject({ ok: false, error: { code: "BAD_PAYMENT" } });
  });

  it("legal actions list every card x cell x payment, plus discard-market; each is accepted", () => {
    const s = position({ market: ["pact", "cave", "castle"], tableau: layout(["journey"]) });
    const legal = game.legalActions(s, 0);
    // pact: 4 cells x (Moons, Suns); cave: 4 cells x (Waves, Wyrms); castle: 4 cells, free; discard
    expect(legal).toHaveLength(8 + 8 + 4 + 1);
    expect(legal.filter((l) => l.type === "buy" && l.params!.card.kind === "choice" && l.params!.card.options[0] === "castle")).toHaveLength(4);
    for (const l of legal) {
      const action: Record<string, unknown> = { type: l.type };
      for (const [k, spec] of Object.entries(l.params ?? {})) action[k] = spec.kind === "choice" ? spec.options[0] : spec.min;
      expect(game.apply(s, 0, action as { type: string }).ok).toBe(true);
    }
    expect(matchesLegal(legal, { type: "buy", card: "pact", row: 2, col: 3, pay: "Moons" })).toBe(true);
    expect(matchesLegal(legal, { type: "buy", card: "pact", row: 2, col: 3, pay: "Waves" })).toBe(false);
    expect(matchesLegal(legal, { type: "buy", card: "pact", row: 2, col: 2, pay: "Moons" })).toBe(false);
    expect(game.legalActions(s, 1)).toEqual([]);
  });

  it("a card you cannot pay for is not offered", () => {
    const s = position({ market: ["pact", "cave", "castle"], tableau: layout(["journey"]), chips: { Moons: 1, Suns: 0, Waves: 0, Wyrms: 1 } });
    const cards = new Set(game.legalActions(s, 0).flatMap((l) => (l.type === "buy" && l.params!.card.kind === "choice" ? l.params!.card.options : [])));
    expect([...cards].sort()).toEqual(["castle", "cave"]);
  });
});

describe("discarding the market", () => {
  it("is allowed by choice: -3 VP, the market is refilled", () => {
    const s = position({ market: ["pact", "cave", "castle"], tableau: layout(["journey"]), deck: ["sea", "end", "bard", "forest"] });
    expect(mustDiscard(s)).toBe(false);
    const { state: d, log } = played(s, [{ type: "discard-market" }]);
    expect(d.marketDiscards).toBe(1);
    expect(d.discard).toEqual(["pact", "cave", "castle"]);
    expect(d.market).toEqual(["bard", "end", "sea"]);
    expect(log.find((e) => e.type === "market-discard")).toMatchObject({ cards: ["pact", "cave", "castle"], forced: false });
    expect(view(d, { kind: "spectator" }).score.discardVp).toBe(-3);
  });

  it("is forced when no card can be placed (an Ace or Crown next to the Crown in the only empty cell)", () => {
    const t = layout(BOARD_A).filter((p) => p.card !== "cave"); // (5,5) empty, next to the Huntress
    const s = position({ market: ["ace-suns", "end", "calamity"], tableau: t, chips: { Moons: 1 } });
    expect(mustDiscard(s)).toBe(true);
    expect(game.legalActions(s, 0)).toEqual([{ type: "discard-market", label: expect.stringContaining("no card") }]);
    expect(game.apply(s, 0, { type: "buy", card: "calamity", row: 5, col: 5, pay: "none" })).toMatchObject({
      ok: false,
      error: { code: "ACE_CROWN_ADJACENT" },
    });
    expect(view(s, { kind: "spectator" }).pending).toBe("discard");
    const { log } = played(s, [{ type: "discard-market" }]);
    expect(log.find((e) => e.type === "market-discard")).toMatchObject({ forced: true });
  });

  it("is forced when the cards that could be placed cannot be paid for", () => {
    // Only the Huntress is free, and it cannot go next to the Ace.
    const s = position({ market: ["pact", "cave", "huntress"], tableau: layout(["ace-moons"]), chips: { Moons: 0, Suns: 1, Waves: 0, Wyrms: 0 } });
    expect(mustDiscard(s)).toBe(true);
    expect(game.legalActions(s, 0).map((l) => l.type)).toEqual(["discard-market"]);
  });
});

describe("the end", () => {
  it("when the tableau holds 16 cards (after the refill, in the printed order)", () => {
    const t = layout(BOARD_A).filter((p) => p.card !== "sea"); // (6,6) empty
    const s = position({ market: ["merchant", "market", "sea"], tableau: t, chips: { Moons: 1, Suns: 2, Waves: 3, Leaves: 1, Wyrms: 2, Knots: 1 }, deck: ["ace-suns", "ace-waves"] });
    const { state: over, log } = played(s, [{ type: "buy", card: "sea", row: 6, col: 6, pay: "none" }]);
    expect(game.isOver(over)).toBe(true);
    expect(over.ended).toBe("tableau-full");
    expect(over.market).toEqual(["ace-suns", "merchant", "market"]);
    expect(over.deck).toEqual(["ace-waves"]);
    expect(game.activeSeats(over)).toEqual([]);
    expect(game.legalActions(over, 0)).toEqual([]);
    const o = game.outcome(over)!;
    expect(o.scores).toEqual([63]);
    expect(o.places).toEqual([1]);
    expect(o.details).toMatchObject({ total: 63, verdict: "commanding win", emptySpaces: 0 });
    expect(log.at(-1)).toMatchObject({ type: "game-over", reason: "tableau-full", score: 63, verdict: "commanding win" });
    expect(game.apply(over, 0, { type: "discard-market" })).toMatchObject({ ok: false, error: { code: "GAME_OVER" } });
  });

  it("when the market is empty after a refill", () => {
    const s = position({ market: ["pact"], tableau: layout(["journey"]), deck: [] });
    const over = play(s, [{ type: "buy", card: "pact", row: 3, col: 4, pay: "none" }]);
    expect(over.ended).toBe("market-empty");
    expect(over.market).toEqual([null, null, null]);
    // Moons journey 3 -> pact 9 (2) 2; Waves journey (1) -5; Suns pact (1) -5; Leaves, Wyrms, Knots -15;
    // chips all unused -30; 14 empty spaces -70
    expect(game.outcome(over)).toMatchObject({ scores: [-123], places: [1], details: { verdict: null } });
  });

  it("when a market discard finds the deck empty", () => {
    const s = position({ market: ["pact", "cave"], tableau: layout(["journey"]), deck: [] });
    const over = play(s, [{ type: "discard-market" }]);
    expect(over.ended).toBe("market-empty");
    expect(over.marketDiscards).toBe(1);
  });

  it("extended: when the Excuse, the deck's last card, empties the market", () => {
    const s = position({ extended: true, market: ["pact", "cave", "castle"], tableau: layout(["journey"]), deck: ["excuse"] });
    const over = play(s, [{ type: "buy", card: "castle", row: 2, col: 3, pay: "none" }]);
    expect(over.ended).toBe("market-empty");
    expect(over.discard).toEqual(["pact", "cave", "excuse"]);
  });

  it("not while cards are left in a short market", () => {
    const s = position({ market: ["pact", "cave"], tableau: layout(["journey"]), deck: [] });
    const next = play(s, [{ type: "buy", card: "cave", row: 3, col: 4, pay: "none" }]);
    expect(next.phase).toBe("play");
    expect(next.market).toEqual([null, null, "pact"]);
  });
});
