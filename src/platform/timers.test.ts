/**
 * Clocks, time-outs, resign, return, abort and idle rooms, fired by durable timers, with an
 * injected clock (nothing here waits for real time). Run against both room stores; with Redis,
 * "nodes" are separate services and stores on one Redis, as separate processes would be.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.js";
import { getFinishedGame } from "../db/finished-games.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";
import { createLogger } from "../logger.js";
import { AppError } from "./errors.js";
import { ResultRecorder } from "./results.js";
import { gameOf, gameState, owePushes, personPlays, type OwedPush, type Room } from "./room.js";
import { roomView } from "./views.js";
import { dayEnds } from "./daily-deal.js";
import { RoomService } from "./room-service.js";
import type { RoomStore } from "./room-store.js";
import { DEFAULT_TIMING, dueWork, nextDue, TimerDriver } from "./timers.js";
import { deadlineOf, parseClock, TURN_BASED_OPEN_MS } from "./clocks.js";
import { parseQueueRequest } from "./queue-service.js";
import { findGame } from "../games/registry.js";
import { roomStoreKinds } from "../../test/support/store-kinds.js";

const log = createLogger("silent", "test");
const timing = { ...DEFAULT_TIMING, botDelayMs: 600 };
// Accounts (the server sets `account` from a verified account token): ranked rooms need one.
const players = ["ann", "bob", "cat", "dan", "eve"].map((n) => ({ id: `p_${n}`, name: n[0]!.toUpperCase() + n.slice(1), account: true }));

/** A test clock every node shares (or not: `skew`). */
class TestClock {
  t = 1_700_000_000_000;
  now = () => this.t;
  set(t: number) {
    this.t = Math.max(this.t, t);
  }
}

interface Node {
  service: RoomService;
  timers: TimerDriver;
}

/** `group()`: a fresh backing store; each call of what it returns is one node's store on it. */
const kinds = roomStoreKinds();

/** Waits (for the database, not a clock) until a finished room is recorded. */
async function recorded(db: Database, id: string) {
  for (let i = 0; i < 500; i++) {
    const rec = await getFinishedGame(db, id);
    if (rec) return rec;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`room ${id} was never recorded`);
}

function node(store: RoomStore, clock: () => number, seed = "bots"): Node {
  const service = new RoomService(store, { now: clock, timing, cacheRooms: 10_000 });
  return { service, timers: new TimerDriver(service, log, { pollMs: 0, localTimers: false, random: seededRandom(seed) }) };
}

function code(e: unknown): string {
  if (e instanceof AppError) return e.code;
  throw e;
}

async function startedRoom(n: Node, opts: { game?: string; seats?: number; ranked?: boolean; clock?: string } = {}): Promise<Room> {
  const seats = opts.seats ?? 3;
  const room = await n.service.create(players[0]!, { game: opts.game ?? "goblin-market", seats, ranked: opts.ranked ?? true, clock: opts.clock ?? "standard" });
  for (const p of players.slice(1, seats)) await n.service.join(room.id, p);
  return n.service.start(room.id, players[0]!);
}

/**
 * Plays a room to the end: seats in `present` move at once (a random legal move); when no present
 * person must act, the clock jumps to the room's next deadline and the nodes' timers fire.
 */
async function playOut(nodes: Node[], clock: TestClock, roomId: string, present: (seat: number) => boolean, random = seededRandom("people")): Promise<Room> {
  const n = nodes[0]!;
  for (let i = 0; i < 5000; i++) {
    const room = await n.service.get(roomId);
    if (room.status !== "playing") return room;
    const game = gameOf(room);
    const mover = game.activeSeats(room.state).find((s) => personPlays(room, s) && present(s));
    if (mover !== undefined) {
      const action = randomLegalAction(game.legalActions(room.state, mover), random)!;
      await n.service.act(roomId, players[mover]!, action);
      continue;
    }
    clock.set(nextDue(room, timing)!);
    await Promise.all(nodes.map((x) => x.timers.tick()));
  }
  throw new Error("the game did not end");
}

