import { describe, expect, it } from "vitest";
import { canonicalJson, replayGame } from "./replay-game.js";

describe("replayGame", () => {
  it("refuses a log that does not fit the seed, naming the action", () => {
    expect(() => replayGame({ gameType: "goblin-market", players: 3, options: {}, seed: "s", actions: [{ seat: 0, action: { type: "take-all" } }] })).toThrow(/action 1/);
  });
  it("compares JSON regardless of key order, as stored JSONB needs", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
