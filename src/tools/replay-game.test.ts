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

/**
 * A Goblin Teeth game played under rules 1 (made with the engine of commit 48a43ad, before rules
 * 2, by seeded play steered to the position): at the end of round, with the Cheat deck and discard
 * pile empty, the Patient holder plays Sneak Preview (action 163) and through it Pass (action 164),
 * which rules 1 allowed (it drew nothing) and rules 2 refuse. Its record, like every record made
 * before rules 2, says no rules version.
 */
const TEETH_1: { roomId: string; gameType: string; options: unknown; seed: string; commitment: string; actions: Array<{ seat: number; action: unknown }>; outcome: Outcome } =
  JSON.parse(readFileSync(new URL("./fixtures/goblin-teeth-rules-1-record.json", import.meta.url), "utf8"));

describe("records replay under the rules they were played under", () => {
  const input = (rules?: number) => ({ gameType: TEETH_1.gameType, players: 2, options: TEETH_1.options, seed: TEETH_1.seed, actions: TEETH_1.actions, ...(rules === undefined ? {} : { rules }) });

  it("a Goblin Teeth record of rules 1 with Pass through Sneak Preview at the end of the round replays and checks", () => {
    expect(TEETH_1.actions.slice(162, 164)).toEqual([
      { seat: 0, action: { type: "cheat", card: "cheat-sneak-preview" } },
      { seat: 0, action: { type: "cheat", card: "cheat-pass" } },
    ]);
    for (const replayed of [replayGame(input()), replayGame(input(1))]) {
      expect(replayed.commitment).toBe(TEETH_1.commitment);
      expect(checkOutcome(TEETH_1.gameType, replayed, TEETH_1.outcome)).toEqual({ matches: true, current: replayed.outcome });
      // The play drew nothing; the state says nothing of rules (a rules 1 state, as that build made it).
      expect(replayed.log.filter((e) => e.type === "draw" && (e as { reason?: string }).reason === "pass").at(-1)).toMatchObject({ seat: 0, count: 0 });
      expect(replayed.state).not.toHaveProperty("rules");
    }
  });

  it("under rules 2 the same moves are refused at that play, so a game dealt today can't make it", () => {
    // Sneak Preview is still playable (the holder has another Action card to play through it); Pass through it is not.
    expect(() => replayGame(input(2))).toThrow(/action 164 \(seat 0\) was refused on replay: NOTHING_TO_DRAW/);
    expect(() => replayGame(input())).not.toThrow();
  });

  it("a record of rules newer than this build's is refused, not replayed under the wrong ones", () => {
    expect(() => replayGame(input(3))).toThrow(expect.objectContaining({ code: "RULES_TOO_NEW" }));
    expect(() => replayGame(input(0))).toThrow(expect.objectContaining({ code: "BAD_RULES" }));
    // A game with one version: only rules 1.
    expect(() => replayGame({ gameType: "goblin-market", players: 3, options: {}, seed: "s", actions: [], rules: 2 })).toThrow(expect.objectContaining({ code: "RULES_TOO_NEW" }));
  });
});
