import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Outcome } from "../games/types.js";
import { canonicalJson, checkOutcome, replayGame } from "./replay-game.js";

describe("replayGame", () => {
  it("refuses a log that does not fit the seed, naming the action", () => {
    expect(() => replayGame({ gameType: "goblin-market", players: 3, options: {}, seed: "s", actions: [{ seat: 0, action: { type: "take-all" } }] })).toThrow(/action 1/);
  });
  it("compares JSON regardless of key order, as stored JSONB needs", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});

/**
 * Three Aucteraden records as the engine wrote them before the scoring change of issue 19 (made at
 * commit 01aed56 by playing seeded random games: two standard, one extended). Their outcomes carry
 * no `scoring` field: scoring rules 1.
 */
const OLD: Array<{ roomId: string; gameType: string; options: unknown; seed: string; commitment: string; actions: Array<{ seat: number; action: unknown }>; outcome: Outcome }> =
  JSON.parse(readFileSync(new URL("./fixtures/aucteraden-scoring-1-records.json", import.meta.url), "utf8"));
const replayOf = (r: (typeof OLD)[number]) => replayGame({ gameType: r.gameType, players: 1, options: r.options, seed: r.seed, actions: r.actions });

describe("records scored before a scoring change keep their result", () => {
  it("an Aucteraden record scored by rules 1 matches under those rules, and replay names them", () => {
    for (const rec of OLD) {
      const replayed = replayOf(rec);
      expect(replayed.commitment).toBe(rec.commitment);
      const check = checkOutcome(rec.gameType, replayed, rec.outcome);
      expect(check, rec.roomId).toMatchObject({ matches: true, rules: "Aucteraden scoring rules 1" });
      // Today's scoring is different (the breakdown names its rules), and is reported alongside.
      expect(check.current).not.toEqual(rec.outcome);
      expect((check.current!.details as { scoring?: number }).scoring).toBe(2);
    }
  });

  it("two of them score differently today (a one-card Ace or Crown chain; a Pawn or Court chain with no Ace), one the same", () => {
    const scores = OLD.map((rec) => [rec.outcome.scores[0], checkOutcome(rec.gameType, replayOf(rec), rec.outcome).current!.scores[0]]);
    // Counted by the two engines: the recorded score (rules 1) and today's (rules 2).
    expect(scores).toEqual([
      [1, 3],
      [-3, -3],
      [18, 10],
    ]);
  });

  it("a record altered after the fact still fails, under either rules", () => {
    const rec = OLD[0]!;
    const replayed = replayOf(rec);
    const forged = { ...rec.outcome, scores: [rec.outcome.scores[0]! + 1] };
    expect(checkOutcome(rec.gameType, replayed, forged).matches).toBe(false);
    // A record that names today's rules is checked against today's rules only, not rules 1.
    const claimsToday = { ...rec.outcome, details: { ...(rec.outcome.details as object), scoring: 2 } };
    expect(checkOutcome(rec.gameType, replayed, claimsToday)).toEqual({ matches: false, current: replayed.outcome });
    // Rules this engine does not have: no match.
    const unknownRules = { ...rec.outcome, details: { ...(rec.outcome.details as object), scoring: 9 } };
    expect(checkOutcome(rec.gameType, replayed, unknownRules).matches).toBe(false);
  });

  it("a game finished today is recorded with its rules and matches directly", () => {
    const rec = OLD[2]!;
    const replayed = replayOf(rec);
    const today = replayed.outcome!;
    expect((today.details as { scoring?: number }).scoring).toBe(2);
    expect(checkOutcome(rec.gameType, replayed, JSON.parse(JSON.stringify(today)))).toEqual({ matches: true, current: today });
  });

  it("a game without earlier scoring rules just differs", () => {
    const replayed = replayGame({ gameType: "goblin-market", players: 3, options: {}, seed: "s", actions: [] });
    expect(checkOutcome("goblin-market", replayed, { scores: [1, 2, 3], places: [3, 2, 1] })).toEqual({ matches: false, current: null });
  });
});
