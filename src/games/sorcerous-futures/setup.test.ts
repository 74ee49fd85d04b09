/** The simultaneous, private setup: deal, exchanges, Pawn/Court reveals, confirmations. */
import { describe, expect, it } from "vitest";
import { BASIC_DECK, COURTS, PAWNS } from "../decktet/cards.js";
import type { Action } from "../types.js";
import { gameDeck } from "./deal.js";
import { play, playLogged, setupPosition, started } from "./fixtures.js";
import { sorcerousFutures as game } from "./index.js";
import type { SorcerousFuturesState } from "./state.js";

const code = (s: SorcerousFuturesState, seat: number, action: unknown) => {
  const r = game.apply(s, seat, action as Action);
  return r.ok ? "ok" : r.error.code;
};
const confirmMoves = (players: number) => Array.from({ length: players }, (_, i) => [i, { type: "confirm" }] as const);
const confirmAll = (s: SorcerousFuturesState) => play(s, confirmMoves(s.players));

describe("the deal", () => {
  it("four cards each: two in hand (seen by the owner), two face down (unseen); $100 each", () => {
    const { state: s, log } = started(game.setup({ players: 4, options: {}, seed: "deal" }));
    expect(s.phase).toBe("setup");
    expect(s.turn).toBeNull();
    expect(s.money).toEqual([100, 100, 100, 100]);
    expect(s.deck).toHaveLength(36 - 16);
    for (let seat = 0; seat < 4; seat++) {
      expect(s.valuations[seat]).toHaveLength(2);
      expect(s.faceDown[seat]).toHaveLength(2);
      for (const id of s.valuations[seat]) expect(s.knowledge[id]).toEqual([seat]);
      for (const id of s.faceDown[seat]) expect(s.knowledge[id]).toBeUndefined();
    }
    const dealt = log.filter((e) => e.type === "dealt");
    expect(dealt.map((e) => e.to)).toEqual([[0], [1], [2], [3]]);
    expect(dealt[2].hand).toEqual(s.valuations[2]);
  });

  it("setup is simultaneous: every unconfirmed seat is active and may act in any order", () => {
    let s = game.setup({ players: 4, options: {}, seed: "simul" }).state;
    expect(game.activeSeats(s)).toEqual([0, 1, 2, 3]);
    s = play(s, [[2, { type: "confirm" }]]);
    expect(game.activeSeats(s)).toEqual([0, 1, 3]);
    expect(game.legalActions(s, 2)).toEqual([]);
    expect(code(s, 2, { type: "confirm" })).toBe("ALREADY_CONFIRMED");
    expect(code(s, 2, { type: "exchange", hand: s.valuations[2][0], slot: 0 })).toBe("ALREADY_CONFIRMED");
    s = play(s, [[0, { type: "exchange", hand: s.valuations[0][1], slot: 1 }], [3, { type: "confirm" }], [0, { type: "confirm" }]]);
    expect(s.phase).toBe("setup");
    expect(code(s, 1, { type: "pass" })).toBe("WRONG_STEP");
    expect(code(s, 1, { type: "bid", amount: 3 })).toBe("WRONG_STEP");
    s = play(s, [[1, { type: "confirm" }]]);
    expect(s.phase).toBe("pick");
    expect(game.activeSeats(s)).toEqual([s.excuse]);
  });
});

