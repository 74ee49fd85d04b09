/** Selling fortunes: face value, the median rule, Aces, numbers, Crowns, Pawns/Courts, places. */
import { describe, expect, it } from "vitest";
import { faceValue, median, placesByMoney, sellItems, suitMultipliers, suitValues } from "./sale.js";

const valueOf = (valuations: string[], suit: string) => suitValues(valuations).find((v) => v.suit === suit)!.value;

describe("face value", () => {
  it("the printed example: a 3, 3, 5 and 8 collect $19", () => {
    const sale = sellItems(0, ["journey", "painter", "forest", "diplomat"], suitValues([]));
    expect(sale.faceValue).toBe(19);
    expect(sale.suitTotal).toBe(0);
    expect(sale.total).toBe(19);
  });

  it("Aces, Crowns, Pawns and Courts have no face value", () => {
    for (const id of ["ace-moons", "huntress", "harvest", "consul"]) expect(faceValue(id)).toBe(0);
    expect(faceValue("pact")).toBe(9);
    expect(faceValue("author")).toBe(2);
  });
});

describe("suit values (the median rule)", () => {
  it("no valuation card of a suit: $0", () => {
    expect(valueOf(["pact", "mill"], "Knots")).toBe(0);
    expect(valueOf([], "Moons")).toBe(0);
  });

  it("one card: its rank, Ace 1 and Crown 10", () => {
    expect(valueOf(["ace-moons"], "Moons")).toBe(1);
    expect(valueOf(["huntress"], "Moons")).toBe(10);
    expect(valueOf(["lunatic"], "Moons")).toBe(6);
    expect(valueOf(["lunatic"], "Waves")).toBe(6);
  });

  it("an odd count: the middle rank", () => {
    expect(valueOf(["author", "journey", "forest"], "Moons")).toBe(3); // 2, 3, 5
    expect(valueOf(["ace-moons", "pact", "huntress", "author", "diplomat"], "Moons")).toBe(8); // 1 2 8 9 10
  });

  it("an even count: the average of the two middle ranks, rounded up", () => {
    expect(valueOf(["author", "forest"], "Moons")).toBe(4); // (2 + 5) / 2 = 3.5 -> 4
    expect(valueOf(["ace-moons", "huntress"], "Moons")).toBe(6); // (1 + 10) / 2 = 5.5 -> 6
    expect(valueOf(["journey", "forest", "lunatic", "huntress"], "Moons")).toBe(6); // 3 5 6 10 -> 5.5 -> 6
    expect(valueOf(["author", "forest", "chance-meeting", "huntress"], "Moons")).toBe(6); // 2 5 7 10 -> 6
    expect(median([4, 8])).toBe(6);
    expect(median([1, 2, 3, 10])).toBe(3); // 2.5 -> 3
  });

  it("every suit of a number card counts", () => {
    const v = suitValues(["mountain"]); // 4, Moons/Suns
    expect(v.map((x) => x.value)).toEqual([4, 4, 0, 0, 0, 0]);
    expect(v[0]).toEqual({ suit: "Moons", cards: ["mountain"], value: 4 });
  });
});

describe("suit payouts", () => {
  // Moons: mountain 4 and forest 5 -> 5 (4.5 rounded up). Suns: mountain 4. Waves: sea 10.
  // Leaves: forest 5. Wyrms and Knots: none, 0.
  const values = suitValues(["mountain", "sea", "forest"]);

  it("computes the suit values used below", () => {
    expect(values.map((v) => v.value)).toEqual([5, 4, 10, 5, 0, 0]);
  });

  it("an Ace pays its suit once", () => {
    expect(sellItems(0, ["ace-waves"], values).total).toBe(10);
    expect(suitMultipliers("ace-waves")).toEqual({ Waves: 1 });
  });

  it("a number card pays both of its suits once, plus its face value", () => {
    // Journey: 3, Moons/Waves -> 3 + 5 + 10.
    const s = sellItems(0, ["journey"], values);
    expect(s.perItem[0]).toEqual({ card: "journey", face: 3, suits: { Moons: 5, Waves: 10 }, total: 18 });
    expect(s.total).toBe(18);
  });

  it("a Crown pays three times its suit", () => {
    expect(sellItems(0, ["huntress"], values).total).toBe(15); // Moons 5 x 3
    expect(sellItems(0, ["calamity"], values).total).toBe(0); // Wyrms 0
    expect(suitMultipliers("sea")).toEqual({ Waves: 3 });
  });

  it("a Pawn or Court pays each of its three suits once", () => {
    // Harvest: Moons/Suns/Leaves -> 5 + 4 + 5. Consul: Moons/Waves/Knots -> 5 + 10 + 0.
    expect(sellItems(0, ["harvest"], values).total).toBe(14);
    expect(sellItems(0, ["consul"], values).total).toBe(15);
    expect(sellItems(0, ["harvest"], values).faceValue).toBe(0);
  });

  it("the per-suit breakdown adds up", () => {
    const s = sellItems(2, ["journey", "huntress", "ace-moons", "harvest"], values);
    const moons = s.suits.find((x) => x.suit === "Moons")!;
    expect(moons).toEqual({ suit: "Moons", multiplier: 1 + 3 + 1 + 1, value: 5, amount: 30 });
    expect(s.suits.reduce((t, x) => t + x.amount, 0)).toBe(s.suitTotal);
    expect(s.perItem.reduce((t, x) => t + x.total, 0)).toBe(s.total);
    expect(s.total).toBe(3 + 30 + 10 /* Waves */ + 4 /* Suns */ + 5 /* Leaves */);
    expect(s.seat).toBe(2);
  });
});

describe("places", () => {
  it("by money, ties share a place", () => {
    expect(placesByMoney([50, 70, 50, 10])).toEqual([2, 1, 2, 4]);
    expect(placesByMoney([5, 5, 5])).toEqual([1, 1, 1]);
  });
});
