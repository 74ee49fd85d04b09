/** Placing dice: the rules' Shirley-and-Henry example step by step, and the Altar. */
import { describe, expect, it } from "vitest";
import type { Logged } from "../testing.js";
import type { Action } from "../types.js";
import { codeOf, deepFreeze, play, played, position } from "./fixtures.js";
import { goblinTeeth as game } from "./index.js";
import { view } from "./view.js";
import type { GoblinTeethState } from "./state.js";

const SHIRLEY = 0;
const HENRY = 1;
const TOOTH_SLOT = 1;
const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);

/** Shirley has a 3 and a 4 on the Tooth; Henry has a 5 on it and it is his turn; his other dice as given. */
function example(henry: [number, number]): GoblinTeethState {
  return deepFreeze(
    position({
      players: 2,
      // Shirley: dice 0 (3), 1 (4) on the Tooth, die 2 unplayed. Henry: die 3 (5) on the Tooth, dice 4 and 5 unplayed.
      dice: [[3, 4, 2], [5, ...henry]],
      at: [[TOOTH_SLOT, TOOTH_SLOT, "supply"], [TOOTH_SLOT, "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-1"],
      turn: HENRY,
    }),
  );
}

const bid = (die: number): Action => ({ type: "place", die, slot: TOOTH_SLOT });

describe("the rules' example: Shirley and Henry bid for a Goblin Tooth", () => {
  it("Shirley 3 + 4 = 7, Henry 5: Henry cannot place a 6 (11) or a 2 (7, a tie)", () => {
    const s = example([6, 2]);
    expect(view(s, { kind: "spectator" }).pot[TOOTH_SLOT].bids).toEqual([7, 5]);
    const before = JSON.stringify(s);
    expect(codeOf(s, HENRY, bid(4))).toBe("BID_OVER_10");
    expect(game.apply(s, HENRY, bid(4))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/11/) } });
    expect(codeOf(s, HENRY, bid(5))).toBe("BID_TIE");
    expect(JSON.stringify(s)).toBe(before);
    // Neither die is offered for the Tooth; the face-down Item and the Altar remain.
    const legal = game.legalActions(s, HENRY);
    expect(legal.find((l) => l.type === "place" && l.params!.slot.kind === "choice" && l.params!.slot.options[0] === TOOTH_SLOT)).toBeUndefined();
    expect(legal.map((l) => l.type)).toContain("altar");
  });

  it("he can safely bid a 5, 4, 3 or 1 (a 1 is legal even though it doesn't give him the highest bid)", () => {
    for (const v of [5, 4, 3, 1]) {
      const s = example([v, 2]);
      expect(codeOf(s, HENRY, bid(4))).toBe("ok");
      const after = play(s, [[HENRY, bid(4)]]);
      expect(view(after, { kind: "spectator" }).pot[TOOTH_SLOT].bids).toEqual([7, 5 + v]);
    }
  });

  it("Henry places his 3 for a total of 8, beating Shirley's 7; if it stands, he takes the Tooth", () => {
    let g = played(example([3, 2]), [[HENRY, bid(4)]]);
    let s = g.state;
    const v = view(s, { kind: "spectator" });
    expect(v.pot[TOOTH_SLOT]).toMatchObject({ bids: [7, 8], high: HENRY });
    expect(logOf(g, "bid").at(-1)).toMatchObject({ seat: HENRY, die: 4, value: 3, slot: TOOTH_SLOT, total: 8 });
    expect(s.turn).toBe(SHIRLEY);
    // Shirley and Henry put their last dice on the Altar: the round ends, the Tooth goes to Henry.
    g = played(g, [
      [SHIRLEY, { type: "altar", die: 2 }],
      [HENRY, { type: "altar", die: 5 }],
    ]);
    s = g.state;
    expect(s.round).toBe(2);
    expect(s.lastAwards).toEqual([
      { slot: 0, faceDown: true, seat: null, bid: null },
      { slot: TOOTH_SLOT, faceDown: false, seat: HENRY, bid: 8 },
    ]);
    expect(s.hands[HENRY]).toContain("item-tooth-1");
    expect(logOf(g, "award").at(-1)).toMatchObject({ slot: TOOTH_SLOT, seat: HENRY, bid: 8, item: { type: "tooth", teeth: 1 } });
  });
});

