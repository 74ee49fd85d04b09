/**
 * Vacations from turn-based games (vacations.ts): the allowance, and the clocks of a turn-based
 * game through the room service and its timers with the clock injected: a running turn stops for
 * the vacation and goes on with the time it had, a turn that comes meanwhile starts at its end, a
 * vacation ended early gives the time after its end back to the clock, nothing is applied twice,
 * games of one sitting are untouched, and a room no one told of the vacation is put right by the
 * time-out its timer fires (no time-out happens).
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";
import { createLogger } from "../logger.js";
import { clocksView, deadlineOf } from "./clocks.js";
import { MemoryRoomStore } from "./memory-room-store.js";
import { gameOf, summarizeFor, type HeldNotice, type OwedPush, type Room } from "./room.js";
import { RoomService } from "./room-service.js";
import { ttlMs } from "./room-store.js";
import { DEFAULT_TIMING, TimerDriver } from "./timers.js";
import { creditVacations, daysCharged, vacationStatus, type VacationSource, type VacationSpan } from "./vacations.js";

const log = createLogger("silent", "test");
const players = ["ann", "bob", "cat"].map((n) => ({ id: `p_${n}`, name: n[0]!.toUpperCase() + n.slice(1), account: true }));
const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);
const h = 60 * 60_000;
const day = 24 * h;

/** The vacations as the service reads them: each player's latest, as Postgres would give it. */
class Book implements VacationSource {
  readonly spans = new Map<string, VacationSpan>();
  reads = 0;
  async latestOf(ids: readonly string[], now: number): Promise<Map<string, VacationSpan>> {
    this.reads++;
    return new Map([...this.spans].filter(([id, v]) => ids.includes(id) && v.from <= now));
  }
}

function setup(clock = "turn-1d", notify?: (room: Room, owed: readonly OwedPush[]) => Promise<void | readonly HeldNotice[]>) {
  let now = T0;
  const book = new Book();
  const service = new RoomService(new MemoryRoomStore(() => now), { now: () => now, vacations: book, timing: DEFAULT_TIMING, pushes: notify !== undefined });
  const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false, ...(notify ? { notify } : {}) });
  const start = async (pace = clock): Promise<Room> => {
    const room = await service.create(players[0]!, { game: "goblin-market", seats: 3, clock: pace });
    for (const p of players.slice(1)) await service.join(room.id, p);
    const r = await service.get(room.id);
    return r.status === "playing" ? r : service.start(room.id, players[0]!);
  };
  return { book, service, timers, start, at: (t: number) => (now = t), get now() { return now; } };
}

/** The one seat whose clock runs (Goblin Market's auctions have one seat to act at a time). */
function runningSeat(room: Room): number {
  const seats = room.clocks!.flatMap((c, i) => (c.since !== null ? [i] : []));
  expect(seats).toHaveLength(1);
  return seats[0]!;
}

async function moveOnce(service: RoomService, room: Room, seat: number, seed = "v"): Promise<Room> {
  const action = randomLegalAction(gameOf(room).legalActions(room.state, seat), seededRandom(seed))!;
  return (await service.act(room.id, players[seat]!, action)).room;
}

describe("the allowance", () => {
  it("counts whole days begun, over the last 365 days, the vacation under way by its planned days", () => {
    expect(daysCharged({ from: T0, until: T0 + 1 })).toBe(1);
    expect(daysCharged({ from: T0, until: T0 + day })).toBe(1);
    expect(daysCharged({ from: T0, until: T0 + day + 1 })).toBe(2);
    const spans = [
      { from: T0 - 400 * day, until: T0 - 390 * day }, // over a year ago: counts no more
      { from: T0 - 100 * day, until: T0 - 100 * day + 2.5 * day }, // 3 days
      { from: T0 - h, until: T0 + 5 * day - h }, // under way: 5 days
    ];
    expect(vacationStatus(spans, 30, T0)).toEqual({ current: spans[2], daysLeft: 22, allowanceDays: 30 });
    expect(vacationStatus(spans.slice(0, 2), 2, T0)).toEqual({ current: null, daysLeft: 0, allowanceDays: 2 });
  });
});

