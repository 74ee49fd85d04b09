/**
 * The service's downtime is given back to the clocks (downtime.ts): the heartbeat and the outages
 * in both room stores (and the rooms file across a restart), the credit itself, and the room
 * service judging no clock before it knows of an outage. The clock is injected throughout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { roomStoreKinds, type StoreKind } from "../../test/support/store-kinds.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";
import { createLogger } from "../logger.js";
import { deadlineOf } from "./clocks.js";
import { BEAT_MS, creditDowntime, DowntimeWatch, GAP_MS, KEEP_OUTAGES, STALE_MS, type Outage } from "./downtime.js";
import { spellSpan as spell } from "../protocol/durations.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { gameOf, type Room } from "./room.js";
import { RoomService } from "./room-service.js";
import type { RoomStore } from "./room-store.js";
import { DEFAULT_TIMING, TimerDriver } from "./timers.js";

const log = createLogger("silent", "test");
const players = ["ann", "bob", "cat"].map((n) => ({ id: `p_${n}`, name: n[0]!.toUpperCase() + n.slice(1), account: true }));
const T0 = 1_700_000_000_000;
const min = 60_000;

class TestClock {
  t = T0;
  now = () => this.t;
}

/** `group()`: a fresh backing store; each call of what it returns is one node's store on it. */
const kinds = roomStoreKinds();
/** A fresh backing store: `store`, and `another()`, a second node's store on the same one. */
function fresh(kind: StoreKind<RoomStore>): { store: RoomStore; another: () => RoomStore } {
  const another = kind.group();
  return { store: another(), another };
}

async function startedRoom(service: RoomService): Promise<Room> {
  const room = await service.create(players[0]!, { game: "goblin-market", seats: 3, ranked: true, clock: "quick" });
  for (const p of players.slice(1)) await service.join(room.id, p);
  return service.start(room.id, players[0]!);
}

/** Every seat makes one move (so no first-move limit applies), at the test clock's time. */
async function everyoneMoves(service: RoomService, id: string): Promise<Room> {
  const random = seededRandom("moves");
  const moved = new Set<number>();
  let room = await service.get(id);
  while (moved.size < 3) {
    const game = gameOf(room);
    const seat = game.activeSeats(room.state)[0]!;
    room = (await service.act(id, players[seat]!, randomLegalAction(game.legalActions(room.state, seat), random)!)).room;
    moved.add(seat);
  }
  return room;
}

const running = (room: Room) => room.clocks!.map((c, seat) => ({ c, seat })).filter((x) => x.c.since !== null);

describe("creditDowntime", () => {
  const clock = { id: "quick", label: "", turnMs: 15_000, bankMs: 60_000, incrementMs: 5_000, firstMoveMs: 30_000 };
  const room = (since: Array<number | null>, extra: Partial<Room> = {}): Room =>
    ({ id: "r", status: "playing", clock, clocks: since.map((s) => ({ bankMs: 60_000, since: s, moved: true })), log: [], notices: [], ...extra }) as unknown as Room;

  it("moves every clock running during an outage on by the part of it after the clock started, once", () => {
    const outages: Outage[] = [{ id: 1, from: T0 + 10_000, to: T0 + 70_000 }];
    const r = creditDowntime(room([T0, T0 + 30_000, null]), outages, T0 + 71_000)!;
    // Started before: the whole minute back. Started during (a move the last node stored as it
    // died): only what ran of the outage after it.
    expect(r.clocks!.map((c) => c.since)).toEqual([T0 + 60_000, T0 + 70_000, null]);
    expect(r.downtimeCredited).toBe(1);
    expect(r.notices!.at(-1)).toEqual({ at: T0 + 71_000, logAt: 0, kind: "downtime", seat: null, text: "Goblin Bazaar was unreachable for 1 min; the clocks were stopped for that time." });
    // What the seat has left is what it had when the service went down.
    const left = (x: Room, seat: number, at: number) => deadlineOf(clock, x.clocks![seat]!)! - at;
    expect(left(r, 0, T0 + 70_000)).toBe(left(room([T0, null, null]), 0, T0 + 10_000));
    // Credited once: the same outages again change nothing.
    expect(creditDowntime(r, outages, T0 + 72_000)).toBeNull();
    expect(r.version).toBe(room([T0]).version); // not bumped: the change that carries it bumps
  });

  it("leaves rooms alone that had nothing running then; adds up several outages in order", () => {
    const outages: Outage[] = [
      { id: 1, from: T0 + 10_000, to: T0 + 20_000 },
      { id: 2, from: T0 + 40_000, to: T0 + 100_000 },
    ];
    expect(creditDowntime(room([T0 + 20_000, null]), outages.slice(0, 1), T0 + 21_000)).toBeNull();
    expect(creditDowntime(room([null, null]), outages, T0 + 101_000)).toBeNull();
    expect(creditDowntime(room([T0], { status: "finished" }), outages, T0 + 101_000)).toBeNull();
    expect(creditDowntime(room([T0], { clocks: undefined }), outages, T0 + 101_000)).toBeNull();
    const both = creditDowntime(room([T0, T0 + 25_000]), outages, T0 + 101_000)!;
    // Seat 0: 10 s + 60 s back. Seat 1 started between the two: only the second.
    expect(both.clocks!.map((c) => c.since)).toEqual([T0 + 70_000, T0 + 85_000]);
    expect(both.downtimeCredited).toBe(2);
    expect(both.notices!.at(-1)!.text).toBe("Goblin Bazaar was unreachable for 1 min 10 s; the clocks were stopped for that time.");
    // A room credited with the first only gets the second.
    const first = creditDowntime(room([T0]), outages.slice(0, 1), T0 + 21_000)!;
    expect(first.clocks![0]!.since).toBe(T0 + 10_000);
    expect(creditDowntime(first, outages, T0 + 101_000)!.clocks![0]!.since).toBe(T0 + 70_000);
  });

  it("spells durations", () => {
    expect([spell(6_400), spell(60_000), spell(72_000), spell(3_600_000)]).toEqual(["6 s", "1 min", "1 min 12 s", "60 min"]);
  });
});

