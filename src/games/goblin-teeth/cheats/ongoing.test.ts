/** The nine Ongoing cards: playing one in front of a player, and each one's effect. */
import { describe, expect, it } from "vitest";
import type { Logged } from "../../testing.js";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import { goblinTeeth as game } from "../index.js";
import { view } from "../view.js";
import type { DieSpot, GoblinTeethState } from "../state.js";

const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);
const POT = ["item-bone-1", "item-tooth-1", "item-worms-1"];

function table(more: Partial<Parameters<typeof position>[0]> & { hands: string[][] }) {
  return deepFreeze(position({ players: 3, dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]], pot: POT, ...more }));
}

/** The first seed for which `f` returns a state satisfying `ok`. */
function firstSeed<T>(f: (seed: string) => T, ok: (t: T) => boolean): T {
  for (let i = 0; i < 500; i++) {
    const t = f(`seed-${i}`);
    if (ok(t)) return t;
  }
  throw new Error("no seed found");
}

describe("playing an Ongoing card", () => {
  it("goes in front of any player, yourself included; stays there (public)", () => {
    const s = table({ hands: [["cheat-cursed", "cheat-priest"], [], []] });
    expect(legalInstances(s, 0, "cheat-cursed").map((a) => a.target)).toEqual([0, 1, 2]);
    const t = play(s, [[0, { type: "cheat", card: "cheat-cursed", target: 2 }], [0, { type: "cheat", card: "cheat-priest", target: 0 }]]);
    expect(t.ongoing).toEqual([["cheat-priest"], [], ["cheat-cursed"]]);
    expect(t.discard).toEqual([]);
    expect(view(t, { kind: "spectator" }).seats.map((x) => x.ongoing)).toEqual(t.ongoing);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-cursed", target: 3 })).toBe("BAD_TARGET");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-cursed" })).toBe("UNKNOWN_ACTION");
  });
});

describe("Blessed: anytime you roll a 1 you may reroll that die", () => {
  it("a holder's die rolled to 1 (by anyone) offers its holder a reroll, which may repeat; declining keeps the 1", () => {
    const tg = firstSeed(
      (seed) => played(table({ hands: [["cheat-distraction"], [], []], ongoing: [[], ["cheat-blessed"], []], seed }), [[0, { type: "cheat", card: "cheat-distraction", die: 5 }]]),
      (x) => x.state.dice[5].value === 1,
    );
    const t = tg.state;
    expect(t.pending).toEqual([{ kind: "blessed", seat: 1, die: 5 }]);
    expect(game.activeSeats(t)).toEqual([1]);
    expect(game.legalActions(t, 1).map((l) => l.type)).toEqual(["reroll", "decline"]);
    const kept = play(t, [[1, { type: "decline" }]]);
    expect(kept.dice[5].value).toBe(1);
    expect(game.activeSeats(kept)).toEqual([0]);
    const againg = played(tg, [[1, { type: "reroll" }]]);
    const again = againg.state;
    expect(logOf(againg, "die").at(-1)).toMatchObject({ die: 5, reason: "blessed", rolled: true });
    if (again.dice[5].value === 1) expect(again.pending[0]).toMatchObject({ kind: "blessed", die: 5 });
    else expect(again.pending).toEqual([]);
  });

  it("also at the start of a round; no offer to players without Blessed", () => {
    const s = firstSeed(
      (seed) => play(position({ players: 2, dice: [[3, 2, 1], [3, 2, 1]], at: [["supply", "altar", "altar"], ["altar", "altar", "altar"]], pot: POT.slice(0, 2), ongoing: [["cheat-blessed"], []], seed }), [[0, { type: "altar", die: 0 }]]),
      (x) => x.dice.slice(0, 3).some((d) => d.value === 1),
    );
    expect(s.phase).toBe("start");
    expect(s.pending.every((p) => p.kind === "blessed" && p.seat === 0)).toBe(true);
    let t = s;
    while (t.phase === "start") t = play(t, [[0, { type: "decline" }]]);
    expect(t.phase).toBe("turn");
  });
});

