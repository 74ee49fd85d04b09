/** Recording finished games: at once by the finishing node, and by the sweep only when that failed. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";
import { createLogger } from "../logger.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { ResultRecorder } from "./results.js";
import { gameOf, type Room } from "./room.js";
import { RoomService } from "./room-service.js";

const ann = { id: "p_ann", name: "Ann" };
const bob = { id: "p_bob", name: "Bob" };
const cat = { id: "p_cat", name: "Cat" };
const players = [ann, bob, cat];

/** A database whose transactions can be made to fail, counting every one begun. */
function flaky(db: Database): { db: Database; transactions: () => number; failNext: () => void } {
  let begun = 0;
  let fail = false;
  const prisma = {
    $transaction: (...args: unknown[]) => {
      begun++;
      if (fail) {
        fail = false;
        return Promise.reject(new Error("the database is down"));
      }
      return (db.prisma.$transaction as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  };
  return { db: { ...db, prisma: prisma as unknown as Database["prisma"] }, transactions: () => begun, failNext: () => (fail = true) };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Plays a Goblin Market game to its end through the service; returns the finished room. */
async function playToEnd(service: RoomService, id: string, seed: number): Promise<Room> {
  const random = seededRandom(`results-${seed}`);
  let room = await service.create(ann, { game: "goblin-market", seats: 3 });
  room = await service.join(room.id, bob);
  room = await service.join(room.id, cat);
  room = await service.start(room.id, ann);
  while (room.status === "playing") {
    const game = gameOf(room);
    const seat = game.activeSeats(room.state)[0]!;
    const action = randomLegalAction(game.legalActions(room.state, seat), random)!;
    room = (await service.act(room.id, players[seat]!, action, `${id}-${room.version}`)).room;
  }
  return room;
}

describe("ResultRecorder", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: "memory://" });
  });
  afterAll(async () => db?.close());

  /** A node's room service and recorder over a fresh store and the shared (flaky-wrapped) database. */
  function node(prefix: string) {
    const store = new MemoryRoomStore();
    let n = 0;
    const service = new RoomService(store, { newRoomId: () => `${prefix}-${n++}` });
    const f = flaky(db);
    const recorder = new ResultRecorder(service, f.db, createLogger("silent", "results-test"));
    return { store, service, f, recorder };
  }

  it("records a game once, at once, and no sweep writes it again", async () => {
    const { store, service, f, recorder } = node("rec-once");
    const room = await playToEnd(service, "once", 7);
    expect(room.status).toBe("finished");
    await until(async () => (await store.get(room.id))?.persisted === true, "the game to be recorded");
    await recorder.sweep();
    await recorder.sweep();
    expect(f.transactions()).toBe(1);
    const game = await db.prisma.game.findUnique({ where: { id: room.id } });
    expect(game?.gameType).toBe("goblin-market");
  });

  it("leaves a game that has just finished to its node, and records it one sweep later if that failed", async () => {
    const { store, service, f, recorder } = node("rec-retry");
    f.failNext();
    const room = await playToEnd(service, "retry", 11);
    await until(() => f.transactions() === 1, "the first, failing write");
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.unpersisted()).toContain(room.id);

    // The first sweep that sees it waiting does not write it: the finishing node may still be.
    await recorder.sweep();
    expect(f.transactions()).toBe(1);
    expect(await db.prisma.game.findUnique({ where: { id: room.id } })).toBeNull();

    // Still waiting at the next sweep: nobody recorded it, so this sweep does.
    await recorder.sweep();
    expect(f.transactions()).toBe(2);
    expect((await store.get(room.id))?.persisted).toBe(true);
    expect(await store.unpersisted()).not.toContain(room.id);
    const game = await db.prisma.game.findUnique({ where: { id: room.id } });
    expect(game?.gameType).toBe("goblin-market");
  });
});