describe.each(kinds)("heartbeats and outages ($name)", (kind) => {
  it("records a gap of more than GAP_MS as one outage, whichever node beats first, and keeps the newest", async () => {
    const { store, another } = fresh(kind);
    const other = another();
    expect(await store.beat(T0, GAP_MS)).toEqual({ outages: [], recorded: null });
    expect((await other.beat(T0 + BEAT_MS, GAP_MS)).recorded).toBeNull();
    expect((await store.beat(T0 + BEAT_MS + GAP_MS, GAP_MS)).recorded).toBeNull(); // exactly the gap: up
    // A node whose clock is behind does not move the heartbeat back (no false outage after it).
    expect((await other.beat(T0, GAP_MS)).recorded).toBeNull();
    const back = T0 + BEAT_MS + GAP_MS + 3 * min;
    const [a, b] = await Promise.all([store.beat(back, GAP_MS), other.beat(back, GAP_MS)]);
    const outage = { id: 1, from: T0 + BEAT_MS + GAP_MS, to: back };
    expect([a.recorded, b.recorded].filter(Boolean)).toEqual([outage]);
    expect(a.outages).toEqual([outage]);
    expect(b.outages).toEqual([outage]);
    let t = back;
    for (let i = 0; i < KEEP_OUTAGES + 2; i++) {
      t += GAP_MS + 1;
      expect((await store.beat(t, GAP_MS)).recorded!.id).toBe(i + 2);
    }
    const kept = (await other.beat(t, GAP_MS)).outages;
    expect(kept).toHaveLength(KEEP_OUTAGES);
    expect(kept.map((o) => o.id)).toEqual(Array.from({ length: KEEP_OUTAGES }, (_, i) => i + 4));
  });
});

