/** Exchange, Refresh, Switcheroo: effect, choices, when they can't be played. */
import { describe, expect, it } from "vitest";
import { knowsCard } from "../cards.js";
import type { Logged } from "../../testing.js";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import { view } from "../view.js";
import type { GoblinTeethState } from "../state.js";

const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);
const seat = (n: number) => ({ kind: "seat" as const, seat: n });

/** 2 players; seat 0 has 4 on slot 1; Item deck: emerald-5, then button-4. */
function table(hand: string[], more: Partial<Parameters<typeof position>[0]> = {}) {
  return deepFreeze(
    position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, "supply", "supply"], ["supply", "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-1"],
      hands: [hand, ["item-worms-1"]],
      itemDeck: ["item-emerald-5", "item-button-4"],
      ...more,
    }),
  );
}

describe("Exchange: discard an Item from your hand to draw an Item from the deck", () => {
  it("draws the top Item; the discarded one is shuffled (unseen) into the Item deck afterwards", () => {
    const s = table(["cheat-exchange", "item-bone-2"]);
    const tg = played(s, [[0, { type: "cheat", card: "cheat-exchange", item: "item-bone-2" }]]);
    const t = tg.state;
    expect(t.hands[0]).toEqual(["item-emerald-5"]);
    expect([...t.itemDeck].sort()).toEqual(["item-bone-2", "item-button-4"]);
    expect(logOf(tg, "cheat").at(-1)).not.toHaveProperty("item");
    expect(logOf(tg, "exchanged").at(-1)).toMatchObject({ to: [0], gave: { type: "bone" }, got: "item-emerald-5" });
    expect(JSON.stringify(tg.log.filter((e) => !e.to))).not.toContain("item-bone-2");
  });

  it("needs an Item in your hand (not a Cheat card, not another's)", () => {
    const s = table(["cheat-exchange", "cheat-pass"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-exchange", item: "cheat-pass" })).toBe("NOT_AN_ITEM");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-exchange", item: "item-worms-1" })).toBe("NOT_IN_HAND");
    expect(legalInstances(s, 0, "cheat-exchange")).toEqual([]);
  });

  it("with the Item deck empty it still discards the Item (into the Item deck, unseen) and draws nothing", () => {
    const s = table(["cheat-exchange", "item-bone-2", "item-emerald-1"], { itemDeck: [] });
    expect(legalInstances(s, 0, "cheat-exchange").map((a) => a.item)).toEqual(["item-bone-2", "item-emerald-1"]);
    const tg = played(s, [[0, { type: "cheat", card: "cheat-exchange", item: "item-bone-2" }]]);
    const t = tg.state;
    expect(t.hands[0]).toEqual(["item-emerald-1"]);
    expect(t.itemDeck).toEqual(["item-bone-2"]);
    expect(t.discard).toEqual(["cheat-exchange"]);
    expect(logOf(tg, "exchange").at(-1)).toEqual({ type: "exchange", seat: 0, drew: false, n: expect.any(Number) });
    expect(logOf(tg, "exchanged").at(-1)).toMatchObject({ to: [0], gave: { type: "bone" }, got: null });
    expect(JSON.stringify(tg.log.filter((e) => !e.to))).not.toContain("item-bone-2");
  });
});

