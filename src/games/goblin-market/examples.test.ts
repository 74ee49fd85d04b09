/** Every worked example in the rules text, built by hand and driven through apply(). */
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../types.js";
import { deepFreeze, playLogged, position } from "./fixtures.js";
import { goblinMarket } from "./index.js";

const logOf = (log: readonly LogEntry[], type: string) => log.filter((e) => e.type === type);

describe("rules examples", () => {
  it("three-card auction: Elise 2, Morgan 7, Evan 8 ... Morgan 14, Evan 15; Evan takes one, Morgan chooses, Elise gets the last", () => {
    const [ELISE, MORGAN, EVAN] = [0, 1, 2];
    const start = deepFreeze(
      position({
        players: 3,
        sizeCard: "huntress",
        offer: ["pact", "forest", "sea"],
        coins: [20, 20, 20],
        firstBidder: ELISE,
        goblinDeck: ["harvest", "watchman"],
      }),
    );
    const before = JSON.stringify(start);
    let g = playLogged(start, [
      [ELISE, { type: "bid", amount: 2 }],
      [MORGAN, { type: "bid", amount: 7 }],
      [EVAN, { type: "bid", amount: 8 }],
      [ELISE, { type: "pass" }],
      [MORGAN, { type: "bid", amount: 10 }],
      [EVAN, { type: "bid", amount: 11 }],
      [MORGAN, { type: "bid", amount: 12 }],
      [EVAN, { type: "bid", amount: 13 }],
      [MORGAN, { type: "bid", amount: 14 }],
      [EVAN, { type: "bid", amount: 15 }],
      [MORGAN, { type: "pass" }],
    ]);
    let s = g.state;
    expect(JSON.stringify(start)).toBe(before);
    expect(s.phase).toBe("taking");
    expect(goblinMarket.activeSeats(s)).toEqual([EVAN]);
    expect(goblinMarket.legalActions(s, EVAN).map((l) => l.type)).toEqual(["take-all", "take-one"]);

    g = playLogged(g, [[EVAN, { type: "take-one", card: "sea" }]]);
    s = g.state;
    expect(s.coins[EVAN]).toBe(5);
    expect(s.phase).toBe("choosing");
    expect(goblinMarket.activeSeats(s)).toEqual([MORGAN]);
    expect(goblinMarket.legalActions(s, MORGAN)).toEqual([
      { type: "choose", params: { card: { kind: "choice", options: ["pact", "forest"] } }, label: "Choose a card" },
    ]);

    g = playLogged(g, [[MORGAN, { type: "choose", card: "pact" }]]);
    s = g.state;
    expect(s.owned[EVAN]).toEqual(["sea"]);
    expect(s.owned[MORGAN]).toEqual(["pact"]);
    expect(s.owned[ELISE]).toEqual(["forest"]);
    // Payments, before goblin money (the Harvest: Moons, Suns, Leaves).
    const goblin = s.lastPayouts!.goblin;
    expect(goblin).toEqual([1, 1, 3]); // Elise has Moons+Leaves, Morgan Moons+Suns, Evan only Waves
    expect(s.coins[EVAN] - goblin[EVAN]).toBe(20 - 15);
    expect(s.coins[MORGAN] - goblin[MORGAN]).toBe(20 - 14);
    expect(s.coins[ELISE] - goblin[ELISE]).toBe(20 - 2);
    expect(s.lastPayouts!.sisterhood).toEqual([0, 0, 0]); // everyone got a card
    expect(logOf(g.log, "take")).toEqual([
      expect.objectContaining({ seat: EVAN, place: 1, cards: ["sea"], paid: 15, how: "one" }),
      expect.objectContaining({ seat: MORGAN, place: 2, cards: ["pact"], paid: 14, how: "choice" }),
      expect.objectContaining({ seat: ELISE, place: 3, cards: ["forest"], paid: 2, how: "auto" }),
    ]);
    // The next auction starts with the winner.
    expect(s.auction!.firstBidder).toBe(EVAN);
    expect(s.turn).toBe(EVAN);
  });

  it("Shar wins with 9: 3 coins per 9, 2 per 8, 1 per 7; Shar collects nothing", () => {
    const SHAR = 0;
    const start = position({
      players: 4,
      sizeCard: "author",
      offer: ["journey", "painter"],
      firstBidder: 1,
      owned: [
        ["merchant", "betrayal", "castle"], // Shar holds a 9, an 8 and a 7 but won
        ["darkness", "diplomat", "cave", "ace-moons"], // 3 + 2 + 1
        ["pact", "mill", "battle"], // 3 + 2 (battle is a 4)
        ["chance-meeting", "huntress", "bard"], // 1
      ],
    });
    const { state: s, log } = playLogged(start, [
      [1, { type: "bid", amount: 5 }],
      [2, { type: "pass" }],
      [3, { type: "pass" }],
      [SHAR, { type: "bid", amount: 9 }],
      [1, { type: "pass" }],
      [SHAR, { type: "take-all" }],
    ]);
    // Seat 1 bid but got no card, so it collects too.
    expect(s.lastPayouts!.sisterhood).toEqual([0, 6, 5, 1]);
    expect(s.lastPayouts!.winningBid).toBe(9);
    // One log entry for the auction's sisterhood money, naming each seat paid and for what.
    const sisterhood = logOf(log, "sisterhood");
    expect(sisterhood).toHaveLength(1);
    expect(sisterhood[0]).toMatchObject({ winningBid: 9, ranks: [9, 8, 7] });
    const paid = sisterhood[0]!.paid as Array<{ seat: number; cards: Array<{ card: string; coins: number }> }>;
    expect(paid.map((p) => p.seat)).toEqual([1, 2, 3]);
    expect(paid[0]!.cards).toEqual([
      { card: "darkness", coins: 3 },
      { card: "diplomat", coins: 2 },
      { card: "cave", coins: 1 },
    ]);
    expect(paid.map((p) => p.cards.reduce((t, c) => t + c.coins, 0))).toEqual([6, 5, 1]);
    expect(s.coins[SHAR] - s.lastPayouts!.goblin[SHAR]).toBe(10 - 9);
  });

  it("Tarrant wins with 11: 3 coins per Ace, 2 per Crown, 1 per 9", () => {
    const TARRANT = 0;
    const start = position({
      players: 3,
      sizeCard: "sailor",
      offer: ["journey", "painter"],
      coins: [15, 10, 10],
      owned: [["ace-knots", "windfall"], ["ace-moons", "ace-suns", "huntress", "pact"], ["sea", "darkness", "mill"]],
    });
    const { state: s, log } = playLogged(start, [
      [TARRANT, { type: "bid", amount: 11 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
      [TARRANT, { type: "take-all" }],
    ]);
    expect(s.lastPayouts!.sisterhood).toEqual([0, 3 + 3 + 2 + 1, 2 + 1]);
    expect(logOf(log, "sisterhood")[0]).toMatchObject({ ranks: [1, 10, 9], paid: [expect.objectContaining({ seat: 1 }), expect.objectContaining({ seat: 2 })] });
  });

  it("Raphael owns the Crown of Suns; the Harvest (Moons, Suns, Leaves) pays him 2", () => {
    const RAPHAEL = 1;
    const start = position({
      players: 3,
      sizeCard: "ace-waves",
      offer: ["forest"],
      owned: [[], ["bard"], []],
      goblinDeck: ["harvest", "consul"],
    });
    const { state: s, log } = playLogged(start, [
      [0, { type: "bid", amount: 3 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    expect(s.lastPayouts!.goblinCard).toBe("harvest");
    // Seat 0 now owns the Forest (Moons, Leaves): 1. Raphael: 2. Seat 2 owns nothing: 3.
    expect(s.lastPayouts!.goblin).toEqual([1, 2, 3]);
    expect(s.coins[RAPHAEL]).toBe(12);
    // One log entry for the goblin card and what it paid: each seat's suits of it owned by none of its cards.
    expect(logOf(log, "goblin-money")).toEqual([]);
    expect(logOf(log, "goblin-card")).toEqual([
      expect.objectContaining({ card: "harvest", missing: [["Suns"], ["Moons", "Leaves"], ["Moons", "Suns", "Leaves"]] }),
    ]);
  });
});
