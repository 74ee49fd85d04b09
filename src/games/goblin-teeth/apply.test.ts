/** apply(): error codes, purity (input untouched), determinism, and a fuzz over garbage JSON actions. */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import type { Action } from "../types.js";
import { started, stepped } from "../testing.js";
import { codeOf, deepFreeze, position, randomGame, seededRandom } from "./fixtures.js";
import { goblinTeeth as game } from "./index.js";
import { view } from "./view.js";
import type { GoblinTeethOptions } from "./state.js";

describe("apply errors", () => {
  const s = deepFreeze(
    position({ players: 3, dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]], pot: ["item-bone-1", "item-tooth-1", "item-worms-1"], hands: [["cheat-swap", "item-emerald-1", "cheat-quick-fingers"], ["cheat-pass"], []] }),
  );

  it("BAD_SEAT for anything that is not a seat", () => {
    for (const seat of [-1, 3, 1.5, NaN, "0", null, undefined, [0], {}]) expect(codeOf(s, seat, { type: "altar", die: 0 })).toBe("BAD_SEAT");
  });

  it("UNKNOWN_ACTION for unknown types, missing or extra params, non-objects", () => {
    for (const a of [
      null, undefined, "altar", 42, [], ["altar"], {}, { type: "fold" }, { type: 7 }, { type: "toString" }, { type: "__proto__" },
      { type: "altar" }, { type: "altar", die: 0, extra: 1 }, { type: "place", die: 0 }, { type: "end-turn", die: 0 }, { type: "cheat" },
      { type: "cheat", card: 7 }, { type: "cheat", card: "cheat-swap", die: 0 }, { type: "cheat", card: "cheat-swap", die: 0, other: 3, x: 1 },
      { type: "cheat", card: "cheat-pass", die: 0 }, JSON.parse('{"type":"altar","die":0,"__proto__":{"x":1}}'),
    ]) {
      expect(codeOf(s, 0, a), JSON.stringify(a)).toBe("UNKNOWN_ACTION");
    }
  });

  it("cheat cards: NO_SUCH_CARD, NOT_A_CHEAT, NOT_IN_HAND", () => {
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-nope" })).toBe("NO_SUCH_CARD");
    expect(codeOf(s, 0, { type: "cheat", card: "item-emerald-1" })).toBe("NOT_A_CHEAT");
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-pass" })).toBe("NOT_IN_HAND");
  });

  it("NOT_YOUR_TURN for other seats; WRONG_STEP for actions of another step", () => {
    expect(codeOf(s, 1, { type: "cheat", card: "cheat-pass" })).toBe("NOT_YOUR_TURN");
    expect(codeOf(s, 0, { type: "reroll" })).toBe("WRONG_STEP");
    expect(codeOf(s, 0, { type: "decline" })).toBe("WRONG_STEP");
    expect(codeOf(s, 0, { type: "share", top: "cheat-swap", give: "cheat-swap" })).toBe("WRONG_STEP");
    expect(codeOf(s, 0, { type: "quick-fingers", discard: "cheat-swap", raise: 0, reduce: 1 })).toBe("WRONG_STEP");
    expect(codeOf(s, 0, { type: "end-turn" })).toBe("MUST_PLACE");
    const r = game.apply(s, 0, { type: "reroll" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/your turn/);
  });
});

const OPTION_SETS: Array<[number, GoblinTeethOptions]> = [
  [2, {}],
  [3, { advanced: true }],
  [4, {}],
  [5, { advanced: true }],
];

describe("purity and determinism", () => {
  it("never changes the input state, after legal or illegal actions; legalActions and view don't either", () => {
    for (const [players, options] of OPTION_SETS) {
      let s = game.setup({ players, options, seed: `pure-${players}` }).state;
      const random = seededRandom(`pure-${players}`);
      let steps = 0;
      while (!game.isOver(s)) {
        const frozen = deepFreeze(s);
        const before = JSON.stringify(frozen);
        const seat = game.activeSeats(frozen)[0];
        expect(codeOf(frozen, seat, { type: "place", die: 99, slot: 0 })).not.toBe("ok");
        expect(codeOf(frozen, seat, { type: "x" })).toBe("UNKNOWN_ACTION");
        const idle = (seat + 1) % players;
        expect(codeOf(frozen, idle, { type: "altar", die: idle * 3 })).toBe("NOT_YOUR_TURN");
        view(frozen, { kind: "seat", seat });
        view(frozen, { kind: "spectator" });
        const r = game.apply(frozen, seat, randomLegalAction(game.legalActions(frozen, seat), random)!);
        expect(r.ok).toBe(true);
        expect(JSON.stringify(frozen)).toBe(before);
        if (r.ok) s = r.value.state;
        steps++;
      }
      expect(steps).toBeGreaterThan(15);
    }
  });

  it("the same seed and the same actions give byte-identical states", () => {
    const g = randomGame(4, "determinism", { advanced: true });
    let s = started(game.setup({ players: 4, options: { advanced: true }, seed: "determinism" }));
    for (const [seat, action] of g.moves) {
      const r = stepped(s, game.apply(s.state, seat, action));
      if (!r.ok) throw new Error(r.error.code);
      s = r.value;
    }
    expect(JSON.stringify(s.state)).toBe(JSON.stringify(g.final));
    expect(JSON.stringify(s.log)).toBe(JSON.stringify(g.log));
    expect(JSON.stringify(game.setup({ players: 3, options: {}, seed: "a" }))).toBe(JSON.stringify(game.setup({ players: 3, options: {}, seed: "a" })));
    expect(JSON.stringify(game.setup({ players: 3, options: {}, seed: "a" }))).not.toBe(JSON.stringify(game.setup({ players: 3, options: {}, seed: "b" })));
  });
});

