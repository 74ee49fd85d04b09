/**
 * The two back ends a platform store runs on, for the tests that run each case on both: in the
 * process, and on the test run's real Redis (GB_TEST_REDIS_URL, test/support/services.ts) when
 * there is one. Each Redis connection opened here is closed after the test file.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll } from "vitest";
import { MemoryRoomStore } from "../../src/platform/memory-room-store.js";
import { RedisRoomStore } from "../../src/platform/redis-room-store.js";
import type { RoomStore } from "../../src/platform/room-store.js";

export interface StoreKind<T> {
  name: string;
  /**
   * A fresh backing store (a new in-process one, or a new key prefix on Redis). Each call of what
   * it returns is one node's `T` on it: in the process the same object, on Redis one more
   * connection on the same prefix, as separate processes would have.
   */
  group: () => () => T;
}

/**
 * `memory()`: a fresh in-process `T`. `redis(r, prefix)`: a `T` on connection `r` under key prefix
 * `prefix`. `names`: how the two kinds are named in the tests' titles.
 */
export function storeKinds<T>(
  make: { memory: () => T; redis: (redis: Redis, prefix: string) => T },
  names: { memory: string; redis: string } = { memory: "in-process", redis: "Redis" },
): StoreKind<T>[] {
  const kinds: StoreKind<T>[] = [
    {
      name: names.memory,
      group: () => {
        const one = make.memory();
        return () => one;
      },
    },
  ];
  const url = process.env.GB_TEST_REDIS_URL;
  if (!url) return kinds;
  const conns: Redis[] = [];
  afterAll(() => {
    for (const c of conns.splice(0)) c.disconnect();
  });
  kinds.push({
    name: names.redis,
    group: () => {
      const prefix = `gbt:${randomBytes(4).toString("hex")}:`;
      return () => {
        const r = new Redis(url);
        conns.push(r);
        return make.redis(r, prefix);
      };
    },
  });
  return kinds;
}

/** The room store on both back ends (MemoryRoomStore, RedisRoomStore). */
export function roomStoreKinds(): StoreKind<RoomStore>[] {
  return storeKinds<RoomStore>({ memory: () => new MemoryRoomStore(), redis: (r, prefix) => new RedisRoomStore(r, prefix) }, { memory: "in-process store", redis: "Redis store" });
}
