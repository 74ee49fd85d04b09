/** Borrow, Quick Fingers, Sneaky Sneaky, Swap, Table Bump: each card's effect, choices, and when it can't be played. */
import { describe, expect, it } from "vitest";
import { knowsCard } from "../cards.js";
import type { Logged } from "../../testing.js";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import { goblinTeeth as game } from "../index.js";
import { view } from "../view.js";
import type { GoblinTeethState } from "../state.js";

const values = (s: GoblinTeethState) => s.dice.map((d) => d.value);
const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);

/** 2 players: seat 0 has 4 + 2 on slot 1 (6) and an unplayed 6; seat 1 has 5 on slot 1 and unplayed 1, 3. Seat 0's turn. */
function table(hand: string[], more: Partial<Parameters<typeof position>[0]> = {}) {
  return deepFreeze(
    position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, 1, "supply"], [1, "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-1"],
      hands: [hand, ["cheat-pass"]],
      ...more,
    }),
  );
}

describe("Borrow: raise any die by 1 pip, then reduce any die by 1 pip", () => {
  it("raises then reduces (any dice, anyone's; the same die twice is allowed)", () => {
    const s = table(["cheat-borrow"]);
    const t = play(s, [[0, { type: "cheat", card: "cheat-borrow", raise: 2, reduce: 4 }]]);
    expect(values(t)).toEqual([4, 2, 6, 5, 1, 3]); // the 6 stays 6 and the 1 stays 1 (the 1-6 range)
    const g = played(s, [[0, { type: "cheat", card: "cheat-borrow", raise: 0, reduce: 3 }]]);
    const u = g.state;
    expect(values(u)).toEqual([5, 2, 6, 4, 1, 3]); // 7 vs 4 on slot 1
    expect(u.discard).toEqual(["cheat-borrow"]);
    expect(u.hands[0]).toEqual([]);
    expect(logOf(g, "cheat").at(-1)).toMatchObject({ seat: 0, card: "cheat-borrow", raise: 0, reduce: 3 });
    // Same die: a 6 raised stays 6, then is reduced to 5.
    expect(values(play(s, [[0, { type: "cheat", card: "cheat-borrow", raise: 2, reduce: 2 }]]))[2]).toBe(5);
  });

  it("can't be played with a result over 10 or a tie", () => {
    const s = table(["cheat-borrow"]);
    // Raising seat 1's 5 to 6 and reducing an unplayed die ties seat 0's 6 on slot 1.
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-borrow", raise: 3, reduce: 4 })).toBe("BID_TIE");
    // Seat 0 with 6 + 4 = 10: raising the 4 and reducing an unplayed die makes 11.
    const over = table(["cheat-borrow"], { dice: [[6, 4, 2], [5, 1, 3]] });
    expect(codeOf(over, 0, { type: "cheat", card: "cheat-borrow", raise: 1, reduce: 2 })).toBe("BID_OVER_10");
    expect(codeOf(over, 0, { type: "cheat", card: "cheat-borrow", raise: 1, reduce: 0 })).toBe("ok"); // 6+4 = 10 again
    const legal = legalInstances(s, 0, "cheat-borrow");
    expect(legal).toContainEqual({ type: "cheat", card: "cheat-borrow", raise: 0, reduce: 3 });
    expect(legal).not.toContainEqual({ type: "cheat", card: "cheat-borrow", raise: 3, reduce: 4 });
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-borrow", raise: 99, reduce: 0 })).toBe("BAD_DIE");
  });
});