describe("placing dice", () => {
  const s = deepFreeze(position({ players: 3, dice: [[2, 5, 6], [1, 3, 4], [6, 6, 1]], pot: ["item-bone-1", "item-tooth-1", "item-worms-1"], turn: 0 }));

  it("only your own unplayed dice, only on an Item in the Pot, only on your turn", () => {
    expect(codeOf(s, 1, { type: "place", die: 3, slot: 1 })).toBe("NOT_YOUR_TURN");
    expect(codeOf(s, 0, { type: "place", die: 3, slot: 1 })).toBe("NOT_YOURS");
    expect(codeOf(s, 0, { type: "place", die: 99, slot: 1 })).toBe("BAD_DIE");
    expect(codeOf(s, 0, { type: "place", die: 0, slot: 3 })).toBe("BAD_SLOT");
    expect(codeOf(s, 0, { type: "place", die: 0, slot: "1" })).toBe("BAD_SLOT");
    const t = play(s, [[0, { type: "place", die: 0, slot: 1 }], [1, { type: "altar", die: 3 }], [2, { type: "altar", die: 6 }]]);
    expect(codeOf(t, 0, { type: "place", die: 0, slot: 2 })).toBe("DIE_PLAYED");
  });

  it("a die may always go on the Altar, with one optional Altar action", () => {
    const plain = play(s, [[0, { type: "altar", die: 2 }]]);
    expect(plain.hands[0]).toEqual(s.hands[0]);
    expect(plain.dice[2].at).toBe("altar");
    const drew = played(s, [[0, { type: "altar-draw", die: 2 }]]);
    expect(drew.state.hands[0]).toEqual([...s.hands[0], s.cheatDeck[0]]);
    expect(logOf(drew, "drew").at(-1)).toMatchObject({ to: [0], cards: [s.cheatDeck[0]], reason: "altar" });
    expect(logOf(drew, "draw").at(-1)).toMatchObject({ seat: 0, count: 1 });
    expect(logOf(drew, "draw").at(-1)!.to).toBeUndefined();
  });

  it("the Altar's discard: all Ongoing cards in front of one player (anyone, yourself included)", () => {
    const t = position({ players: 3, dice: [[2, 5, 6], [1, 3, 4], [6, 6, 1]], pot: ["item-bone-1", "item-tooth-1", "item-worms-1"], ongoing: [[], ["cheat-cursed", "cheat-lawful"], []] });
    expect(codeOf(t, 0, { type: "altar-clear", die: 0, target: 2 })).toBe("NO_ONGOING");
    expect(codeOf(t, 0, { type: "altar-clear", die: 0, target: 7 })).toBe("BAD_TARGET");
    const u = play(t, [[0, { type: "altar-clear", die: 0, target: 1 }]]);
    expect(u.ongoing[1]).toEqual([]);
    expect(u.discard).toEqual(["cheat-cursed", "cheat-lawful"]);
    expect(game.legalActions(t, 0).find((l) => l.type === "altar-clear")!.params!.target).toEqual({ kind: "choice", options: [1] });
  });

  it("draws reshuffle the discard pile when the Cheat deck is empty; with both empty there is nothing to draw", () => {
    const t = position({ players: 2, dice: [[2, 5, 6], [1, 3, 4]], pot: ["item-bone-1", "item-tooth-1"], cheatDeck: [], discard: ["cheat-swap", "cheat-pass"], hands: [["cheat-borrow"], []] });
    const g = played(t, [[0, { type: "altar-draw", die: 0 }]]);
    const u = g.state;
    expect(u.hands[0]).toHaveLength(2);
    expect(u.discard).toEqual([]);
    expect(u.cheatDeck).toHaveLength(1);
    expect(logOf(g, "cheat-reshuffle")).toHaveLength(1);
    const empty = { ...u, cheatDeck: [] };
    expect(codeOf(empty, 1, { type: "altar-draw", die: 3 })).toBe("NOTHING_TO_DRAW");
    expect(game.legalActions(empty, 1).map((l) => l.type)).not.toContain("altar-draw");
  });

  it("a turn ends when the die is placed; players without dice are skipped", () => {
    const t = play(s, [[0, { type: "altar", die: 0 }]]);
    expect(t.turn).toBe(1);
    const u = position({ players: 3, dice: [[2, 5, 6], [1, 3, 4], [6, 6, 1]], at: [["supply", "altar", "altar"], ["altar", "altar", "altar"], ["supply", "altar", "altar"]], pot: ["item-bone-1", "item-tooth-1", "item-worms-1"], turn: 0 });
    expect(play(u, [[0, { type: "altar", die: 0 }]]).turn).toBe(2);
  });
});
