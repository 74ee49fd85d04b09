/** Auctions: the Excuse holder picks and opens, each other player once, the Excuse holder last. */
import { describe, expect, it } from "vitest";
import type { Action } from "../types.js";
import { allPass, play, playLogged, position, randomGame } from "./fixtures.js";
import { sorcerousFutures as game } from "./index.js";
import type { SorcerousFuturesState } from "./state.js";

const code = (s: SorcerousFuturesState, seat: number, action: unknown) => {
  const r = game.apply(s, seat, action as Action);
  return r.ok ? "ok" : r.error.code;
};

const VALUATIONS = [["mountain", "sea"], ["forest", "ace-knots"], ["author", "battle"], ["pact", "huntress"]];
const start = () => position({ players: 4, valuations: VALUATIONS, market: ["journey", "diplomat", "mill", "end", "cave"], excuse: 0 });

describe("picking", () => {
  it("only the Excuse holder picks, a card of the market", () => {
    const s = start();
    expect(s.phase).toBe("pick");
    expect(game.activeSeats(s)).toEqual([0]);
    expect(game.legalActions(s, 0)).toEqual([
      expect.objectContaining({ type: "pick", params: { card: { kind: "choice", options: ["journey", "diplomat", "mill", "end", "cave"] } } }),
    ]);
    expect(game.legalActions(s, 1)).toEqual([]);
    expect(code(s, 1, { type: "pick", card: "mill" })).toBe("NOT_YOUR_TURN");
    expect(code(s, 0, { type: "pick", card: "pact" })).toBe("NOT_IN_MARKET");
    expect(code(s, 0, { type: "pass" })).toBe("WRONG_STEP");
    expect(code(s, 0, { type: "confirm" })).toBe("WRONG_STEP");
    const { state: t, log } = playLogged(s, [[0, { type: "pick", card: "mill" }]]);
    expect(t.phase).toBe("bidding");
    expect(t.market).toEqual(["journey", "diplomat", "end", "cave"]);
    expect(t.auction).toMatchObject({ number: 1, card: "mill", excuse: 0, moves: [], auto: false });
    expect(log.at(-1)).toMatchObject({ type: "pick", seat: 0, card: "mill", auto: false });
  });
});

