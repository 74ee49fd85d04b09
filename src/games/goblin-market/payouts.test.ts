import { describe, expect, it } from "vitest";
import { goblinPayout, payingRanks, rankBelow, rankOf, sisterhoodPayout } from "./payouts.js";

describe("sisterhood ranks", () => {
  it("ranks by card: Ace 1, numbers 2-9, Crown 10", () => {
    expect(rankOf("ace-moons")).toBe(1);
    expect(rankOf("author")).toBe(2);
    expect(rankOf("pact")).toBe(9);
    expect(rankOf("bard")).toBe(10);
  });

  it("wraps: below Ace is Crown, below Crown is 9", () => {
    expect(rankBelow(1)).toBe(10);
    expect(rankBelow(10)).toBe(9);
    expect(rankBelow(2)).toBe(1);
  });

  it("uses the last digit of the winning bid", () => {
    expect(payingRanks(9)).toEqual([9, 8, 7]);
    expect(payingRanks(11)).toEqual([1, 10, 9]);
    expect(payingRanks(10)).toEqual([10, 9, 8]);
    expect(payingRanks(30)).toEqual([10, 9, 8]);
    expect(payingRanks(2)).toEqual([2, 1, 10]);
    expect(payingRanks(27)).toEqual([7, 6, 5]);
  });

  it("pays 3, 2, 1 per matching card", () => {
    expect(sisterhoodPayout(["pact", "darkness", "mill", "cave", "author"], 19)).toEqual({
      coins: 3 + 3 + 2 + 1,
      cards: [
        { card: "pact", coins: 3 },
        { card: "darkness", coins: 3 },
        { card: "mill", coins: 2 },
        { card: "cave", coins: 1 },
      ],
    });
    expect(sisterhoodPayout([], 5)).toEqual({ coins: 0, cards: [] });
  });
});

describe("goblin money", () => {
  it("pays one coin per goblin suit not on any owned card", () => {
    expect(goblinPayout(["bard"], "harvest")).toEqual({ coins: 2, suits: ["Moons", "Leaves"] });
    expect(goblinPayout([], "window")).toEqual({ coins: 3, suits: ["Suns", "Leaves", "Knots"] });
    expect(goblinPayout(["pact", "end"], "harvest")).toEqual({ coins: 0, suits: [] });
  });
});
