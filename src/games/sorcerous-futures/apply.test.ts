/** apply(): error codes, purity (input untouched), and a fuzz over garbage JSON actions. */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import type { Action } from "../types.js";
import { deepFreeze, position, seededRandom } from "./fixtures.js";
import { sorcerousFutures as game } from "./index.js";
import type { SorcerousFuturesOptions, SorcerousFuturesState } from "./state.js";

const code = (s: SorcerousFuturesState, seat: unknown, action: unknown) => {
  const r = game.apply(s, seat as number, action as Action);
  return r.ok ? "ok" : r.error.code;
};

describe("apply errors", () => {
  const setupState = deepFreeze(game.setup({ players: 4, options: {}, seed: "errors" }).state);
  const pickState = deepFreeze(
    position({ players: 4, valuations: [["pact", "sea"], ["mill", "forest"], ["author", "end"], ["bard", "cave"]], market: ["journey", "diplomat"] }),
  );

  it("BAD_SEAT for anything that is not a seat", () => {
    for (const s of [setupState, pickState]) {
      for (const seat of [-1, 4, 1.5, NaN, "0", null, undefined, [0], {}]) expect(code(s, seat, { type: "confirm" })).toBe("BAD_SEAT");
    }
  });

  it("UNKNOWN_ACTION for unknown types, missing or extra params, non-objects", () => {
    for (const a of [
      null, undefined, "pass", 42, [], ["pass"], {}, { type: "fold" }, { type: 7 }, { type: "toString" }, { type: "__proto__" },
      { type: "pass", amount: 3 }, { type: "bid" }, { type: "bid", amount: 3, extra: 1 }, { type: "confirm", card: "x" },
      { type: "exchange", hand: "pact" }, { type: "exchange", slot: 0 }, { type: "pick" }, { type: "reveal" },
      JSON.parse('{"type":"pass","__proto__":{"x":1}}'),
    ]) {
      expect(code(pickState, 0, a)).toBe("UNKNOWN_ACTION");
      expect(code(setupState, 0, a)).toBe("UNKNOWN_ACTION");
    }
  });

  it("WRONG_STEP / NOT_YOUR_TURN by phase", () => {
    expect(code(setupState, 0, { type: "pick", card: "pact" })).toBe("WRONG_STEP");
    expect(code(pickState, 0, { type: "exchange", hand: "pact", slot: 0 })).toBe("WRONG_STEP");
    expect(code(pickState, 1, { type: "confirm" })).toBe("NOT_YOUR_TURN");
    expect(code(pickState, 0, { type: "bid", amount: 1 })).toBe("WRONG_STEP");
  });

  it("every error has a human message", () => {
    const r = game.apply(pickState, 0, { type: "pick", card: "nope" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/market/);
  });
});

const OPTION_SETS: Array<[number, SorcerousFuturesOptions]> = [
  [3, {}],
  [4, { match: 3 }],
  [5, { extended: "pawns" }],
  [5, { extended: "courts", match: 3 }],
];

describe("purity", () => {
  it("never changes the input state, after legal or illegal actions", () => {
    for (const [players, options] of OPTION_SETS) {
      let s = game.setup({ players, options, seed: `pure-${players}` }).state;
      const random = seededRandom(`pure-${players}`);
      let steps = 0;
      while (!game.isOver(s)) {
        const frozen = deepFreeze(s);
        const before = JSON.stringify(frozen);
        const active = game.activeSeats(frozen);
        const seat = active[Math.floor(random() * active.length)];
        expect(code(frozen, seat, { type: "bid", amount: 99999 })).not.toBe("ok");
        expect(code(frozen, seat, { type: "x" })).toBe("UNKNOWN_ACTION");
        const idle = [...Array(players).keys()].find((x) => !active.includes(x));
        if (idle !== undefined) expect(code(frozen, idle, { type: "pass" })).not.toBe("ok");
        const r = game.apply(frozen, seat, randomLegalAction(game.legalActions(frozen, seat), random)!);
        expect(r.ok).toBe(true);
        expect(JSON.stringify(frozen)).toBe(before);
        if (r.ok) s = r.value.state;
        steps++;
      }
      expect(steps).toBeGreaterThan(50);
    }
  });
});

describe("fuzz", () => {
  it("never throws on garbage actions and never changes the state", () => {
    const random = seededRandom("fuzz");
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const atoms: unknown[] = [
      null, undefined, true, false, 0, -0, 1, 2, 3, 7, 10, 15, 100, 101, -1, 1.5, NaN, Infinity, -Infinity, 1e308,
      Number.MAX_SAFE_INTEGER, "", "0", "1", "pact", "forest", "harvest", "consul", "excuse", "bid", "pass",
      "__proto__", "constructor", "toString", [], {}, [1, 2], ["pact"], { card: "pact" },
    ];
    const garbage = (depth = 0): unknown =>
      depth < 2 && random() < 0.2
        ? random() < 0.5
          ? [garbage(depth + 1), garbage(depth + 1)]
          : { [String(pick(atoms))]: garbage(depth + 1) }
        : pick(atoms);
    const types = ["exchange", "reveal", "confirm", "pick", "bid", "pass", "fold", "", "BID", "hasOwnProperty"];
    const keys = ["amount", "card", "hand", "slot", "type", "extra", "__proto__", "constructor"];

    let s = game.setup({ players: 5, options: {}, seed: "fuzz" }).state;
    let tries = 0;
    for (let step = 0; step < 300; step++) {
      if (game.isOver(s)) {
        const [players, options] = OPTION_SETS[step % OPTION_SETS.length];
        s = game.setup({ players, options, seed: `fuzz-${step}` }).state;
      }
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
        let r: ReturnType<typeof game.apply> | undefined;
        expect(() => {
          r = game.apply(frozen, seat as number, action as Action);
        }).not.toThrow();
        expect(r).toBeDefined();
        if (!r!.ok) {
          expect(typeof r!.error.code).toBe("string");
          expect(r!.error.message.length).toBeGreaterThan(0);
        }
        tries++;
      }
      expect(JSON.stringify(frozen)).toBe(before);
      const active = game.activeSeats(frozen);
      const seat = active[Math.floor(random() * active.length)];
      const r = game.apply(frozen, seat, randomLegalAction(game.legalActions(frozen, seat), random)!);
      expect(r.ok).toBe(true);
      if (r.ok) s = r.value.state;
    }
    expect(tries).toBe(12000);
  });
});
