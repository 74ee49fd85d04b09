/**
 * The players' room index (player-rooms.ts) behind Your games: roomsOf reads the player's own rooms
 * only, however many others are in play; a room is listed before the change that seats or invites
 * the player is written; entries for rooms over, gone or left are dropped once past the grace;
 * indexPlayers lists rooms written without the index, at the first start over them only
 * (TimerDriver.readAtStart). Both indexes, the Redis one on Redis.
 */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { storeKinds, type StoreKind } from "../../test/support/store-kinds.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { INDEX_GRACE_MS, MemoryPlayerRooms, PLAYER_ROOMS_TTL_MS, RedisPlayerRooms, type PlayerRooms } from "./player-rooms.js";
import { RoomService } from "./room-service.js";
import type { Room } from "./room.js";
import { GAMES } from "../games/registry.js";
import { clockPresets, longestTurnMs } from "./clocks.js";
import { MAX_VACATION_DAYS } from "./vacations.js";
import { START_READ, TimerDriver } from "./timers.js";
import { createLogger } from "../logger.js";

const silent = createLogger("silent", "test");

const REDIS_URL = process.env.GB_TEST_REDIS_URL;
const conns: Redis[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));

/** `group()`: a fresh backing index; each call of what it returns is one node's index on it. */
const kinds = storeKinds<PlayerRooms>({ memory: () => new MemoryPlayerRooms(), redis: (r, prefix) => new RedisPlayerRooms(r, prefix) });
/** A fresh index. */
const fresh = (kind: StoreKind<PlayerRooms>) => kind.group()();

const p = (n: string) => ({ id: `p_${n}`, name: n, account: true });

/** A memory store that counts the rooms read. */
class CountingStore extends MemoryRoomStore {
  reads = 0;
  override async get(id: string): Promise<Room | null> {
    this.reads++;
    return super.get(id);
  }
}

describe.each(kinds)("players' room index ($name)", (kind) => {
  const make = () => fresh(kind);
  it("finds a player's rooms by reading only theirs, and drops what is no longer theirs after the grace", async () => {
    let now = 1_800_000_000_000;
    const store = new CountingStore(() => now);
    const index = make();
    const service = new RoomService(store, { now: () => now, playerRooms: index });
    // Forty rooms of others, and Ann's two.
    for (let i = 0; i < 40; i++) await service.create(p(`x${i}`), { game: "goblin-market", seats: 3 });
    const mine = await service.create(p("Ann"), { game: "goblin-market", seats: 3 });
    const joined = await service.create(p("Bob"), { game: "goblin-market", seats: 3, clock: "turn-1d" });
    await service.join(joined.id, p("Ann"));
    const invitedTo = await service.create(p("Cat"), { game: "goblin-market", seats: 3, clock: "turn-1d" });
    await service.keepInvitation(invitedTo.id, { playerId: "p_Ann", from: { id: "p_Cat", name: "Cat", account: true }, at: now });
    store.reads = 0;
    expect((await service.roomsOf("p_Ann")).map((r) => r.id).sort()).toEqual([mine.id, joined.id].sort());
    expect((await service.roomsOf("p_Ann", { invited: true })).map((r) => r.id).sort()).toEqual([mine.id, joined.id, invitedTo.id].sort());
    expect(store.reads).toBe(6);
    expect((await index.list("p_Ann")).map((e) => e.id).sort()).toEqual([mine.id, joined.id, invitedTo.id].sort());

    // Ann leaves one room and declines the invitation: within the grace the entries stay (a write
    // may be under way), after it they go.
    await service.leave(joined.id, p("Ann"));
    await service.declineInvitation(invitedTo.id, p("Ann"));
    expect((await service.roomsOf("p_Ann", { invited: true })).map((r) => r.id)).toEqual([mine.id]);
    expect(await index.list("p_Ann")).toHaveLength(3);
    now += INDEX_GRACE_MS + 1;
    await service.roomsOf("p_Ann");
    expect((await index.list("p_Ann")).map((e) => e.id)).toEqual([mine.id]);
  });

  it("lists at start-up the rooms written without the index", async () => {
    const now = 1_800_000_000_000;
    const store = new MemoryRoomStore(() => now);
    const before = new RoomService(store, { now: () => now, playerRooms: make() });
    const room = await before.create(p("Dee"), { game: "goblin-market", seats: 3 });
    await before.join(room.id, p("Eli"));
    // A node with a new, empty index (another process, or one started afresh).
    const index = make();
    const after = new RoomService(store, { now: () => now, playerRooms: index });
    expect(await after.roomsOf("p_Eli")).toEqual([]);
    expect(await after.indexPlayers()).toEqual({ rooms: 1, failed: 0 });
    expect((await after.roomsOf("p_Eli")).map((r) => r.id)).toEqual([room.id]);
    expect((await after.roomsOf("p_Dee")).map((r) => r.id)).toEqual([room.id]);
  });
});

