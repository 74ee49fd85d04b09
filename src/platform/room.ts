/**
 * A room: who sits where, its lifecycle, and (once started) the game state and action log.
 * Every operation here is pure: room in, room out (or an AppError), with the clock and the
 * seed passed in. The room service runs these inside a compare-and-swap loop, so they may be
 * re-run against a newer room at any time.
 */
import type { Action, AnyGame, LogEntry, Outcome, Seat } from "../games/types.js";
import { findGame } from "../games/registry.js";
import { commit } from "./commitment.js";
import { err } from "./errors.js";
import type { Player } from "./identity.js";
import type { RatingChangeInfo, RoomStatus, RoomSummary } from "../protocol/wire.js";

export type { RatingChangeInfo, RoomStatus, RoomSummary };


export interface SeatInfo {
  playerId: string | null;
  name: string | null;
  bot: boolean;
}

export interface ActionRecord {
  seat: Seat;
  action: Action;
  /** Epoch ms when it was accepted. */
  at: number;
  /** Client-chosen id, for idempotent retries. */
  id?: string;
}


export interface Room {
  id: string;
  game: string;
  options: unknown;
  ranked: boolean;
  hostId: string;
  seats: SeatInfo[];
  status: RoomStatus;
  /** Grows by exactly one with every change. */
  version: number;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** Secret until the game ends. */
  seed?: string;
  commitment?: string;
  state?: unknown;
  actions: ActionRecord[];
  outcome?: Outcome;
  /** A daily-challenge deal: its UTC day (the seed is that day's, and stays secret until the day is over). */
  daily?: string;
  /** True once the finished game is in Postgres. */
  persisted?: boolean;
  ratingChanges?: RatingChangeInfo[];
}


export function summarize(room: Room): RoomSummary {
  return {
    id: room.id,
    game: room.game,
    ranked: room.ranked,
    status: room.status,
    seats: room.seats.map((s) => ({ name: s.name, bot: s.bot, taken: s.bot || s.playerId !== null })),
    createdAt: room.createdAt,
    ...(room.daily ? { daily: room.daily } : {}),
  };
}

/** The game's event log (every game state keeps one as `log`), or null before the game starts. */
export function eventLog(room: Room): LogEntry[] | null {
  const log = (room.state as { log?: unknown } | undefined)?.log;
  return Array.isArray(log) ? (log as LogEntry[]) : null;
}

/** How many entries the room's event log holds (0 before the game starts, or for no room). */
export function logLength(room: Room | null): number {
  return room === null ? 0 : (eventLog(room)?.length ?? 0);
}

export function gameOf(room: Room): AnyGame {
  const g = findGame(room.game);
  if (!g) throw err("UNKNOWN_GAME", `This server does not offer the game "${room.game}".`);
  return g;
}

export function seatOf(room: Room, playerId: string): Seat | null {
  const i = room.seats.findIndex((s) => s.playerId === playerId);
  return i < 0 ? null : i;
}

const bump = (room: Room, now: number, patch: Partial<Room>): Room => ({
  ...room,
  ...patch,
  version: room.version + 1,
  updatedAt: now,
});

export interface CreateRoomInput {
  game: unknown;
  seats: unknown;
  ranked?: unknown;
  bots?: unknown;
  options?: unknown;
}

export function createRoom(id: string, host: Player, input: CreateRoomInput, now: number): Room {
  const game = findGame(input.game);
  if (!game) throw err("UNKNOWN_GAME", "Pick one of the games this server offers.");
  const seats = input.seats;
  if (typeof seats !== "number" || !Number.isInteger(seats) || seats < game.minPlayers || seats > game.maxPlayers) {
    throw err("BAD_SEATS", `${game.name} takes ${game.minPlayers} to ${game.maxPlayers} players.`);
  }
  const ranked = input.ranked ?? false;
  if (typeof ranked !== "boolean") throw err("BAD_REQUEST", "ranked must be true or false.");
  const bots = input.bots ?? 0;
  if (typeof bots !== "number" || !Number.isInteger(bots) || bots < 0 || bots > seats - 1) {
    throw err("BAD_BOTS", `Bots may fill 0 to ${seats - 1} seats; one seat is yours.`);
  }
  if (ranked && seats < 2) {
    throw err("RANKED_SOLITAIRE", `A ${game.name} room cannot be ranked: ratings compare players. Play it casual, or play the daily challenge for the day's board.`);
  }
  if (ranked && bots > 0) throw err("RANKED_NO_BOTS", "Ranked games are between people only; make it casual to add bots.");
  const parsed = game.parseOptions(input.options ?? {});
  if (!parsed.ok) throw err(parsed.error.code, parsed.error.message);
  const seatList: SeatInfo[] = Array.from({ length: seats }, (_, i) =>
    i === 0
      ? { playerId: host.id, name: host.name, bot: false }
      : i > seats - 1 - bots
        ? { playerId: null, name: `Bot ${i + 1 - (seats - bots)}`, bot: true }
        : { playerId: null, name: null, bot: false },
  );
  return {
    id,
    game: game.id,
    options: parsed.value,
    ranked,
    hostId: host.id,
    seats: seatList,
    status: "open",
    version: 1,
    createdAt: now,
    updatedAt: now,
    actions: [],
  };
}

