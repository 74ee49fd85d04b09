/** The room store contract, run against both implementations (Redis when available). */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRoomStore } from "./memory-room-store.js";
import { RedisRoomStore } from "./redis-room-store.js";
import { createRoom, type Room } from "./room.js";
import type { RoomStore } from "./room-store.js";

const REDIS_URL = process.env.GB_TEST_REDIS_URL;
const host = { id: "p_host", name: "Host" };
let n = 0;
const room = (): Room => createRoom(`r${Date.now().toString(36)}${n++}`, host, { game: "goblin-market", seats: 3 }, Date.now());

type Factory = { name: string; make: () => Promise<{ store: RoomStore; done: () => Promise<void> }> };
const factories: Factory[] = [{ name: "memory", make: async () => ({ store: new MemoryRoomStore(), done: async () => {} }) }];
if (REDIS_URL) {
  factories.push({
    name: "redis",
    make: async () => {
      const redis = new Redis(REDIS_URL);
      const store = new RedisRoomStore(redis, `gbt:${Math.random().toString(36).slice(2)}:`);
      return { store, done: async () => redis.disconnect() };
    },
  });
} else {
  console.log("room-store tests: no Redis available, Redis variant SKIPPED");
}

describe.each(factories)("room store contract ($name)", ({ make }) => {
  let store: RoomStore;
  let done: () => Promise<void>;
  beforeAll(async () => ({ store, done } = await make()));
  afterAll(async () => done());

  it("creates only when absent (expected version 0)", async () => {
    const r = room();
    expect(await store.compareAndSet(r, 0)).toBe(true);
    expect(await store.compareAndSet(r, 0)).toBe(false);
    expect(await store.get(r.id)).toEqual(r);
    expect(await store.get("nope")).toBeNull();
  });

  it("writes only over the expected version, and never shares objects", async () => {
    const r = room();
    await store.compareAndSet(r, 0);
    const next = { ...r, version: 2, hostId: "p_other" };
    expect(await store.compareAndSet(next, 5)).toBe(false);
    expect((await store.get(r.id))!.version).toBe(1);
    expect(await store.compareAndSet(next, 1)).toBe(true);
    const got = (await store.get(r.id))!;
    expect(got.hostId).toBe("p_other");
    got.hostId = "mutated";
    expect((await store.get(r.id))!.hostId).toBe("p_other");
    // The loser of a race re-reads; a stale write is refused.
    expect(await store.compareAndSet({ ...r, version: 2, hostId: "stale" }, 1)).toBe(false);
  });

  it("lets exactly one of many concurrent writers win each version", async () => {
    const r = room();
    await store.compareAndSet(r, 0);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.compareAndSet({ ...r, version: 2, hostId: `w${i}` }, 1)));
    expect(results.filter(Boolean).length).toBe(1);
  });

  it("lists rooms by status and tracks unpersisted finished rooms", async () => {
    const open = room();
    await store.compareAndSet(open, 0);
    const playing = { ...room(), status: "playing" as const };
    await store.compareAndSet(playing, 0);
    const finished = { ...room(), status: "finished" as const, persisted: false };
    await store.compareAndSet(finished, 0);
    const openIds = (await store.list("open")).map((s) => s.id);
    const liveIds = (await store.list("playing")).map((s) => s.id);
    expect(openIds).toContain(open.id);
    expect(openIds).not.toContain(playing.id);
    expect(liveIds).toContain(playing.id);
    expect(await store.unpersisted()).toContain(finished.id);
    await store.compareAndSet({ ...finished, version: 2, persisted: true }, 1);
    expect(await store.unpersisted()).not.toContain(finished.id);
    // A room that moves on leaves the open list.
    await store.compareAndSet({ ...open, version: 2, status: "playing" }, 1);
    expect((await store.list("open")).map((s) => s.id)).not.toContain(open.id);
    expect(await store.storedBytes(open.id)).toBeGreaterThan(0);
  });
});

describe("memory store expiry", () => {
  it("forgets a room after its time to live, as Redis does", async () => {
    let now = 1_000;
    const store = new MemoryRoomStore(() => now);
    const r = { ...room(), status: "closed" as const };
    await store.compareAndSet(r, 0);
    expect(await store.get(r.id)).not.toBeNull();
    now += 11 * 60_000;
    expect(await store.get(r.id)).toBeNull();
    expect(await store.compareAndSet(r, 0)).toBe(true);
  });
});
