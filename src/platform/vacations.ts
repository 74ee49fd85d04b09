/**
 * Vacations from turn-based games (docs/protocol.md, "Vacations"), as chess.com's daily games have
 * them: an account going away for some days stops its clocks in every turn-based game it plays,
 * instead of running out of time in all of them at once and leaving each to a bot.
 *
 * - An account takes a vacation of whole days, starting now, from an allowance of VACATION_DAYS
 *   (config) in any 365 days; it may end it early, and then it is charged the whole days begun.
 *   While on vacation it may not create or join a turn-based room (ON_VACATION): it is away.
 * - While it lasts, the clock of the account's seat in each of its turn-based games in play does
 *   not run: a turn that was running stops and goes on after the vacation with the time it had; a
 *   turn that comes to it meanwhile starts when the vacation ends. It may still move meanwhile (the
 *   move costs it no time). The other players wait, as they would for a slow move; everyone at the
 *   table sees "on vacation until" at the seat (SeatClockView.pausedUntil) and in the event log.
 * - Games of one sitting are not affected: nobody waits days at a live table.
 *
 * How a room learns of it: the vacations are kept in Postgres (the truth), and the room service
 * applies the seated players' vacations to a turn-based room's clocks (`creditVacations`) before
 * and after every change to it, the time-outs its timers fire included, so no clock is judged, and
 * none is started, without them. Starting or ending a vacation then changes each of the player's
 * turn-based games in play at once (RoomService.applyVacation), so the others see it and the
 * room's deadline moves; a room that pass misses (its node died) is put right by its next change,
 * which is at the latest the time-out its stored deadline asks for.
 *
 * The clock arithmetic is the downtime's (downtime.ts): a running clock's `since` moves later by
 * the part of the vacation after it, so the deadline moves by as much, and the time it shows after
 * the vacation is what it showed when it began. `pausedUntil` marks the clock as paused until that
 * end, so the same vacation is never applied twice, and a vacation ended early takes back the part
 * it no longer covers.
 */
import type { Database } from "../db/client.js";
import type { Room } from "./room.js";
import { logLength, personPlays } from "./room.js";
import { isTurnBased, type SeatClock } from "./clocks.js";
import { err } from "./errors.js";
import type { RoomNotice } from "../protocol/wire.js";

const DAY = 24 * 60 * 60_000;
/** The window the allowance counts over. */
export const VACATION_YEAR_MS = 365 * DAY;
/** The allowance when the configuration names none (VACATION_DAYS), in days per 365. */
export const DEFAULT_VACATION_DAYS = 30;
/** The most VACATION_DAYS may be (config.ts): one vacation is at most the allowance. */
export const MAX_VACATION_DAYS = 365;

/** A player's vacation: from `from` until `until` (epoch ms; `until` is the planned end, or when it was ended early). */
export interface VacationSpan {
  from: number;
  until: number;
  /**
   * The player's vacation before this one, if any in the window read (VacationSource.latestOf):
   * a clock still paused for it (its early end went unseen) gives back what it did not cover.
   */
  before?: { from: number; until: number };
}

/** Whether `v` is under way at `now` (begun, not yet over). */
export function onVacationAt(v: VacationSpan, now: number): boolean {
  return v.from <= now && now < v.until;
}

/** What an account's vacations mean at a moment (GET /api/me, POST /api/vacation). */
export interface VacationStatus {
  /** The vacation under way, or null. */
  current: VacationSpan | null;
  /** Whole days left to take in the 365 days ending now (the one under way counts all its planned days). */
  daysLeft: number;
  /** The allowance: days per 365. */
  allowanceDays: number;
}

/** The days a vacation is charged: the whole days begun between its start and its (planned or early) end, at least one. */
export function daysCharged(v: VacationSpan): number {
  return Math.max(1, Math.ceil((v.until - v.from) / DAY));
}

/** An account's vacations (any order) at `now`, against an allowance of `allowanceDays` per 365 days. Pure. */
export function vacationStatus(spans: readonly VacationSpan[], allowanceDays: number, now: number): VacationStatus {
  const current = spans.find((v) => onVacationAt(v, now)) ?? null;
  const used = spans.filter((v) => v.from > now - VACATION_YEAR_MS && v.from <= now).reduce((n, v) => n + daysCharged(v), 0);
  return { current, daysLeft: Math.max(0, allowanceDays - used), allowanceDays };
}

