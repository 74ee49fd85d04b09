/**
 * room:find's names (find-slots.ts): of finders of one request opening rooms at the same instant,
 * on one node or two, exactly one opens a room and the others are told its id; a name runs out
 * after FIND_SLOT_MS of the server's clock, is cleared only by who names its room, and nothing is
 * opened or held for a finder sent to another's room. In-process and Redis (when the test run has one).
 */
import { describe, expect, it } from "vitest";
import { storeKinds } from "../../test/support/store-kinds.js";
import { FIND_SLOT_MS, findKey, MemoryFindSlots, RedisFindSlots, type FindSlots } from "./find-slots.js";
import { MemoryHostedRooms } from "./hosted-rooms.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { RedisRoomStore } from "./redis-room-store.js";
import { createRoom, type CreateRoomInput } from "./room.js";
import { RoomService } from "./room-service.js";
import type { RoomStore } from "./room-store.js";

/** One node's view of a shared backing: its room store and its names. */
type Node = { store: RoomStore; slots: FindSlots };

const kinds = storeKinds<Node>({
  memory: () => ({ store: new MemoryRoomStore(), slots: new MemoryFindSlots() }),
  redis: (r, prefix) => ({ store: new RedisRoomStore(r, prefix), slots: new RedisFindSlots(r, prefix) }),
});

const WANT: CreateRoomInput = { game: "goblin-teeth", seats: 3, clock: "turn-1d" };
const key = (input: CreateRoomInput) => findKey(createRoom("find", { id: "x", name: "X", account: true }, input, 0));

describe("findKey", () => {
  it("is the same for the same request and differs with game, seats, pace, mode or options", () => {
    expect(key(WANT)).toBe(key({ ...WANT }));
    // Options as the room has them (defaults filled in): absent and the default are one request.
    expect(key(WANT)).toBe(key({ ...WANT, options: { advanced: false } }));
    const others = [{ ...WANT, game: "goblin-market" }, { ...WANT, seats: 4 }, { ...WANT, clock: "turn-3d" }, { ...WANT, ranked: true }, { ...WANT, options: { advanced: true } }];
    expect(new Set([key(WANT), ...others.map((o) => key(o))]).size).toBe(others.length + 1);
  });
});

describe.each(kinds)("room:find's names ($name)", (kind) => {
  let now = Date.UTC(2026, 11, 2, 12);
  const clock = () => now;
  const service = (node: Node) => new RoomService(node.store, { now: clock, findSlots: node.slots, openRooms: { maxPerPlayer: 5, hosted: new MemoryHostedRooms() } });

  it("a name holds for FIND_SLOT_MS of the server's clock; only its own room clears it", async () => {
    const slots = kind.group()().slots;
    const k = `k-${now}`;
    expect(await slots.claim(k, "r1", now)).toBeNull();
    expect(await slots.claim(k, "r2", now + FIND_SLOT_MS - 1)).toBe("r1");
    // Another room's clearing does nothing; its own does.
    await slots.release(k, "r2");
    expect(await slots.claim(k, "r2", now + 1)).toBe("r1");
    await slots.release(k, "r1");
    expect(await slots.claim(k, "r2", now + 1)).toBeNull();
    // Run out: the next finder names its own.
    expect(await slots.claim(k, "r3", now + 1 + FIND_SLOT_MS)).toBeNull();
    expect(await slots.claim(k, "r4", now + 2 + FIND_SLOT_MS)).toBe("r3");
    // Keys are apart.
    expect(await slots.claim(`${k}-other`, "r5", now + 2 + FIND_SLOT_MS)).toBeNull();
  });

  it("of finders opening rooms for one request at the same instant on two nodes, one opens it and the others are sent to it", async () => {
    const nodeOf = kind.group();
    const [a, b] = [service(nodeOf()), service(nodeOf())];
    for (let round = 0; round < 8; round++) {
      now += FIND_SLOT_MS; // each round a request of its own moment
      const k = key(WANT);
      const finders = [0, 1, 2].map((i) => ({ id: `f${round}-${i}`, name: `F${round}${i}`, account: true }));
      const made = await Promise.all(finders.map((f, i) => (i % 2 ? a : b).createForFinders(f, WANT, k)));
      const opened = made.filter((m) => typeof m !== "string");
      expect(opened, `round ${round}`).toHaveLength(1);
      const room = opened[0] as Exclude<(typeof made)[number], string>;
      expect(made.filter((m) => typeof m === "string")).toEqual([room.id, room.id]);
      // Written, open, with its opener alone seated; the others opened nothing.
      const stored = (await nodeOf().store.get(room.id))!;
      expect(stored.status).toBe("open");
      expect(stored.seats.filter((s) => s.playerId).length).toBe(1);
      expect((await nodeOf().store.list("open")).filter((r) => r.createdAt === now)).toHaveLength(1);
    }
  });

  it("once the name is cleared (its room can't take finders) or has run out, the next finder opens a room", async () => {
    const nodeOf = kind.group();
    const s = service(nodeOf());
    now += FIND_SLOT_MS;
    const k = key({ ...WANT, seats: 2 });
    const first = await s.createForFinders({ id: "o1", name: "O1", account: true }, { ...WANT, seats: 2 }, k);
    expect(typeof first).not.toBe("string");
    const firstId = (first as { id: string }).id;
    expect(await s.createForFinders({ id: "o2", name: "O2", account: true }, { ...WANT, seats: 2 }, k)).toBe(firstId);
    await s.releaseFinders(k, firstId);
    const second = await s.createForFinders({ id: "o3", name: "O3", account: true }, { ...WANT, seats: 2 }, k);
    expect(typeof second).not.toBe("string");
    now += FIND_SLOT_MS;
    const third = await s.createForFinders({ id: "o4", name: "O4", account: true }, { ...WANT, seats: 2 }, k);
    expect(typeof third).not.toBe("string");
  });
});
