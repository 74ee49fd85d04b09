/** Let Me Help, Reposition, Sleight of Hand, Trade Places, Transposition: effect, choices, when they can't be played. */
import { describe, expect, it } from "vitest";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import { goblinTeeth as game } from "../index.js";
import { view } from "../view.js";
import type { GoblinTeethState } from "../state.js";

const pairs = (s: GoblinTeethState, seat: number, card: string, a: string, b: string) =>
  legalInstances(s, seat, card).map((x) => [x[a], x[b]]);

/**
 * 3 players, Pot slots 0 (face down), 1, 2.
 *   seat 0: die 0 = 4 on slot 1, die 1 = 2 on the Altar, die 2 = 6 unplayed
 *   seat 1: die 3 = 5 on slot 1, die 4 = 6 unplayed,  die 5 = 4 on slot 2
 *   seat 2: die 6 = 5 on the Altar, die 7 = 4 unplayed, die 8 = 1 unplayed
 * Bids: slot 1 seat 0 4, seat 1 5; slot 2 seat 1 4.
 */
function table(hand: string[], more: Partial<Parameters<typeof position>[0]> = {}) {
  return deepFreeze(
    position({
      players: 3,
      dice: [[4, 2, 6], [5, 6, 4], [5, 4, 1]],
      at: [[1, "altar", "supply"], [1, "supply", 2], ["altar", "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1"],
      hands: [hand, [], []],
      ...more,
    }),
  );
}

describe("Let Me Help: move an unplayed die belonging to another player to an Item; that player may then draw a Cheat card", () => {
  it("moves the die onto the Item, then its owner decides whether to draw", () => {
    const s = table(["cheat-let-me-help"]);
    let t = play(s, [[0, { type: "cheat", card: "cheat-let-me-help", die: 8, slot: 2 }]]);
    expect(t.dice[8].at).toBe(2);
    expect(t.pending).toEqual([{ kind: "help-draw", seat: 2, card: "cheat-let-me-help" }]);
    expect(game.activeSeats(t)).toEqual([2]);
    expect(game.legalActions(t, 2).map((l) => l.type)).toEqual(["draw", "decline"]);
    expect(codeOf(t, 0, { type: "place", die: 2, slot: 0 })).toBe("NOT_YOUR_TURN");
    const drew = play(t, [[2, { type: "draw" }]]);
    expect(drew.hands[2]).toHaveLength(1);
    expect(drew.discard).toEqual(["cheat-let-me-help"]);
    expect(game.activeSeats(drew)).toEqual([0]);
    t = play(t, [[2, { type: "decline" }]]);
    expect(t.hands[2]).toHaveLength(0);
    expect(t.turn).toBe(0);
  });

  it("only another player's unplayed die; the bid must stay within 10 and untied", () => {
    const s = table(["cheat-let-me-help"]);
    const code = (die: number, slot: number) => codeOf(s, 0, { type: "cheat", card: "cheat-let-me-help", die, slot });
    expect(code(2, 1)).toBe("NOT_OTHERS");
    expect(code(6, 1)).toBe("NOT_UNPLAYED");
    expect(code(7, 1)).toBe("BID_TIE"); // seat 2's 4 ties seat 0's 4
    expect(code(4, 1)).toBe("BID_OVER_10"); // seat 1: 5 + 6
    expect(pairs(s, 0, "cheat-let-me-help", "die", "slot")).toEqual([[4, 0], [4, 2], [7, 0], [8, 0], [8, 1], [8, 2]]);
  });
});

describe("Reposition: move any die from an Item to another Item", () => {
  it("moves anyone's die between Items", () => {
    const t = play(table(["cheat-reposition"]), [[0, { type: "cheat", card: "cheat-reposition", die: 3, slot: 2 }]]);
    expect(t.dice[3].at).toBe(2);
    expect(view(t, { kind: "spectator" }).pot.map((p) => p.bids)).toEqual([[0, 0, 0], [4, 0, 0], [0, 9, 0]]);
  });

  it("only a die on an Item, to a different Item, leaving no tie or bid over 10", () => {
    const s = table(["cheat-reposition"]);
    const code = (die: number, slot: number) => codeOf(s, 0, { type: "cheat", card: "cheat-reposition", die, slot });
    expect(code(1, 1)).toBe("NOT_ON_ITEM");
    expect(code(0, 1)).toBe("SAME_SLOT");
    expect(code(0, 2)).toBe("BID_TIE"); // seat 0's 4 vs seat 1's 4 on slot 2
    expect(code(0, 7)).toBe("BAD_SLOT");
    expect(pairs(s, 0, "cheat-reposition", "die", "slot")).toEqual([[0, 0], [3, 0], [3, 2], [5, 0], [5, 1]]);
  });
});

describe("Sleight of Hand: move a die from the Altar to an Item", () => {
  it("moves anyone's die from the Altar onto an Item", () => {
    const t = play(table(["cheat-sleight-of-hand"]), [[0, { type: "cheat", card: "cheat-sleight-of-hand", die: 1, slot: 1 }]]);
    expect(t.dice[1].at).toBe(1);
    expect(view(t, { kind: "spectator" }).pot[1].bids).toEqual([6, 5, 0]);
  });

  it("only a die on the Altar; no tie; not playable with an empty Altar", () => {
    const s = table(["cheat-sleight-of-hand"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sleight-of-hand", die: 2, slot: 1 })).toBe("NOT_ON_ALTAR");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sleight-of-hand", die: 6, slot: 1 })).toBe("BID_TIE");
    expect(pairs(s, 0, "cheat-sleight-of-hand", "die", "slot")).toEqual([[1, 0], [1, 1], [1, 2], [6, 0], [6, 2]]);
    const bare = table(["cheat-sleight-of-hand"], { at: [[1, "supply", "supply"], [1, "supply", 2], ["supply", "supply", "supply"]] });
    expect(legalInstances(bare, 0, "cheat-sleight-of-hand")).toEqual([]);
  });
});

