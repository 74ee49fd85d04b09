/** The quick play queue store contract, run against both implementations (Redis when available). */
import { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryQueueStore, RedisQueueStore, type QueueEntry, type QueueStore } from "./queue-store.js";
import { AppError } from "./errors.js";

const REDIS_URL = process.env.GB_TEST_REDIS_URL;
const T0 = 1_700_000_000_000;
const POOL = "goblin-market/3/standard/ranked";
const OTHER = "goblin-teeth/2/standard/ranked";

type Factory = { name: string; make: () => { store: QueueStore; done: () => Promise<void> } };
const factories: Factory[] = [{ name: "memory", make: () => ({ store: new MemoryQueueStore(), done: async () => {} }) }];
const connections: Redis[] = [];
if (REDIS_URL) {
  factories.push({
    name: "redis",
    make: () => {
      const redis = new Redis(REDIS_URL);
      connections.push(redis);
      const prefix = `gbt:q:${Math.random().toString(36).slice(2)}:`;
      prefixes.push(prefix);
      return { store: new RedisQueueStore(redis, prefix), done: async () => {} };
    },
  });
} else {
  console.log("queue-store tests: no Redis available, Redis variant SKIPPED");
}
const prefixes: string[] = [];
afterAll(async () => {
  // Remove this run's keys (every prefix is random), then disconnect.
  const c = connections[0];
  for (const prefix of prefixes) {
    for await (const keys of c!.scanStream({ match: `${prefix}*`, count: 500 })) if ((keys as string[]).length) await c!.del(...(keys as string[]));
  }
  connections.forEach((c) => c.disconnect());
});

const entry = (id: string, joinedAt = T0, pool = POOL, rating = 1500): QueueEntry => ({ playerId: id, name: id.toUpperCase(), pool, rating, joinedAt, botsAfterMs: null, account: true });
const LEASE = 30_000;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).code;
  }
  return "no error";
}