describe("exchanges", () => {
  const start = setupPosition({ players: 4, hands: [["pact", "sea"], ["mill", "forest"], ["author", "end"], ["bard", "cave"]], faceDown: [["ace-moons", "huntress"]] });

  it("cost $3 each, swap a hand card with a face-down slot; the owner sees and keeps knowing", () => {
    const s = play(start, [[0, { type: "exchange", hand: "sea", slot: 1 }]]);
    expect(s.money[0]).toBe(97);
    expect(s.paid).toEqual([3, 0, 0, 0]);
    expect(s.valuations[0]).toEqual(["pact", "huntress"]);
    expect(s.faceDown[0]).toEqual(["ace-moons", "sea"]);
    expect(s.knowledge["huntress"]).toEqual([0]);
    expect(s.knowledge["sea"]).toEqual([0]);
    expect(s.knowledge["ace-moons"]).toBeUndefined();
    // Swap back: still known; again $3.
    const t = play(s, [[0, { type: "exchange", hand: "huntress", slot: 1 }], [0, { type: "exchange", hand: "pact", slot: 0 }]]);
    expect(t.money[0]).toBe(91);
    expect(t.paid[0]).toBe(9);
    expect(t.valuations[0]).toEqual(["ace-moons", "sea"]);
    expect(t.faceDown[0]).toEqual(["pact", "huntress"]);
    expect(t.knowledge["huntress"]).toEqual([0]);
    expect(t.knowledge["pact"]).toEqual([0]);
  });

  it("log: a public entry names who paid how much, a private one what they saw", () => {
    const { log } = playLogged(start, [[0, { type: "exchange", hand: "sea", slot: 1 }]]);
    const pub = log.filter((e) => e.to === undefined).at(-1)!;
    expect(pub).toMatchObject({ type: "exchange", seat: 0, cost: 3, paid: 3 });
    expect(JSON.stringify(pub)).not.toMatch(/"sea"|"huntress"|"slot"/);
    const priv = log.at(-1)!;
    expect(priv).toMatchObject({ type: "exchange-seen", to: [0], slot: 1, gave: "sea", got: "huntress" });
  });

  it("errors: not in hand, bad slot, not enough money", () => {
    expect(code(start, 0, { type: "exchange", hand: "mill", slot: 0 })).toBe("NOT_IN_HAND");
    expect(code(start, 0, { type: "exchange", hand: "ace-moons", slot: 0 })).toBe("NOT_IN_HAND");
    expect(code(start, 0, { type: "exchange", hand: "pact", slot: 2 })).toBe("BAD_SLOT");
    expect(code(start, 0, { type: "exchange", hand: "pact", slot: "0" })).toBe("BAD_SLOT");
    const poor = { ...start, money: [2, 3, 100, 100] };
    expect(code(poor, 0, { type: "exchange", hand: "pact", slot: 0 })).toBe("NOT_ENOUGH_MONEY");
    expect(game.legalActions(poor, 0).map((l) => l.type)).toEqual(["confirm"]);
    const s = play(poor, [[1, { type: "exchange", hand: "mill", slot: 0 }]]);
    expect(s.money[1]).toBe(0);
  });

  it("legal actions list the hand and both slots", () => {
    expect(game.legalActions(start, 1)).toEqual([
      expect.objectContaining({
        type: "exchange",
        params: { hand: { kind: "choice", options: ["mill", "forest"] }, slot: { kind: "choice", options: [0, 1] } },
      }),
      expect.objectContaining({ type: "confirm" }),
    ]);
  });
});

describe("the end of setup", () => {
  it("hands become valuations, face-down cards are set aside; the Excuse goes to a random seat; a market of 5", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const { state: s, log } = playLogged(started(game.setup({ players: 4, options: {}, seed: `excuse-${i}` })), confirmMoves(4));
      expect(s.phase).toBe("pick");
      expect(s.turn).toBe(s.excuse);
      expect(s.firstExcuse).toBe(s.excuse);
      expect(s.market).toHaveLength(5);
      expect(s.marketNumber).toBe(1);
      expect(s.deck).toHaveLength(15);
      expect(s.valuations.flat()).toHaveLength(8);
      expect(s.faceDown.flat()).toHaveLength(8);
      seen.add(s.excuse!);
      const done = log.find((e) => e.type === "setup-done")!;
      expect(done.paid).toEqual([0, 0, 0, 0]);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
  });

  it("3 players: two unseen cards join the valuations, two are set aside; markets of 4", () => {
    const g0 = started(game.setup({ players: 3, options: {}, seed: "three" }));
    const s0 = g0.state;
    const top = s0.deck.slice(0, 4);
    const { state: s, log } = playLogged(g0, confirmMoves(3));
    expect(s.extraValuations).toEqual(top.slice(0, 2));
    expect(s.extraSetAside).toEqual(top.slice(2, 4));
    for (const id of top) expect(s.knowledge[id]).toBeUndefined();
    expect(s.market).toHaveLength(4);
    expect(s.deck).toHaveLength(36 - 12 - 4 - 4);
    expect(log.find((e) => e.type === "extras")).toMatchObject({ valuations: 2, setAside: 2 });
  });
});