describe("Trade Places: swap one of your played dice with a played die belonging to another player", () => {
  it("the two dice trade places (on Items or the Altar); each still counts for its owner", () => {
    const t = play(table(["cheat-trade-places"]), [[0, { type: "cheat", card: "cheat-trade-places", die: 1, other: 5 }]]);
    expect([t.dice[1].at, t.dice[5].at]).toEqual([2, "altar"]);
    expect(view(t, { kind: "spectator" }).pot[2].bids).toEqual([2, 0, 0]);
  });

  it("one of your played dice and another player's played die; no tie or bid over 10", () => {
    const s = table(["cheat-trade-places"]);
    const code = (die: number, other: number) => codeOf(s, 0, { type: "cheat", card: "cheat-trade-places", die, other });
    expect(code(2, 3)).toBe("NOT_YOURS"); // unplayed
    expect(code(0, 7)).toBe("NOT_OTHERS"); // unplayed
    expect(code(0, 1)).toBe("NOT_OTHERS"); // your own
    expect(code(0, 6)).toBe("BID_TIE"); // seat 2's 5 onto slot 1 ties seat 1's 5
    expect(pairs(s, 0, "cheat-trade-places", "die", "other")).toEqual([[0, 3], [0, 5], [1, 3], [1, 5], [1, 6]]);
  });

  it("two dice on the same Item trade places: nothing moves, so a Clumsy player's 2 there triggers nothing", () => {
    // Seat 0 (Clumsy) has a 2 on slot 1, seat 1 a 5.
    const s = table(["cheat-trade-places"], { dice: [[2, 2, 6], [5, 6, 4], [5, 4, 1]], ongoing: [["cheat-clumsy"], [], []] });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-trade-places", die: 0, other: 3 }]]);
    const t = tg.state;
    expect(t.pending).toEqual([]);
    expect(t.dice).toEqual(s.dice);
    expect(tg.log.filter((e) => e.type === "move")).toEqual([]);
    // From the Altar it is a move: the Altar's 2 lands on slot 1, beside the other 2 (seat 1's 5 goes to the Altar).
    expect(play(s, [[0, { type: "cheat", card: "cheat-trade-places", die: 1, other: 3 }]]).pending).toEqual([{ kind: "clumsy", seat: 0, slot: 1, die: 1 }]);
  });
});

describe("Transposition: swap any 2 of your played dice", () => {
  it("two of your played dice swap places", () => {
    const t = play(table(["cheat-transposition"]), [[0, { type: "cheat", card: "cheat-transposition", die: 0, other: 1 }]]);
    expect([t.dice[0].at, t.dice[1].at]).toEqual(["altar", 1]);
    expect(view(t, { kind: "spectator" }).pot[1].bids).toEqual([2, 5, 0]);
  });

  it("two different played dice of yours; no tie; needs two played dice", () => {
    const s = table(["cheat-transposition"], { dice: [[4, 5, 6], [5, 6, 4], [5, 4, 1]] });
    const code = (die: number, other: number) => codeOf(s, 0, { type: "cheat", card: "cheat-transposition", die, other });
    expect(code(0, 1)).toBe("BID_TIE"); // your 5 onto slot 1 ties seat 1's 5
    expect(code(0, 0)).toBe("SAME_DIE");
    expect(code(0, 2)).toBe("NOT_YOURS");
    expect(legalInstances(s, 0, "cheat-transposition")).toEqual([]);
    expect(pairs(table(["cheat-transposition"]), 0, "cheat-transposition", "die", "other")).toEqual([[0, 1], [1, 0]]);
  });

  it("two of your dice on the same Item: nothing moves, so Clumsy triggers nothing", () => {
    // Seat 0 (Clumsy): a 2 and a 1 on slot 1 (3 against seat 1's 5).
    const s = table(["cheat-transposition"], { dice: [[2, 1, 6], [5, 6, 4], [5, 4, 1]], at: [[1, 1, "supply"], [1, "supply", 2], ["altar", "supply", "supply"]], ongoing: [["cheat-clumsy"], [], []] });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-transposition", die: 0, other: 1 }]]);
    const t = tg.state;
    expect(t.pending).toEqual([]);
    expect(t.dice).toEqual(s.dice);
    expect(tg.log.filter((e) => e.type === "move")).toEqual([]);
  });
});