describe("Quick Fingers: discard any number of cards; for each, raise any die by 1 pip then reduce any die by 1 pip", () => {
  it("discards one card at a time (Cheat cards face up, Items unseen into the Item deck), each with a raise and a reduce; decline stops", () => {
    const s = table(["cheat-quick-fingers", "cheat-swap", "item-emerald-1"]);
    let g = played(s, [[0, { type: "cheat", card: "cheat-quick-fingers" }]]);
    let t = g.state;
    expect(t.pending).toEqual([{ kind: "quick-fingers", seat: 0, card: "cheat-quick-fingers" }]);
    expect(game.legalActions(t, 0).map((l) => l.type)).toEqual([...Array(game.legalActions(t, 0).length - 1).fill("quick-fingers"), "decline"]);
    expect(codeOf(t, 0, { type: "place", die: 2, slot: 0 })).toBe("WRONG_STEP");
    g = played(g, [[0, { type: "quick-fingers", discard: "cheat-swap", raise: 0, reduce: 3 }]]);
    t = g.state;
    expect(values(t).slice(0, 4)).toEqual([5, 2, 6, 4]);
    expect(t.discard).toEqual(["cheat-swap"]);
    g = played(g, [[0, { type: "quick-fingers", discard: "item-emerald-1", raise: 1, reduce: 3 }]]);
    t = g.state;
    expect(values(t).slice(0, 4)).toEqual([5, 3, 6, 3]);
    expect(t.itemDeck).toContain("item-emerald-1");
    expect(JSON.stringify(logOf(g, "quick-fingers"))).not.toContain("item-emerald-1");
    // Hand empty: only decline is left.
    expect(game.legalActions(t, 0).map((l) => l.type)).toEqual(["decline"]);
    t = play(t, [[0, { type: "decline" }]]);
    expect(t.pending).toEqual([]);
    expect(t.discard).toEqual(["cheat-swap", "cheat-quick-fingers"]);
    expect(t.turn).toBe(0); // still to place a die
  });

  it("each discard's raise-and-reduce must leave no tie and no bid over 10; discarding nothing is allowed", () => {
    const s = table(["cheat-quick-fingers", "cheat-swap"]);
    const t = play(s, [[0, { type: "cheat", card: "cheat-quick-fingers" }]]);
    expect(codeOf(t, 0, { type: "quick-fingers", discard: "cheat-swap", raise: 3, reduce: 4 })).toBe("BID_TIE");
    expect(codeOf(t, 0, { type: "quick-fingers", discard: "cheat-pass", raise: 0, reduce: 4 })).toBe("NOT_IN_HAND");
    expect(codeOf(play(t, [[0, { type: "decline" }]]), 0, { type: "decline" })).toBe("WRONG_STEP");
  });

  it("with no other card in hand there is nothing it could discard: it can't be played", () => {
    const s = table(["cheat-quick-fingers"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-quick-fingers" })).toBe("NOT_ENOUGH_CARDS");
    expect(legalInstances(s, 0, "cheat-quick-fingers")).toEqual([]);
  });
});

describe("Sneaky Sneaky: peek at the face-down Item, then set any unplayed die to 3 or 4", () => {
  it("the player (only) learns the face-down Item and keeps knowing it; any unplayed die becomes 3 or 4", () => {
    const s = table(["cheat-sneaky-sneaky"]);
    const g = played(s, [[0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 4, value: 4 }]]);
    const t = g.state;
    expect(t.dice[4].value).toBe(4);
    expect(knowsCard(t, "item-bone-1", { kind: "seat", seat: 0 })).toBe(true);
    expect(knowsCard(t, "item-bone-1", { kind: "seat", seat: 1 })).toBe(false);
    expect(view(t, { kind: "seat", seat: 0 }).pot[0]).toMatchObject({ faceDown: true, card: "item-bone-1", item: { type: "bone" } });
    expect(view(t, { kind: "seat", seat: 1 }).pot[0]).toMatchObject({ faceDown: true, item: null });
    expect(logOf(g, "peeked")[0]).toMatchObject({ to: [0], card: "item-bone-1" });
    expect(logOf(g, "peek")[0].to).toBeUndefined();
  });

  it("only unplayed dice, only 3 or 4", () => {
    const s = table(["cheat-sneaky-sneaky"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 0, value: 3 })).toBe("NOT_UNPLAYED");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 2, value: 5 })).toBe("BAD_VALUE");
    const legal = legalInstances(s, 0, "cheat-sneaky-sneaky");
    expect(legal.map((a) => [a.die, a.value])).toEqual([[2, 3], [2, 4], [4, 3], [4, 4], [5, 3], [5, 4]]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: "none", value: "none" })).toBe("BAD_DIE");
  });

  /** 2 players, the Item deck empty; seat 1 is about to place the round's last die; seat 0 holds Patient. */
  const lastDie = (hand: string[]) =>
    deepFreeze(
      position({
        players: 2,
        dice: [[4, 2, 6], [5, 1, 3]],
        at: [[1, "altar", "supply"], [1, "altar", "supply"]],
        pot: ["item-bone-1", "item-tooth-1"],
        hands: [hand, []],
        ongoing: [["cheat-patient"], []],
        itemDeck: [],
      }),
    );

  it("with no unplayed die (at the end of the round, with Patient) it still peeks: die and value \"none\"", () => {
    const f = played(lastDie(["cheat-sneaky-sneaky"]), [[0, { type: "altar", die: 2 }], [1, { type: "altar", die: 5 }]]);
    const s = f.state;
    expect(s.pending).toEqual([{ kind: "patient", seat: 0 }]);
    expect(legalInstances(s, 0, "cheat-sneaky-sneaky")).toEqual([{ type: "cheat", card: "cheat-sneaky-sneaky", die: "none", value: "none" }]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 2, value: 3 })).toBe("NO_UNPLAYED_DICE");
    const g = played(f, [[0, { type: "cheat", card: "cheat-sneaky-sneaky", die: "none", value: "none" }]]);
    expect(logOf(g, "peeked").at(-1)).toMatchObject({ to: [0], card: "item-bone-1" });
    expect(logOf(g, "die").filter((e) => e.reason === "sneaky-sneaky")).toEqual([]);
    expect(g.state.round).toBe(2); // the card resolved, the round ended
  });

  it("with no face-down Item (Refresh took it away) it only sets the die; with neither it can't be played", () => {
    // The Item deck is empty: Refresh on the face-down Item takes it out of the Pot.
    const f = played(lastDie(["cheat-refresh", "cheat-sneaky-sneaky"]), [[0, { type: "cheat", card: "cheat-refresh", slot: 0 }]]);
    const s = f.state;
    expect(s.pot.map((p) => p.faceDown)).toEqual([false]);
    const g = played(f, [[0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 5, value: 4 }]]);
    expect(g.state.dice[5].value).toBe(4);
    expect(logOf(g, "peek")).toEqual([]);
    // After the last die, at the end of the round: nothing left that Sneaky Sneaky could do.
    const end = play(lastDie(["cheat-refresh", "cheat-sneaky-sneaky", "cheat-blessed"]), [
      [0, { type: "cheat", card: "cheat-refresh", slot: 0 }],
      [0, { type: "altar", die: 2 }],
      [1, { type: "altar", die: 5 }],
    ]);
    expect(end.pending).toEqual([{ kind: "patient", seat: 0 }]);
    expect(codeOf(end, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: "none", value: "none" })).toBe("NO_UNPLAYED_DICE");
    expect(legalInstances(end, 0, "cheat-sneaky-sneaky")).toEqual([]);
  });
});

