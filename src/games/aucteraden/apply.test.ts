/** apply(): error codes, immutability, and a fuzz over garbage JSON actions. */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import type { Action, LegalAction } from "../types.js";
import { deepFreeze, layout, play, position, seededRandom } from "./fixtures.js";
import { aucteraden as game } from "./index.js";
import type { AucteradenState } from "./state.js";

const code = (s: AucteradenState, seat: unknown, action: unknown) => {
  const r = game.apply(s, seat as number, action as Action);
  return r.ok ? "ok" : r.error.code;
};

/**
 * True when `action` is an instance of a template, with own keys only. (The shared matchesLegal
 * uses `in`, so it lets inherited names such as "constructor" through as extra parameters.)
 */
function listed(legal: readonly LegalAction[], action: Record<string, unknown>): boolean {
  return legal.some((l) => {
    const specs = l.params ?? {};
    const keys = Object.keys(action).filter((k) => k !== "type");
    return (
      l.type === action.type &&
      keys.length === Object.keys(specs).length &&
      Object.entries(specs).every(([k, spec]) => Object.hasOwn(action, k) && spec.kind === "choice" && spec.options.includes(action[k] as string))
    );
  });
}

const buy = (card: unknown, row: unknown, col: unknown, pay: unknown) => ({ type: "buy", card, row, col, pay });