describe("the rooms file keeps the heartbeat", () => {
  it("a server restarted on its rooms file records the time it was stopped as an outage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-downtime-"));
    try {
      const file = join(dir, "rooms.journal");
      const clock = new TestClock();
      const first = MemoryRoomStore.durable(file, { now: clock.now });
      await first.beat(T0, GAP_MS);
      await first.beat(T0 + BEAT_MS, GAP_MS);
      await first.close();
      clock.t = T0 + 10 * min;
      const second = MemoryRoomStore.durable(file, { now: clock.now });
      const beat = await second.beat(clock.t, GAP_MS);
      expect(beat.recorded).toEqual({ id: 1, from: T0 + BEAT_MS, to: T0 + 10 * min });
      await second.close();
      // The outage itself is kept too: a third start knows it, and numbers the next one after it.
      const third = MemoryRoomStore.durable(file, { now: clock.now });
      const again = await third.beat(clock.t + 20_000, GAP_MS);
      expect(again.outages.map((o) => o.id)).toEqual([1, 2]);
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(kinds)("the room service gives the downtime back ($name)", (kind) => {
  it("a node back after the service was down learns of it before judging a clock: no time-out, the seat keeps its time", async () => {
    const clock = new TestClock();
    const { store } = fresh(kind);
    const watch = new DowntimeWatch(store, { now: clock.now, log });
    const service = new RoomService(store, { now: clock.now, downtime: watch, timing: DEFAULT_TIMING });
    const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false });
    await watch.beat();
    const room = await everyoneMoves(service, (await startedRoom(service)).id);
    const [{ seat, c }] = running(room);
    const left = deadlineOf(room.clock!, c)! - clock.t;
    // Every node stops for ten minutes (far past the seat's deadline), then this one comes back.
    clock.t += 10 * min;
    await timers.tick();
    const after = await service.get(room.id);
    expect(after.seats[seat]!.away).toBeUndefined();
    expect(timers.stats.timeouts).toBe(0); // the credit is not counted as a time-out
    expect(after.status).toBe("playing");
    expect(deadlineOf(after.clock!, after.clocks![seat]!)! - clock.t).toBe(left);
    expect(after.downtimeCredited).toBe(1);
    expect(after.notices!.filter((n) => n.kind === "downtime").map((n) => n.text)).toEqual(["Goblin Bazaar was unreachable for 10 min; the clocks were stopped for that time."]);
    // The seat's player may move as if nothing happened; the room is credited only once.
    const game = gameOf(after);
    const { room: moved } = await service.act(room.id, players[seat]!, randomLegalAction(game.legalActions(after.state, seat), seededRandom("x"))!);
    expect(moved.notices!.filter((n) => n.kind === "downtime")).toHaveLength(1);
    // Time the service was up runs on as before: the next seat times out at its deadline.
    const next = running(moved)[0]!;
    const deadline = deadlineOf(moved.clock!, next.c)!;
    while (clock.t < deadline) {
      clock.t = Math.min(deadline, clock.t + BEAT_MS);
      await watch.beat();
    }
    await timers.tick();
    expect((await service.get(room.id)).seats[next.seat]!.away).toBe("timeout");
  });

  it("a move that arrives first after the outage is judged on the credited clock", async () => {
    const clock = new TestClock();
    const { store } = fresh(kind);
    const watch = new DowntimeWatch(store, { now: clock.now, log });
    const service = new RoomService(store, { now: clock.now, downtime: watch });
    await watch.beat();
    const room = await everyoneMoves(service, (await startedRoom(service)).id);
    const [{ seat }] = running(room);
    clock.t += 5 * min;
    const game = gameOf(room);
    const { room: moved } = await service.act(room.id, players[seat]!, randomLegalAction(game.legalActions(room.state, seat), seededRandom("y"))!);
    expect(moved.actions.at(-1)!.seat).toBe(seat);
    expect(moved.seats[seat]!.away).toBeUndefined();
    expect(moved.downtimeCredited).toBe(1);
  });

  it("the node that records an outage credits every room in play; another node's stale copy is credited by its next change", async () => {
    const clock = new TestClock();
    const { store, another } = fresh(kind);
    const storeB = another();
    let credited = 0;
    const watchA: DowntimeWatch = new DowntimeWatch(store, { now: clock.now, log, onOutage: () => void serviceA.creditDowntime().then((n) => (credited = n)) });
    const serviceA = new RoomService(store, { now: clock.now, downtime: watchA });
    const watchB = new DowntimeWatch(storeB, { now: clock.now, log });
    const serviceB = new RoomService(storeB, { now: clock.now, downtime: watchB });
    await watchA.beat();
    const rooms = await Promise.all([startedRoom(serviceA), startedRoom(serviceA)]);
    const casual = await serviceA.create(players[0]!, { game: "goblin-market", seats: 3, ranked: false, clock: "none" });
    for (const p of players.slice(1)) await serviceA.join(casual.id, p);
    await serviceA.start(casual.id, players[0]!);
    for (const r of rooms) await serviceB.get(r.id); // B caches them
    clock.t += 2 * min;
    await watchA.beat();
    await expect.poll(() => credited).toBe(2); // the clockless room has nothing to credit
    for (const r of rooms) expect((await serviceA.get(r.id)).downtimeCredited).toBe(1);
    expect((await serviceA.get(casual.id)).downtimeCredited).toBeUndefined();
    // B, back too, beats before its first change and learns of the outage (recorded once).
    const res = await serviceB.resign(rooms[0]!.id, players[2]!);
    expect(res.notices!.filter((n) => n.kind === "downtime")).toHaveLength(1);
    expect((await watchB.beat()).outages).toHaveLength(1);
  });

  it("with `auto`, a stale heartbeat is renewed before a change; a fresh one costs nothing", async () => {
    const clock = new TestClock();
    const { store } = fresh(kind);
    let beats = 0;
    const counting = { beat: (now: number, gap: number) => (beats++, store.beat(now, gap)) };
    const watch = new DowntimeWatch(counting, { now: clock.now, log });
    expect(watch.ready()).not.toBeNull(); // never beaten
    await watch.ready();
    expect(beats).toBe(1);
    clock.t += STALE_MS;
    expect(watch.ready()).toBeNull();
    clock.t += 1;
    const [x, y] = [watch.ready(), watch.ready()];
    expect(x).toBe(y); // one heartbeat in flight, shared
    await x;
    expect(beats).toBe(2);
    const manual = new DowntimeWatch(counting, { now: clock.now, log, auto: false });
    clock.t += 10 * min;
    expect(manual.ready()).toBeNull();
    await manual.start(); // no timer, no beat
    expect(beats).toBe(2);
  });
});