describe.each(kinds)("timers ($name)", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: "memory://" });
  });
  afterAll(async () => {
    await db.close();
  });

  it("a time-out hands the seat to a bot; the game finishes and is recorded once, the leaver rated last", async () => {
    const clock = new TestClock();
    const n = node(kind.group()(), clock.now);
    const recorder = new ResultRecorder(n.service, db, log);
    // Cat (seat 2) makes her first move, then never moves again.
    const r2 = await startedRoom(n);
    let catMoves = 0;
    const end = await playOut([n], clock, r2.id, (s) => {
      if (s !== 2) return true;
      return catMoves++ < 1;
    });
    expect(end.status).toBe("finished");
    expect(end.seats[2]!.away).toBe("timeout");
    expect(end.seats[2]!.timeouts).toBe(1);
    const notices = end.notices!.filter((x) => x.kind === "timeout");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toBe("Cat ran out of time; a bot plays their seat until they take it back.");
    // The bot's moves are marked as the bot's.
    expect(end.actions.some((a) => a.seat === 2 && a.bot)).toBe(true);
    expect(end.actions.filter((a) => a.seat === 2 && !a.bot).length).toBeGreaterThan(0);
    await recorder.persist(end.id);
    await recorder.persist(end.id); // a second attempt writes nothing
    const rec = await recorded(db, end.id);
    expect(rec.seats[2]!.forfeit).toBe("timeout");
    expect(rec.ratingChanges).toHaveLength(3);
    // Rated last, whatever the bot scored: the two others gain on Cat.
    const change = (seat: number) => rec.ratingChanges.find((c) => c.seat === seat)!;
    expect(change(2).after.mu).toBeLessThan(change(2).before.mu);
    expect(change(0).after.mu - change(0).before.mu).toBeGreaterThan(change(2).after.mu - change(2).before.mu);
    expect((await db.prisma.game.count({ where: { id: end.id } }))).toBe(1);
  });

  it("resign: a bot plays the seat at once, to the end, and the resigner is rated last", async () => {
    const clock = new TestClock();
    const n = node(kind.group()(), clock.now);
    const recorder = new ResultRecorder(n.service, db, log);
    const r = await startedRoom(n);
    const resigned = await n.service.resign(r.id, players[1]!);
    expect(resigned.seats[1]!.away).toBe("resigned");
    expect(resigned.notices!.at(-1)!.text).toBe("Bob resigned; a bot plays their seat to the end. They are placed last in the rating update.");
    expect(code(await n.service.resign(r.id, players[1]!).catch((e: unknown) => e))).toBe("ALREADY_RESIGNED");
    expect(code(await n.service.returnToSeat(r.id, players[1]!).catch((e: unknown) => e))).toBe("RESIGNED");
    const end = await playOut([n], clock, r.id, (s) => s !== 1);
    expect(end.status).toBe("finished");
    await recorder.persist(end.id);
    const rec = await recorded(db, end.id);
    expect(rec.seats.map((s) => s.forfeit ?? null)).toEqual([null, "resigned", null]);
    const delta = (seat: number) => rec.ratingChanges.find((c) => c.seat === seat)!;
    expect(delta(1).after.mu).toBeLessThan(delta(1).before.mu);
    expect(Math.min(delta(0).after.mu - delta(0).before.mu, delta(2).after.mu - delta(2).before.mu)).toBeGreaterThan(delta(1).after.mu - delta(1).before.mu);
  });

  it("a ranked game whose first move is never made is called off, unrated and unrecorded; a casual one goes on with a bot", async () => {
    const clock = new TestClock();
    const n = node(kind.group()(), clock.now);
    const ranked = await startedRoom(n, { ranked: true });
    const casual = await startedRoom(n, { ranked: false });
    const first = gameOf(ranked).activeSeats(ranked.state)[0]!;
    clock.set(ranked.startedAt! + ranked.clock!.firstMoveMs - 1);
    await n.timers.tick();
    expect((await n.service.get(ranked.id)).status).toBe("playing");
    clock.set(ranked.startedAt! + ranked.clock!.firstMoveMs);
    await n.timers.tick();
    const called = await n.service.get(ranked.id);
    expect(called.status).toBe("closed");
    expect(called.ended).toBe("aborted");
    expect(called.notices!.at(-1)!.text).toBe(`${players[first]!.name} did not make a first move in time. The game is called off; no ratings change.`);
    // It waits for its no-show to be recorded (a leave: leaves.ts), never as a game.
    expect(await n.service.store.unpersisted()).toContain(ranked.id);
    await new ResultRecorder(n.service, db, log).persist(ranked.id);
    expect(await n.service.store.unpersisted()).not.toContain(ranked.id);
    expect(await db.prisma.game.count({ where: { id: ranked.id } })).toBe(0);
    expect(await db.prisma.leave.findMany({ where: { roomId: ranked.id } })).toMatchObject([{ playerId: players[first]!.id, kind: "no-show" }]);
    expect(code(await n.service.act(ranked.id, players[first]!, { type: "pass" }).catch((e: unknown) => e))).toBe("ROOM_CLOSED");
    const c = await n.service.get(casual.id);
    expect(c.status).toBe("playing");
    expect(c.seats[gameOf(c).activeSeats(c.state)[0]!]!.away).toBe("timeout");
  });

  it("a player who timed out takes the seat back with the bank they had; a second time-out is for good", async () => {
    const clock = new TestClock();
    const n = node(kind.group()(), clock.now);
    const r = await startedRoom(n, { ranked: false, seats: 3 });
    // Everyone moves once, so the first-move limit is behind them.
    let room = r;
    const random = seededRandom("return");
    const moved = new Set<number>();
    while (moved.size < 3) {
      const s = gameOf(room).activeSeats(room.state)[0]!;
      room = (await n.service.act(room.id, players[s]!, randomLegalAction(gameOf(room).legalActions(room.state, s), random)!)).room;
      moved.add(s);
    }
    const seat = gameOf(room).activeSeats(room.state)[0]!;
    const deadline = deadlineOf(room.clock!, room.clocks![seat]!)!;
    clock.set(deadline);
    await n.timers.tick();
    room = await n.service.get(r.id);
    expect(room.seats[seat]!.away).toBe("timeout");
    expect(room.clocks![seat]!.bankMs).toBe(0);
    // The seat's own moves are refused while the bot plays it.
    expect(code(await n.service.act(r.id, players[seat]!, { type: "pass" }).catch((e: unknown) => e))).toBe("SEAT_AWAY");
    expect(code(await n.service.returnToSeat(r.id, players[(seat + 1) % 3]!).catch((e: unknown) => e))).toBe("NOT_AWAY");
    room = await n.service.returnToSeat(r.id, players[seat]!);
    expect(room.seats[seat]!.away).toBeUndefined();
    expect(room.notices!.at(-1)!.kind).toBe("returned");
    // The bank did not refill: the next time the seat must act, it has its turn allowance only.
    expect(room.clocks![seat]!.bankMs).toBe(0);
  });

  it("a second time-out is for good: the player cannot take the seat back", async () => {
    const clock = new TestClock();
    const n = node(kind.group()(), clock.now);
    const r = await startedRoom(n, { ranked: false, seats: 3 });
    const seat = gameOf(r).activeSeats(r.state)[0]!;
    clock.set(nextDue(r, timing)!);
    await n.timers.tick();
    let room = await n.service.returnToSeat(r.id, players[seat]!);
    expect(room.clocks![seat]!.since).toBe(clock.t); // still its turn: its clock runs again at once
    // The bank is what the first-move time-out left of it (60 s waited, 30 s of them the turn's own), not refilled.
    const c = room.clock!;
    expect(room.clocks![seat]!.bankMs).toBe(c.bankMs - (c.firstMoveMs - c.turnMs));
    // Back by their own hand, they are no no-show: the first move's shorter limit is over; the turn and what is left of the bank apply.
    expect(room.clocks![seat]!.moved).toBe(true);
    expect(deadlineOf(c, room.clocks![seat]!)).toBe(clock.t + c.turnMs + room.clocks![seat]!.bankMs);
    expect(c.turnMs + room.clocks![seat]!.bankMs).toBeGreaterThan(c.firstMoveMs);
    clock.set(nextDue(room, timing)!);
    await n.timers.tick();
    room = await n.service.get(r.id);
    expect(room.seats[seat]!.timeouts).toBe(2);
    expect(room.notices!.at(-1)!.text).toMatch(/ran out of time again; a bot plays their seat to the end\.$/);
    expect(code(await n.service.returnToSeat(r.id, players[seat]!).catch((e: unknown) => e))).toBe("TIMED_OUT_TWICE");
  });

  it("a move racing its own time-out is applied or timed out, never both (nodes whose clocks disagree)", async () => {
    const early = new TestClock();
    const late = new TestClock();
    const stores = kind.group();
    const a = node(stores(), early.now);
    const b = node(stores(), late.now);
    let applied = 0;
    let timedOut = 0;
    for (let i = 0; i < 20; i++) {
      const r = await startedRoom(a, { ranked: false });
      const seat = gameOf(r).activeSeats(r.state)[0]!;
      const deadline = deadlineOf(r.clock!, r.clocks![seat]!)!;
      early.t = deadline - 1; // node A still takes the move
      late.t = deadline + 1; // node B sees the clock run out
      const action = randomLegalAction(gameOf(r).legalActions(r.state, seat), seededRandom(`race${i}`))!;
      const [move] = await Promise.allSettled([a.service.act(r.id, players[seat]!, action), b.timers.fire(r.id)]);
      const room = await a.service.get(r.id);
      const moveApplied = room.actions.some((x) => x.seat === seat && !x.bot);
      const wasTimedOut = room.seats[seat]!.away === "timeout";
      expect(moveApplied !== wasTimedOut).toBe(true);
      expect(move.status === "fulfilled").toBe(moveApplied);
      if (moveApplied) applied++;
      else timedOut++;
    }
    expect(applied + timedOut).toBe(20);
  });

  it("each timer fires exactly once across two nodes, over several hundred rooms", async () => {
    const clock = new TestClock();
    const stores = kind.group();
    const store = stores();
    const a = node(store, clock.now, "a");
    const b = node(stores(), clock.now, "b");
    const rooms: Room[] = [];
    for (let i = 0; i < 300; i++) rooms.push(await startedRoom(i % 2 ? a : b, { ranked: false, game: "goblin-market", seats: 3, clock: "quick" }));
    clock.set(Math.max(...rooms.map((r) => nextDue(r, timing)!)));
    await Promise.all([a.timers.tick(), b.timers.tick(), a.timers.tick(), b.timers.tick()]);
    expect(a.timers.stats.timeouts + b.timers.stats.timeouts).toBe(300);
    expect(a.timers.stats.timeouts).toBeGreaterThan(0);
    expect(b.timers.stats.timeouts).toBeGreaterThan(0);
    const after = await Promise.all(rooms.map((r) => a.service.get(r.id)));
    for (const r of after) {
      expect(r.notices!.filter((x) => x.kind === "timeout")).toHaveLength(1);
      expect(r.version).toBe(rooms.find((x) => x.id === r.id)!.version + 1);
    }
    // The bots now due move once each: one bot move per room per due time.
    clock.set(Math.max(...after.map((r) => nextDue(r, timing)!)));
    const moves0 = a.timers.stats.botMoves + b.timers.stats.botMoves;
    await Promise.all([a.timers.tick(), b.timers.tick(), a.timers.tick(), b.timers.tick()]);
    expect(a.timers.stats.botMoves + b.timers.stats.botMoves - moves0).toBe(300);
    const moved = await Promise.all(rooms.map((r) => a.service.get(r.id)));
    for (const r of moved) expect(r.actions.filter((x) => x.bot)).toHaveLength(1);
  });

  it("a node whose copy of a room is stale still fires what is due on the stored room", async () => {
    const clock = new TestClock();
    const stores = kind.group();
    const a = node(stores(), clock.now, "a");
    const b = node(stores(), clock.now, "b");
    const r = await startedRoom(b, { ranked: false, game: "goblin-market", seats: 3, clock: "quick" });
    expect(b.service.known(r.id)?.version).toBe(r.version);
    clock.set(nextDue(r, timing)!);
    await a.timers.fire(r.id); // A times the seat out; B still holds the room from before
    const timedOut = await a.service.get(r.id);
    expect(timedOut.version).toBe(r.version + 1);
    expect(b.service.known(r.id)?.version).toBe(r.version);
    clock.set(nextDue(timedOut, timing)!);
    await b.timers.fire(r.id); // B's copy says "time-out due"; the stored room says "bot due"
    const moved = await a.service.get(r.id);
    expect(moved.actions.filter((x) => x.bot)).toHaveLength(1);
    expect(b.timers.stats.botMoves).toBe(1);
  });

  it("a claim dies with its node: another node fires the timer once the lease runs out", async () => {
    const clock = new TestClock();
    const stores = kind.group();
    const store = stores();
    const a = node(store, clock.now, "a");
    const b = node(stores(), clock.now, "b");
    const r = await startedRoom(a, { ranked: false });
    const due = nextDue(r, timing)!;
    clock.set(due);
    // Node A claims the room (lease 1000 ms) and dies before firing it.
    expect(await store.claimDue(clock.t, 100, 1000)).toContain(r.id);
    a.timers.stop();
    await b.timers.tick();
    expect((await b.service.get(r.id)).version).toBe(r.version);
    clock.set(due + 999);
    await b.timers.tick();
    expect((await b.service.get(r.id)).version).toBe(r.version);
    clock.set(due + 1000);
    await b.timers.tick();
    const room = await b.service.get(r.id);
    expect(room.seats.some((s) => s.away === "timeout")).toBe(true);
    expect(b.timers.stats.timeouts).toBe(1);
    expect(b.timers.lagSamples()).toEqual([1000]);
  });

  it("an open room whose host is away closes after hostAwayMs; a present host keeps it open", async () => {
    const clock = new TestClock();
    const present = new Set<string>();
    const store = kind.group()();
    const service = new RoomService(store, { now: clock.now, timing });
    const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false, isPresent: async (_room, pid) => present.has(pid) });
    const kept = await service.create(players[0]!, { game: "goblin-market", seats: 3 });
    const left = await service.create(players[1]!, { game: "goblin-market", seats: 3 });
    await service.join(left.id, players[2]!);
    present.add(players[0]!.id);
    clock.set(clock.t + timing.openCheckMs);
    await timers.tick();
    expect((await service.get(kept.id)).hostSeenAt).toBe(clock.t);
    expect((await service.get(left.id)).hostAwaySince).toBe(clock.t);
    clock.set(clock.t + timing.hostAwayMs);
    await timers.tick();
    const closed = await service.get(left.id);
    expect(closed.status).toBe("closed");
    expect(closed.ended).toBe("host-away");
    expect(closed.notices!.at(-1)!.text).toBe("Bob left the room and did not come back; it is closed. Find or create another room in the lobby.");
    expect((await service.list()).open.map((s) => s.id)).not.toContain(left.id);
    expect((await service.get(kept.id)).status).toBe("open");
    // A host who comes back in time keeps the room.
    const back = await service.create(players[3]!, { game: "goblin-market", seats: 3 });
    await service.hostPresence(back.id, false);
    clock.set(clock.t + timing.hostAwayMs - 1);
    await service.hostPresence(back.id, true);
    clock.set(clock.t + 10);
    await timers.tick();
    expect((await service.get(back.id)).status).toBe("open");
  });

  it("a turn-based room: its host need not stay; it starts when its last seat is taken; a turn takes days; unfilled it closes after three days", async () => {
    const clock = new TestClock();
    const store = kind.group()();
    const service = new RoomService(store, { now: clock.now, timing });
    const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false, isPresent: async () => false });
    const day = 24 * 60 * 60_000;
    const room = await service.create(players[0]!, { game: "goblin-market", seats: 3, ranked: true, clock: "turn-1d" });
    expect(room.clock).toMatchObject({ id: "turn-1d", turnMs: day, turnBased: true });
    expect(nextDue(room, timing)).toBe(room.createdAt + TURN_BASED_OPEN_MS);
    // The host's absence is never recorded, and no idle check closes the room.
    expect(await service.hostPresence(room.id, false)).toMatchObject({ changed: false });
    clock.set(clock.t + timing.openCheckMs + timing.hostAwayMs + 1);
    await timers.tick();
    expect((await service.get(room.id)).status).toBe("open");
    expect((await service.list()).open.find((r) => r.id === room.id)).toMatchObject({ closesAt: room.createdAt + TURN_BASED_OPEN_MS });
    expect((await service.list()).open.find((r) => r.id === room.id)).not.toHaveProperty("hostAway");
    await service.join(room.id, players[1]!);
    expect((await service.get(room.id)).status).toBe("open");
    // The last seat taken starts the game: nobody presses Start.
    const started = await service.join(room.id, players[2]!);
    expect(started.status).toBe("playing");
    expect(started.startedAt).toBe(clock.t);
    const first = gameOf(started).activeSeats(started.state)[0]!;
    expect(deadlineOf(started.clock!, started.clocks![first]!)).toBe(clock.t + day);
    // 23 hours on, nothing is due; a day on, the first move's time is up (ranked: called off).
    clock.set(clock.t + 23 * 60 * 60_000);
    await timers.tick();
    expect((await service.get(room.id)).status).toBe("playing");
    clock.set(started.startedAt! + day);
    await timers.tick();
    expect((await service.get(room.id))).toMatchObject({ status: "closed", ended: "aborted" });

    // Nobody comes: three days after it opened, the room closes and says why.
    const lonely = await service.create(players[3]!, { game: "goblin-market", seats: 3, clock: "turn-3d" });
    await service.join(lonely.id, players[4]!);
    clock.set(lonely.createdAt + TURN_BASED_OPEN_MS - 1);
    await timers.tick();
    expect((await service.get(lonely.id)).status).toBe("open");
    clock.set(lonely.createdAt + TURN_BASED_OPEN_MS);
    await timers.tick();
    const closed = await service.get(lonely.id);
    expect(closed).toMatchObject({ status: "closed", ended: "unfilled" });
    expect(closed.notices!.at(-1)!.text).toBe("Nobody took the free seats within 3 days, so the room is closed. Find or create another room in the lobby.");
    expect(timers.stats.closed).toBe(1);
  });

  it("notices owed to closed pages are due at once, handed to notify and settled, in any status; a service without pushes owes none", async () => {
    const clock = new TestClock();
    const store = kind.group()();
    const service = new RoomService(store, { now: clock.now, timing, pushes: true });
    const handed: Array<{ room: string; owed: OwedPush[] }> = [];
    const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false, notify: async (room, owed) => void handed.push({ room: room.id, owed: [...owed] }) });
    // A room of one sitting owes nothing; a turn-based one owes each player whose turn it becomes.
    const live = await service.create(players[0]!, { game: "goblin-teeth", seats: 2 });
    await service.join(live.id, players[1]!);
    expect((await service.start(live.id, players[0]!)).pushOwed).toBeUndefined();
    const room = await service.create(players[0]!, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    const started = await service.join(room.id, players[1]!);
    const turns = gameOf(started).activeSeats(started.state).map((seat) => ({ playerId: started.seats[seat]!.playerId!, kind: "turn", at: clock.t, seat }));
    expect(started.pushOwed).toEqual(turns);
    expect(nextDue(started, timing)).toBe(clock.t);
    expect(dueWork(started, timing, clock.t)).toBe("notify");
    await timers.tick();
    expect(handed).toEqual([{ room: room.id, owed: turns }]);
    const settled = await service.get(room.id);
    expect(settled.pushOwed).toBeUndefined();
    // Settling moves the version on but not the time of the last change (nothing happened at the table).
    expect([settled.version, settled.updatedAt]).toEqual([started.version + 1, started.updatedAt]);
    await timers.tick();
    expect(handed).toHaveLength(1);
    expect(timers.stats.notices).toBe(turns.length);
    // A room that closed with notices owed is cleared of them all the same (notify finds them no longer due).
    const other = await service.create(players[2]!, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    const owing = await service.mutate(other.id, (r) => owePushes({ ...r, version: r.version + 1 }, [{ playerId: players[3]!.id, kind: "invite", at: clock.t }]));
    await service.leave(other.id, players[2]!);
    expect((await service.get(other.id)).status).toBe("closed");
    expect(owing.room.pushOwed).toHaveLength(1);
    await timers.tick();
    expect((await service.get(other.id)).pushOwed).toBeUndefined();
    // Without pushes (no Web Push keys), nothing is owed.
    const quiet = new RoomService(kind.group()(), { now: clock.now, timing });
    const q = await quiet.create(players[0]!, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    expect((await quiet.join(q.id, players[1]!)).pushOwed).toBeUndefined();
  });

  it("a turn-based room whose other seats are bots starts at once; quick play refuses turn-based paces", async () => {
    const clock = new TestClock();
    const service = new RoomService(kind.group()(), { now: clock.now, timing });
    const room = await service.create(players[0]!, { game: "goblin-teeth", seats: 3, bots: 2, clock: "turn-1d" });
    expect(room.status).toBe("playing");
    expect(() => parseQueueRequest(players[0]!, { game: "goblin-market", seats: 4, clock: "turn-1d" })).toThrow(expect.objectContaining({ code: "TURN_BASED_NOT_QUEUED" }));
    // Solitaire has no turn-based pace: nobody waits for the player.
    expect(() => parseClock(findGame("aucteraden")!, "turn-1d", false, 1)).toThrow(expect.objectContaining({ code: "BAD_CLOCK" }));
  });
});