describe("Cursed: anytime you roll a 6 on one of your dice, reroll that die", () => {
  it("a holder's rolls never stop on 6 (other players' do)", () => {
    let sixes = 0;
    for (let i = 0; i < 60; i++) {
      const s = table({ hands: [["cheat-total-re-roll"], [], []], ongoing: [["cheat-cursed"], [], []], seed: `c${i}` });
      const t = play(s, [[0, { type: "cheat", card: "cheat-total-re-roll" }]]);
      expect(t.dice.slice(0, 3).some((d) => d.value === 6)).toBe(false);
      const u = play(table({ hands: [["cheat-total-re-roll"], [], []], seed: `c${i}` }), [[0, { type: "cheat", card: "cheat-total-re-roll" }]]);
      sixes += u.dice.slice(0, 3).filter((d) => d.value === 6).length;
    }
    expect(sixes).toBeGreaterThan(0);
  });
});

describe("Clumsy: whenever you play or move a 1 or 2 onto an Item, you may reroll any other die on that Item", () => {
  const at: DieSpot[][] = [["supply", "supply", "supply"], [1, "supply", "supply"], [1, "supply", "supply"]];

  it("placing a 1 or 2 onto an Item offers a reroll of another die there (tie/over-10 rules apply)", () => {
    const s = table({ hands: [[], [], []], dice: [[4, 2, 6], [5, 1, 3], [3, 6, 1]], at, ongoing: [["cheat-clumsy"], [], []] });
    const tg = played(s, [[0, { type: "place", die: 1, slot: 1 }]]);
    const t = tg.state;
    expect(t.pending).toEqual([{ kind: "clumsy", seat: 0, slot: 1, die: 1 }]);
    expect(legalInstances(t, 0)).toEqual([{ type: "clumsy", die: 3 }, { type: "clumsy", die: 6 }, { type: "decline" }]);
    expect(codeOf(t, 0, { type: "clumsy", die: 1 })).toBe("BAD_DIE");
    const ug = played(tg, [[0, { type: "clumsy", die: 3 }]]);
    const u = ug.state;
    expect(logOf(ug, "die").at(-1)).toMatchObject({ die: 3, reason: "clumsy" });
    expect(u.turn).toBe(1);
    const v = play(t, [[0, { type: "decline" }]]);
    expect(v.dice[3].value).toBe(5);
  });

  it("not for a 3+, not for someone without Clumsy, not with no other die there; moves count too", () => {
    const s = table({ hands: [["cheat-reposition"], [], []], dice: [[4, 2, 6], [5, 1, 3], [3, 6, 1]], at: [[2, "supply", "supply"], [1, "supply", "supply"], [1, "supply", "supply"]], ongoing: [["cheat-clumsy"], [], []] });
    expect(play(s, [[0, { type: "place", die: 2, slot: 1 }]]).pending).toEqual([]);
    expect(play(s, [[0, { type: "place", die: 1, slot: 0 }]]).pending).toEqual([]);
    const plain = table({ hands: [[], [], []], dice: [[4, 2, 6], [5, 1, 3], [3, 6, 1]], at });
    expect(play(plain, [[0, { type: "place", die: 1, slot: 1 }]]).pending).toEqual([]);
    // Reposition (by the Clumsy player) moving seat 2's 2 onto slot 2, where seat 0's 4 is.
    const low = table({ hands: [["cheat-reposition"], [], []], dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]], at: [[2, "supply", "supply"], [1, "supply", "supply"], [1, "supply", "supply"]], ongoing: [["cheat-clumsy"], [], []] });
    const moved = play(low, [[0, { type: "cheat", card: "cheat-reposition", die: 6, slot: 2 }]]);
    expect(moved.pending).toEqual([{ kind: "clumsy", seat: 0, slot: 2, die: 6 }]);
  });

  it("only a die that actually moves onto an Item: every card that moves dice, and two dice trading places on one Item, which moves nothing", () => {
    // Seat 0 (Clumsy): die 0 = 1 on slot 1, die 1 = 2 on the Altar, die 2 = 3 unplayed.
    // Seat 1: die 3 = 5 on slot 1, die 4 = 1 unplayed, die 5 = 4 on slot 2. Seat 2: die 6 = 6 on slot 2, die 7 = 2 on the Altar, die 8 = 3 unplayed.
    const cards = ["cheat-let-me-help", "cheat-reposition", "cheat-sleight-of-hand", "cheat-trade-places", "cheat-transposition"];
    const s = table({
      hands: [cards, [], []],
      dice: [[1, 2, 3], [5, 1, 4], [6, 2, 3]],
      at: [[1, "altar", "supply"], [1, "supply", 2], [2, "altar", "supply"]],
      ongoing: [["cheat-clumsy"], [], []],
    });
    const offered = (action: Record<string, unknown>) => play(s, [[0, { type: "cheat", ...action }]]).pending.filter((p) => p.kind === "clumsy");
    expect(offered({ card: "cheat-let-me-help", die: 4, slot: 2 })).toEqual([{ kind: "clumsy", seat: 0, slot: 2, die: 4 }]);
    expect(offered({ card: "cheat-reposition", die: 0, slot: 2 })).toEqual([{ kind: "clumsy", seat: 0, slot: 2, die: 0 }]);
    expect(offered({ card: "cheat-sleight-of-hand", die: 7, slot: 1 })).toEqual([{ kind: "clumsy", seat: 0, slot: 1, die: 7 }]);
    expect(offered({ card: "cheat-trade-places", die: 1, other: 5 })).toEqual([{ kind: "clumsy", seat: 0, slot: 2, die: 1 }]);
    expect(offered({ card: "cheat-transposition", die: 0, other: 1 })).toEqual([{ kind: "clumsy", seat: 0, slot: 1, die: 1 }]);
    // Seat 0's 1 and 2 both on slot 1: trading places with each other (Transposition) or with seat 1's 5 there (Trade Places) moves nothing.
    const same = table({
      hands: [cards, [], []],
      dice: [[1, 2, 3], [5, 1, 4], [6, 2, 3]],
      at: [[1, 1, "supply"], [1, "supply", 2], [2, "altar", "supply"]],
      ongoing: [["cheat-clumsy"], [], []],
    });
    for (const action of [{ card: "cheat-trade-places", die: 0, other: 3 }, { card: "cheat-transposition", die: 0, other: 1 }]) {
      const tg = played(same, [[0, { type: "cheat", ...action }]]);
      const t = tg.state;
      expect(t.pending).toEqual([]);
      expect(t.dice).toEqual(same.dice);
      expect(logOf(tg, "move")).toEqual([]);
    }
  });
});

