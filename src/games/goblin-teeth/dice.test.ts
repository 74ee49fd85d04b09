/** Dice: the 1-6 range, the bidding rules, and rerolls (tie -> reroll, over 10 -> set as printed). */
import { describe, expect, it } from "vitest";
import { canReroll, clampPips, positionProblem, settleRoll } from "./dice.js";
import { draft } from "./draft.js";
import { nudgeDie } from "./effects.js";
import { position } from "./fixtures.js";
import type { Die } from "./state.js";

const die = (owner: number, value: number, at: Die["at"]): Die => ({ owner, value, at });

describe("the 1-6 range", () => {
  it("a raise or reduction that would leave 1-6 does as much as it can", () => {
    expect([clampPips(7), clampPips(0), clampPips(-1), clampPips(4)]).toEqual([6, 1, 1, 4]);
    const s = position({ players: 2, dice: [[6, 1, 2], [3, 4, 5]], pot: ["item-bone-1", "item-tooth-1"] });
    const d = draft(s);
    nudgeDie(d, 0, +1, "test");
    nudgeDie(d, 1, -1, "test");
    nudgeDie(d, 2, -2, "test");
    nudgeDie(d, 3, +2, "test");
    expect(d.dice.map((x) => x.value)).toEqual([6, 1, 1, 5, 4, 5]);
  });
});

describe("bidding rules on positions", () => {
  it("no bid over 10, no two players tied on an Item; a player alone or at zero is no tie", () => {
    expect(positionProblem([die(0, 6, 1), die(0, 5, 1)], 2, 2)?.code).toBe("BID_OVER_10");
    expect(positionProblem([die(0, 3, 1), die(1, 3, 1)], 2, 2)?.code).toBe("BID_TIE");
    expect(positionProblem([die(0, 3, 1), die(1, 3, 0), die(1, 6, "altar")], 2, 2)).toBeNull();
    expect(positionProblem([die(0, 4, 1), die(0, 6, 1), die(1, 3, 1)], 2, 2)).toBeNull();
  });
});

describe("rerolls of a die on an Item", () => {
  // Seat 0 has 3 + 4 on slot 1 (7); seat 1 has 5 there (die 3).
  const dice = [die(0, 3, 1), die(0, 4, 1), die(0, 2, "supply"), die(1, 5, 1), die(1, 6, "supply"), die(1, 1, "supply")];

  it("a roll that ties is rolled again; one within 10 stands", () => {
    // Seat 1's 5 rerolled: every face stands (none makes 7 or more than 10).
    for (let v = 1; v <= 6; v++) expect(settleRoll(dice, 3, v, 2)).toEqual({ value: v, set: false });
    // Seat 0's 3 rerolled to 1: 1 + 4 = 5 ties seat 1's 5 -> roll again.
    expect(settleRoll(dice, 0, 1, 2)).toBeNull();
    expect(settleRoll(dice, 0, 6, 2)).toEqual({ value: 6, set: false }); // 6 + 4 = 10: exactly 10 is fine
  });

  it("over 10: set the die so the bid is 10; if 10 ties, the highest bid below 10 that ties no one", () => {
    // Seat 0 has 3 + 5 = 8, seat 1 has 6 + 4 = 10. Seat 0's 3 rerolled (rest 5) to a 6 makes 11:
    // 10 would tie seat 1, so the die is set to make 9: a 4.
    const p = [die(0, 3, 1), die(0, 5, 1), die(1, 6, 1), die(1, 4, 1)];
    expect(settleRoll(p, 0, 6, 2)).toEqual({ value: 4, set: true });
    expect(settleRoll(p, 0, 5, 2)).toBeNull(); // exactly 10 ties seat 1: rolled again
    expect(settleRoll(p, 0, 2, 2)).toEqual({ value: 2, set: false }); // 7
    // Without the tie at 10 it is set to make exactly 10.
    const q = [die(0, 3, 1), die(0, 5, 1), die(1, 2, 1)];
    expect(settleRoll(q, 0, 6, 2)).toEqual({ value: 5, set: true });
    // A die that is not on an Item stands as rolled.
    expect(settleRoll([die(0, 3, "altar")], 0, 6, 1)).toEqual({ value: 6, set: false });
  });

  it("a die no roll could leave legally can't be rerolled (5 players, Cursed, until different)", () => {
    // Seat 0 (Cursed) has 2 + 1 = 3 on slot 1; seats 1-4 bid 4, 5, 6, 7 there. Rerolling the 1 until it
    // differs: a 6 is rerolled (Cursed), 2-5 all tie. Blessed's plain reroll may still land on 1.
    const s = position({
      players: 5,
      dice: [[2, 1, 3], [4, 1, 2], [5, 1, 2], [6, 1, 2], [6, 1, 3]],
      at: [[1, 1, "supply"], [1, "supply", "supply"], [1, "supply", "supply"], [1, "supply", "supply"], [1, 1, "supply"]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1", "item-mushroom-1", "item-button-1"],
      ongoing: [["cheat-cursed"], [], [], [], []],
    });
    expect(canReroll(s, 1, true)).toBe(false);
    expect(canReroll(s, 1, false)).toBe(true);
    expect(canReroll(s, 0, true)).toBe(true); // the 2 (rest 1): a 1 makes 2, which ties no one
  });
});