describe("apply errors", () => {
  const s = deepFreeze(position({ market: ["pact", "cave", "castle"], tableau: layout(["ace-moons journey"]), chips: { Suns: 1 } }));

  it("BAD_SEAT for anything that is not seat 0", () => {
    for (const seat of [-1, 1, 2, 0.5, NaN, "0", null, undefined, [0], {}]) expect(code(s, seat, { type: "discard-market" })).toBe("BAD_SEAT");
  });

  it("UNKNOWN_ACTION for unknown types, missing or extra params, non-objects", () => {
    for (const a of [
      null,
      undefined,
      "buy",
      42,
      [],
      ["buy"],
      {},
      { type: "pass" },
      { type: 7 },
      { type: null },
      { type: "toString" },
      { type: "__proto__" },
      { type: "discard-market", card: "pact" },
      { type: "buy" },
      { type: "buy", card: "pact", row: 2, col: 3 },
      { type: "buy", card: "pact", row: 2, col: 3, pay: "Moons", extra: 1 },
      { type: "buy", card: "pact", cell: [2, 3], pay: "Moons" },
      JSON.parse('{"type":"discard-market","__proto__":{"x":1}}'),
    ]) {
      expect(code(s, 0, a), JSON.stringify(a)).toBe("UNKNOWN_ACTION");
    }
  });

  it("NOT_IN_MARKET for a card not in the market (in the deck, on the tableau, unknown, not a string)", () => {
    for (const c of ["sea", "journey", "nope", "", null, 3, ["pact"], { id: "pact" }]) expect(code(s, 0, buy(c, 2, 3, "Moons"))).toBe("NOT_IN_MARKET");
  });

  it("BAD_PAYMENT: not a suit, a suit for the free card, none for a paid card", () => {
    for (const pay of ["moons", "Stars", "", null, 2, ["Moons"], "free"]) expect(code(s, 0, buy("pact", 2, 3, pay))).toBe("BAD_PAYMENT");
    expect(code(s, 0, buy("castle", 2, 4, "Suns"))).toBe("BAD_PAYMENT");
    expect(code(s, 0, buy("pact", 2, 3, "none"))).toBe("BAD_PAYMENT");
    expect(code(s, 0, buy("castle", 2, 4, "none"))).toBe("ok");
  });

  it("WRONG_SUIT for chips of a suit the card does not bear; NOT_ENOUGH_CHIPS", () => {
    expect(code(s, 0, buy("pact", 2, 4, "Waves"))).toBe("WRONG_SUIT");
    expect(code(s, 0, buy("cave", 2, 4, "Moons"))).toBe("WRONG_SUIT");
    expect(code(s, 0, buy("pact", 2, 4, "Suns"))).toBe("NOT_ENOUGH_CHIPS"); // 2 needed, 1 left
    expect(code(s, 0, buy("pact", 2, 4, "Moons"))).toBe("ok");
    expect(code(s, 0, buy("cave", 2, 4, "Wyrms"))).toBe("ok");
  });

  it("placement codes: BAD_CELL, CELL_TAKEN, NOT_ADJACENT, TOO_BIG, ACE_CROWN_ADJACENT, PAWN_COURT_ADJACENT, FIRST_CELL", () => {
    for (const [r, c] of [[-1, 3], [7, 3], [2.5, 3], ["2", 3], [null, null], [[2], 3]]) expect(code(s, 0, buy("pact", r, c, "Moons"))).toBe("BAD_CELL");
    expect(code(s, 0, buy("pact", 3, 4, "Moons"))).toBe("CELL_TAKEN");
    expect(code(s, 0, buy("pact", 1, 3, "Moons"))).toBe("NOT_ADJACENT");
    const wide = position({ market: ["pact", "cave", "castle"], tableau: layout(["journey mountain forest lunatic"]) });
    expect(code(wide, 0, buy("pact", 3, 2, "Moons"))).toBe("TOO_BIG");
    const crowns = position({ market: ["pact", "cave", "sea"], tableau: layout(["ace-moons journey"]) });
    expect(code(crowns, 0, buy("sea", 2, 3, "none"))).toBe("ACE_CROWN_ADJACENT");
    expect(code(crowns, 0, buy("sea", 2, 4, "none"))).toBe("ok");
    const pawns = position({ extended: true, market: ["pact", "cave", "rite"], tableau: layout(["harvest journey"]) });
    expect(code(pawns, 0, buy("rite", 2, 3, "Moons"))).toBe("PAWN_COURT_ADJACENT");
    expect(code(pawns, 0, buy("rite", 2, 4, "Moons"))).toBe("ok");
    const empty = position({ market: ["pact", "cave", "castle"] });
    expect(code(empty, 0, buy("castle", 0, 0, "none"))).toBe("FIRST_CELL");
    expect(code(empty, 0, buy("castle", 3, 3, "none"))).toBe("ok");
  });

  it("GAME_OVER after the end, whatever the action", () => {
    const over = play(position({ market: ["pact"], tableau: layout(["journey"]), deck: [] }), [buy("pact", 3, 4, "none") as Action]);
    expect(code(over, 0, { type: "discard-market" })).toBe("GAME_OVER");
    expect(code(over, 0, { type: "fly" })).toBe("GAME_OVER");
    expect(code(over, 1, { type: "discard-market" })).toBe("BAD_SEAT");
  });

  it("every error has a code and a sentence", () => {
    const r = game.apply(s, 0, buy("pact", 2, 4, "Suns") as Action);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/chip/);
  });
});

describe("immutability", () => {
  it("never changes the input state, after legal or illegal actions (frozen states throughout whole games)", () => {
    for (const extended of [false, true]) {
      let s = game.setup({ players: 1, options: { extended }, seed: `immutable-${extended}` }).state;
      const random = seededRandom("immutable");
      let steps = 0;
      while (!game.isOver(s)) {
        const frozen = deepFreeze(s);
        const before = JSON.stringify(frozen);
        expect(code(frozen, 1, { type: "discard-market" })).toBe("BAD_SEAT");
        expect(code(frozen, 0, buy("nope", 3, 3, "Moons"))).toBe("NOT_IN_MARKET");
        expect(code(frozen, 0, { type: "x" })).toBe("UNKNOWN_ACTION");
        game.view(frozen, { kind: "seat", seat: 0 });
        const r = game.apply(frozen, 0, randomLegalAction(game.legalActions(frozen, 0), random)!);
        expect(r.ok).toBe(true);
        expect(JSON.stringify(frozen)).toBe(before);
        if (r.ok) s = r.value.state;
        steps++;
      }
      expect(steps).toBeGreaterThan(10);
    }
  });
});