describe("fuzz", () => {
  it("never throws on garbage actions, always answers a code and a message, and never changes the state", () => {
    const random = seededRandom("fuzz");
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const atoms: unknown[] = [
      null, undefined, true, false, 0, -0, 1, 2, 3, 4, 5, 6, 7, 10, 14, 15, 100, -1, 1.5, NaN, Infinity, -Infinity, 1e308,
      Number.MAX_SAFE_INTEGER, "", "0", "1", "none", "cheat-pass", "cheat-swap", "cheat-borrow", "cheat-lawful", "item-tooth-1",
      "item-emerald-1", "cheat", "altar", "__proto__", "constructor", "toString", [], {}, [1, 2], ["cheat-pass"], { card: "cheat-pass" },
    ];
    const garbage = (depth = 0): unknown =>
      depth < 2 && random() < 0.2
        ? random() < 0.5
          ? [garbage(depth + 1), garbage(depth + 1)]
          : { [String(pick(atoms))]: garbage(depth + 1) }
        : pick(atoms);
    const types = ["place", "altar", "altar-draw", "altar-clear", "cheat", "poison", "end-turn", "reroll", "decline", "clumsy", "draw", "share", "quick-fingers", "fold", "", "PLACE", "hasOwnProperty"];
    const keys = ["die", "slot", "target", "card", "give", "top", "other", "raise", "reduce", "discard", "item", "take", "value", "type", "extra", "__proto__", "constructor"];

    let s = game.setup({ players: 5, options: {}, seed: "fuzz" }).state;
    let tries = 0;
    const random2 = seededRandom("fuzz-moves");
    for (let step = 0; step < 300; step++) {
      if (game.isOver(s)) {
        const [players, options] = OPTION_SETS[step % OPTION_SETS.length];
        s = game.setup({ players, options, seed: `fuzz-${step}` }).state;
      }
      const frozen = deepFreeze(s);
      const before = JSON.stringify(frozen);
      const seat0 = game.activeSeats(frozen)[0];
      const hand = frozen.hands[seat0];
      for (let k = 0; k < 40; k++) {
        let action: unknown;
        if (random() < 0.15) action = garbage();
        else {
          const o: Record<string, unknown> = { type: random() < 0.9 ? pick(types) : garbage() };
          if (o.type === "cheat" && hand.length > 0 && random() < 0.7) o.card = pick(hand);
          const nKeys = Math.floor(random() * 4);
          for (let j = 0; j < nKeys; j++) o[pick(keys)] = random() < 0.5 && hand.length > 0 ? pick([...hand, ...atoms.slice(0, 12)]) : garbage();
          action = o;
        }
        if (random() < 0.1) action = JSON.parse(JSON.stringify(action ?? null));
        const seat = random() < 0.8 ? (random() < 0.6 ? seat0 : Math.floor(random() * 7) - 1) : garbage();
        let r: ReturnType<typeof game.apply> | undefined;
        expect(() => {
          r = game.apply(frozen, seat as number, action as Action);
        }).not.toThrow();
        expect(r).toBeDefined();
        if (!r!.ok) {
          expect(r!.error.code).toMatch(/^[A-Z_0-9]+$/);
          expect(r!.error.message.length).toBeGreaterThan(5);
        }
        tries++;
      }
      expect(JSON.stringify(frozen)).toBe(before);
      const r = game.apply(frozen, seat0, randomLegalAction(game.legalActions(frozen, seat0), random2)!);
      expect(r.ok).toBe(true);
      if (r.ok) s = r.value.state;
    }
    expect(tries).toBe(12000);
  });
});