describe("Swap: exchange the values of any 2 unplayed dice", () => {
  it("swaps the faces of two unplayed dice (anyone's)", () => {
    const t = play(table(["cheat-swap"]), [[0, { type: "cheat", card: "cheat-swap", die: 2, other: 4 }]]);
    expect(t.dice[2].value).toBe(1);
    expect(t.dice[4].value).toBe(6);
  });

  it("not played dice, not the same die twice; needs two unplayed dice", () => {
    const s = table(["cheat-swap"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-swap", die: 0, other: 4 })).toBe("NOT_UNPLAYED");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-swap", die: 4, other: 4 })).toBe("SAME_DIE");
    const one = table(["cheat-swap"], { at: [[1, 1, "supply"], [1, "altar", "altar"]] });
    expect(legalInstances(one, 0, "cheat-swap")).toEqual([]);
  });
});

describe("Table Bump: change all of your unplayed dice to the number on the opposite side", () => {
  it("turns each unplayed die of yours to 7 minus its face; placed dice and others' dice stay", () => {
    const s = table(["cheat-table-bump"], { at: [["supply", 1, "supply"], [1, "supply", "supply"]], dice: [[4, 2, 6], [5, 1, 3]] });
    const t = play(s, [[0, { type: "cheat", card: "cheat-table-bump" }]]);
    expect(values(t)).toEqual([3, 2, 1, 5, 1, 3]);
  });
});