describe("Fresh Start: at the start of each round, you may reroll all 3 of your dice once", () => {
  it("the holder decides at the start of the round: reroll all (three of a kind rerolled) or keep", () => {
    const s = position({ players: 2, dice: [[3, 2, 1], [3, 2, 1]], at: [["supply", "altar", "altar"], ["altar", "altar", "altar"]], pot: POT.slice(0, 2), ongoing: [[], ["cheat-fresh-start"]] });
    const tg = played(s, [[0, { type: "altar", die: 0 }]]);
    const t = tg.state;
    expect(t.phase).toBe("start");
    expect(t.pending[0]).toEqual({ kind: "fresh-start", seat: 1 });
    expect(game.legalActions(t, 1).map((l) => l.type)).toEqual(["reroll", "decline"]);
    const kept = play(t, [[1, { type: "decline" }]]);
    expect(kept.dice.slice(3).map((d) => d.value)).toEqual(t.dice.slice(3).map((d) => d.value));
    const rolledg = played(tg, [[1, { type: "reroll" }]]);
    const rolled = rolledg.state;
    expect(logOf(rolledg, "fresh-start")).toHaveLength(1);
    const v = rolled.dice.slice(3).map((d) => d.value);
    expect(v[0] === v[1] && v[1] === v[2]).toBe(false);
    expect(rolled.pending.filter((p) => p.kind === "fresh-start")).toEqual([]);
  });
});

