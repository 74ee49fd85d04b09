/** apply(): error codes, immutability, and a fuzz over garbage JSON actions. */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import type { Action } from "../types.js";
import { deepFreeze, play, position, seededRandom } from "./fixtures.js";
import { goblinMarket } from "./index.js";
import type { GoblinMarketState } from "./state.js";

const code = (s: GoblinMarketState, seat: unknown, action: unknown) => {
  const r = goblinMarket.apply(s, seat as number, action as Action);
  return r.ok ? "ok" : r.error.code;
};

describe("apply errors", () => {
  const s = deepFreeze(position({ players: 3, sizeCard: "author", offer: ["pact", "forest"] }));

  it("BAD_SEAT for anything that is not a seat", () => {
    for (const seat of [-1, 3, 1.5, NaN, "0", null, undefined, [0], {}]) expect(code(s, seat, { type: "pass" })).toBe("BAD_SEAT");
  });

  it("NOT_YOUR_TURN", () => {
    expect(code(s, 1, { type: "pass" })).toBe("NOT_YOUR_TURN");
    expect(code(s, 2, { type: "bid", amount: 3 })).toBe("NOT_YOUR_TURN");
  });

  it("UNKNOWN_ACTION for unknown types, missing or extra params, non-objects", () => {
    for (const a of [
      null,
      undefined,
      "pass",
      42,
      [],
      ["pass"],
      {},
      { type: "fold" },
      { type: 7 },
      { type: null },
      { type: "toString" },
      { type: "__proto__" },
      { type: "pass", amount: 3 },
      { type: "bid" },
      { type: "bid", amount: 3, extra: 1 },
      { type: "take-all", card: "pact" },
      JSON.parse('{"type":"pass","__proto__":{"x":1}}'),
    ]) {
      expect(code(s, 0, a)).toBe("UNKNOWN_ACTION");
    }
  });

  it("BAD_AMOUNT for anything but a positive whole number", () => {
    for (const amount of [null, "3", 0, -1, 1.5, NaN, Infinity, -Infinity, [3], { n: 3 }, true]) {
      expect(code(s, 0, { type: "bid", amount })).toBe("BAD_AMOUNT");
    }
    expect(code(s, 0, { type: "bid", amount: 1e300 })).toBe("BID_TOO_HIGH");
    expect(code(s, 0, { type: "bid", amount: Number.MAX_SAFE_INTEGER + 2 })).toBe("BID_TOO_HIGH");
  });

  it("WRONG_STEP for an action of another step; GAME_OVER after the end", () => {
    expect(code(s, 0, { type: "take-all" })).toBe("WRONG_STEP");
    expect(code(s, 0, { type: "choose", card: "pact" })).toBe("WRONG_STEP");
    const over = play(position({ players: 3, offer: ["pact"], auctionDeck: [] }), [
      [0, { type: "bid", amount: 1 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    expect(code(over, 0, { type: "pass" })).toBe("GAME_OVER");
    expect(code(over, 1, { type: "fold" })).toBe("GAME_OVER");
  });

  it("every error has a human message", () => {
    const r = goblinMarket.apply(s, 0, { type: "bid", amount: 50 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/coins/);
  });
});

describe("immutability", () => {
  it("never changes the input state, after legal or illegal actions", () => {
    let s = goblinMarket.setup({ players: 4, options: {}, seed: "immutable" }).state;
    const random = seededRandom("immutable");
    for (let i = 0; i < 400 && !goblinMarket.isOver(s); i++) {
      const frozen = deepFreeze(s);
      const before = JSON.stringify(frozen);
      const seat = goblinMarket.activeSeats(frozen)[0];
      expect(code(frozen, (seat + 1) % 4, { type: "pass" })).toBe("NOT_YOUR_TURN");
      expect(code(frozen, seat, { type: "bid", amount: 999 })).not.toBe("ok");
      const action = { type: "x" };
      expect(code(frozen, seat, action)).toBe("UNKNOWN_ACTION");
      const legal = goblinMarket.legalActions(frozen, seat);
      const a = randomLegalAction(legal, random)!;
      const r = goblinMarket.apply(frozen, seat, a);
      expect(r.ok).toBe(true);
      expect(JSON.stringify(frozen)).toBe(before);
      if (r.ok) s = r.value.state;
    }
    expect(goblinMarket.isOver(s)).toBe(true);
  });
});

describe("fuzz", () => {
  it("never throws on garbage actions and never changes the state", () => {
    const random = seededRandom("fuzz");
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const atoms: unknown[] = [
      null, undefined, true, false, 0, -0, 1, 2, 3, 7, 10, 15, -1, 1.5, NaN, Infinity, -Infinity, 1e308,
      Number.MAX_SAFE_INTEGER, "", "1", "5", "pact", "forest", "harvest", "excuse", "bid", "pass",
      "__proto__", "constructor", "toString", [], {}, [1, 2], ["pact"], { card: "pact" },
    ];
    const garbage = (depth = 0): unknown =>
      depth < 2 && random() < 0.2
        ? random() < 0.5
          ? [garbage(depth + 1), garbage(depth + 1)]
          : { [String(pick(atoms))]: garbage(depth + 1) }
        : pick(atoms);
    const types = ["bid", "pass", "take-all", "take-one", "choose", "fold", "", "BID", "hasOwnProperty"];
    const keys = ["amount", "card", "type", "extra", "__proto__", "constructor"];

    let s = goblinMarket.setup({ players: 5, options: {}, seed: "fuzz" }).state;
    let tries = 0;
    for (let step = 0; step < 300; step++) {
      if (goblinMarket.isOver(s)) s = goblinMarket.setup({ players: 3 + (step % 4), options: {}, seed: `fuzz-${step}` }).state;
      const frozen = deepFreeze(s);
      const before = JSON.stringify(frozen);
      for (let k = 0; k < 40; k++) {
        let action: unknown;
        if (random() < 0.15) action = garbage();
        else {
          const o: Record<string, unknown> = { type: random() < 0.9 ? pick(types) : garbage() };
          const nKeys = Math.floor(random() * 3);
          for (let j = 0; j < nKeys; j++) o[pick(keys)] = garbage();
          action = o;
        }
        if (random() < 0.1) action = JSON.parse(JSON.stringify(action ?? null));
        const seat = random() < 0.8 ? Math.floor(random() * 7) - 1 : garbage();
        let r: ReturnType<typeof goblinMarket.apply> | undefined;
        expect(() => {
          r = goblinMarket.apply(frozen, seat as number, action as Action);
        }).not.toThrow();
        expect(r).toBeDefined();
        if (!r!.ok) {
          expect(typeof r!.error.code).toBe("string");
          expect(r!.error.message.length).toBeGreaterThan(0);
        }
        tries++;
      }
      expect(JSON.stringify(frozen)).toBe(before);
      const seat = goblinMarket.activeSeats(frozen)[0];
      const r = goblinMarket.apply(frozen, seat, randomLegalAction(goblinMarket.legalActions(frozen, seat), random)!);
      expect(r.ok).toBe(true);
      if (r.ok) s = r.value.state;
    }
    expect(tries).toBe(12000);
  });
});
