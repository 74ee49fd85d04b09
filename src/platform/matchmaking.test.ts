import { describe, expect, it } from "vitest";
import { compatible, formTables, parsePoolKey, poolKey, poolSizes, queueRating, ratingWindow, tableSeats, WINDOW_MAX, type Waiting } from "./matchmaking.js";
import { seededRandom } from "../games/testing.js";

const T0 = 1_700_000_000_000;
const w = (id: string, rating: number, waitedMs: number, botsAfterMs?: number): Waiting => ({ playerId: id, rating, joinedAt: T0 - waitedMs, botsAfterMs });
const ids = (tables: { players: Waiting[] }[]) => tables.map((t) => t.players.map((p) => p.playerId));

describe("pool keys and queue ratings", () => {
  it("round-trips a pool key and refuses malformed ones", () => {
    const p = { game: "goblin-market", seats: 4, clock: "standard", mode: "ranked" as const };
    expect(poolKey(p)).toBe("goblin-market/4/standard/ranked");
    expect(parsePoolKey(poolKey(p))).toEqual(p);
    const any = { ...p, seats: "any" as const };
    expect(poolKey(any)).toBe("goblin-market/any/standard/ranked");
    expect(parsePoolKey(poolKey(any))).toEqual(any);
    expect(() => tableSeats(any)).toThrow();
    expect(tableSeats(p)).toBe(4);
    const some = { ...p, seats: [3, 4] };
    expect(poolKey(some)).toBe("goblin-market/3+4/standard/ranked");
    expect(parsePoolKey(poolKey(some))).toEqual(some);
    expect(() => tableSeats(some)).toThrow();
    expect([poolSizes("any", 3, 6), poolSizes(4, 3, 6), poolSizes([4, 6], 3, 6)]).toEqual([[3, 4, 5, 6], [4], [4, 6]]);
    for (const bad of ["g/4+3/x/casual", "g/3+3/x/casual", "g/3+/x/casual", "g/+3/x/casual", "g/3+04/x/casual", "g/0+3/x/casual", "g/3+any/x/casual"]) expect(parsePoolKey(bad), bad).toBeNull();
    for (const bad of ["", "a/b/c", "g/0/standard/ranked", "g/Any/x/casual", "g/anything/x/casual", "g/2.5/x/casual", "g/04/x/casual", "g/2/x/rated", "/2/x/casual", "g/2//casual", "g/2/x/casual/extra"]) {
      expect(parsePoolKey(bad)).toBeNull();
    }
  });

  it("uses the displayed rating; provisional and unrated players count as 1500", () => {
    expect(queueRating(null)).toBe(1500);
    expect(queueRating({ mu: 35, sigma: 8 })).toBe(1500); // provisional
    expect(queueRating({ mu: 35, sigma: 6 })).toBe(1800);
    expect(queueRating({ mu: 20, sigma: 7 })).toBe(1350); // sigma 7 is settled
  });
});

describe("rating window", () => {
  it("widens by 50 every 5 s from ±100, up to the cap", () => {
    expect(ratingWindow(0)).toBe(100);
    expect(ratingWindow(4_999)).toBe(100);
    expect(ratingWindow(5_000)).toBe(150);
    expect(ratingWindow(10_000)).toBe(200);
    expect(ratingWindow(39_999)).toBe(450);
    expect(ratingWindow(40_000)).toBe(WINDOW_MAX);
    expect(ratingWindow(3_600_000)).toBe(WINDOW_MAX);
    expect(ratingWindow(-5)).toBe(100);
    for (let t = 0; t < 60_000; t += 1_000) expect(ratingWindow(t + 1_000)).toBeGreaterThanOrEqual(ratingWindow(t));
  });

  it("a pair must fit both windows", () => {
    // 300 apart: the old waiter's window (±500) covers it, the newcomer's (±100) does not.
    expect(compatible(w("old", 1500, 60_000), w("new", 1800, 0), T0)).toBe(false);
    expect(compatible(w("old", 1500, 60_000), w("new", 1800, 20_000), T0)).toBe(true);
  });
});

