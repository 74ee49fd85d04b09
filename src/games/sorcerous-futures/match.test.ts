/** The three-game match: bankrolls carried over, the next game dealt automatically, places by total money. */
import { describe, expect, it } from "vitest";
import { play, playLogged, position, randomGame } from "./fixtures.js";
import { sorcerousFutures as game } from "./index.js";

describe("three-game match", () => {
  it("after a game's sale the next game is dealt from the same state, bankrolls kept", () => {
    const s0 = position({
      players: 4,
      valuations: [["mountain", "sea"], ["forest", "ace-knots"], ["author", "battle"], ["pact", "huntress"]],
      market: ["diplomat"],
      holdings: [["journey"], [], [], []],
      money: [90, 80, 70, 60],
      excuse: 2,
      firstExcuse: 3,
      deck: [],
      matchGames: 3,
    });
    const { state: s, log } = playLogged(s0, [
      [2, { type: "bid", amount: 10 }],
      [3, { type: "pass" }],
      [0, { type: "pass" }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    expect(game.isOver(s)).toBe(false);
    expect(s.matchGame).toBe(2);
    expect(s.phase).toBe("setup");
    // Seat 0 sold the Journey (3 + Moons 5 + Waves 10); seat 2 paid 10 for the Diplomat (8 + 5 + 7).
    expect(s.results).toHaveLength(1);
    expect(s.results[0].moneyAfter).toEqual([108, 80, 80, 60]);
    expect(s.money).toEqual([108, 80, 80, 60]);
    expect(s.holdings).toEqual([[], [], [], []]);
    expect(s.paid).toEqual([0, 0, 0, 0]);
    expect(s.confirmed).toEqual([false, false, false, false]);
    expect(s.deck).toHaveLength(20);
    expect(s.excuse).toBeNull();
    expect(game.activeSeats(s)).toEqual([0, 1, 2, 3]);
    expect(log.filter((e) => e.type === "game-end")).toMatchObject([{ game: 1, final: false }]);
    expect(log.at(-5)).toMatchObject({ type: "game-start", game: 2, matchGame: 2, money: [108, 80, 80, 60] });
    expect(game.outcome(s)).toBeNull();
    // The next game's first Excuse holder is left of the previous game's first one.
    const t = play(s, [0, 1, 2, 3].map((seat) => [seat, { type: "confirm" }] as const));
    expect(t.excuse).toBe(0);
    expect(t.firstExcuse).toBe(0);
  });

  it("random matches: three games, money carried, Excuse rotates, outcome by total money", () => {
    for (const players of [3, 4, 5]) {
      for (let i = 0; i < 5; i++) {
        const g = randomGame(players, `match-${players}-${i}`, { match: 3 });
        const s = g.final;
        expect(s.results.map((r) => r.game)).toEqual([1, 2, 3]);
        for (let k = 1; k < 3; k++) {
          const start = g.log.find((e) => e.type === "game-start" && e.game === k + 1)!;
          expect(start.money).toEqual(s.results[k - 1].moneyAfter);
          const paid = s.results[k].paid;
          const spent = g.log.filter((e) => e.type === "win" && e.game === k + 1);
          for (let seat = 0; seat < players; seat++) {
            const bought = spent.filter((e) => e.seat === seat).reduce((t, e) => t + (e.paid as number), 0);
            expect(s.results[k].moneyBefore[seat]).toBe(s.results[k - 1].moneyAfter[seat] - paid[seat] - bought);
          }
        }
        const firsts = g.log.filter((e) => e.type === "excuse" && e.first).map((e) => e.seat as number);
        expect(firsts).toHaveLength(3);
        expect(firsts[1]).toBe((firsts[0] + 1) % players);
        expect(firsts[2]).toBe((firsts[0] + 2) % players);
        const o = game.outcome(s)!;
        expect(o.scores).toEqual(s.results[2].moneyAfter);
        expect(o.scores).toEqual(s.money);
        expect((o.details as { games: unknown[] }).games).toHaveLength(3);
      }
    }
  });

  it("match 1 ends after one game", () => {
    const g = randomGame(4, "short");
    expect(g.final.results).toHaveLength(1);
    expect(g.final.matchGames).toBe(1);
  });
});
