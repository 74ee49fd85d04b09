/** End of round, the first player token, winning and its tie-breaks, the Advanced Play variant. */
import { describe, expect, it } from "vitest";
import { knowsCard } from "./cards.js";
import type { Logged } from "../testing.js";
import { codeOf, play, played, position } from "./fixtures.js";
import { goblinTeeth as game } from "./index.js";
import { view } from "./view.js";
import type { DieSpot, GoblinTeethState } from "./state.js";

const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);
const FIVE = ["item-tooth-1", "item-emerald-1", "item-worms-1", "item-mushroom-1", "item-bone-1"]; // the 6-Item Offering but a Button

/** Everyone's dice on the Altar but seat `last`'s die `3 * last`, which is its turn. */
function lastDie(players: number, last: number, extra: Partial<Parameters<typeof position>[0]> = {}) {
  const at: DieSpot[][] = Array.from({ length: players }, (_, seat) => (seat === last ? ["supply", "altar", "altar"] : ["altar", "altar", "altar"]));
  return position({
    players,
    dice: Array.from({ length: players }, () => [3, 2, 1]),
    at,
    pot: ["item-button-1", "item-button-2", "item-worms-5"].slice(0, players),
    turn: last,
    offerings: ["six", "A1", "B1"],
    ...extra,
  });
}

