/** Setup as printed: decks, Offerings, the first roll, one Cheat card each, the first player, round 1. */
import { describe, expect, it } from "vitest";
import { A_OFFERINGS, B_OFFERINGS, CHEAT_IDS, ITEM_IDS } from "./data.js";
import { diceOf } from "./dice.js";
import { goblinTeeth as game } from "./index.js";

const setupStep = (players: number, seed = "s", advanced = false) => game.setup({ players, options: { advanced }, seed });
const setup = (players: number, seed = "s", advanced = false) => setupStep(players, seed, advanced).state;

describe("setup", () => {
  it("shuffles both decks, deals one Cheat card each and a Pot of one Item per player (slot 0 face down)", () => {
    for (let players = 2; players <= 5; players++) {
      const s = setup(players);
      expect(s.hands.map((h) => h.length)).toEqual(Array(players).fill(1));
      expect([...s.cheatDeck, ...s.hands.flat()].sort()).toEqual([...CHEAT_IDS].sort());
      expect([...s.itemDeck, ...s.pot.map((p) => p.item)].sort()).toEqual([...ITEM_IDS].sort());
      expect(s.pot.map((p) => p.faceDown)).toEqual([true, ...Array(players - 1).fill(false)]);
      expect(s.itemDeck).toHaveLength(31 - players);
      expect(s.dice).toHaveLength(3 * players);
      expect(s.round).toBe(1);
      expect(s.phase).toBe("turn");
      expect(s.turn).toBe(s.firstPlayer);
      for (let seat = 0; seat < players; seat++) expect(s.knowledge[s.hands[seat][0]]).toEqual([seat]);
      // The state keeps no log: setup reports its events (unnumbered) beside it.
      expect(s).not.toHaveProperty("log");
      expect(s).not.toHaveProperty("events");
      const { events } = setupStep(players);
      expect(events.map((e) => e.type).slice(0, 2)).toEqual(["game-start", "roll"]);
      for (const e of events) expect(e).not.toHaveProperty("n");
    }
    expect(setup(4, "x").itemDeck).not.toEqual(setup(4, "y").itemDeck);
  });

  it("deals under the rules version it is given (absent: today's, 2); version 1 deals the same game, its state without the field", () => {
    expect(game.rulesVersion).toBe(2);
    const today = game.setup({ players: 3, options: {}, seed: "v" });
    expect(today.state.rules).toBe(2);
    expect(game.setup({ players: 3, options: {}, seed: "v", rules: 2 })).toEqual(today);
    const then = game.setup({ players: 3, options: {}, seed: "v", rules: 1 });
    expect(then.state).not.toHaveProperty("rules");
    const { rules: _r, ...rest } = today.state;
    expect(then).toEqual({ state: rest, events: today.events });
    for (const rules of [0, 3, 1.5]) expect(() => game.setup({ players: 3, options: {}, seed: "v", rules })).toThrow(RangeError);
  });

  it("lays out the 6-Item Offering and a random A and B (basic); an A and a B in front of each player (advanced)", () => {
    const basic = setup(3);
    expect(basic.offerings[0]).toBe("six");
    expect(A_OFFERINGS).toContain(basic.offerings[1]);
    expect(B_OFFERINGS).toContain(basic.offerings[2]);
    expect(basic.seatOfferings).toBeNull();
    const adv = setup(5, "s", true);
    expect(adv.offerings).toEqual(["six"]);
    expect(adv.seatOfferings!.map((o) => o[0]).sort()).toEqual([...A_OFFERINGS].sort());
    expect(adv.seatOfferings!.map((o) => o[1]).sort()).toEqual([...B_OFFERINGS].sort());
    const seen = new Set(Array.from({ length: 30 }, (_, i) => setup(2, `o${i}`).offerings.join()));
    expect(seen.size).toBeGreaterThan(5);
  });

  it("the first roll: every die 1-6, never three of a kind; the highest sum goes first, ties at random (seeded)", () => {
    const firsts = new Set<number>();
    let ties = 0;
    for (let i = 0; i < 200; i++) {
      const step = setupStep(4, `first-${i}`);
      const s = step.state;
      const sums = [0, 1, 2, 3].map((seat) => diceOf(seat).reduce((t, id) => t + s.dice[id].value, 0));
      for (let seat = 0; seat < 4; seat++) {
        const v = diceOf(seat).map((id) => s.dice[id].value);
        expect(v.every((x) => x >= 1 && x <= 6)).toBe(true);
        expect(v[0] === v[1] && v[1] === v[2]).toBe(false);
      }
      expect(sums[s.firstPlayer]).toBe(Math.max(...sums));
      if (sums.filter((x) => x === Math.max(...sums)).length > 1) {
        ties++;
        firsts.add(s.firstPlayer);
      }
      const e = step.events.find((x) => x.type === "first-player")!;
      expect(e).toMatchObject({ seat: s.firstPlayer, sums });
    }
    expect(ties).toBeGreaterThan(10);
    expect(firsts.size).toBeGreaterThan(1);
    expect(setupStep(5, "same")).toEqual(setupStep(5, "same"));
  });
});