describe.each(kinds)("a finished daily deal's day end ($name)", (kind) => {
  it("shows the seed as a change of the room at the day's end, once", async () => {
    const clock = new TestClock();
    const store = kind.group()();
    const n = node(store, clock.now);
    // A solitaire game played out, then stored as a daily deal's room (DailyChallenges makes them).
    let r = await n.service.create(players[0]!, { game: "aucteraden", seats: 1 });
    const random = seededRandom("daily reveal");
    while (r.status === "playing") r = (await n.service.act(r.id, players[0]!, randomLegalAction(gameOf(r).legalActions(gameState(r), 0), random)!)).room;
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const daily = await n.service.insert({ ...r, id: `${r.id.slice(0, 4)}dail`, daily: day, version: 1 });
    const spectator = { kind: "spectator" } as const;
    expect(nextDue(daily, timing)).toBe(dayEnds(day));
    expect(roomView(daily, spectator, 0, clock.now()).seed).toBeNull();
    clock.set(dayEnds(day) - 1);
    await n.timers.tick();
    expect((await n.service.get(daily.id)).version).toBe(daily.version);
    clock.set(dayEnds(day));
    await n.timers.tick();
    const shown = await n.service.get(daily.id);
    expect([shown.version, shown.seedShown, nextDue(shown, timing)]).toEqual([daily.version + 1, true, null]);
    expect(roomView(shown, spectator, 0, clock.now()).seed).toBe(r.seed);
    // Nothing more to do for it: a later tick changes nothing.
    clock.set(dayEnds(day) + 60_000);
    await n.timers.tick();
    expect((await n.service.get(daily.id)).version).toBe(shown.version);
  });
});

