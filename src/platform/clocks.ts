/**
 * Turn clocks, game-agnostic. A room's clock setting is copied from a preset when the room is
 * created (so changing a preset never changes a room in play). While the game runs, every seat
 * that must act (the game's `activeSeats`, so a simultaneous step runs every pending seat's clock
 * at once) and is played by a person has a running clock:
 *
 *   deadline = since + turnMs + bankMs        (the seat's first move: at most since + firstMoveMs)
 *
 * `turnMs` is fresh each time the seat must act; only time beyond it comes out of the bank. A move
 * adds `incrementMs` back to the bank, up to the bank the seat started with. A clock stops when the
 * seat moves or stops being active; bot seats and seats a bot plays for a player (away) have none.
 *
 * Everything here is pure (the time is passed in), so a room replayed from its action records
 * (each with its `at`) has exactly the clocks it had when it was played.
 */
import type { AnyGame, ClockPreset, Seat } from "../games/types.js";
import { clockDeadline, TURN_BASED_OPEN_MS } from "../protocol/clock.js";
import type { SeatClockView } from "../protocol/wire.js";
import { err } from "./errors.js";

export type { ClockPreset, SeatClockView };

/** A room's clock: the preset it was created with (null: no clock). */
export type ClockSetting = ClockPreset;

export interface SeatClock {
  /** What is left in the seat's time bank, ms (as of `since` while running). */
  bankMs: number;
  /** When the clock started running (epoch ms), or null when stopped. */
  since: number | null;
  /** Whether the seat has made a move yet (until then, firstMoveMs applies). */
  moved: boolean;
  /**
   * The seat's player is on vacation until then (vacations.ts): `since` was moved later by the
   * vacation's length, so the clock runs out that much later. A clock that starts afresh has none.
   */
  pausedUntil?: number;
}

const s = 1000;
const min = 60 * s;

/** The platform's paces, for a game that names none of its own. */
export const DEFAULT_PRESETS: ClockPreset[] = [
  { id: "standard", label: "Standard: 30 s a turn + 3 min bank (+10 s a move)", turnMs: 30 * s, bankMs: 3 * min, incrementMs: 10 * s, firstMoveMs: 60 * s },
  { id: "quick", label: "Quick: 15 s a turn + 1 min bank (+5 s a move)", turnMs: 15 * s, bankMs: 1 * min, incrementMs: 5 * s, firstMoveMs: 30 * s },
  { id: "relaxed", label: "Relaxed: 2 min a turn + 10 min bank (+30 s a move)", turnMs: 2 * min, bankMs: 10 * min, incrementMs: 30 * s, firstMoveMs: 3 * min },
];

const h = 60 * min;
const day = 24 * h;

/**
 * Turn-based paces (Board Game Arena's turn-based mode, Lichess's correspondence), the platform's
 * for every game played by two or more: a game over days, each player moving when they come by.
 * The same clock (a turn allowance, a bank, an increment), in days. A room with one also starts by
 * itself once every seat is taken, waits for players for TURN_BASED_OPEN_MS whether or not its host
 * is connected, and is not offered by quick play (which seats players who are there now).
 */
export const TURN_BASED_PRESETS: ClockPreset[] = [
  { id: "turn-1d", label: "Turn-based, 1 day: 1 day a move + 2 days bank (+12 h a move)", turnMs: day, bankMs: 2 * day, incrementMs: 12 * h, firstMoveMs: day, turnBased: true },
  { id: "turn-3d", label: "Turn-based, 3 days: 3 days a move + 4 days bank (+1 day a move)", turnMs: 3 * day, bankMs: 4 * day, incrementMs: day, firstMoveMs: 3 * day, turnBased: true },
];

export { TURN_BASED_OPEN_MS };

/** The clock choice that means "no clock" (casual rooms only). */
export const NO_CLOCK = "none";

/** A game's paces: its own (or the platform's) for one sitting, then the turn-based ones (not for solitaire). */
export function clockPresets(game: AnyGame): ClockPreset[] {
  const live = game.clockPresets ?? DEFAULT_PRESETS;
  return game.maxPlayers > 1 ? [...live, ...TURN_BASED_PRESETS] : live;
}

/** Whether a room's clock (as stored with it) is a turn-based pace. */
export function isTurnBased(clock: ClockSetting | null | undefined): boolean {
  return clock?.turnBased === true;
}

/** Whether a clock preset id (as a request or a room summary names it) is a turn-based pace. */
export function isTurnBasedPace(id: unknown): boolean {
  return TURN_BASED_PRESETS.some((p) => p.id === id);
}