describe("Refresh: discard an Item in the Pot without any dice on it and replace it with the top card of the Item deck", () => {
  it("replaces a face-up Item (publicly) or the face-down one (unseen, still face down)", () => {
    const s = table(["cheat-refresh"], { at: [["supply", "supply", "supply"], ["supply", "supply", "supply"]] });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-refresh", slot: 1 }]]);
    const t = tg.state;
    expect(t.pot[1]).toEqual({ item: "item-emerald-5", faceDown: false });
    expect([...t.itemDeck].sort()).toEqual(["item-button-4", "item-tooth-1"]);
    expect(logOf(tg, "refresh").at(-1)).toMatchObject({ slot: 1, discarded: { type: "tooth" }, item: { type: "emerald" } });
    const peeked = { ...s, knowledge: { ...s.knowledge, "item-bone-1": [1] } };
    const ug = played(peeked, [[0, { type: "cheat", card: "cheat-refresh", slot: 0 }]]);
    const u = ug.state;
    expect(u.pot[0]).toEqual({ item: "item-emerald-5", faceDown: true });
    expect(logOf(ug, "refresh").at(-1)).toMatchObject({ slot: 0, faceDown: true, discarded: null, item: null });
    expect(knowsCard(u, "item-emerald-5", seat(1))).toBe(false);
    expect(u.knowledge["item-bone-1"]).toBeUndefined();
  });

  it("only an Item without dice", () => {
    const s = table(["cheat-refresh"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-refresh", slot: 1 })).toBe("HAS_DICE");
    expect(legalInstances(s, 0, "cheat-refresh").map((a) => a.slot)).toEqual([0]);
  });

  it("with the Item deck empty it still discards the Item: its place leaves the Pot, the Items after it move up with their dice", () => {
    // 3 slots; seat 0's 4 is on slot 2 (worms).
    const s = table(["cheat-refresh"], {
      pot: ["item-bone-1", "item-tooth-1", "item-worms-2"],
      at: [[2, "supply", "supply"], ["supply", "supply", "supply"]],
      itemDeck: [],
    });
    expect(legalInstances(s, 0, "cheat-refresh").map((a) => a.slot)).toEqual([0, 1]);
    const tg = played(s, [[0, { type: "cheat", card: "cheat-refresh", slot: 1 }]]);
    const t = tg.state;
    expect(t.pot).toEqual([{ item: "item-bone-1", faceDown: true }, { item: "item-worms-2", faceDown: false }]);
    expect(t.dice[0].at).toBe(1);
    expect(t.itemDeck).toEqual(["item-tooth-1"]);
    expect(logOf(tg, "refresh").at(-1)).toMatchObject({ slot: 1, faceDown: false, discarded: { type: "tooth" }, item: null, removed: true });
    expect(view(t, seat(1)).pot.map((p) => [p.slot, p.item?.type ?? null, p.bids])).toEqual([[0, null, [0, 0]], [1, "worms", [4, 0]]]);
    expect(codeOf(t, 0, { type: "place", die: 1, slot: 2 })).toBe("BAD_SLOT");
  });

  it("the face-down Item refreshed away with the Item deck empty: no face-down Item this round (Switcheroo can't be played; the first player keeps the token)", () => {
    const s = table(["cheat-refresh", "cheat-switcheroo", "item-mushroom-2"], { itemDeck: [], firstPlayer: 1, knowledge: { "item-bone-1": [1] } });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-refresh", slot: 0 }]]);
    const t = tg.state;
    expect(t.pot).toEqual([{ item: "item-tooth-1", faceDown: false }]);
    expect(t.dice[0].at).toBe(0);
    expect(t.itemDeck).toEqual(["item-bone-1"]);
    expect(t.knowledge["item-bone-1"]).toBeUndefined();
    expect(logOf(tg, "refresh").at(-1)).toMatchObject({ slot: 0, faceDown: true, discarded: null, item: null, removed: true });
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-switcheroo", item: "item-mushroom-2" })).toBe("NO_FACE_DOWN");
    expect(legalInstances(t, 0, "cheat-switcheroo")).toEqual([]);
    const u = play(t, [
      [0, { type: "altar", die: 1 }],
      [1, { type: "altar", die: 3 }],
      [0, { type: "altar", die: 2 }],
      [1, { type: "altar", die: 4 }],
      [1, { type: "altar", die: 5 }],
    ]);
    expect(u.round).toBe(2);
    expect(u.lastAwards).toEqual([{ slot: 0, faceDown: false, seat: 0, bid: 4 }]);
    expect(u.firstPlayer).toBe(1);
    expect(u.pot).toEqual([{ item: "item-bone-1", faceDown: true }]);
  });
});

describe("Switcheroo: take the face-down Item from the Pot and replace it with an Item from your hand", () => {
  it("swaps: you know both; nobody else learns either; bids on the slot stay", () => {
    const s = table(["cheat-switcheroo", "item-mushroom-2"], { at: [[0, "supply", "supply"], ["supply", "supply", "supply"]] });
    const tg = played(s, [[0, { type: "cheat", card: "cheat-switcheroo", item: "item-mushroom-2" }]]);
    const t = tg.state;
    expect(t.pot[0]).toEqual({ item: "item-mushroom-2", faceDown: true });
    expect(t.hands[0]).toEqual(["item-bone-1"]);
    expect(t.dice[0].at).toBe(0);
    expect(view(t, seat(0)).pot[0]).toMatchObject({ card: "item-mushroom-2", item: { type: "mushroom" } });
    expect(view(t, seat(1)).pot[0].item).toBeNull();
    expect(logOf(tg, "switched").at(-1)).toMatchObject({ to: [0], took: "item-bone-1", put: "item-mushroom-2" });
    expect(logOf(tg, "cheat").at(-1)).not.toHaveProperty("item");
    // Whoever peeked at the old face-down Item sees it went into this hand.
    const peeked = play({ ...s, knowledge: { ...s.knowledge, "item-bone-1": [1] } }, [[0, { type: "cheat", card: "cheat-switcheroo", item: "item-mushroom-2" }]]);
    expect(view(peeked, seat(1)).seats[0].known).toEqual(["item-bone-1"]);
    expect(view(peeked, seat(1)).pot[0].item).toBeNull();
  });

  it("needs an Item from your own hand (chosen before taking: not the one you take)", () => {
    const s = table(["cheat-switcheroo", "cheat-pass"]);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-switcheroo", item: "cheat-pass" })).toBe("NOT_AN_ITEM");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-switcheroo", item: "item-bone-1" })).toBe("NOT_IN_HAND");
    expect(legalInstances(s, 0, "cheat-switcheroo")).toEqual([]);
  });
});