describe("fuzz", () => {
  it("never throws on garbage actions and never changes the state", () => {
    const random = seededRandom("fuzz");
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const atoms: unknown[] = [
      null, undefined, true, false, 0, -0, 1, 2, 3, 4, 6, 7, -1, 1.5, NaN, Infinity, -Infinity, 1e308,
      Number.MAX_SAFE_INTEGER, "", "1", "3", "pact", "sea", "harvest", "excuse", "none", "Moons", "Suns", "Knots",
      "moons", "buy", "__proto__", "constructor", "toString", [], {}, [3, 3], ["pact"], { card: "pact" },
    ];
    const garbage = (depth = 0): unknown =>
      depth < 2 && random() < 0.2
        ? random() < 0.5
          ? [garbage(depth + 1), garbage(depth + 1)]
          : { [String(pick(atoms))]: garbage(depth + 1) }
        : pick(atoms);
    const types = ["buy", "discard-market", "pass", "", "BUY", "hasOwnProperty"];
    const keys = ["card", "row", "col", "pay", "type", "extra", "__proto__", "constructor"];

    let s = game.setup({ players: 1, options: { extended: true }, seed: "fuzz" }).state;
    let tries = 0;
    for (let step = 0; step < 150; step++) {
      if (game.isOver(s)) s = game.setup({ players: 1, options: { extended: step % 2 === 0 }, seed: `fuzz-${step}` }).state;
      const frozen = deepFreeze(s);
      const before = JSON.stringify(frozen);
      const market = frozen.market.filter((c) => c !== null);
      const legal = game.legalActions(frozen, 0);
      for (let k = 0; k < 60; k++) {
        let action: unknown;
        const roll = random();
        if (roll < 0.15) action = garbage();
        else if (roll < 0.5) {
          // A well-formed buy with random (mostly plausible) values.
          action = {
            type: "buy",
            card: random() < 0.7 ? pick(market) : garbage(),
            row: random() < 0.7 ? Math.floor(random() * 9) - 1 : garbage(),
            col: random() < 0.7 ? Math.floor(random() * 9) - 1 : garbage(),
            pay: random() < 0.7 ? pick(["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots", "none"]) : garbage(),
          };
        } else {
          const o: Record<string, unknown> = { type: random() < 0.9 ? pick(types) : garbage() };
          const nKeys = Math.floor(random() * 5);
          for (let j = 0; j < nKeys; j++) o[pick(keys)] = garbage();
          action = o;
        }
        if (random() < 0.1) action = JSON.parse(JSON.stringify(action ?? null));
        const seat = random() < 0.8 ? (random() < 0.7 ? 0 : Math.floor(random() * 4) - 1) : garbage();
        let r: ReturnType<typeof game.apply> | undefined;
        expect(() => {
          r = game.apply(frozen, seat as number, action as Action);
        }).not.toThrow();
        expect(r).toBeDefined();
        if (!r!.ok) {
          expect(r!.error.code).toMatch(/^[A-Z_]+$/);
          expect(r!.error.message.length).toBeGreaterThan(10);
        }
        // Seat 0's action is accepted exactly when it matches a listed legal action.
        if (seat === 0 && typeof action === "object" && action !== null && !Array.isArray(action)) {
          expect(r!.ok, JSON.stringify(action)).toBe(listed(legal, action as Record<string, unknown>));
        }
        tries++;
      }
      expect(JSON.stringify(frozen)).toBe(before);
      const r = game.apply(frozen, 0, randomLegalAction(game.legalActions(frozen, 0), random)!);
      expect(r.ok).toBe(true);
      if (r.ok) s = r.value.state;
    }
    expect(tries).toBe(9000);
  });
});