describe("bidding", () => {
  const pickedLogged = () => playLogged(start(), [[0, { type: "pick", card: "diplomat" }]]);
  const picked = () => pickedLogged().state;

  it("turn order: the Excuse holder opens, each other player clockwise once, then the Excuse holder", () => {
    let s = picked();
    const turns: number[] = [];
    while (s.phase === "bidding" && s.auctions === 1) {
      turns.push(s.turn!);
      s = play(s, [[s.turn!, { type: "pass" }]]);
    }
    expect(turns).toEqual([0, 1, 2, 3, 0]);
  });

  it("bids: whole dollars, at least 1 (then $1 above the high bid), at most your money; exact legal bounds", () => {
    let s = picked();
    expect(game.legalActions(s, 0)).toEqual([
      expect.objectContaining({ type: "bid", params: { amount: { kind: "int", min: 1, max: 100 } } }),
      expect.objectContaining({ type: "pass" }),
    ]);
    expect(code(s, 1, { type: "bid", amount: 3 })).toBe("NOT_YOUR_TURN");
    for (const amount of [0, -1, 1.5, "3", null, NaN, Infinity]) expect(code(s, 0, { type: "bid", amount })).toBe("BAD_AMOUNT");
    expect(code(s, 0, { type: "bid", amount: 101 })).toBe("BID_TOO_HIGH");
    s = play(s, [[0, { type: "bid", amount: 5 }]]);
    expect(code(s, 1, { type: "bid", amount: 5 })).toBe("BID_TOO_LOW");
    expect(game.legalActions(s, 1)[0].params).toEqual({ amount: { kind: "int", min: 6, max: 100 } });
    const { log } = playLogged(s, [[1, { type: "bid", amount: 6 }]]);
    expect(log.at(-1)).toMatchObject({ type: "bid", seat: 1, amount: 6 });
  });

  it("a player who can't reach the minimum, or has $0, can only pass", () => {
    const s = play(position({ players: 4, valuations: VALUATIONS, market: ["journey", "diplomat"], money: [100, 0, 5, 100] }), [
      [0, { type: "pick", card: "journey" }],
      [0, { type: "bid", amount: 5 }],
    ]);
    expect(game.legalActions(s, 1).map((l) => l.type)).toEqual(["pass"]);
    expect(code(s, 1, { type: "bid", amount: 1 })).toBe("BID_TOO_LOW");
    const t = play(s, [[1, { type: "pass" }]]);
    expect(game.legalActions(t, 2).map((l) => l.type)).toEqual(["pass"]);
    expect(code(t, 2, { type: "bid", amount: 6 })).toBe("BID_TOO_HIGH");
  });

  it("the highest bid pays the bank and takes the card; the Excuse passes left", () => {
    const { state: s, log } = playLogged(pickedLogged(), [
      [0, { type: "bid", amount: 5 }],
      [1, { type: "pass" }],
      [2, { type: "bid", amount: 9 }],
      [3, { type: "pass" }],
      [0, { type: "pass" }],
    ]);
    expect(s.money).toEqual([100, 100, 91, 100]);
    expect(s.holdings).toEqual([[], [], ["diplomat"], []]);
    expect(s.excuse).toBe(1);
    expect(s.phase).toBe("pick");
    expect(s.turn).toBe(1);
    expect(log.slice(-2)).toMatchObject([
      { type: "win", seat: 2, card: "diplomat", paid: 9 },
      { type: "excuse", seat: 1 },
    ]);
  });

  it("the Excuse holder's final chance: may outbid even after opening", () => {
    const s = play(picked(), [
      [0, { type: "bid", amount: 5 }],
      [1, { type: "bid", amount: 7 }],
      [2, { type: "pass" }],
      [3, { type: "pass" }],
    ]);
    expect(s.turn).toBe(0);
    expect(game.legalActions(s, 0)[0].params).toEqual({ amount: { kind: "int", min: 8, max: 100 } });
    const t = play(s, [[0, { type: "bid", amount: 8 }]]);
    expect(t.money).toEqual([92, 100, 100, 100]);
    expect(t.holdings[0]).toEqual(["diplomat"]);
    expect(t.excuse).toBe(1);
  });

  it("holding the high bid at the final chance, the Excuse holder passes and the bid stands", () => {
    const s = play(picked(), [
      [0, { type: "bid", amount: 4 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
      [3, { type: "pass" }],
    ]);
    expect(game.legalActions(s, 0)).toEqual([{ type: "pass", label: "Pass (your high bid stands)" }]);
    expect(code(s, 0, { type: "bid", amount: 10 })).toBe("ALREADY_HIGH");
    const t = play(s, [[0, { type: "pass" }]]);
    expect(t.money[0]).toBe(96);
    expect(t.holdings[0]).toEqual(["diplomat"]);
  });

  it("all pass: the card is discarded and no money moves", () => {
    const { state: s, log } = allPass(pickedLogged());
    expect(s.discard).toEqual(["diplomat"]);
    expect(s.money).toEqual([100, 100, 100, 100]);
    expect(s.holdings.flat()).toEqual([]);
    expect(s.excuse).toBe(1);
    expect(log.filter((e) => e.type === "discard")).toMatchObject([{ card: "diplomat" }]);
  });
});

describe("markets", () => {
  it("the last card of a market is auctioned by the Excuse holder automatically; then a new market", () => {
    let g = playLogged(start(), []);
    for (let i = 0; i < 4; i++) {
      expect(g.state.turn).toBe(i);
      g = allPass(playLogged(g, [[g.state.turn!, { type: "pick", card: g.state.market[0] }]]));
    }
    let s = g.state;
    // Excuse back with the first picker (0 + 4 passes = seat 0), who auctions the last card.
    expect(s.phase).toBe("bidding");
    expect(s.excuse).toBe(0);
    expect(s.auction).toMatchObject({ card: "cave", excuse: 0, auto: true });
    expect(g.log.at(-1)).toMatchObject({ type: "pick", seat: 0, card: "cave", auto: true });
    expect(s.market).toEqual([]);
    g = allPass(g);
    s = g.state;
    expect(s.marketNumber).toBe(2);
    expect(s.market).toHaveLength(5);
    expect(s.excuse).toBe(1);
    expect(s.turn).toBe(1);
    expect(g.log.filter((e) => e.type === "market-dealt")).toHaveLength(1);
  });

  it("4 players: four markets of 5, everyone gets first pick once, the deck is exhausted", () => {
    const g = randomGame(4, "markets-4");
    const markets = g.log.filter((e) => e.type === "market-dealt");
    expect(markets.map((e) => (e.cards as string[]).length)).toEqual([5, 5, 5, 5]);
    const firsts = g.log.filter((e) => e.type === "market-dealt").map((e) => e.n);
    const firstPickers = firsts.map((n) => g.log.find((e) => e.n > n && e.type === "pick")!.seat);
    expect([...firstPickers].sort()).toEqual([0, 1, 2, 3]);
    expect(g.final.deck).toEqual([]);
    expect(g.log.filter((e) => e.type === "pick")).toHaveLength(20);
  });

  it("3 and 5 players: markets of 4 until the deck is exhausted (five markets)", () => {
    for (const [players, options] of [[3, {}], [5, {}], [5, { extended: "courts" as const }]] as const) {
      const g = randomGame(players, `markets-${players}`, options);
      const markets = g.log.filter((e) => e.type === "market-dealt");
      expect(markets.map((e) => (e.cards as string[]).length)).toEqual([4, 4, 4, 4, 4]);
      expect(g.final.deck).toEqual([]);
    }
  });
});

describe("the sale", () => {
  it("after the last auction every seat sells its items: face value plus suit values", () => {
    // Suit values from VALUATIONS: Moons 2 4 5 9 10 -> 5; Suns 4 9 -> 7; Waves 10; Leaves 5; Wyrms 4; Knots 1 2 4 -> 2.
    const s0 = position({
      players: 4,
      valuations: VALUATIONS,
      market: ["diplomat"],
      holdings: [["journey"], [], ["ace-wyrms"], []],
      money: [100, 100, 100, 0],
      excuse: 3,
      deck: [],
    });
    expect(s0.phase).toBe("bidding");
    const { state: s, log } = playLogged(s0, [
      [3, { type: "pass" }],
      [0, { type: "pass" }],
      [1, { type: "bid", amount: 12 }],
      [2, { type: "pass" }],
      [3, { type: "pass" }],
    ]);
    expect(game.isOver(s)).toBe(true);
    const r = s.results[0];
    expect(r.suitValues.map((v) => v.value)).toEqual([5, 7, 10, 5, 4, 2]);
    // Seat 0: journey 3 + Moons 5 + Waves 10 = 18. Seat 1: diplomat 8 + 5 + 7 = 20. Seat 2: Ace of Wyrms 4.
    expect(r.sales.map((x) => x.total)).toEqual([18, 20, 4, 0]);
    expect(s.money).toEqual([118, 108, 104, 0]);
    expect(r.moneyBefore).toEqual([100, 88, 100, 0]);
    expect(game.outcome(s)).toMatchObject({ scores: [118, 108, 104, 0], places: [1, 2, 3, 4] });
    expect(log.filter((e) => e.type === "sale").map((e) => e.total)).toEqual([18, 20, 4, 0]);
    expect(log.at(-1)).toMatchObject({ type: "game-end", final: true, money: [118, 108, 104, 0] });
    expect(game.activeSeats(s)).toEqual([]);
    expect(code(s, 0, { type: "pass" })).toBe("GAME_OVER");
  });

  it("3 players: the extra valuations count for the suit values", () => {
    const s = play(
      position({
        players: 3,
        valuations: [["author", "painter"], ["savage", "mill"], ["cave", "merchant"]],
        extraValuations: ["huntress", "ace-moons"],
        extraSetAside: ["pact", "sea"],
        market: ["journey"],
        excuse: 0,
        deck: [],
      }),
      [
        [0, { type: "bid", amount: 1 }],
        [1, { type: "pass" }],
        [2, { type: "pass" }],
        [0, { type: "pass" }],
      ],
    );
    // Moons: author 2, huntress 10, Ace 1 -> 2. Waves: mill 8, cave 7 -> 8 (7.5 up). Journey 3 + 2 + 8 = 13.
    expect(s.results[0].sales[0].total).toBe(13);
    expect(s.money[0]).toBe(112);
  });
});