describe.each(factories)("queue store contract ($name)", ({ make }) => {
  let store: QueueStore;
  beforeEach(() => ({ store } = make()));

  it("queues a player once, in one pool; counts, places and waits", async () => {
    await store.join(entry("a", T0), T0 + LEASE);
    await store.join(entry("b", T0 + 10), T0 + LEASE);
    await store.join(entry("c", T0 + 5, OTHER), T0 + LEASE);
    expect(await code(store.join(entry("a", T0 + 20), T0 + LEASE))).toBe("ALREADY_QUEUED");
    expect(await code(store.join(entry("a", T0 + 20, OTHER), T0 + LEASE))).toBe("ALREADY_QUEUED");
    expect(await store.counts()).toEqual({ [POOL]: 2, [OTHER]: 1 });
    expect((await store.waiting(POOL)).map((e) => e.playerId)).toEqual(["a", "b"]);
    expect(await store.waiting(POOL)).toEqual([entry("a", T0), entry("b", T0 + 10)]);
    expect(await store.status("b", T0 + 1_000)).toEqual({ state: "queued", entry: entry("b", T0 + 10), place: 2, queued: 2, waitMs: 990 });
    expect(await store.status("c", T0 + 1_000)).toMatchObject({ state: "queued", place: 1, queued: 1 });
    expect(await store.status("nobody", T0)).toBeNull();
  });

  it("replaces a queued player's avoid list in place; not for someone not queued", async () => {
    await store.join({ ...entry("a", T0), avoid: ["x"] }, T0 + LEASE);
    await store.join(entry("b", T0 + 10), T0 + LEASE);
    expect(await store.setAvoid("b", ["a", "y"])).toBe(true);
    expect(await store.setAvoid("a", [])).toBe(true);
    expect(await store.waiting(POOL)).toEqual([entry("a", T0), { ...entry("b", T0 + 10), avoid: ["a", "y"] }]);
    expect(await store.status("b", T0 + 20)).toMatchObject({ state: "queued", place: 2 });
    expect(await store.setAvoid("nobody", ["a"])).toBe(false);
  });

  it("orders equal join times by player id", async () => {
    for (const id of ["p2", "p10", "p1"]) await store.join(entry(id, T0), T0 + LEASE);
    expect((await store.waiting(POOL)).map((e) => e.playerId)).toEqual(["p1", "p10", "p2"]);
    expect(await store.status("p2", T0)).toMatchObject({ place: 3 });
  });

  it("leaves, and a pool with nobody left is not counted", async () => {
    await store.join(entry("a"), T0 + LEASE);
    expect(await store.leave("a")).toBe(true);
    expect(await store.leave("a")).toBe(false);
    expect(await store.counts()).toEqual({});
    expect(await store.waiting(POOL)).toEqual([]);
    await store.join(entry("a", T0 + 1), T0 + LEASE); // may queue again
    expect(await store.counts()).toEqual({ [POOL]: 1 });
  });

  it("drops entries whose lease ran out unless refreshed", async () => {
    await store.join(entry("a"), T0 + LEASE);
    await store.join(entry("b"), T0 + LEASE);
    expect(await store.refresh(["a", "ghost"], T0 + 20_000 + LEASE)).toEqual(["a"]);
    // A refresh never shortens a lease.
    expect(await store.refresh(["a"], T0 + 1)).toEqual(["a"]);
    expect(await store.expireLeases(T0 + LEASE - 1)).toEqual([]);
    expect(await store.expireLeases(T0 + LEASE)).toEqual([entry("b")]);
    expect(await store.counts()).toEqual({ [POOL]: 1 });
    expect(await store.status("b", T0 + LEASE)).toBeNull();
    expect(await store.expireLeases(T0 + 20_000 + LEASE)).toEqual([entry("a")]);
    expect(await store.counts()).toEqual({});
  });

  it("claims a table atomically, or not at all when any player is gone", async () => {
    for (const id of ["a", "b", "c", "d"]) await store.join(entry(id), T0 + LEASE);
    await store.join(entry("x", T0, OTHER), T0 + LEASE);
    const claim = (id: string, playerIds: string[], now = T0 + 100) => store.claim({ id, pool: POOL, playerIds, bots: 0, proposedAt: now, deadline: now + 10_000 }, now);
    // A player of another pool, an unknown player, a repeated player: nothing moves.
    expect(await claim("m0", ["a", "b", "x"])).toBeNull();
    expect(await claim("m0", ["a", "b", "ghost"])).toBeNull();
    expect(await claim("m0", ["a", "a", "b"])).toBeNull();
    expect(await claim("m0", [])).toBeNull();
    // A lapsed lease (not yet swept) makes the claim fail too.
    expect(await claim("m0", ["a", "b", "c"], T0 + LEASE)).toBeNull();
    expect(await store.counts()).toEqual({ [POOL]: 4, [OTHER]: 1 });
    const m = await claim("m1", ["c", "a", "b"]);
    expect(m).toEqual({ id: "m1", pool: POOL, players: [entry("c"), entry("a"), entry("b")], bots: 0, proposedAt: T0 + 100, deadline: T0 + 10_100, accepted: [] });
    expect(await store.counts()).toEqual({ [POOL]: 1, [OTHER]: 1 });
    expect(await store.status("a", T0 + 200)).toEqual({ state: "match", match: m });
    expect(await store.match("m1")).toEqual(m);
    // The same players cannot be claimed again, nor d with one of them; the same id is refused.
    expect(await claim("m2", ["a", "d", "b"])).toBeNull();
    expect(await claim("m1", ["d"])).toBeNull();
    expect(await store.status("d", T0 + 200)).toMatchObject({ state: "queued", place: 1, queued: 1 });
    // A claimed player cannot queue and does not leave the match by `leave`.
    expect(await code(store.join(entry("a", T0 + 300), T0 + LEASE))).toBe("IN_MATCH");
    expect(await store.leave("a")).toBe(false);
    // A claimed player's lease no longer applies; refresh still reports them as present.
    expect(await store.expireLeases(T0 + LEASE)).toEqual([entry("d"), entry("x", T0, OTHER)]);
    expect(await store.refresh(["a", "d"], T0 + 2 * LEASE)).toEqual(["a"]);
  });

  it("lets exactly one of many concurrent claims of overlapping tables win", async () => {
    const players = Array.from({ length: 6 }, (_, i) => `p${i}`);
    for (const id of players) await store.join(entry(id), T0 + LEASE);
    const tables = Array.from({ length: 20 }, (_, i) => [players[i % 6]!, players[(i + 1) % 6]!, players[(i + 2) % 6]!]);
    const results = await Promise.all(tables.map((ids, i) => store.claim({ id: `c${i}`, pool: POOL, playerIds: ids, bots: 0, proposedAt: T0, deadline: T0 + 10_000 }, T0)));
    const won = results.filter((r) => r !== null);
    const seated = won.flatMap((m) => m!.players.map((p) => p.playerId));
    expect(new Set(seated).size).toBe(seated.length);
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(won.length).toBeLessThanOrEqual(2);
    expect((await store.counts())[POOL] ?? 0).toBe(6 - seated.length);
  });

  it("claims a table of one size with players of that size's any pool too, and puts them back there", async () => {
    const ANY = "goblin-market/any/standard/ranked";
    await store.join(entry("a", T0), T0 + LEASE);
    await store.join(entry("f", T0 + 500, ANY), T0 + LEASE);
    await store.join(entry("g", T0 + 600, ANY), T0 + LEASE);
    await store.join(entry("t", T0 + 700, OTHER), T0 + LEASE);
    expect(await store.counts()).toEqual({ [POOL]: 1, [ANY]: 2, [OTHER]: 1 });
    const claim = (id: string, playerIds: string[], alsoFrom?: string) =>
      store.claim({ id, pool: POOL, ...(alsoFrom ? { alsoFrom: [alsoFrom] } : {}), playerIds, bots: 0, proposedAt: T0 + 100, deadline: T0 + 10_000 }, T0 + 100);
    // Without alsoFrom only the pool's own players; never a third pool's.
    expect(await claim("m0", ["a", "f", "g"])).toBeNull();
    expect(await claim("m0", ["a", "f", "t"], ANY)).toBeNull();
    const m = await claim("m1", ["a", "f", "g"], ANY);
    expect(m).toMatchObject({ pool: POOL, players: [entry("a", T0), entry("f", T0 + 500, ANY), entry("g", T0 + 600, ANY)] });
    expect(await store.counts()).toEqual({ [OTHER]: 1 });
    // g declines: a goes back to its size, f to any, with their join times.
    await store.decline("m1", "g", T0 + 1_000 + LEASE);
    expect((await store.waiting(POOL)).map((e) => e.playerId)).toEqual(["a"]);
    expect((await store.waiting(ANY)).map((e) => [e.playerId, e.joinedAt])).toEqual([["f", T0 + 500]]);
    expect(await store.status("f", T0 + 2_000)).toMatchObject({ state: "queued", entry: { pool: ANY }, place: 1, queued: 1 });
  });

  it("claims a table of one size with players of several pools that take it, and of no other", async () => {
    const SOME = "goblin-market/3+4/standard/ranked";
    const ANY = "goblin-market/any/standard/ranked";
    const FIVE = "goblin-market/5+6/standard/ranked";
    await store.join(entry("a", T0), T0 + LEASE);
    await store.join(entry("s", T0 + 100, SOME), T0 + LEASE);
    await store.join(entry("y", T0 + 200, ANY), T0 + LEASE);
    await store.join(entry("v", T0 + 300, FIVE), T0 + LEASE);
    const claim = (id: string, playerIds: string[], alsoFrom: string[]) =>
      store.claim({ id, pool: POOL, alsoFrom, playerIds, bots: 0, proposedAt: T0 + 400, deadline: T0 + 10_000 }, T0 + 400);
    // A pool not named (5+6 does not take this size) lets no one of its own in.
    expect(await claim("m0", ["a", "s", "v"], [SOME, ANY])).toBeNull();
    expect(await claim("m0", ["a", "s", "y"], [SOME])).toBeNull();
    const m = await claim("m1", ["a", "s", "y"], [SOME, ANY]);
    expect(m!.players.map((p) => [p.playerId, p.pool])).toEqual([["a", POOL], ["s", SOME], ["y", ANY]]);
    expect(await store.counts()).toEqual({ [FIVE]: 1 });
    // s declines: each of the others goes back to their own pool.
    await store.decline("m1", "s", T0 + 1_000 + LEASE);
    expect((await store.waiting(ANY)).map((e) => e.playerId)).toEqual(["y"]);
    expect((await store.waiting(POOL)).map((e) => e.playerId)).toEqual(["a"]);
  });

  describe("answers", () => {
    const setup = async () => {
      await store.join(entry("a", T0), T0 + LEASE);
      await store.join(entry("b", T0 + 1_000), T0 + LEASE);
      await store.join(entry("c", T0 + 2_000), T0 + LEASE);
      await store.join(entry("late", T0 + 3_000), T0 + LEASE);
      return (await store.claim({ id: "m", pool: POOL, playerIds: ["a", "b", "c"], bots: 0, proposedAt: T0 + 5_000, deadline: T0 + 15_000 }, T0 + 5_000))!;
    };

    it("accepts before the deadline only; completes once when all accepted", async () => {
      await setup();
      expect(await code(store.accept("nope", "a", T0 + 6_000))).toBe("NO_MATCH");
      expect(await code(store.accept("m", "late", T0 + 6_000))).toBe("NOT_IN_MATCH");
      expect(await code(store.accept("m", "a", T0 + 15_000))).toBe("MATCH_EXPIRED");
      expect((await store.accept("m", "c", T0 + 6_000)).accepted).toEqual(["c"]);
      expect((await store.accept("m", "a", T0 + 6_000)).accepted).toEqual(["a", "c"]);
      expect((await store.accept("m", "a", T0 + 6_500)).accepted).toEqual(["a", "c"]); // twice: once
      expect(await store.complete("m")).toBeNull(); // b has not accepted
      const m = await store.accept("m", "b", T0 + 14_999);
      expect(m.accepted).toEqual(["a", "b", "c"]);
      const done = await Promise.all([store.complete("m"), store.complete("m"), store.complete("m")]);
      expect(done.filter((d) => d !== null)).toEqual([m]);
      // Gone for good: not queued, not in a match, free to queue again.
      expect(await store.status("a", T0 + 16_000)).toBeNull();
      expect(await store.match("m")).toBeNull();
      expect(await store.expireMatches(T0 + 60_000, T0 + 90_000)).toEqual([]);
      expect(await store.counts()).toEqual({ [POOL]: 1 });
      await store.join(entry("a", T0 + 20_000), T0 + 20_000 + LEASE);
    });

    it("past the deadline drops the non-accepters and requeues the accepters with their join time", async () => {
      await setup();
      await store.accept("m", "b", T0 + 6_000);
      expect(await store.expireMatches(T0 + 14_999, 0)).toEqual([]);
      const [outcome, ...rest] = await store.expireMatches(T0 + 15_000, T0 + 15_000 + LEASE);
      expect(rest).toEqual([]);
      expect(outcome).toMatchObject({ kind: "failed", dropped: ["a", "c"], requeued: ["b"] });
      expect(outcome!.match.accepted).toEqual(["b"]);
      expect(await store.status("a", T0 + 15_000)).toBeNull();
      expect(await store.status("c", T0 + 15_000)).toBeNull();
      // b is back ahead of "late" (joined earlier), with its original join time and a fresh lease.
      expect(await store.status("b", T0 + 16_000)).toEqual({ state: "queued", entry: entry("b", T0 + 1_000), place: 1, queued: 2, waitMs: 15_000 });
      expect(await store.expireLeases(T0 + LEASE)).toEqual([entry("late", T0 + 3_000)]);
      expect(await store.expireLeases(T0 + 15_000 + LEASE)).toEqual([entry("b", T0 + 1_000)]);
      // The dropped may queue again.
      await store.join(entry("a", T0 + 20_000), T0 + 20_000 + LEASE);
    });

    it("completes a fully accepted match left past its deadline (its node died before completing)", async () => {
      const m = await setup();
      for (const p of m.players) await store.accept("m", p.playerId, T0 + 6_000);
      const out = await store.expireMatches(T0 + 15_000, T0 + 45_000);
      expect(out).toEqual([{ kind: "ready", match: { ...m, accepted: ["a", "b", "c"] } }]);
      expect(await store.status("a", T0 + 15_000)).toBeNull();
      expect(await store.complete("m")).toBeNull();
    });

    it("a decline ends the match at once: the decliner dropped, the others requeued", async () => {
      await setup();
      await store.accept("m", "a", T0 + 6_000);
      expect(await code(store.decline("m", "late", T0 + LEASE))).toBe("NOT_IN_MATCH");
      expect(await code(store.decline("nope", "a", T0 + LEASE))).toBe("NO_MATCH");
      const out = await store.decline("m", "b", T0 + 7_000 + LEASE);
      expect(out).toMatchObject({ kind: "failed", dropped: ["b"], requeued: ["a", "c"] });
      expect(await store.match("m")).toBeNull();
      expect(await code(store.accept("m", "c", T0 + 7_000))).toBe("NO_MATCH");
      expect((await store.waiting(POOL)).map((e) => [e.playerId, e.joinedAt])).toEqual([
        ["a", T0],
        ["c", T0 + 2_000],
        ["late", T0 + 3_000],
      ]);
      expect(await store.status("b", T0 + 7_000)).toBeNull();
      expect(await store.expireMatches(T0 + 60_000, T0 + 60_000)).toEqual([]);
    });
  });
});