describe("5 players: Pawns or Courts", () => {
  it("the deck has the 4 Pawns (default) or the 4 Courts; markets of 4", () => {
    const p = game.setup({ players: 5, options: {}, seed: "five" }).state;
    expect(p.extended).toBe("pawns");
    const all = [...p.deck, ...p.valuations.flat(), ...p.faceDown.flat()].sort();
    expect(all).toEqual([...BASIC_DECK, ...PAWNS].sort());
    const c = game.setup({ players: 5, options: { extended: "courts" }, seed: "five" }).state;
    expect([...c.deck, ...c.valuations.flat(), ...c.faceDown.flat()].sort()).toEqual([...BASIC_DECK, ...COURTS].sort());
    expect(c.marketSize).toBe(4);
    // 3-4 players ignore the option.
    expect(game.setup({ players: 4, options: { extended: "courts" }, seed: "x" }).state.extended).toBeNull();
    expect(game.setup({ players: 3, options: { extended: "pawns" }, seed: "x" }).state.extended).toBeNull();
  });

  const hands = [["harvest", "pact"], ["mill", "forest"], ["author", "end"], ["bard", "cave"], ["sea", "market"]];
  const faceDown = [["ace-moons", "ace-suns"], ["ace-waves", "ace-leaves"], ["ace-wyrms", "ace-knots"], ["journey", "painter"], ["savage", "mountain"]];
  const used = new Set([...hands.flat(), ...faceDown.flat(), "huntress"]);
  // The Crown of Moons on top, then the rest (Pawns included) in data order.
  const start = setupPosition({ players: 5, hands, faceDown, deck: ["huntress", ...gameDeck("pawns").filter((c) => !used.has(c))] });

  it("confirm is refused while a Pawn or Court is in hand", () => {
    expect(code(start, 0, { type: "confirm" })).toBe("PAWN_OR_COURT_IN_HAND");
    expect(game.legalActions(start, 0).map((l) => l.type)).toEqual(["exchange", "reveal"]);
    expect(game.legalActions(start, 0)[1].params).toEqual({ card: { kind: "choice", options: ["harvest"] } });
    expect(code(start, 1, { type: "reveal", card: "mill" })).toBe("NOT_PAWN_OR_COURT");
    expect(code(start, 1, { type: "reveal", card: "harvest" })).toBe("NOT_IN_HAND");
  });

  it("reveal: public entry, a replacement drawn (private), the revealed card shuffled back", () => {
    const { state: s, log } = playLogged(start, [[0, { type: "reveal", card: "harvest" }]]);
    expect(s.valuations[0]).toEqual(["huntress", "pact"]);
    expect(s.deck).toHaveLength(start.deck.length);
    expect(s.deck).toContain("harvest");
    expect(s.deck).not.toContain("huntress");
    expect(s.revealed).toEqual(["harvest"]);
    expect(s.knowledge["huntress"]).toEqual([0]);
    expect(s.knowledge["harvest"]).toBeUndefined();
    expect(s.money[0]).toBe(100);
    const [pub, priv] = log.slice(-2);
    expect(pub).toMatchObject({ type: "reveal", seat: 0, card: "harvest" });
    expect(pub.to).toBeUndefined();
    expect(priv).toMatchObject({ type: "replacement", to: [0], card: "huntress" });
    expect(code(s, 0, { type: "confirm" })).toBe("ok");
  });

  it("a replacement may be another Pawn: reveal again", () => {
    const s = play({ ...start, deck: ["watchman", ...start.deck.filter((c) => c !== "watchman")] }, [[0, { type: "reveal", card: "harvest" }]]);
    expect(s.valuations[0]).toEqual(["watchman", "pact"]);
    expect(code(s, 0, { type: "confirm" })).toBe("PAWN_OR_COURT_IN_HAND");
    const t = play(s, [[0, { type: "reveal", card: "watchman" }]]);
    expect(t.revealed).toEqual(["harvest", "watchman"]);
  });

  it("not revealing: exchange it face down and it is set aside at the start", () => {
    let s = play(start, [[0, { type: "exchange", hand: "harvest", slot: 0 }]]);
    expect(s.valuations[0]).toEqual(["ace-moons", "pact"]);
    expect(s.faceDown[0]).toEqual(["harvest", "ace-suns"]);
    s = confirmAll(s);
    expect(s.phase).toBe("pick");
    expect(s.faceDown[0]).toContain("harvest");
    expect(s.valuations.flat().some((c) => PAWNS.includes(c))).toBe(false);
  });
});