const when = (t: number) => `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * `room` with its seated players' vacations (`spans`, by player id: each one's latest) applied to
 * its clocks, not bumped (the caller's change carries it), or null when nothing changes.
 * Pure. Only turn-based rooms in play; a seat played by a bot (a bot seat, or an away player's)
 * has no running clock, so nothing to stop.
 *
 * For each running clock:
 * - its player is on vacation (from <= now < until) and the clock is not yet paused until that end:
 *   `since` moves later by the part of the vacation after it (until - max(from, since)), marked
 *   `pausedUntil: until`; a notice tells the table, once per vacation and seat;
 * - the clock is paused until a later time than the player's vacation now ends (it was ended early,
 *   or is gone): `since` moves back by the difference, so the time after the real end counts again;
 *   the table is told the player is back.
 *
 * A stopped clock (not the seat's turn) of a player on vacation has no time to move but is marked
 * `pausedUntil: until` all the same, so the seat shows "on vacation until" whether or not it is its
 * turn (a turn that comes meanwhile starts afresh and is paused as above); a vacation ended early
 * takes the mark off. A seat a bot plays is not marked.
 */
export function creditVacations(room: Room, spans: ReadonlyMap<string, VacationSpan>, now: number): Room | null {
  if (room.status !== "playing" || !room.clocks || !isTurnBased(room.clock)) return null;
  let changed = false;
  const notices: RoomNotice[] = [];
  const logAt = logLength(room);
  const tell = (seat: number, text: string) => notices.push({ at: now, logAt, kind: "vacation", seat, text });
  // "On vacation until": once per vacation and seat, whether its turn came before or after.
  const tellOnce = (seat: number, text: string) => {
    if (!(room.notices ?? []).some((n) => n.kind === "vacation" && n.seat === seat && n.text === text)) tell(seat, text);
  };
  const clocks = room.clocks.map((c, seat): SeatClock => {
    const playerId = room.seats[seat]?.playerId;
    const v = playerId ? spans.get(playerId) : undefined;
    const name = room.seats[seat]?.name ?? "A player";
    const paused = c.pausedUntil !== undefined && c.pausedUntil > now ? c.pausedUntil : undefined;
    const away = v !== undefined && onVacationAt(v, now);
    const text = away ? `${name} is on vacation until ${when(v.until)}; their clock is stopped until then.` : "";
    if (c.since === null) {
      // Not their turn: no time to move, but the seat shows the vacation all the same (a turn that
      // comes to it meanwhile starts at its end), and a vacation ended early is taken off it. Not
      // a seat a bot plays: its player is not the one at the table.
      if (away && personPlays(room, seat)) {
        if (paused === v.until) return c;
        tellOnce(seat, text);
        changed = true;
        return { ...c, pausedUntil: v.until };
      }
      // Over by its planned end: the mark is past, and harmless (views show it only before then).
      if (paused === undefined) return c;
      changed = true;
      if (personPlays(room, seat)) tell(seat, `${name} is back from vacation.`);
      return { bankMs: c.bankMs, since: null, moved: c.moved };
    }
    if (away) {
      if (paused === v.until) return c;
      // A clock still paused for an earlier vacation (ended early, unseen by this room, then a new
      // one taken): the time between that one's real end and this one's start counts, and this one
      // is applied as to a running clock. Without the earlier one's end (older than the window
      // read), the pause runs on to the new end.
      const before = v.before;
      let since: number;
      if (paused === undefined) since = c.since + (v.until - Math.max(v.from, c.since));
      else if (before !== undefined && before.until <= v.from && before.until < paused) {
        const back = c.since - (paused - before.until);
        since = back + (v.until - Math.max(v.from, back));
      } else since = c.since + (v.until - paused);
      tellOnce(seat, text);
      changed = true;
      return { ...c, since, pausedUntil: v.until };
    }
    if (paused === undefined) return c;
    // Ended before the pause it was given: the time since its real end counts again.
    const end = v !== undefined && v.until <= now ? v.until : now;
    changed = true;
    tell(seat, `${name} is back from vacation; their clock runs again.`);
    return { ...c, since: c.since - (paused - end), pausedUntil: end };
  });
  if (!changed) return null;
  return { ...room, clocks, ...(notices.length > 0 ? { notices: [...(room.notices ?? []), ...notices] } : {}) };
}

/** The players whose vacations a change to `room` may need: its seated people, in a turn-based room open or in play. */
export function vacationersOf(room: Room): string[] {
  if (!isTurnBased(room.clock) || (room.status !== "playing" && room.status !== "open")) return [];
  const ids: string[] = [];
  for (const s of room.seats) if (s.playerId !== null && !s.bot) ids.push(s.playerId);
  return ids;
}

/** What the room service needs of the vacations (Vacations below; absent in a service without accounts). */
export interface VacationSource {
  /** Each player's latest vacation begun by `now` within the last 365 days, by player id (none: not in the map), with the one before it in that window as `before`. */
  latestOf(playerIds: readonly string[], now: number): Promise<Map<string, VacationSpan>>;
}

export function onVacation(until: number) {
  return err(
    "ON_VACATION",
    `You are on vacation from turn-based games until ${when(until)}: end your vacation (the menu under your name, top right: Vacation…) before you take on another turn-based game.`,
  );
}

/** The vacations, kept in Postgres. */
export class Vacations implements VacationSource {
  constructor(
    private readonly db: Database,
    readonly allowanceDays: number = DEFAULT_VACATION_DAYS,
    private readonly now: () => number = Date.now,
  ) {}

  private async spansOf(playerId: string, now: number): Promise<VacationSpan[]> {
    const rows = await this.db.prisma.vacation.findMany({ where: { playerId, startedAt: { gt: new Date(now - VACATION_YEAR_MS - DAY) } } });
    return rows.map((r) => ({ from: r.startedAt.getTime(), until: r.until.getTime() }));
  }

  async status(playerId: string): Promise<VacationStatus> {
    const now = this.now();
    return vacationStatus(await this.spansOf(playerId, now), this.allowanceDays, now);
  }

  /** When the player's vacation under way ends (epoch ms), or null: none now. */
  async until(playerId: string): Promise<number | null> {
    const now = this.now();
    const v = (await this.latestOf([playerId], now)).get(playerId);
    return v && now < v.until ? v.until : null;
  }

  async latestOf(playerIds: readonly string[], now: number): Promise<Map<string, VacationSpan>> {
    const out = new Map<string, VacationSpan>();
    if (playerIds.length === 0) return out;
    const rows = await this.db.prisma.vacation.findMany({
      where: { playerId: { in: [...playerIds] }, startedAt: { gt: new Date(now - VACATION_YEAR_MS), lte: new Date(now) } },
      orderBy: { startedAt: "desc" },
    });
    // Newest first: each player's first row is the latest, the next the one before it.
    for (const r of rows) {
      const span = { from: r.startedAt.getTime(), until: r.until.getTime() };
      const latest = out.get(r.playerId);
      if (!latest) out.set(r.playerId, span);
      else if (!latest.before) latest.before = span;
    }
    return out;
  }

  /**
   * Starts a vacation of `days` whole days now. BAD_DAYS unless a whole number from 1 to the
   * allowance; ON_VACATION when one is under way; NO_VACATION_DAYS when fewer days are left. One at
   * a time per account (the account's row is locked while it is checked and written).
   */
  async start(playerId: string, days: unknown): Promise<VacationStatus> {
    if (this.allowanceDays === 0) throw err("VACATIONS_OFF", "This server offers no vacations from turn-based games.");
    if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > this.allowanceDays) {
      throw err("BAD_DAYS", `Take a vacation of 1 to ${this.allowanceDays} whole days.`);
    }
    const now = this.now();
    return this.db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Account" WHERE "playerId" = ${playerId} FOR UPDATE`;
      const rows = await tx.vacation.findMany({ where: { playerId, startedAt: { gt: new Date(now - VACATION_YEAR_MS - DAY) } } });
      const st = vacationStatus(rows.map((r) => ({ from: r.startedAt.getTime(), until: r.until.getTime() })), this.allowanceDays, now);
      if (st.current) throw err("ON_VACATION", `You are on vacation already, until ${when(st.current.until)}.`);
      // A vacation is keyed by its start: one ended this very millisecond holds the key.
      if (rows.some((r) => r.startedAt.getTime() === now)) throw err("BUSY", "Your last vacation ended this very moment; please try again.");
      if (days > st.daysLeft) {
        throw err("NO_VACATION_DAYS", `You have ${st.daysLeft} of your ${this.allowanceDays} vacation days left in these 365 days; take ${st.daysLeft === 0 ? "one once some are back" : `at most ${st.daysLeft}`}.`);
      }
      const span = { from: now, until: now + days * DAY };
      await tx.vacation.create({ data: { playerId, startedAt: new Date(span.from), until: new Date(span.until) } });
      return { current: span, daysLeft: st.daysLeft - days, allowanceDays: this.allowanceDays };
    });
  }

  /** Ends the vacation under way now (NOT_ON_VACATION: none); the whole days begun are charged, the rest given back. */
  async end(playerId: string): Promise<VacationStatus> {
    const now = this.now();
    const ended = await this.db.prisma.vacation.updateMany({
      where: { playerId, startedAt: { lte: new Date(now) }, until: { gt: new Date(now) } },
      data: { until: new Date(now) },
    });
    if (ended.count === 0) throw err("NOT_ON_VACATION", "You are not on vacation.");
    return this.status(playerId);
  }
}