/** The longest a running clock of this setting can run (its first move's, or a turn with the whole bank), ms. */
export function longestTurnMs(setting: ClockSetting): number {
  return Math.max(setting.firstMoveMs, setting.turnMs + setting.bankMs);
}

/**
 * The clock a new room gets: the named preset, or "none" (casual only). Absent: the game's default
 * preset, except for a casual solitaire room, which has no one to keep waiting (no clock).
 */
export function parseClock(game: AnyGame, input: unknown, ranked: boolean, seats: number): ClockSetting | null {
  const presets = clockPresets(game);
  if (input === undefined || input === null) return !ranked && seats === 1 ? null : { ...presets[0]! };
  if (input === NO_CLOCK) {
    if (ranked) throw err("RANKED_NEEDS_CLOCK", "Ranked games always have a clock, so that every game ends; pick one of the paces.");
    return null;
  }
  const preset = presets.find((p) => p.id === input);
  if (!preset) {
    throw err("BAD_CLOCK", `Pick a clock ${game.name} offers: ${[...presets.map((p) => p.id), ...(ranked ? [] : [NO_CLOCK])].join(", ")}.`);
  }
  return { ...preset };
}

/** Clocks at the start of the game: every active seat played by a person starts running. */
export function startClocks(setting: ClockSetting, seats: number, active: readonly Seat[], clocked: (seat: Seat) => boolean, now: number): SeatClock[] {
  return Array.from({ length: seats }, (_, seat) => ({
    bankMs: setting.bankMs,
    since: clocked(seat) && active.includes(seat) ? now : null,
    moved: false,
  }));
}

/** The bank left after a clock that ran from `since` to `now` stops. */
function bankAfter(setting: ClockSetting, c: SeatClock, now: number): number {
  if (c.since === null) return c.bankMs;
  return Math.max(0, c.bankMs - Math.max(0, now - c.since - setting.turnMs));
}

/** When a running clock runs out (epoch ms), or null when it is stopped. */
export function deadlineOf(setting: ClockSetting, c: SeatClock): number | null {
  return clockDeadline(setting, { bankMs: c.bankMs, since: c.since, firstMove: !c.moved });
}

/**
 * The clocks after a change at `now`: `actor` moved (null: no one did), `active` must act next,
 * `clocked` says which seats a person plays. A seat that moved, or is no longer active, stops (its
 * bank pays for the time beyond its turn allowance; a move earns the increment); a seat that moved
 * and must act again, or has just become active, starts afresh; any other running clock runs on.
 */
export function advanceClocks(
  setting: ClockSetting,
  clocks: readonly SeatClock[],
  actor: Seat | null,
  active: readonly Seat[],
  clocked: (seat: Seat) => boolean,
  now: number,
): SeatClock[] {
  return clocks.map((c, seat) => {
    const acted = seat === actor;
    const runs = clocked(seat) && active.includes(seat);
    if (c.since !== null && !acted && runs) return c;
    let bankMs = c.bankMs;
    if (c.since !== null) bankMs = bankAfter(setting, c, now);
    if (acted) bankMs = Math.min(Math.max(setting.bankMs, bankMs), bankMs + setting.incrementMs);
    const moved = c.moved || acted;
    const since = runs ? now : null;
    if (bankMs === c.bankMs && moved === c.moved && since === c.since) return c;
    return { bankMs, since, moved };
  });
}

/** Stop one seat's clock now (it timed out, resigned, or a bot took over): the bank pays as usual. */
export function stopClock(setting: ClockSetting, clocks: readonly SeatClock[], seat: Seat, now: number): SeatClock[] {
  return clocks.map((c, i) => (i === seat && c.since !== null ? { ...c, bankMs: bankAfter(setting, c, now), since: null } : c));
}

/** Seats whose clock has run out at `now`. */
export function expiredSeats(setting: ClockSetting, clocks: readonly SeatClock[], now: number): Seat[] {
  const out: Seat[] = [];
  clocks.forEach((c, seat) => {
    const d = deadlineOf(setting, c);
    if (d !== null && d <= now) out.push(seat);
  });
  return out;
}

/** The earliest running deadline, or null. */
export function nextDeadline(setting: ClockSetting, clocks: readonly SeatClock[]): number | null {
  let next: number | null = null;
  for (const c of clocks) {
    const d = deadlineOf(setting, c);
    if (d !== null && (next === null || d < next)) next = d;
  }
  return next;
}

export function clocksView(setting: ClockSetting, clocks: readonly SeatClock[]): SeatClockView[] {
  return clocks.map((c) =>
    c.pausedUntil !== undefined
      ? { bankMs: c.bankMs, since: c.since, firstMove: !c.moved, pausedUntil: c.pausedUntil }
      : { bankMs: c.bankMs, since: c.since, firstMove: !c.moved },
  );
}