describe("Lawful: you may play a maximum of 1 Cheat card on your turn", () => {
  it("after one card, no more that turn; the limit resets next turn", () => {
    const s = table({ hands: [["cheat-swap", "cheat-borrow"], [], []], ongoing: [["cheat-lawful"], [], []] });
    const t = play(s, [[0, { type: "cheat", card: "cheat-swap", die: 0, other: 3 }]]);
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-borrow", raise: 0, reduce: 3 })).toBe("LAWFUL");
    expect(legalInstances(t, 0).filter((a) => a.type === "cheat")).toEqual([]);
    // Playing Lawful on yourself as your first card also ends your cheating this turn.
    const u = play(table({ hands: [["cheat-lawful", "cheat-swap"], [], []] }), [[0, { type: "cheat", card: "cheat-lawful", target: 0 }]]);
    expect(codeOf(u, 0, { type: "cheat", card: "cheat-swap", die: 0, other: 3 })).toBe("LAWFUL");
  });
});

describe("Patient: you may play a Cheat card at the end of the round after the last die is placed", () => {
  it("after the last die, before Items are awarded, the holder may play one card (or decline)", () => {
    const s = position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, "altar", "altar"], [1, "altar", "supply"]],
      pot: POT.slice(0, 2),
      turn: 1,
      hands: [["cheat-borrow"], []],
      ongoing: [["cheat-patient"], []],
    });
    const t = play(s, [[1, { type: "altar", die: 5 }]]);
    expect(t.phase).toBe("end");
    expect(t.pending).toEqual([{ kind: "patient", seat: 0 }]);
    expect(game.activeSeats(t)).toEqual([0]);
    // Seat 1 leads 5-4 on slot 1; Borrow raises seat 0's 4 and reduces seat 1's 5: 5-4 the other way.
    const u = play(t, [[0, { type: "cheat", card: "cheat-borrow", raise: 0, reduce: 3 }]]);
    expect(u.round).toBe(2);
    expect(u.lastAwards![1]).toMatchObject({ seat: 0, bid: 5 });
    const v = play(t, [[0, { type: "decline" }]]);
    expect(v.lastAwards![1]).toMatchObject({ seat: 1, bid: 5 });
    // Without a playable card there is no Patient decision.
    const w = play({ ...s, hands: [[], []] }, [[1, { type: "altar", die: 5 }]]);
    expect(w.round).toBe(2);
  });

  it("at the end of the round no die is unplayed: cards that need nothing but one can't be played then", () => {
    const hand = ["cheat-table-bump", "cheat-total-re-roll", "cheat-sneaky-sneaky", "cheat-swap", "cheat-let-me-help", "cheat-borrow", "cheat-blessed"];
    const s = position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, "altar", "altar"], [1, "altar", "supply"]],
      pot: POT.slice(0, 2),
      turn: 1,
      hands: [hand, []],
      ongoing: [["cheat-patient"], []],
    });
    const t = play(s, [[1, { type: "altar", die: 5 }]]);
    // Sneaky Sneaky still peeks (its die step can't be done: die and value "none").
    expect(new Set(legalInstances(t, 0).filter((a) => a.type === "cheat").map((a) => a.card))).toEqual(new Set(["cheat-borrow", "cheat-blessed", "cheat-sneaky-sneaky"]));
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-table-bump" })).toBe("NO_UNPLAYED_DICE");
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-total-re-roll" })).toBe("NO_UNPLAYED_DICE");
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 0, value: 3 })).toBe("NO_UNPLAYED_DICE");
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-let-me-help", die: 5, slot: 1 })).toBe("NOT_UNPLAYED");
    // An Ongoing card may be played then, and Lawful would not count (it is not the holder's turn).
    const u = play(t, [[0, { type: "cheat", card: "cheat-blessed", target: 0 }]]);
    expect(u.ongoing[0]).toEqual(["cheat-patient", "cheat-blessed"]);
    expect(u.round).toBe(2);
  });
});