describe("end of round", () => {
  it("awards Items to the highest bidders; the face-down Item's taker gets the first player token and keeps it secret", () => {
    const s = position({
      players: 3,
      dice: [[5, 2, 4], [3, 6, 1], [4, 1, 2]],
      at: [[0, 1, "altar"], [0, "altar", "altar"], ["supply", "altar", "altar"]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1"],
      turn: 2,
      firstPlayer: 1,
      offerings: ["six", "A1", "B1"],
    });
    const hands = s.hands.map((h) => [...h]);
    const deck = s.cheatDeck.slice(0, 2);
    const tg = played(s, [[2, { type: "altar", die: 6 }]]);
    const t = tg.state;
    expect(t.round).toBe(2);
    expect(t.lastAwards).toEqual([
      { slot: 0, faceDown: true, seat: 0, bid: 5 },
      { slot: 1, faceDown: false, seat: 0, bid: 2 },
      { slot: 2, faceDown: false, seat: null, bid: null },
    ]);
    expect(t.firstPlayer).toBe(0);
    expect(t.hands[0]).toEqual([...hands[0], "item-bone-1", "item-tooth-1"]);
    // Seats 1 and 2 took nothing: they draw, from the new first player clockwise.
    expect(t.hands[1]).toEqual([...hands[1], deck[0]]);
    expect(t.hands[2]).toEqual([...hands[2], deck[1]]);
    // The unbid Worms went back into the Item deck (shuffled); a new Pot is dealt and dice rerolled.
    expect([...t.itemDeck, ...t.pot.map((p) => p.item)]).toContain("item-worms-1");
    expect(t.pot).toHaveLength(3);
    expect(t.dice.every((d) => d.at === "supply")).toBe(true);
    // Nobody else learns what the face-down Item was; the taker does (privately).
    expect(logOf(tg, "award")[0]).toMatchObject({ slot: 0, seat: 0, faceDown: true, item: null });
    expect(logOf(tg, "took-face-down")[0]).toMatchObject({ to: [0], card: "item-bone-1" });
    expect(knowsCard(t, "item-bone-1", { kind: "seat", seat: 1 })).toBe(false);
    expect(logOf(tg, "award")[1]).toMatchObject({ slot: 1, seat: 0, item: { type: "tooth" } });
    expect(JSON.stringify(logOf(tg, "award"))).not.toContain("item-tooth-1");
  });

  it("the face-down Item without bids: the first player keeps the token", () => {
    const s = lastDie(2, 1, { firstPlayer: 1 });
    const t = play(s, [[1, { type: "place", die: 3, slot: 1 }]]);
    expect(t.lastAwards![0]).toMatchObject({ seat: null });
    expect(t.firstPlayer).toBe(1);
    expect(t.turn).toBe(1);
    expect(t.hands[0]).toHaveLength(1); // seat 0 took nothing and drew
  });

  it("an empty Item deck at the start of a round ends the game (places by Goblin Teeth)", () => {
    const s = lastDie(2, 0, { itemDeck: [], pot: ["item-button-1"], hands: [["item-tooth-6"], ["item-tooth-1", "item-tooth-2", "item-tooth-3"]] });
    const t = play(s, [[0, { type: "place", die: 0, slot: 0 }]]);
    expect(t.phase).toBe("over");
    expect(t.result).toMatchObject({ reason: "items-exhausted", teeth: [2, 3], scores: [2, 3], places: [2, 1], winners: [1] });
  });

  it("a short Item deck deals a smaller Pot (the face-down Item first)", () => {
    const s = lastDie(3, 0, { itemDeck: ["item-emerald-5"] });
    const t = play(s, [[0, { type: "altar", die: 0 }]]);
    expect(t.phase).toBe("turn");
    expect(t.pot.length).toBeGreaterThanOrEqual(1);
    expect(t.pot[0].faceDown).toBe(true);
  });
});

describe("winning", () => {
  it("completing an Offering at the end of the round ends the game; hands are revealed", () => {
    const s = lastDie(2, 0, { hands: [[...FIVE, "cheat-pass"], ["cheat-swap"]] });
    const tg = played(s, [[0, { type: "place", die: 0, slot: 1 }]]);
    const t = tg.state;
    expect(t.phase).toBe("over");
    expect(game.isOver(t)).toBe(true);
    expect(t.result).toMatchObject({ reason: "offering", completed: ["six", null], winners: [0], places: [1, 2] });
    expect(game.outcome(t)).toMatchObject({ scores: [301, 0], places: [1, 2] });
    const reveal = logOf(tg, "reveal")[0];
    expect(reveal.to).toBeUndefined();
    expect(reveal.hands).toEqual(t.hands);
    for (const viewer of [{ kind: "spectator" as const }, { kind: "seat" as const, seat: 1 }]) {
      const v = view(t, viewer);
      expect(v.reveal!.hands.map((h) => h.map((c) => c.card))).toEqual(t.hands);
      expect(v.outcome).toEqual(game.outcome(t));
      expect(v.mine).toBeNull();
    }
    expect(codeOf(t, 1, { type: "altar", die: 3 })).toBe("GAME_OVER");
    expect(game.activeSeats(t)).toEqual([]);
  });

  it("two complete at once: 6-Item beats A beats B, then most Goblin Teeth, then a shared win", () => {
    // Seat 0 completes B1 (3 worms + any), seat 1 the 6-Item Offering (after taking the Button).
    const b1 = ["item-worms-1", "item-worms-2", "item-worms-3", "item-tooth-6", "item-tooth-7"];
    const t = play(lastDie(2, 1, { hands: [b1, FIVE] }), [[1, { type: "place", die: 3, slot: 1 }]]);
    expect(t.result).toMatchObject({ completed: ["B1", "six"], winners: [1], places: [2, 1] });
    // Both complete a B (two pairs): the one with more teeth wins.
    const u = play(
      lastDie(2, 1, {
        offerings: ["six", "A1", "B4"],
        hands: [["item-worms-1", "item-worms-2", "item-bone-1", "item-bone-2", "item-tooth-6", "item-tooth-7"], ["item-worms-3", "item-worms-4", "item-bone-3", "item-tooth-1"]],
        pot: ["item-emerald-1", "item-bone-4"],
      }),
      [[1, { type: "place", die: 3, slot: 1 }]],
    );
    expect(u.result).toMatchObject({ completed: ["B4", "B4"], teeth: [4, 1], winners: [0], places: [1, 2] });
    // Same Offering level and teeth: a shared win.
    const x = play(
      lastDie(2, 1, {
        offerings: ["six", "A1", "B4"],
        hands: [["item-worms-1", "item-worms-2", "item-bone-1", "item-bone-2", "item-tooth-1"], ["item-worms-3", "item-worms-4", "item-bone-3", "item-bone-4", "item-tooth-2"]],
        pot: ["item-emerald-1", "item-button-1"],
      }),
      [[1, { type: "altar", die: 3 }]],
    );
    expect(x.result).toMatchObject({ completed: ["B4", "B4"], teeth: [1, 1], winners: [0, 1], places: [1, 1] });
  });
});

describe("Advanced Play", () => {
  it("each player completes the 6-Item Offering or their own A or B; another's Offering doesn't count", () => {
    const s = lastDie(2, 1, {
      advanced: true,
      offerings: ["six"],
      seatOfferings: [["A1", "B1"], ["A2", "B2"]],
      hands: [["item-tooth-6", "item-tooth-7"], ["item-worms-1", "item-worms-2", "item-worms-3"]],
      pot: ["item-bone-1", "item-emerald-1"],
    });
    const v = view(s, { kind: "spectator" });
    expect(v.offerings.map((o) => o.id)).toEqual(["six"]);
    expect(v.seats.map((x) => x.offerings!.map((o) => o.id))).toEqual([["A1", "B1"], ["A2", "B2"]]);
    // Seat 1 takes the Emerald: B1 (3 worms + any) is seat 0's, not theirs; B2 would need 4 teeth.
    const t = play(s, [[1, { type: "place", die: 3, slot: 1 }]]);
    expect(t.phase).not.toBe("over");
    // Seat 0 with 4 teeth and an Emerald completes nothing of theirs either (B2 is seat 1's).
    const u = lastDie(2, 0, { advanced: true, offerings: ["six"], seatOfferings: [["A1", "B1"], ["A2", "B2"]], hands: [["item-tooth-6", "item-tooth-7"], []], pot: ["item-bone-1", "item-emerald-1"] });
    expect(play(u, [[0, { type: "place", die: 0, slot: 1 }]]).phase).not.toBe("over");
    const w = lastDie(2, 0, { advanced: true, offerings: ["six"], seatOfferings: [["A1", "B2"], ["A2", "B1"]], hands: [["item-tooth-6", "item-tooth-7"], []], pot: ["item-bone-1", "item-emerald-1"] });
    expect(play(w, [[0, { type: "place", die: 0, slot: 1 }]]).result).toMatchObject({ completed: ["B2", null], winners: [0] });
  });

  it("setup deals every player their own A and B; the room option turns it on", () => {
    const s = game.setup({ players: 3, options: { advanced: true }, seed: "adv" }).state;
    expect(s.advanced).toBe(true);
    expect(s.seatOfferings).toHaveLength(3);
    expect(new Set(s.seatOfferings!.flat()).size).toBe(6);
  });
});