describe("clocks on vacation", () => {
  it("a running turn stops for the vacation and goes on after it with the time it had; no time-out meanwhile", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    s.at(T0 + 10 * h);
    const left = deadlineOf(room.clock!, room.clocks![seat]!)! - s.now;
    s.book.spans.set(players[seat]!.id, { from: s.now, until: s.now + 3 * day });
    expect(await s.service.applyVacation(players[seat]!.id)).toEqual([room.id]);
    const paused = await s.service.get(room.id);
    expect(paused.clocks![seat]!.pausedUntil).toBe(s.now + 3 * day);
    expect(deadlineOf(paused.clock!, paused.clocks![seat]!)).toBe(s.now + 3 * day + left);
    // Your games says until when, beside the deadline that counts the vacation.
    expect(summarizeFor(paused, players[seat]!.id)).toMatchObject({ deadline: s.now + 3 * day + left, pausedUntil: s.now + 3 * day });
    expect(summarizeFor(paused, players[(seat + 1) % 3]!.id)!.pausedUntil).toBeUndefined();
    expect(paused.notices!.at(-1)).toMatchObject({ kind: "vacation", seat, text: `${players[seat]!.name} is on vacation until 2026-12-02 19:00 UTC; their clock is stopped until then.` });
    // Applied once: a second pass changes nothing.
    expect(await s.service.applyVacation(players[seat]!.id)).toEqual([]);
    // Past the deadline it had, and to the last minute of the time it kept: no time-out.
    for (const t of [T0 + 10 * h + left + h, T0 + 10 * h + 3 * day + left - 60_000]) {
      s.at(t);
      await s.timers.tick();
      expect((await s.service.get(room.id)).seats[seat]!.away).toBeUndefined();
    }
    s.at(T0 + 10 * h + 3 * day + left);
    await s.timers.tick();
    expect((await s.service.get(room.id)).seats[seat]!.away).toBe("timeout");
  });

  it("a turn that comes to a player on vacation starts when the vacation ends; a move meanwhile costs no time", async () => {
    const s = setup();
    let room = await s.start();
    const mover = runningSeat(room);
    // Everyone else goes on vacation for two days.
    for (const p of players) if (p !== players[mover]) s.book.spans.set(p.id, { from: T0, until: T0 + 2 * day });
    s.at(T0 + h);
    room = await moveOnce(s.service, room, mover);
    const next = runningSeat(room);
    expect(next).not.toBe(mover);
    expect(room.clocks![next]!.since).toBe(T0 + 2 * day);
    expect(room.clocks![next]!.pausedUntil).toBe(T0 + 2 * day);
    const bank = room.clocks![next]!.bankMs;
    // They move while away: no time is charged.
    s.at(T0 + 30 * h);
    room = await moveOnce(s.service, room, next);
    expect(room.clocks![next]!.bankMs).toBe(Math.min(room.clock!.bankMs, bank + room.clock!.incrementMs));
  });

  it("the notice of a turn that comes to a player on vacation waits for its end, while other notices go; a vacation ended early sends it then", async () => {
    const handed: OwedPush[] = [];
    let watched = "";
    const s = setup("turn-1d", async (room, owed) => void (room.id === watched && handed.push(...owed)));
    let room = await s.start();
    watched = room.id;
    const mover = runningSeat(room);
    await s.timers.tick();
    expect(handed).toEqual([{ playerId: players[mover]!.id, kind: "turn", at: T0, seat: mover }]);
    handed.length = 0;
    for (const p of players) if (p !== players[mover]) s.book.spans.set(p.id, { from: T0, until: T0 + 2 * day });
    s.at(T0 + h);
    room = await moveOnce(s.service, room, mover);
    const next = runningSeat(room);
    const turn = { playerId: players[next]!.id, kind: "turn", at: T0 + h, seat: next };
    expect(room.pushOwed).toEqual([turn]);
    // Owed, not sent: its player is away until the vacation ends.
    await s.timers.tick();
    expect(handed).toEqual([]);
    // A chat notice owed meanwhile goes at once; the turn's waits on.
    await s.service.oweChatNotices(room.id, players[mover]!.id);
    s.at(T0 + h + 5_000);
    await s.timers.tick();
    expect(handed.map((o) => o.kind).sort()).toEqual(["chat", "chat"]);
    expect((await s.service.get(room.id)).pushOwed).toEqual([turn]);
    handed.length = 0;
    s.at(T0 + 2 * day - 1);
    await s.timers.tick();
    expect(handed).toEqual([]);
    s.at(T0 + 2 * day);
    await s.timers.tick();
    expect(handed).toEqual([turn]);
    expect((await s.service.get(room.id)).pushOwed).toBeUndefined();

    // Another game: the vacation is ended early, and the turn's notice goes then.
    handed.length = 0;
    s.book.spans.clear();
    s.at(T0 + 3 * day);
    let second = await s.start();
    watched = second.id;
    await s.timers.tick();
    handed.length = 0;
    const first = runningSeat(second);
    const away = players.filter((p) => p !== players[first]);
    for (const p of away) s.book.spans.set(p.id, { from: s.now, until: s.now + 5 * day });
    s.at(T0 + 3 * day + h);
    second = await moveOnce(s.service, second, first);
    const waiting = runningSeat(second);
    await s.timers.tick();
    expect(handed).toEqual([]);
    s.at(T0 + 4 * day);
    s.book.spans.set(players[waiting]!.id, { from: T0 + 3 * day, until: s.now });
    // (The first game may be changed too, if its clock has come to them again.)
    expect(await s.service.applyVacation(players[waiting]!.id)).toContain(second.id);
    await s.timers.tick();
    expect(handed).toEqual([{ playerId: players[waiting]!.id, kind: "turn", at: T0 + 3 * day + h, seat: waiting }]);
  });

  it("a notice held for a player's vacation (a chat message's) is owed again from its end; ended early, at once", async () => {
    const handed: OwedPush[] = [];
    let watched = "";
    let away: { id: string; until: number } | null = null;
    // The transport's notify (owed-notices.ts): a notice to a player on vacation is held until its end.
    const s = setup("turn-1d", async (room, owed) => {
      if (room.id !== watched) return;
      const held = owed.filter((o) => o.playerId === away?.id && s.now < away.until);
      handed.push(...owed.filter((o) => !held.includes(o)));
      return held.map((o) => ({ owed: o, at: away!.until }));
    });
    const room = await s.start();
    watched = room.id;
    await s.timers.tick();
    handed.length = 0;
    const writer = players[0]!;
    const resting = players[1]!;
    away = { id: resting.id, until: T0 + 5 * day };
    s.book.spans.set(resting.id, { from: T0, until: away.until });
    await s.service.oweChatNotices(room.id, writer.id);
    s.at(T0 + 5_000);
    await s.timers.tick();
    expect(handed.map((o) => o.playerId)).toEqual([players[2]!.id]);
    expect((await s.service.get(room.id)).pushOwed).toEqual([expect.objectContaining({ playerId: resting.id, kind: "chat", at: away.until })]);
    handed.length = 0;
    // A day on, the vacation is ended early: the held notice is owed from now, and goes.
    s.at(T0 + day);
    away = null;
    s.book.spans.set(resting.id, { from: T0, until: s.now });
    expect(await s.service.applyVacation(resting.id)).toContain(room.id);
    expect((await s.service.get(room.id)).pushOwed).toEqual([expect.objectContaining({ playerId: resting.id, kind: "chat", at: T0 + day })]);
    await s.timers.tick();
    expect(handed).toEqual([expect.objectContaining({ playerId: resting.id, kind: "chat" })]);
    // Nothing left to bring forward: the next time changes nothing.
    expect(await s.service.applyVacation(resting.id)).not.toContain(room.id);
  });

  it("a vacation ended early gives the clock back the time after its end", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    const id = players[seat]!.id;
    const deadline = deadlineOf(room.clock!, room.clocks![seat]!)!;
    s.book.spans.set(id, { from: T0, until: T0 + 5 * day });
    await s.service.applyVacation(id);
    expect(deadlineOf(room.clock!, (await s.service.get(room.id)).clocks![seat]!)).toBe(deadline + 5 * day);
    s.at(T0 + 36 * h);
    s.book.spans.set(id, { from: T0, until: s.now });
    expect(await s.service.applyVacation(id)).toEqual([room.id]);
    const back = await s.service.get(room.id);
    expect(deadlineOf(back.clock!, back.clocks![seat]!)).toBe(deadline + 36 * h);
    expect(back.clocks![seat]!.pausedUntil).toBe(s.now);
    expect(back.notices!.at(-1)).toMatchObject({ kind: "vacation", seat, text: `${players[seat]!.name} is back from vacation; their clock runs again.` });
    s.at(deadline + 36 * h);
    await s.timers.tick();
    expect((await s.service.get(room.id)).seats[seat]!.away).toBe("timeout");
  });

  it("a player on vacation whose turn it is not shows it at the seat, to everyone; ended early, the mark goes and a turn then starts at once", async () => {
    const s = setup();
    let room = await s.start();
    const mover = runningSeat(room);
    const idle = (mover + 1) % 3;
    const id = players[idle]!.id;
    s.at(T0 + h);
    s.book.spans.set(id, { from: s.now, until: s.now + 3 * day });
    expect(await s.service.applyVacation(id)).toEqual([room.id]);
    room = await s.service.get(room.id);
    expect(room.clocks![idle]).toMatchObject({ since: null, pausedUntil: T0 + h + 3 * day });
    expect(room.notices!.at(-1)).toMatchObject({ kind: "vacation", seat: idle, text: `${players[idle]!.name} is on vacation until 2026-12-02 10:00 UTC; their clock is stopped until then.` });
    // In every viewer's view, a spectator's too.
    const seen = clocksView(room.clock!, room.clocks!);
    expect(seen[idle]).toMatchObject({ since: null, pausedUntil: T0 + h + 3 * day });
    expect(seen[mover]!.pausedUntil).toBeUndefined();
    // Applied once; the notice is not said again when the turn comes and is paused in its turn.
    expect(await s.service.applyVacation(id)).toEqual([]);
    const told = room.notices!.filter((n) => n.kind === "vacation").length;
    // Ended early, before the turn came: the mark goes, the table is told.
    s.at(T0 + 5 * h);
    s.book.spans.set(id, { from: T0 + h, until: s.now });
    expect(await s.service.applyVacation(id)).toEqual([room.id]);
    room = await s.service.get(room.id);
    expect(room.clocks![idle]!.pausedUntil).toBeUndefined();
    expect(room.notices!.filter((n) => n.kind === "vacation")).toHaveLength(told + 1);
    expect(room.notices!.at(-1)).toMatchObject({ seat: idle, text: `${players[idle]!.name} is back from vacation.` });
    // Back: a turn that comes to them starts at once.
    while (runningSeat(room) !== idle) room = await moveOnce(s.service, room, runningSeat(room));
    expect(room.clocks![idle]!.since).toBe(s.now);
  });

  it("a seat a bot plays for its player is not marked on vacation", async () => {
    const s = setup();
    let room = await s.start();
    const mover = runningSeat(room);
    const idle = (mover + 1) % 3;
    room = await s.service.resign(room.id, players[idle]!);
    expect(room.seats[idle]!.away).toBe("resigned");
    s.book.spans.set(players[idle]!.id, { from: s.now, until: s.now + 3 * day });
    await s.service.applyVacation(players[idle]!.id);
    room = await s.service.get(room.id);
    expect(room.clocks![idle]!.pausedUntil).toBeUndefined();
    expect(room.notices?.some((n) => n.kind === "vacation") ?? false).toBe(false);
  });

  it("a game waits out a vacation longer than a room is kept unchanged: the store keeps it a day past the stopped clock's deadline", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    const until = T0 + 40 * day;
    s.book.spans.set(players[seat]!.id, { from: T0, until });
    await s.service.applyVacation(players[seat]!.id);
    const paused = await s.service.get(room.id);
    const deadline = deadlineOf(paused.clock!, paused.clocks![seat]!)!;
    expect(deadline).toBe(until + day);
    // What both stores give the room to live (Redis's PEXPIRE, the in-process store's expiry).
    expect(ttlMs(paused)).toBe(deadline - paused.updatedAt + day);
    for (const t of [T0 + 8 * day, T0 + 30 * day, until + day - 1]) {
      s.at(t);
      await s.timers.tick();
      expect((await s.service.get(room.id)).seats[seat]!.away).toBeUndefined();
    }
    s.at(deadline);
    await s.timers.tick();
    expect((await s.service.get(room.id)).seats[seat]!.away).toBe("timeout");
  });

  it("a vacation ended early unseen by a room, then another taken: the time between them counts, the new one is credited", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    const id = players[seat]!.id;
    const deadline = deadlineOf(room.clock!, room.clocks![seat]!)!;
    const first = { from: T0 + h, until: T0 + h + 5 * day };
    s.at(first.from);
    s.book.spans.set(id, first);
    await s.service.applyVacation(id);
    const paused = await s.service.get(room.id);
    expect(deadlineOf(room.clock!, paused.clocks![seat]!)).toBe(deadline + 5 * day);
    // Ended after a day; the pass that should have told the room did not run (its node died).
    const ended = { ...first, until: first.from + day };
    // Half a day later, a new vacation of two days.
    s.at(ended.until + 12 * h);
    const second = { from: s.now, until: s.now + 2 * day, before: ended };
    s.book.spans.set(id, second);
    expect(await s.service.applyVacation(id)).toEqual([room.id]);
    const after = await s.service.get(room.id);
    // One day of the first, the two of the second; the half day between them ran on the clock.
    expect(deadlineOf(after.clock!, after.clocks![seat]!)).toBe(deadline + day + 2 * day);
    expect(after.clocks![seat]!.pausedUntil).toBe(second.until);
    // Not knowing the first one's end (older than the window read), the pause runs on from the
    // first's start to the new end, as it did before the end was known.
    const { before: _unknown, ...alone } = second;
    const guessed = creditVacations(paused, new Map([[id, alone]]), s.now)!;
    expect(deadlineOf(guessed.clock!, guessed.clocks![seat]!)).toBe(deadline + (second.until - first.from));
  });

  it("a room nobody told of the vacation is put right when its timer comes: the clock stops instead of running out", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    const deadline = deadlineOf(room.clock!, room.clocks![seat]!)!;
    // The vacation was stored, and the node died before it changed the room.
    s.book.spans.set(players[seat]!.id, { from: T0 + h, until: T0 + h + 4 * day });
    s.at(deadline);
    await s.timers.tick();
    const after = await s.service.get(room.id);
    expect(after.seats[seat]!.away).toBeUndefined();
    expect(deadlineOf(after.clock!, after.clocks![seat]!)).toBe(deadline + 4 * day);
    expect(s.timers.stats.timeouts).toBe(0);
  });

  it("while the vacations cannot be read, a turn-based room is not changed (VACATIONS_UNAVAILABLE); a game of one sitting plays on", async () => {
    const s = setup();
    const room = await s.start();
    const seat = runningSeat(room);
    const live = await s.start("standard");
    s.book.latestOf = async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    };
    const action = randomLegalAction(gameOf(room).legalActions(room.state, seat), seededRandom("u"))!;
    await expect(s.service.act(room.id, players[seat]!, action)).rejects.toMatchObject({ code: "VACATIONS_UNAVAILABLE" });
    expect((await s.service.get(room.id)).version).toBe(room.version);
    expect((await moveOnce(s.service, live, runningSeat(live))).version).toBe(live.version + 1);
    // Its time-out waits too: nothing is judged without the vacations.
    s.at(deadlineOf(room.clock!, room.clocks![seat]!)!);
    await s.timers.tick();
    expect((await s.service.get(room.id)).seats[seat]!.away).toBeUndefined();
  });

  it("games of one sitting are untouched, and read no vacations", async () => {
    const s = setup("standard");
    const room = await s.start();
    const seat = runningSeat(room);
    s.book.spans.set(players[seat]!.id, { from: T0, until: T0 + 3 * day });
    const before = s.book.reads;
    expect(await s.service.applyVacation(players[seat]!.id)).toEqual([]);
    const moved = await moveOnce(s.service, room, seat);
    expect(s.book.reads).toBe(before);
    expect(moved.clocks!.every((c) => c.pausedUntil === undefined)).toBe(true);
    expect(creditVacations(moved, s.book.spans, s.now)).toBeNull();
  });

  it("a player on vacation may not open or join a turn-based room (ON_VACATION), but may play a game of one sitting", async () => {
    const s = setup();
    s.book.spans.set(players[1]!.id, { from: T0, until: T0 + day });
    const open = await s.service.create(players[0]!, { game: "goblin-market", seats: 3, clock: "turn-1d" });
    await expect(s.service.join(open.id, players[1]!)).rejects.toMatchObject({ code: "ON_VACATION", message: "You are on vacation from turn-based games until 2026-11-30 09:00 UTC: end your vacation (the menu under your name, top right: Vacation…) before you take on another turn-based game." });
    await expect(s.service.create(players[1]!, { game: "goblin-market", seats: 3, clock: "turn-3d" })).rejects.toMatchObject({ code: "ON_VACATION" });
    expect((await s.service.get(open.id)).seats.map((x) => x.playerId)).toEqual([players[0]!.id, null, null]);
    expect((await s.service.create(players[1]!, { game: "goblin-market", seats: 3, clock: "standard" })).status).toBe("open");
  });
});