describe.each(kinds)("the start-up read ($name index)", (kind) => {
  const shared = kind.group;
  const now = 1_800_000_000_000;
  /** A store holding one room of Dee and Eli written as by a build before the index (its index thrown away). */
  async function olderRooms(): Promise<{ store: CountingStore; room: Room }> {
    const store = new CountingStore(() => now);
    const older = new RoomService(store, { now: () => now, playerRooms: new MemoryPlayerRooms() });
    const room = await older.create(p("Dee"), { game: "goblin-market", seats: 3 });
    await older.join(room.id, p("Eli"));
    return { store, room };
  }
  /** A node starting over `store` with its index on `index`: timers that poll (not started) unless `polls` is false. */
  function starting(store: CountingStore, index: PlayerRooms, polls = true): { service: RoomService; timers: TimerDriver } {
    const service = new RoomService(store, { now: () => now, playerRooms: index });
    return { service, timers: new TimerDriver(service, silent, { pollMs: polls ? 250 : 0, localTimers: false }) };
  }

  it("the first node reads every room once; later starts over the same rooms read none, and still find them", async () => {
    const { store, room } = await olderRooms();
    const node = shared();
    const first = starting(store, node());
    store.reads = 0;
    expect(await first.timers.readAtStart()).toBe(1);
    expect(store.reads).toBe(1);
    expect(await node().startReadDone()).toBe(START_READ);
    store.reads = 0;
    const second = starting(store, node());
    expect(await second.timers.readAtStart()).toBeNull();
    expect(store.reads).toBe(0);
    expect((await second.service.roomsOf("p_Eli")).map((r) => r.id)).toEqual([room.id]);
    // A build that needs every room once more (a newer generation than the one recorded) reads again.
    await node().markStartReadDone(START_READ - 1);
    store.reads = 0;
    expect(await starting(store, node()).timers.readAtStart()).toBe(1);
    expect(store.reads).toBe(1);
    expect(await node().startReadDone()).toBe(START_READ);
  });

  it("is recorded only after a read that adopted deadlines too and in which no room failed", async () => {
    const { store, room } = await olderRooms();
    // Timers that do not poll adopt nothing: the index is filled, the read not recorded.
    const node = shared();
    expect(await starting(store, node(), false).timers.readAtStart()).toBe(1);
    expect(await node().startReadDone()).toBe(0);
    expect((await starting(store, node()).service.roomsOf("p_Dee")).map((r) => r.id)).toEqual([room.id]);
    // A read that fails (the store briefly unreachable) is not recorded: the next start reads again.
    const other = shared();
    const get = store.get.bind(store);
    store.get = () => Promise.reject(new Error("connection lost"));
    expect(await starting(store, other()).timers.readAtStart()).toBe(1);
    store.get = get;
    expect(await other().startReadDone()).toBe(0);
    store.reads = 0;
    expect(await starting(store, other()).timers.readAtStart()).toBe(1);
    expect(store.reads).toBe(1);
    expect(await other().startReadDone()).toBe(START_READ);
  });
});

describe("how long a player's list lives unused", () => {
  it("outlasts anything a room of theirs waits for: the longest vacation, then the slowest pace's longest turn", () => {
    const longestTurn = Math.max(...GAMES.flatMap((g) => clockPresets(g).map((p) => longestTurnMs(p))));
    expect(PLAYER_ROOMS_TTL_MS).toBeGreaterThan(MAX_VACATION_DAYS * 24 * 60 * 60_000 + longestTurn + 24 * 60 * 60_000);
  });
});

describe.runIf(REDIS_URL)("the Redis index's keys", () => {
  it("keeps a sorted set per player that expires after PLAYER_ROOMS_TTL_MS without use", async () => {
    const r = new Redis(REDIS_URL!);
    conns.push(r);
    const prefix = `gbt:${Math.random().toString(36).slice(2)}:`;
    const index = new RedisPlayerRooms(r, prefix);
    await index.add([{ playerId: "p_a", roomId: "r1" }, { playerId: "p_a", roomId: "r2" }, { playerId: "p_b", roomId: "r1" }], 5);
    await index.add([{ playerId: "p_a", roomId: "r1" }], 9);
    expect(await index.list("p_a")).toEqual([{ id: "r2", at: 5 }, { id: "r1", at: 9 }]);
    const ttl = await r.pttl(`${prefix}player-rooms:p_a`);
    expect(ttl).toBeGreaterThan(PLAYER_ROOMS_TTL_MS - 5_000);
    await index.remove("p_a", ["r1", "r2"]);
    expect(await index.list("p_a")).toEqual([]);
    expect(await index.list("p_b")).toEqual([{ id: "r1", at: 5 }]);
  });
});
