/**
 * The limit on open rooms per player (MAX_OPEN_ROOMS_PER_PLAYER) across nodes: two nodes creating
 * rooms for one player at the same instant cannot both pass it (hosted-rooms.ts `reserve`); a room
 * another node is creating counts while it is written, and a listing whose room never appeared is
 * dropped after RESERVATION_GRACE_MS; a creation the store failed leaves nothing listed.
 * In-process and Redis (when the test run has one).
 */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { storeKinds } from "../../test/support/store-kinds.js";
import { AppError } from "./errors.js";
import { LIST_TTL_MS, MemoryHostedRooms, RedisHostedRooms, RESERVATION_GRACE_MS, type HostedRooms } from "./hosted-rooms.js";
import { TURN_BASED_OPEN_MS } from "./clocks.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { RedisRoomStore } from "./redis-room-store.js";
import { RoomService } from "./room-service.js";
import type { RoomStore } from "./room-store.js";

const REDIS_URL = process.env.GB_TEST_REDIS_URL;

/** One node's view of a shared backing: its room store and its hosted-rooms index. */
type Node = { store: RoomStore; hosted: HostedRooms };

const kinds = storeKinds<Node>({
  memory: () => ({ store: new MemoryRoomStore(), hosted: new MemoryHostedRooms() }),
  redis: (r, prefix) => ({ store: new RedisRoomStore(r, prefix), hosted: new RedisHostedRooms(r, prefix) }),
});
const conns: Redis[] = [];
afterAll(() => {
  for (const c of conns.splice(0)) c.disconnect();
});

const LIMIT = 2;
const GM = { game: "goblin-market", seats: 3 };
const code = (r: PromiseSettledResult<unknown>) => (r.status === "fulfilled" ? "ok" : r.reason instanceof AppError ? r.reason.code : String(r.reason));

describe.each(kinds)("open rooms per player across nodes ($name)", (kind) => {
  let now = Date.UTC(2026, 10, 25, 12);
  const clock = () => now;
  const service = (node: Node, store: RoomStore = node.store) => new RoomService(store, { now: clock, openRooms: { maxPerPlayer: LIMIT, hosted: node.hosted } });

  it("lets exactly one of two simultaneous creations on two nodes through at the limit's last place", async () => {
    const nodeOf = kind.group();
    const a = service(nodeOf());
    const b = service(nodeOf());
    for (let round = 0; round < 10; round++) {
      const host = { id: `host-${round}`, name: `Host ${round}` };
      await (round % 2 ? a : b).create(host, GM); // one open room: one place left
      const both = await Promise.allSettled([a.create(host, GM), b.create(host, GM)]);
      expect(both.map(code).sort(), `round ${round}`).toEqual(["TOO_MANY_OPEN_ROOMS", "ok"]);
      expect(await nodeOf().hosted.list(host.id)).toHaveLength(LIMIT);
    }
  });

  it("counts a room another node is creating, and drops a listing whose room never appeared once the grace is over", async () => {
    const nodeOf = kind.group();
    const node = nodeOf();
    const s = service(node);
    const host = { id: "ghost-host", name: "Ghost" };
    await s.create(host, GM);
    // Another node listed a room for this host and has not written it yet (or died doing so).
    expect(await node.hosted.reserve(host.id, "not-written", LIMIT, now)).toBe(true);
    await expect(s.create(host, GM)).rejects.toMatchObject({ code: "TOO_MANY_OPEN_ROOMS" });
    now += RESERVATION_GRACE_MS - 1;
    await expect(s.create(host, GM)).rejects.toMatchObject({ code: "TOO_MANY_OPEN_ROOMS" });
    now += 1;
    const made = await s.create(host, GM);
    const listed = (await node.hosted.list(host.id)).map((h) => h.id);
    expect(listed).toHaveLength(LIMIT);
    expect(listed).toContain(made.id);
    expect(listed).not.toContain("not-written");
  });

  it("counts open turn-based rooms apart: they never stop their host opening a room to play now", async () => {
    const node = kind.group()();
    const s = service(node);
    const host = { id: "both", name: "Both", account: true };
    const days = { ...GM, clock: "turn-3d" };
    for (let i = 0; i < LIMIT; i++) await s.create(host, days);
    const refused = await Promise.allSettled([s.create(host, days)]);
    expect(refused[0]!.status === "rejected" && (refused[0] as PromiseRejectedResult).reason.message).toBe(
      `You already host ${LIMIT} open turn-based rooms (at most ${LIMIT}); they start once their seats are taken, or close them, before opening another.`,
    );
    for (let i = 0; i < LIMIT; i++) await s.create(host, GM);
    expect((await Promise.allSettled([s.create(host, GM)])).map(code)).toEqual(["TOO_MANY_OPEN_ROOMS"]);
    expect(await node.hosted.list(host.id)).toHaveLength(LIMIT);
    expect(await node.hosted.list(`${host.id}/turn-based`)).toHaveLength(LIMIT);
  });

  it("leaves nothing listed for a creation whose write failed", async () => {
    const node = kind.group()();
    let fail = true;
    const flaky = new Proxy(node.store, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop === "compareAndSetOrGet" && fail) return () => Promise.reject(new Error("the store is away (test)"));
        return typeof v === "function" ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    });
    const s = service(node, flaky);
    const host = { id: "unlucky", name: "Unlucky" };
    await expect(s.create(host, GM)).rejects.toThrow(/store is away/);
    expect(await node.hosted.list(host.id)).toEqual([]);
    fail = false;
    await s.create(host, GM);
    await s.create(host, GM);
    expect(await node.hosted.list(host.id)).toHaveLength(LIMIT);
  });
});

describe.skipIf(!REDIS_URL)("a player's open rooms in Redis", () => {
  it("stay listed as long as an open turn-based room waits for players (its TTL outlives TURN_BASED_OPEN_MS)", async () => {
    const r = new Redis(REDIS_URL!);
    conns.push(r);
    const prefix = `gbh:${Math.random().toString(36).slice(2)}:`;
    const hosted = new RedisHostedRooms(r, prefix);
    expect(await hosted.reserve("p", "room-1", 5, Date.now())).toBe(true);
    const ttl = await r.pttl(`${prefix}hosted:p`);
    expect(ttl).toBeGreaterThan(TURN_BASED_OPEN_MS);
    expect(ttl).toBeLessThanOrEqual(LIST_TTL_MS);
    await r.del(`${prefix}hosted:p`);
  });
});
