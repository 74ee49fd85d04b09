/** Distraction, Second Chance, Total Re-roll: effect, choices, and when they can't be played. */
import { describe, expect, it } from "vitest";
import type { Logged } from "../../testing.js";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import type { GoblinTeethState } from "../state.js";

const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);

/** Seat 0: 4 + 2 on slot 1, unplayed 6. Seat 1: 5 on slot 1, unplayed 1 and 3. */
function table(hand: string[], more: Partial<Parameters<typeof position>[0]> = {}) {
  return deepFreeze(
    position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, 1, "supply"], [1, "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-1"],
      hands: [hand, []],
      ...more,
    }),
  );
}

describe("Distraction: reroll a die belonging to another player until it shows a different number", () => {
  it("rerolls another player's die to a different face (a die on an Item obeys the tie and over-10 rules)", () => {
    for (let i = 0; i < 30; i++) {
      const s = table(["cheat-distraction"], { seed: `d${i}` });
      const tg = played(s, [[0, { type: "cheat", card: "cheat-distraction", die: 3 }]]);
      const t = tg.state;
      const v = t.dice[3].value;
      expect(v).not.toBe(5);
      expect(v).not.toBe(6); // 6 would tie seat 0's 6 and be rolled again
      expect(logOf(tg, "die").at(-1)).toMatchObject({ die: 3, owner: 1, from: 5, value: v, reason: "distraction", rolled: true });
    }
  });

  it("only another player's die; not one no roll could leave legally", () => {
    const s = table(["cheat-distraction"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-distraction", die: 0 })).toBe("NOT_OTHERS");
    expect(legalInstances(s, 0, "cheat-distraction").map((a) => a.die)).toEqual([3, 4, 5]);
  });
});

describe("Second Chance: reroll 1 of your dice until it shows a different number", () => {
  it("rerolls one of your dice, placed or not, to a different face", () => {
    for (let i = 0; i < 20; i++) {
      const s = table(["cheat-second-chance"], { seed: `s${i}` });
      const t = play(s, [[0, { type: "cheat", card: "cheat-second-chance", die: 1 }]]);
      expect(t.dice[1].value).not.toBe(2);
      expect(t.dice[1].value).not.toBe(1); // 4 + 1 = 5 would tie seat 1's 5
      const u = play(s, [[0, { type: "cheat", card: "cheat-second-chance", die: 2 }]]);
      expect(u.dice[2].value).not.toBe(6);
    }
  });

  it("only your own dice; with Cursed and every other face tied, that die can't be chosen", () => {
    const s = table(["cheat-second-chance"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-second-chance", die: 3 })).toBe("NOT_YOURS");
    const tight = position({
      players: 5,
      dice: [[2, 1, 3], [4, 1, 2], [5, 1, 2], [6, 1, 2], [6, 1, 3]],
      at: [[1, 1, "supply"], [1, "supply", "supply"], [1, "supply", "supply"], [1, "supply", "supply"], [1, 1, "supply"]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1", "item-mushroom-1", "item-button-1"],
      ongoing: [["cheat-cursed"], [], [], [], []],
      hands: [["cheat-second-chance"], [], [], [], []],
    });
    expect(codeOf(tight, 0, { type: "cheat", card: "cheat-second-chance", die: 1 })).toBe("CANNOT_REROLL");
    expect(legalInstances(tight, 0, "cheat-second-chance").map((a) => a.die)).toEqual([0, 2]);
  });
});

describe("Total Re-roll: reroll all of your unplayed dice", () => {
  it("rerolls every unplayed die of yours and nothing else", () => {
    const s = table(["cheat-total-re-roll"], { at: [["supply", 1, "supply"], [1, "supply", "supply"]] });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-total-re-roll" }]]);
    const t = tg.state;
    expect(logOf(tg, "die").filter((e) => e.reason === "total-re-roll").map((e) => e.die)).toEqual([0, 2]);
    expect(t.dice.slice(1).map((d) => d.value)).toEqual([2, t.dice[2].value, 5, 1, 3]);
    for (const d of t.dice) expect(d.value >= 1 && d.value <= 6).toBe(true);
  });
});