function requireOpen(room: Room): void {
  if (room.status !== "open") throw err("ROOM_NOT_OPEN", "This game has already started or closed.");
}

export function joinRoom(room: Room, player: Player, seat: unknown, now: number): Room {
  requireOpen(room);
  const existing = seatOf(room, player.id);
  if (existing !== null) throw err("ALREADY_SEATED", `You already sit in seat ${existing + 1} of this room.`);
  let target: number;
  if (seat === undefined || seat === null) {
    target = room.seats.findIndex((s) => !s.bot && s.playerId === null);
    if (target < 0) throw err("ROOM_FULL", "Every seat in this room is taken.");
  } else {
    if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0 || seat >= room.seats.length) {
      throw err("BAD_SEAT", `Seats are numbered 0 to ${room.seats.length - 1}.`);
    }
    const s = room.seats[seat]!;
    if (s.bot || s.playerId !== null) throw err("SEAT_TAKEN", "That seat is taken; pick a free one.");
    target = seat;
  }
  const seats = room.seats.map((s, i) => (i === target ? { playerId: player.id, name: player.name, bot: false } : s));
  return bump(room, now, { seats });
}

export function leaveRoom(room: Room, player: Player, now: number): Room {
  requireOpen(room);
  const seat = seatOf(room, player.id);
  if (seat === null) throw err("NOT_SEATED", "You do not sit in this room.");
  const seats = room.seats.map((s, i) => (i === seat ? { playerId: null, name: null, bot: false } : s));
  const humans = seats.filter((s) => s.playerId !== null);
  if (humans.length === 0) return bump(room, now, { seats, status: "closed" });
  const hostId = room.hostId === player.id ? humans[0]!.playerId! : room.hostId;
  return bump(room, now, { seats, hostId });
}

export function startRoom(room: Room, player: Player, seed: string, now: number): Room {
  requireOpen(room);
  if (room.hostId !== player.id) throw err("NOT_HOST", "Only the player who created the room can start it.");
  if (room.seats.some((s) => !s.bot && s.playerId === null)) {
    throw err("SEATS_EMPTY", "Every seat needs a player or a bot before the game can start.");
  }
  const game = gameOf(room);
  const state = game.setup({ players: room.seats.length, options: room.options, seed });
  return bump(room, now, {
    status: "playing",
    startedAt: now,
    seed,
    commitment: commit(seed),
    state,
    actions: [],
  });
}

/**
 * Apply one game action by a seat. A repeat of that seat's last accepted action id is
 * reported as a duplicate (returns null) rather than applied twice.
 */
export function actInRoom(room: Room, seat: Seat, action: Action, actionId: string | undefined, now: number): Room | null {
  // Idempotency first: a retry of the move that ended the game is a duplicate, not GAME_OVER.
  if (actionId !== undefined) {
    for (let i = room.actions.length - 1; i >= 0; i--) {
      const a = room.actions[i]!;
      if (a.seat !== seat) continue;
      if (a.id === actionId) return null;
      break;
    }
  }
  if (room.status === "finished") throw err("GAME_OVER", "This game has ended.");
  if (room.status !== "playing") throw err("NOT_STARTED", "This game has not started yet.");
  const game = gameOf(room);
  const r = game.apply(room.state, seat, action);
  if (!r.ok) throw err(r.error.code, r.error.message);
  const record: ActionRecord = actionId === undefined ? { seat, action, at: now } : { seat, action, at: now, id: actionId };
  const over = game.isOver(r.value);
  return bump(room, now, {
    state: r.value,
    actions: [...room.actions, record],
    ...(over ? { status: "finished" as const, finishedAt: now, outcome: game.outcome(r.value) ?? undefined, persisted: false } : {}),
  });
}

export function markPersisted(room: Room, ratingChanges: RatingChangeInfo[], now: number): Room {
  if (room.persisted) return room;
  return bump(room, now, { persisted: true, ratingChanges });
}