describe("formTables", () => {
  it("forms a table only when everyone is within every window, and more as windows widen", () => {
    const players = [w("a", 1500, 0), w("b", 1640, 0)];
    expect(formTables(players, T0, 2)).toEqual([]);
    // 140 apart: fits ±150, which both reach after 5 s.
    const later = formTables(players, T0 + 5_000, 2);
    expect(ids(later)).toEqual([["a", "b"]]);
    expect(later[0]!.bots).toBe(0);
  });

  it("never forms a table with a pair outside a window, whatever the wait", () => {
    const random = seededRandom("windows");
    for (let round = 0; round < 50; round++) {
      const now = T0 + round * 1_000;
      const queue = Array.from({ length: 40 }, (_, i) => w(`p${i}`, 1000 + Math.floor(random() * 1000), Math.floor(random() * 60_000)));
      for (const seats of [2, 3, 4, 5]) {
        for (const t of formTables(queue, now, seats)) {
          expect(t.players).toHaveLength(seats);
          for (const a of t.players) for (const b of t.players) if (a !== b) expect(Math.abs(a.rating - b.rating)).toBeLessThanOrEqual(Math.min(ratingWindow(now - a.joinedAt), ratingWindow(now - b.joinedAt)));
        }
      }
    }
  });

  it("never seats a player who asked for players who finish their games with one who left too many", () => {
    const picky = (x: Waiting): Waiting => ({ ...x, reliableOnly: true });
    const leaver = (x: Waiting): Waiting => ({ ...x, unreliable: true });
    expect(compatible(picky(w("ann", 1500, 0)), leaver(w("bob", 1500, 0)), T0)).toBe(false);
    expect(compatible(leaver(w("bob", 1500, 0)), picky(w("ann", 1500, 0)), T0)).toBe(false);
    expect(compatible(picky(w("ann", 1500, 0)), picky(w("cat", 1500, 0)), T0)).toBe(true);
    expect(compatible(w("dan", 1500, 0), leaver(w("bob", 1500, 0)), T0)).toBe(true);
    // Oldest first: Ann would take Bob, but he left too many; Cat sits with her, Bob waits for Dan.
    const four = [picky(w("ann", 1500, 4)), leaver(w("bob", 1500, 3)), w("cat", 1500, 2), w("dan", 1500, 1)];
    expect(ids(formTables(four, T0, 2)).map((t) => [...t].sort())).toEqual([["ann", "cat"], ["bob", "dan"]]);
  });

  it("never seats two players one of whom blocks the other, in either direction, bot tables included", () => {
    const avoid = (x: Waiting, ...who: string[]): Waiting => ({ ...x, avoid: who });
    // Five at one rating for four seats: Ann blocks Bob, so the table is the other four and Bob waits.
    const five = [avoid(w("ann", 1500, 5), "bob"), w("bob", 1500, 4), w("cat", 1500, 3), w("dan", 1500, 2), w("eve", 1500, 1)];
    expect(ids(formTables(five, T0, 4)).map((t) => [...t].sort())).toEqual([["ann", "cat", "dan", "eve"]]);
    // Blocked by Bob instead: the same.
    const other = [w("ann", 1500, 5), avoid(w("bob", 1500, 4), "ann"), w("cat", 1500, 3), w("dan", 1500, 2), w("eve", 1500, 1)];
    expect(ids(formTables(other, T0, 4)).map((t) => [...t].sort())).toEqual([["ann", "cat", "dan", "eve"]]);
    // Only they two: no table; with bots due, a bot table each, never one together.
    expect(formTables([avoid(w("ann", 1500, 60_000), "bob"), w("bob", 1500, 60_000)], T0, 2)).toEqual([]);
    const two = [{ ...avoid(w("ann", 1500, 60_000), "bob"), botsAfterMs: 0 }, { ...w("bob", 1500, 60_000), botsAfterMs: 0 }];
    expect(ids(formTables(two, T0, 2))).toEqual([["ann"], ["bob"]]);
    expect(ids(formTables(two, T0, 3))).toEqual([["ann"], ["bob"]]);
    const random = seededRandom("blocks");
    for (let round = 0; round < 30; round++) {
      const queue = Array.from({ length: 30 }, (_, i) => ({ ...w(`p${i}`, 1400 + Math.floor(random() * 200), Math.floor(random() * 30_000)), botsAfterMs: random() < 0.3 ? 0 : null }));
      for (const q of queue) q.avoid = queue.filter(() => random() < 0.15).map((o) => o.playerId).filter((id) => id !== q.playerId);
      for (const seats of [2, 3, 4]) {
        for (const t of formTables(queue, T0 + round * 1000, seats)) {
          for (const a of t.players) for (const b of t.players) expect(a.avoid?.includes(b.playerId) ?? false).toBe(false);
        }
      }
    }
  });

  it("keeps a capped window: players too far apart never meet", () => {
    expect(formTables([w("a", 1000, 3_600_000), w("b", 1501, 3_600_000)], T0, 2)).toEqual([]);
    expect(ids(formTables([w("a", 1000, 3_600_000), w("b", 1500, 3_600_000)], T0, 2))).toEqual([["a", "b"]]);
  });

  it("seats the oldest waiters first", () => {
    const queue = [w("new1", 1500, 1_000), w("old", 1500, 9_000), w("new2", 1500, 2_000), w("mid", 1500, 5_000)];
    expect(ids(formTables(queue, T0, 2))).toEqual([
      ["old", "mid"],
      ["new2", "new1"],
    ]);
    expect(ids(formTables(queue, T0, 3))).toEqual([["old", "mid", "new2"]]);
  });

  it("finds a table even when the oldest compatible pick would block it", () => {
    // anchor 1500 (window 500); x at 1900 fits the anchor but not y/z at 1100-1150; y,z fit the anchor.
    const queue = [w("anchor", 1500, 60_000), w("x", 1900, 50_000), w("y", 1100, 40_000), w("z", 1150, 30_000)];
    expect(ids(formTables(queue, T0, 3))).toEqual([["anchor", "y", "z"]]);
  });

  it("returns disjoint tables of exactly `seats` distinct players, each player once even if listed twice", () => {
    const random = seededRandom("disjoint");
    const queue = Array.from({ length: 300 }, (_, i) => w(`p${i}`, 1300 + Math.floor(random() * 400), Math.floor(random() * 30_000)));
    const tables = formTables([...queue, ...queue.slice(0, 50)], T0, 4);
    const seen = new Set<string>();
    for (const t of tables) {
      expect(t.players).toHaveLength(4);
      for (const p of t.players) {
        expect(seen.has(p.playerId)).toBe(false);
        seen.add(p.playerId);
      }
    }
    expect(tables.length).toBeGreaterThan(50);
  });

  it("is deterministic: the same players in any order give the same tables", () => {
    const random = seededRandom("order");
    const queue = Array.from({ length: 120 }, (_, i) => w(`p${i}`, 1200 + Math.floor(random() * 600), Math.floor(random() * 20_000) - (i % 7 === 0 ? 0 : 0)));
    // Equal join times too, broken by id.
    queue.push(w("tieB", 1500, 10_000), w("tieA", 1500, 10_000));
    const expected = formTables(queue, T0, 3);
    for (let k = 0; k < 10; k++) {
      const shuffled = [...queue].sort(() => random() - 0.5);
      expect(formTables(shuffled, T0, 3)).toEqual(expected);
    }
  });

  it("fills with bots only casual players whose chosen wait has passed", () => {
    const queue = [w("far", 2400, 20_000, 15_000), w("waiting", 1500, 10_000, 15_000), w("nobots", 900, 60_000)];
    expect(formTables(queue, T0, 4)).toEqual([{ players: [queue[0]], bots: 3 }]);
    // Two bot-willing players within each other's windows share a bot table.
    const pair = [w("a", 1500, 30_000, 10_000), w("b", 1600, 20_000, 10_000)];
    expect(formTables(pair, T0, 4)).toEqual([{ players: [pair[0], pair[1]], bots: 2 }]);
    // A full table of people comes before bots.
    const four = [w("a", 1500, 30_000, 10_000), w("b", 1500, 20_000), w("c", 1500, 20_000), w("d", 1500, 20_000)];
    expect(formTables(four, T0, 4).map((t) => t.bots)).toEqual([0]);
  });

  it("ignores a bad seat count", () => {
    expect(formTables([w("a", 1500, 0)], T0, 0)).toEqual([]);
  });
});