describe.each(kinds)("adopting rooms written without a deadline ($name)", (kind) => {
  /** A started Goblin Market room of a person and two bots, played by the person until a bot must move. */
  async function botToMove(n: ReturnType<typeof node>) {
    const r = await n.service.create(players[0]!, { game: "goblin-market", seats: 3, bots: 2, clock: "none" });
    let started = await n.service.start(r.id, players[0]!);
    const random = seededRandom("adopt");
    while (gameOf(started).activeSeats(started.state)[0] === 0) {
      started = (await n.service.act(started.id, players[0]!, randomLegalAction(gameOf(started).legalActions(started.state, 0), random)!)).room;
    }
    return started;
  }

  it("gives a room with a bot due, written by an older build, its deadline; leaves stored ones alone", async () => {
    const clock = new TestClock();
    const store = kind.group()();
    const n = node(store, clock.now);
    const started = await botToMove(n);
    // As an older build stored it: the room, no deadline (its bot's move lived in a node's memory).
    await store.setDue(started.id, started.version, null);
    clock.set(started.updatedAt + timing.botDelayMs);
    await n.timers.tick();
    expect((await n.service.get(started.id)).version).toBe(started.version);
    expect((await n.timers.adopt()).rooms).toBeGreaterThanOrEqual(1);
    await n.timers.tick();
    expect((await n.service.get(started.id)).actions.at(-1)!.seat).not.toBe(0);
    expect((await n.service.get(started.id)).version).toBe(started.version + 1);
    // A room whose deadline is stored keeps it (adopt only fills in what is missing).
    const other = await startedRoom(n, { ranked: false });
    await store.setDue(other.id, other.version, 42, true);
    expect(await store.claimDue(41, 10, 1000)).not.toContain(other.id);
  });

  it("at start the server's one read of each room both indexes its players and adopts it", async () => {
    const clock = new TestClock();
    const store = kind.group()();
    const n = node(store, clock.now);
    const started = await botToMove(n);
    const waiting = await n.service.create(players[1]!, { game: "goblin-teeth", seats: 2, clock: "none" });
    await store.setDue(started.id, started.version, null);
    const reads: string[] = [];
    const get = store.get.bind(store);
    store.get = (id: string) => (reads.push(id), get(id));
    const adopted: string[] = [];
    const read = await n.service.indexPlayers(async (room) => {
      adopted.push(room.id);
      await n.timers.adoptRoom(room);
    });
    expect(read).toEqual({ rooms: 2, failed: 0 });
    expect(reads.sort()).toEqual([started.id, waiting.id].sort());
    expect(adopted.sort()).toEqual([started.id, waiting.id].sort());
    // The room whose deadline was missing (a bot's move) has it again.
    expect(await store.claimDue(clock.now() + timing.botDelayMs, 10, 1000)).toContain(started.id);
  });
});