describe("Poisoner: before placing a die on your turn, you may give another player a card to reduce one of their dice by 2 pips", () => {
  it("gives a hand card (only the two of them learn which) and reduces one of the receiver's dice by 2 (not below 1)", () => {
    const s = table({ hands: [["cheat-swap", "item-emerald-1"], [], []], ongoing: [["cheat-poisoner"], [], []] });
    const tg = played(s, [[0, { type: "poison", give: "item-emerald-1", die: 5 }]]);
    const t = tg.state;
    expect(t.hands).toEqual([["cheat-swap"], ["item-emerald-1"], []]);
    expect(t.dice[5].value).toBe(1);
    expect(logOf(tg, "poison").at(-1)).toMatchObject({ seat: 0, target: 1, die: 5 });
    expect(logOf(tg, "given").at(-1)).toMatchObject({ to: [0, 1], card: "item-emerald-1" });
    expect(view(t, { kind: "seat", seat: 0 }).seats[1].known).toEqual(["item-emerald-1"]);
    expect(view(t, { kind: "seat", seat: 2 }).seats[1].known).toEqual([]);
    expect(play(s, [[0, { type: "poison", give: "cheat-swap", die: 4 }]]).dice[4].value).toBe(1);
  });

  it("once per turn, only the holder, only another player's die, no tie", () => {
    const s = table({ hands: [["cheat-swap", "item-emerald-1"], [], []], ongoing: [["cheat-poisoner"], [], []] });
    const t = play(s, [[0, { type: "poison", give: "item-emerald-1", die: 5 }]]);
    expect(codeOf(t, 0, { type: "poison", give: "cheat-swap", die: 3 })).toBe("ALREADY_POISONED");
    expect(codeOf(s, 0, { type: "poison", give: "cheat-swap", die: 0 })).toBe("NOT_OTHERS");
    expect(codeOf(s, 0, { type: "poison", give: "cheat-pass", die: 3 })).toBe("NOT_IN_HAND");
    expect(codeOf(table({ hands: [["cheat-swap"], [], []] }), 0, { type: "poison", give: "cheat-swap", die: 3 })).toBe("NO_POISONER");
    const tie = table({ hands: [["cheat-swap"], [], []], ongoing: [["cheat-poisoner"], [], []], at: [[1, "supply", "supply"], [1, "supply", "supply"], ["supply", "supply", "supply"]], dice: [[3, 2, 6], [5, 1, 3], [2, 6, 1]] });
    expect(codeOf(tie, 0, { type: "poison", give: "cheat-swap", die: 3 })).toBe("BID_TIE");
    expect(legalInstances(tie, 0).filter((a) => a.type === "poison").map((a) => a.die)).toEqual([4, 5, 6, 7, 8]);
  });
});

describe("Polite: you may not be the first to play a die onto a face-up Item", () => {
  it("no first die onto a face-up Item; the face-down Item and Items with dice are fine", () => {
    const s = table({ hands: [[], [], []], ongoing: [["cheat-polite"], [], []], at: [["supply", "supply", "supply"], ["supply", "supply", 2], ["supply", "supply", "supply"]] });
    expect(codeOf(s, 0, { type: "place", die: 0, slot: 1 })).toBe("POLITE");
    expect(codeOf(s, 0, { type: "place", die: 0, slot: 0 })).toBe("ok");
    expect(codeOf(s, 0, { type: "place", die: 0, slot: 2 })).toBe("ok");
    expect(game.legalActions(s, 0).filter((l) => l.type === "place").map((l) => l.params!.slot)).toEqual([
      { kind: "choice", options: [0] },
      { kind: "choice", options: [2] },
    ]);
  });
});

describe("Priest: whenever you play a 4, 5 or 6 to the Altar to draw a card, draw an additional card", () => {
  it("a 4-6 on the Altar draws 2; a 1-3 draws 1; without Priest 1", () => {
    const s = table({ hands: [[], [], []], ongoing: [["cheat-priest"], [], []] });
    expect(play(s, [[0, { type: "altar-draw", die: 0 }]]).hands[0]).toHaveLength(2);
    expect(play(s, [[0, { type: "altar-draw", die: 1 }]]).hands[0]).toHaveLength(1);
    expect(play(table({ hands: [[], [], []] }), [[0, { type: "altar-draw", die: 0 }]]).hands[0]).toHaveLength(1);
  });
});
