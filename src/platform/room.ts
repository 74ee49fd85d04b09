/**
 * A room: who sits where, its lifecycle, and (once started) the game state and action log.
 * Every operation here is pure: room in, room out (or an AppError), with the clock and the
 * seed passed in. The room service runs these inside a compare-and-swap loop, so they may be
 * re-run against a newer room at any time.
 */
import { isRange, type RatingRange } from "./rating-range.js";
import { parseReliableOnly } from "./reliability.js";
import type { Action, AnyGame, BotStrength, LogEntry, Outcome, Seat } from "../games/types.js";
import { findGame } from "../games/registry.js";
import { appendEvents } from "../games/log.js";
import { commit } from "./commitment.js";
import { dayOver } from "./daily-deal.js";
import { err, type AppError } from "./errors.js";
import { nameKey, type Player } from "./identity.js";
import type { RatingChangeInfo, RoomNotice, RoomStatus, RoomSummary, SeatAway, YourRoom } from "../protocol/wire.js";
import { spanWords } from "../protocol/clock.js";
import { advanceClocks, deadlineOf, expiredSeats, isTurnBased, parseClock, startClocks, stopClock, TURN_BASED_OPEN_MS, type ClockSetting, type SeatClock } from "./clocks.js";

export type { RatingChangeInfo, RoomNotice, RoomStatus, RoomSummary, SeatAway };


export interface SeatInfo {
  playerId: string | null;
  name: string | null;
  /** A bot's seat from the start. */
  bot: boolean;
  /**
   * A player's seat that a bot plays for now: they ran out of time (and may take it back, unless
   * it was their second time) or resigned (for good). Ranked: a seat still away at the end is
   * placed last in the rating update.
   */
  away?: SeatAway;
  /** How many times this seat's player has run out of time. */
  timeouts?: number;
}

export interface ActionRecord {
  seat: Seat;
  action: Action;
  /** Epoch ms when it was accepted. */
  at: number;
  /** Client-chosen id, for idempotent retries. */
  id?: string;
  /** Made by the bot that plays the seat of a player who is away (not by the player). */
  bot?: true;
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
  /** The game's state (once started), in the shape of rules version `rules`; see `gameState`. */
  state?: unknown;
  /**
   * The game's `rulesVersion` the state was written under (absent: 1). A build whose game has a
   * newer version migrates the state when it reads it (GameDefinition.migrateState) and writes
   * the new version with the room's next change.
   */
  rules?: number;
  /**
   * The game's `rulesVersion` when the game started (absent: 1): the rules it is played under to
   * its end, whichever build serves it (its setup was given them), and that its record keeps for
   * the replay. Unlike `rules`, never changes.
   */
  playedUnder?: number;
  /** The game's event log, beside the state: append-only, numbered from 1 (empty until the game starts). */
  log: LogEntry[];
  actions: ActionRecord[];
  outcome?: Outcome;
  /** A daily-challenge deal: its UTC day (the seed is that day's, and stays secret until the day is over). */
  daily?: string;
  /**
   * A finished daily deal's room: its day is over, so its views show the seed. Set by the change
   * the timers make at the day's end (revealDailySeed), so that every watcher is sent the seed as
   * an update of the room like any other, and a version no longer shows two ways.
   */
  seedShown?: true;
  /** True once the finished game is in Postgres. */
  persisted?: boolean;
  ratingChanges?: RatingChangeInfo[];
  /** A ranked room's rating range (rating-range.ts): who may take a seat. Absent: anyone. */
  ratingRange?: RatingRange;
  /** A ranked room kept for players who play their games out (reliability.ts). Absent: anyone. */
  reliableOnly?: true;
  /**
   * A private table: never listed (lobby, pages of games, room:find, where a followed player plays);
   * anyone with its link may join or watch it, as a Lichess challenge to a friend or a Board Game
   * Arena private table. Absent: listed.
   */
  private?: true;
  /**
   * A private table whose seats only invited players may take (joinRoom: INVITED_ONLY): those
   * `admitted`, its host, and the players a rematch keeps seats for. Anyone with its link may
   * still watch. Absent: anyone with the link may sit.
   */
  invitedOnly?: true;
  /**
   * An open invited-only table: the players invited to it (keepInvitation), who may take a free seat, at most ADMITTED_KEPT (the oldest forgotten first). Gone with the start; never shown
   * to viewers (who invited whom is the inviters' business).
   */
  admitted?: string[];
  /** Players its host removed from a seat before the start (removeFromRoom): they may not sit again. */
  removed?: string[];
  /** The room's clock (absent or null: none). */
  clock?: ClockSetting | null;
  /** How its bots play (absent: "strong"); they also play seats whose players timed out or resigned. */
  botStrength?: BotStrength;
  /** One clock per seat while the game runs (with `clock`). */
  clocks?: SeatClock[];
  /**
   * The newest outage of the service (downtime.ts) this room's clocks were given back; absent:
   * none. Each outage is credited once.
   */
  downtimeCredited?: number;
  /** What happened at the table besides moves (time-outs, resignations, ...), in plain sentences. */
  notices?: RoomNotice[];
  /** An open room: since when its host has been away (no connection watching it). */
  hostAwaySince?: number;
  /** An open room: when its host was last found present by the idle check. */
  hostSeenAt?: number;
  /**
   * Only as read from a room stored by the build before 2026-11-24 (never stored): action records
   * stored after the room's head, which the room service applies once (room-service.ts, settle).
   */
  legacyPending?: ActionRecord[];
  /**
   * Why a room closed other than by everyone leaving: "aborted" (a ranked game's first move never
   * made), "host-away", "unfilled" (a turn-based room whose seats were not all taken in time).
   */
  ended?: "aborted" | "host-away" | "unfilled";
  /** A finished room: the rematch offered from its end screen (rematch.ts in transport; see offerRematch). */
  rematch?: RematchOffer;
  /**
   * An open turn-based room or invited-only table: the invitations kept for accounts
   * (keepInvitation), oldest first, at most INVITATIONS_KEPT. Each goes when its player takes a
   * seat or declines, and all go with the
   * room's start or close (only open rooms show them).
   */
  invited?: KeptInvitation[];
  /**
   * A rematch room before it starts: per seat, the player of the finished game it is kept for
   * (null: open to anyone, or a bot). A kept seat is freed when its player declines or leaves.
   */
  reserved?: (string | null)[];
  /**
   * A rematch room: the names the players it keeps seats for had in the finished game, by player
   * id, so that a kept seat can say whom it waits for (read only for the ids still in `reserved`).
   */
  keptNames?: Record<string, string>;
  /**
   * A rematch room: the finished room it is the rematch of, whose offer a player's taking or
   * declining their kept seat here also answers (room-service.ts, join and declineInvitation).
   */
  rematchOf?: string;
  /**
   * Notices owed to players' closed pages (push.ts), kept in the room from the change that made
   * them until a node has sent them (timers.ts, "notify"), so none is lost with the node that made
   * the change. Only a turn-based room has any, and a table of one sitting for invited players its
   * invitations' (`invitedOnly`), and only on a server with Web Push keys.
   */
  pushOwed?: OwedPush[];
}

/**
 * A notice owed to a player's closed pages: "turn" (their seat must move; sent only if it still
 * must when sent), "invite" (their kept invitation; sent only while it is kept), "ended" (the
 * game they played is over, with their place), or "chat" (another player wrote in the players'
 * chat of their game in play; sent only if they have not read it meanwhile, one owed at a time).
 * `at`: when the change that owes it was made (epoch ms); it is due then (`owedDueAt`: a turn
 * notice to a player on vacation waits for its end).
 */
export interface OwedPush {
  playerId: string;
  kind: "turn" | "invite" | "ended" | "chat";
  at: number;
  /** A turn: the seat that must move; the end: the player's seat. */
  seat?: Seat;
}

/**
 * When `owed` is due: at its `at`, but a turn notice to a seat whose clock is stopped for its
 * player's vacation (vacations.ts, `pausedUntil`) at that vacation's end: the player is away, and
 * the turn is theirs to take from then. Read off the room as it is now, so a vacation ended early
 * (its clock then paused until that earlier end) brings the notice forward, and a turn taken
 * meanwhile makes it moot (pushStillDue).
 */
export function owedDueAt(room: Room, owed: OwedPush): number {
  if (owed.kind !== "turn" || owed.seat === undefined) return owed.at;
  const paused = room.clocks?.[owed.seat]?.pausedUntil;
  return paused !== undefined && paused > owed.at ? paused : owed.at;
}

/** Whether `owed` is still worth sending: the turn is still the player's to make, the invitation still kept, the game over. */
export function pushStillDue(room: Room, owed: OwedPush): boolean {
  if (owed.kind === "chat") return room.status === "playing" && chatNoticeFor(room, owed.playerId);
  if (owed.kind === "invite") return room.status === "open" && !!room.invited?.some((i) => i.playerId === owed.playerId);
  if (owed.kind === "ended") return room.status === "finished" && owed.seat !== undefined && room.seats[owed.seat]?.playerId === owed.playerId;
  const seat = owed.seat;
  return seat !== undefined && room.status === "playing" && room.seats[seat]?.playerId === owed.playerId && personPlays(room, seat) && activeOf(room).includes(seat);
}

/** Whether a player gets notices of the players' chat: seated in person at a turn-based game (not one they resigned). */
function chatNoticeFor(room: Room, playerId: string): boolean {
  return isTurnBased(room.clock) && room.seats.some((s) => s.playerId === playerId && !s.bot && s.away !== "resigned");
}

/**
 * How long after a message its chat notices are due (ms). They are owed before the message is
 * stored (chat-events.ts), so a node that dies in between leaves a notice owed for a message that
 * never was (the timers' unread check then drops it), never a message with no notice; the delay
 * lets the message be stored before any node's timers come to the notice.
 */
export const CHAT_NOTICE_DELAY_MS = 5_000;

/**
 * The room owing a chat notice (OwedPush "chat", due CHAT_NOTICE_DELAY_MS after `now`) to each
 * player of its turn-based game in play but `writerId` who is not owed one already, a version on,
 * its last change's time kept (nothing happened at the table); null when nobody is owed a new one.
 * So a flurry of messages owes each player one notice, and the room is written once for it.
 */
export function oweChatNotices(room: Room, writerId: string, now: number): Room | null {
  if (room.status !== "playing" || !isTurnBased(room.clock)) return null;
  const owed = new Set((room.pushOwed ?? []).filter((o) => o.kind === "chat").map((o) => o.playerId));
  const more: OwedPush[] = [];
  for (const s of room.seats) {
    const id = s.playerId;
    if (id && id !== writerId && !owed.has(id) && chatNoticeFor(room, id)) more.push({ playerId: id, kind: "chat", at: now + CHAT_NOTICE_DELAY_MS });
  }
  return more.length === 0 ? null : { ...owePushes(room, more), version: room.version + 1 };
}

/** The room owing `more` notices too (a new version's field: the caller bumps). */
export function owePushes(room: Room, more: readonly OwedPush[]): Room {
  return more.length === 0 ? room : { ...room, pushOwed: [...(room.pushOwed ?? []), ...more] };
}

/** A notice not sent when due because its player is on vacation (owed-notices.ts): owed again from `at`, the vacation's end. */
export interface HeldNotice {
  owed: OwedPush;
  at: number;
}

/**
 * The room with the notices held for a player on vacation (settlePushes' `held`: owed again from
 * its planned end) owed again by `until` at the latest: their vacation ended early (`until`: now),
 * or a shorter one replaced it. A turn's notice needs nothing (owedDueAt reads the clock's pause);
 * null when nothing changes.
 */
export function heldUntil(room: Room, playerId: string, until: number): Room | null {
  const owed = room.pushOwed;
  const late = (o: OwedPush) => o.playerId === playerId && o.kind !== "turn" && o.at > until;
  if (!owed?.some(late)) return null;
  return { ...room, version: room.version + 1, pushOwed: owed.map((o) => (late(o) ? { ...o, at: until } : o)) };
}

/**
 * The room without the owed notices in `sent` (by identity: the entries as read), those of them in
 * `held` owed again from their new time (a player on vacation: owed-notices.ts), a version on, its
 * last change's time kept (nothing happened at the table); null when none of them is owed now.
 */
export function settlePushes(room: Room, sent: readonly OwedPush[], held: readonly HeldNotice[] = []): Room | null {
  const key = (o: OwedPush) => `${o.kind}|${o.playerId}|${o.at}|${o.seat ?? ""}`;
  const done = new Set(sent.map(key));
  const kept = (room.pushOwed ?? []).filter((o) => !done.has(key(o)));
  if (kept.length === (room.pushOwed?.length ?? 0)) return null;
  const owedNow = new Set((room.pushOwed ?? []).map(key));
  const rest = [...kept, ...held.filter((h) => owedNow.has(key(h.owed))).map((h) => ({ ...h.owed, at: h.at }))];
  const next: Room = { ...room, version: room.version + 1 };
  if (rest.length > 0) next.pushOwed = rest;
  else delete next.pushOwed;
  return next;
}

/** An invitation kept in an open turn-based room for an account that may take a seat later. */
export interface KeptInvitation {
  playerId: string;
  /** The invited account's name then, for the host's list (RoomView.invitations); absent: kept by an older build, or a rematch's (keptNames has it). */
  name?: string;
  from: { id: string; name: string; account: boolean };
  /** A turn-based rematch's: the seat kept for this player of the finished game (`reserved`). */
  rematch?: true;
  /** When it was made (epoch ms). */
  at: number;
}

/** The most invitations an open room keeps (the oldest goes first). */
export const INVITATIONS_KEPT = 20;

/** A rematch offered on a finished room: the new room, who offered, who accepted and who declined. */
export interface RematchOffer {
  roomId: string;
  by: string;
  accepted: string[];
  declined: string[];
}


export function summarize(room: Room): RoomSummary {
  return {
    id: room.id,
    game: room.game,
    ranked: room.ranked,
    status: room.status,
    // A seat a rematch keeps for its player counts as taken (nobody else may sit there), under their name.
    seats: room.seats.map((s, i) => {
      const kept = room.status === "open" && s.playerId === null ? (room.reserved?.[i] ?? null) : null;
      return { name: s.name ?? (kept !== null ? (room.keptNames?.[kept] ?? null) : null), bot: s.bot, taken: s.bot || s.playerId !== null || kept !== null };
    }),
    createdAt: room.createdAt,
    clock: room.clock?.id ?? null,
    ...(room.daily ? { daily: room.daily } : {}),
    // Lobby hygiene (issue 23): an open room says whether its host is away (noteHost, socket.ts);
    // an open turn-based room, whose host need not stay, says when it closes unless its seats fill.
    ...(room.status === "open"
      ? isTurnBased(room.clock)
        ? { closesAt: room.createdAt + TURN_BASED_OPEN_MS }
        : { hostAway: room.hostAwaySince !== undefined }
      : {}),
    ...(room.ratingRange ? { ratingRange: room.ratingRange } : {}),
    ...(room.reliableOnly ? { reliableOnly: true as const } : {}),
    ...(room.private ? { private: true as const } : {}),
    ...(room.invitedOnly ? { invitedOnly: true as const } : {}),
  };
}

// Your games (issue 23; docs/protocol.md, "Your games").

/** The seats that must act now: the game's activeSeats while it plays, else none. */
export function activeOf(room: Room): Seat[] {
  if (room.status !== "playing" || room.state === undefined) return [];
  return gameOf(room).activeSeats(gameState(room));
}

/** When a seat's running clock runs out (epoch ms); null: no clock runs for it (or the game is not in play). */
export function seatDeadline(room: Room, seat: Seat): number | null {
  const c = room.status === "playing" && room.clock && room.clocks ? room.clocks[seat] : undefined;
  return c && room.clock ? deadlineOf(room.clock, c) : null;
}

/** A room as listed under a player's own games (`mine`): the summary, their seat, who must act. */
export function summarizeFor(room: Room, playerId: string): YourRoom | null {
  const seat = seatOf(room, playerId);
  if (seat === null) return null;
  const deadline = seatDeadline(room, seat);
  const paused = deadline !== null ? room.clocks![seat]!.pausedUntil : undefined;
  // A seat a bot plays while its player is away: whether they may take it back (returnToSeat).
  const s = room.seats[seat]!;
  const away = room.status === "playing" && s.away ? { away: s.away === "timeout" && (s.timeouts ?? 0) < 2 ? ("may-return" as const) : ("for-good" as const) } : {};
  return { ...summarize(room), seat, active: activeOf(room), ...(deadline !== null ? { deadline } : {}), ...(paused !== undefined ? { pausedUntil: paused } : {}), ...away };
}

/**
 * The people whose turn a change made: seats that must act after it and did not before, played by
 * their person (not bots, not a seat a bot plays while its player is away). A move that leaves the
 * same seat to act again tells nobody.
 */
export function newTurns(prev: Room | null | undefined, next: Room): Array<{ playerId: string; seat: Seat }> {
  if (next.status !== "playing" || (prev && prev.version >= next.version)) return [];
  const now = activeOf(next);
  if (now.length === 0) return [];
  const before = prev ? activeOf(prev) : [];
  const out: Array<{ playerId: string; seat: Seat }> = [];
  for (const seat of now) {
    const pid = next.seats[seat]?.playerId;
    if (!pid || !personPlays(next, seat)) continue;
    if (before.includes(seat) && personPlays(prev!, seat)) continue;
    out.push({ playerId: pid, seat });
  }
  return out;
}

/** Whether a person plays this seat now (not a bot seat, not a seat a bot plays while its player is away). */
export function personPlays(room: Room, seat: Seat): boolean {
  const s = room.seats[seat];
  return !!s && !s.bot && !s.away;
}

/** Whether a bot moves for this seat: a bot's seat, or an away player's. */
export function botPlays(room: Room, seat: Seat): boolean {
  const s = room.seats[seat];
  return !!s && (s.bot || !!s.away);
}

function seatName(room: Room, seat: Seat): string {
  return room.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

function notice(room: Room, now: number, kind: RoomNotice["kind"], seat: Seat | null, text: string): RoomNotice[] {
  return [...(room.notices ?? []), { at: now, logAt: logLength(room), kind, seat, text }];
}

/** How many entries the room's event log holds (0 before the game starts, or for no room). */
export function logLength(room: Room | null): number {
  return room === null ? 0 : room.log.length;
}

/**
 * A room as stored by a build that kept the event log inside the game state (`state.log`, no
 * `room.log`), in today's shape: the log moved beside the state. Storage-shape only: no game code
 * runs. Every store applies it to what it reads.
 */
export function fromStoredShape(room: Room): Room {
  if (Array.isArray(room.log)) return room;
  const state = room.state as { log?: LogEntry[] } | undefined;
  if (state === undefined || !Array.isArray(state.log)) return { ...room, log: [] };
  const { log, ...rest } = state;
  return { ...room, state: rest, log };
}

const migrated = new WeakMap<Room, unknown>();

/**
 * The room's game state as today's engine reads it: the stored state, brought forward by the
 * game's `migrateState` when the room was written under an older rules version (computed once
 * per room value). Every reader of a room's state goes through this.
 */
export function gameState(room: Room): unknown {
  const state = room.state;
  if (state === undefined) return undefined;
  const game = gameOf(room);
  const from = room.rules ?? 1;
  const to = game.rulesVersion ?? 1;
  if (from === to) return state;
  if (from > to) throw err("RULES_TOO_NEW", `This room was written by a newer build (${game.name} rules ${from}; this server has ${to}).`);
  if (!game.migrateState) return state;
  let s = migrated.get(room);
  if (s === undefined) migrated.set(room, (s = game.migrateState(state, from)));
  return s;
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
  /** A clock preset id, or "none" (casual only); absent: the game's default (clocks.ts). */
  clock?: unknown;
  /** How the room's bots play: "casual" or "strong" (absent: "strong"). */
  botStrength?: unknown;
  /** Ranked only: the ratings that may take a seat (rating-range.ts; the transport computes it from the host's rating). */
  ratingRange?: RatingRange | null;
  /** Ranked only: seats kept for players who play their games out (reliability.ts; the transport checks the host). */
  reliableOnly?: unknown;
  /** A private table (Room.private): true or false (absent: false). */
  private?: unknown;
  /** Only invited players may sit (Room.invitedOnly): true or false (absent: false); true makes the table private too. */
  invitedOnly?: unknown;
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
  const botStrength = input.botStrength ?? "strong";
  if (botStrength !== "casual" && botStrength !== "strong") throw err("BAD_BOT_STRENGTH", 'Bots play "casual" or "strong".');
  const clock = parseClock(game, input.clock, ranked, seats);
  const parsed = game.parseOptions(input.options ?? {});
  if (!parsed.ok) throw err(parsed.error.code, parsed.error.message);
  if (ranked && !host.account) throw accountRequired();
  if (isTurnBased(clock) && !host.account) throw turnBasedNeedsAccount();
  const range = input.ratingRange ?? null;
  if (range !== null && (!ranked || !isRange(range))) throw err("BAD_RATING_RANGE", "Only ranked rooms have a rating range: casual rooms are open to everyone.");
  const reliableOnly = parseReliableOnly(input.reliableOnly, ranked);
  const invitedOnly = input.invitedOnly ?? false;
  if (typeof invitedOnly !== "boolean") throw err("BAD_INVITED_ONLY", "invitedOnly must be true (only players invited to the table may sit at it) or false.");
  if (invitedOnly && input.private === false) throw err("BAD_INVITED_ONLY", "A table for invited players only is a private table: leave private out, or make it true.");
  const unlisted = input.private ?? invitedOnly;
  if (typeof unlisted !== "boolean") throw err("BAD_PRIVATE", "private must be true (a table only people with its link can find) or false.");
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
    log: [],
    actions: [],
    clock,
    // Only when it is not the default: bots also play the seats of players who time out or resign.
    ...(botStrength === "casual" ? { botStrength } : {}),
    ...(range ? { ratingRange: { min: range.min, max: range.max } } : {}),
    ...(reliableOnly ? { reliableOnly: true as const } : {}),
    ...(unlisted ? { private: true as const } : {}),
    ...(invitedOnly ? { invitedOnly: true as const } : {}),
  };
}

function requireOpen(room: Room): void {
  if (room.status !== "open") throw err("ROOM_NOT_OPEN", "This game has already started or closed.");
}

/**
 * Why this player may not take a seat of this room, whichever seat (the room's own rules, as
 * joinRoom checks them before picking the seat), or null: it is open, they do not sit in it, and
 * none of these refuse them. The transport adds its own checks (ratings, blocks: room:seatable).
 */
export function seatRefusal(room: Room, player: Player): AppError | null {
  if (room.status !== "open") return err("ROOM_NOT_OPEN", "This game has already started or closed.");
  const existing = seatOf(room, player.id);
  if (existing !== null) return err("ALREADY_SEATED", `You already sit in seat ${existing + 1} of this room.`);
  if (room.ranked && !player.account) return accountRequired();
  if (isTurnBased(room.clock) && !player.account) return turnBasedNeedsAccount();
  if (room.removed?.includes(player.id)) return err("REMOVED_FROM_ROOM", "The host removed you from this table; you may watch it, or find another.");
  if (room.invitedOnly && !mayTakeSeat(room, player.id)) {
    return err("INVITED_ONLY", player.account
      ? "Only players invited to this table may sit at it: ask someone seated there to invite you by your account's name. You may watch it."
      : "Only players invited to this table may sit at it, and invitations are by account name: create an account (the menu under your name, top right: Register) and ask someone seated there to invite you. You may watch it.");
  }
  if (nameAtTable(room, player.id, player.name)) {
    return err("NAME_IN_ROOM", `Someone at this table already goes by "${player.name}"; choose another name to join.`);
  }
  return null;
}

export function joinRoom(room: Room, player: Player, seat: unknown, now: number): Room {
  requireOpen(room);
  const refused = seatRefusal(room, player);
  if (refused) throw refused;
  let target: number;
  const keptFor = (i: number) => room.reserved?.[i] ?? null;
  if (seat === undefined || seat === null) {
    const own = room.reserved?.indexOf(player.id) ?? -1;
    target = own >= 0 && room.seats[own]!.playerId === null ? own : room.seats.findIndex((s, i) => !s.bot && s.playerId === null && keptFor(i) === null);
    if (target < 0) throw err("ROOM_FULL", "Every seat in this room is taken.");
  } else {
    requireSeat(room, seat);
    const s = room.seats[seat]!;
    if (s.bot || s.playerId !== null) {
      // Said as the room being full when no seat is left to pick (the seat went in a race with the last one free).
      const free = room.seats.some((x, i) => !x.bot && x.playerId === null && (keptFor(i) === null || keptFor(i) === player.id));
      if (!free) throw err("ROOM_FULL", "Every seat in this room is taken now; you can still watch the game.");
      throw err("SEAT_TAKEN", "That seat is taken; pick a free one.");
    }
    if (keptFor(seat) !== null && keptFor(seat) !== player.id) throw err("SEAT_RESERVED", "That seat is kept for a player of the last game, who may still accept the rematch; pick a free one.");
    target = seat;
  }
  const seats = room.seats.map((s, i) => (i === target ? { playerId: player.id, name: player.name, bot: false } : s));
  // An invitation kept for this player is answered by the seat.
  const invited = room.invited?.some((i) => i.playerId === player.id) ? { invited: room.invited.filter((i) => i.playerId !== player.id) } : {};
  return bump(room, now, { seats, ...invited });
}

/** The most players an invited-only table remembers admitting (the oldest forgotten first). */
export const ADMITTED_KEPT = 50;

/**
 * Whether the player may take a free seat of an invited-only table (Room.invitedOnly): invited to
 * it (`admitted`), its host, or a player a rematch keeps a seat for. Any table's other rules still apply.
 */
export function mayTakeSeat(room: Room, playerId: string): boolean {
  return !room.invitedOnly || room.hostId === playerId || !!room.admitted?.includes(playerId) || !!room.reserved?.includes(playerId);
}

/** `admitted` with the player added last (kept once; only on an invited-only table, else {}). */
function admitting(room: Room, playerId: string): { admitted?: string[] } {
  if (!room.invitedOnly) return {};
  return { admitted: [...(room.admitted ?? []).filter((id) => id !== playerId), playerId].slice(-ADMITTED_KEPT) };
}

/** `admitted` without the player ({} when they were not in it). */
function unadmitted(room: Room, playerId: string): { admitted?: string[] } {
  return room.admitted?.includes(playerId) ? { admitted: room.admitted.filter((id) => id !== playerId) } : {};
}

/**
 * Keeps an invitation (checked by invitations.ts) in an open turn-based room, whose invitee may
 * come by days later, or at an invited-only table of any pace, where the invitation is what lets
 * its invitee sit (room.admitted) and Your games shows it until answered: a newer one for the same
 * player replaces theirs.
 */
export function keepInvitation(room: Room, invitation: KeptInvitation, now: number): Room {
  requireOpen(room);
  if (!isTurnBased(room.clock) && !room.invitedOnly) throw err("BAD_INVITE", "Only turn-based rooms and tables for invited players keep invitations for later.");
  const others = (room.invited ?? []).filter((i) => i.playerId !== invitation.playerId);
  return bump(room, now, { invited: [...others, invitation].slice(-INVITATIONS_KEPT), ...admitting(room, invitation.playerId) });
}

/**
 * The invitee says no: their kept invitation goes (NOT_INVITED if there is none), and the table is
 * told ("Dee declined the invitation.", a notice of kind "declined": the host, who may be waiting
 * for them, learns it live and at their next sync). `name`: the invitee's name now (absent: the
 * one they were invited under). A rematch's invitation says so in the rematch's own words (declined).
 */
export function declineInvitation(room: Room, playerId: string, now: number, name?: string): Room {
  const invitation = room.status === "open" ? room.invited?.find((i) => i.playerId === playerId) : undefined;
  if (!invitation) throw err("NOT_INVITED", "There is no invitation of yours to answer in this room.");
  const change = declined(room, playerId, now);
  if (!invitation.rematch) {
    const who = name ?? invitation.name ?? room.keptNames?.[playerId] ?? "An invited player";
    change.notices = notice({ ...room, notices: change.notices ?? room.notices }, now, "declined", null, `${who} declined the invitation.`);
  }
  return bump(room, now, change);
}

/**
 * The host of an open room withdraws the invitation kept there for `playerId` (room:uninvite), as
 * Board Game Arena's host cancels one: it leaves the invitee's Your games, its owed notice to
 * their closed pages is no longer due (pushStillDue), and at a table for invited players only they
 * may no longer sit (their admission goes with it, as a decline's does). Refused: not the host
 * (NOT_HOST), the table started or closed (ROOM_NOT_OPEN), no such invitation waiting (answered,
 * withdrawn, or never kept: NOT_INVITED), a rematch's, whose seat is kept until its player answers
 * (SEAT_RESERVED), a malformed id (BAD_PLAYER_ID). Returns the room and the invitation withdrawn.
 */
export function withdrawInvitation(room: Room, host: Player, playerId: unknown, now: number): { room: Room; withdrawn: KeptInvitation } {
  if (typeof playerId !== "string" || !PLAYER_ID_RE.test(playerId)) throw err("BAD_PLAYER_ID", "Name the invited player by their player id (as your view's invitations list them).");
  requireOpen(room);
  if (room.hostId !== host.id) throw err("NOT_HOST", "Only the table's host may withdraw an invitation.");
  const withdrawn = room.invited?.find((i) => i.playerId === playerId);
  if (!withdrawn) throw err("NOT_INVITED", "No invitation to that player waits at this table: they answered it, it was withdrawn, or this table never kept it.");
  if (withdrawn.rematch) {
    const who = room.keptNames?.[playerId] ?? "This player";
    throw err("SEAT_RESERVED", `${who}'s seat is kept for the rematch until they answer it; their invitation cannot be withdrawn.`);
  }
  return { room: bump(room, now, { invited: room.invited!.filter((i) => i !== withdrawn), ...unadmitted(room, playerId) }), withdrawn };
}

/** A player id as the server makes them (identity.ts), at most 64 characters. */
const PLAYER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What a player's no takes from an open room, whichever way it comes (declineInvitation from Your
 * games, releaseSeat from the finished table's end screen): the invitation kept for them; a
 * rematch's seat kept for them, which opens to anyone (with a notice); on an invited-only table
 * their admission, so the answer is final (a new invitation lets them sit again).
 */
function declined(room: Room, playerId: string, now: number): Partial<Room> {
  const freed = unreserved(room, playerId);
  return {
    ...(room.invited?.some((x) => x.playerId === playerId) ? { invited: room.invited.filter((x) => x.playerId !== playerId) } : {}),
    ...freed,
    ...unadmitted(room, playerId),
    ...(freed.reserved ? { notices: declinedNotice(room, playerId, now) } : {}),
  };
}

/**
 * The open room without the invitations kept for `playerId` or made by them (their account closed
 * or erased: nobody is left invited by, or keeping a place for, an account that is gone); null:
 * none of theirs.
 */
export function dropInvitationsOf(room: Room, playerId: string, now: number): Room | null {
  if (room.status !== "open" || !(room.invited?.some((i) => i.playerId === playerId || i.from.id === playerId) || room.admitted?.includes(playerId))) return null;
  // A rematch's seat kept for them opens to anyone; an invited-only table forgets them.
  const invited = room.invited?.filter((x) => x.playerId !== playerId && x.from.id !== playerId);
  return bump(room, now, { ...(invited ? { invited } : {}), ...unreserved(room, playerId), ...unadmitted(room, playerId) });
}

/** Ranked rooms and the rated daily attempt are for accounts (ACCOUNT_REQUIRED). */
export function accountRequired() {
  return err("ACCOUNT_REQUIRED", "Ranked games are for registered players: create an account (the menu under your name, top right: Register) to play ranked; as a guest you can play casual games and the daily challenge unrated.");
}

/**
 * Turn-based games are for accounts (ACCOUNT_REQUIRED), as Lichess's correspondence games: one
 * lasts days, a guest lives in one browser's storage and gets no notices on closed pages, and a
 * guest who clears it would leave the others waiting out the clocks.
 */
export function turnBasedNeedsAccount() {
  return err("ACCOUNT_REQUIRED", "Turn-based games are for registered players: they last days, and an account finds them again on any device and can be told when it is their turn. Create an account (the menu under your name, top right: Register), or play a game of one sitting as a guest.");
}

/**
 * Whether a player other than `playerId` sits at the table under `name` (compared like account
 * names: NFC, case-insensitive). Two players at one table never share a display name: a join
 * under a seated player's name is refused (NAME_IN_ROOM), and so is a rename to one. Bot seats
 * are not players and do not count.
 */
export function nameAtTable(room: Room, playerId: string, name: string): boolean {
  const key = nameKey(name);
  return room.seats.some((s) => !s.bot && s.playerId !== null && s.playerId !== playerId && s.name !== null && nameKey(s.name) === key);
}

/**
 * A seated player's new display name, shown at this table from the next version on (open or in
 * play; a finished or closed table keeps the name it was played under). Null: nothing to change
 * (not seated, the same name, or the table is over). NAME_IN_ROOM when another seated player
 * goes by that name.
 */
export function renameSeat(room: Room, playerId: string, name: string, now: number): Room | null {
  if (room.status !== "open" && room.status !== "playing") return null;
  const seat = seatOf(room, playerId);
  if (seat === null || room.seats[seat]!.name === name) return null;
  if (nameAtTable(room, playerId, name)) throw err("NAME_IN_ROOM", `Someone at one of your tables already goes by "${name}".`);
  return withSeatName(room, seat, name, now);
}

/**
 * An erased player's seat (personal-data.ts) takes `name` (ERASED_NAME) in an open, playing or
 * finished room (a finished one is kept for its end screen), the notices about it too. Unlike a
 * rename it is never refused for a name another seat has: two erased players at one table are
 * both "Deleted player". Null: not seated here, or nothing left to change.
 */
export function eraseSeatName(room: Room, playerId: string, name: string, now: number): Room | null {
  if (room.status !== "open" && room.status !== "playing" && room.status !== "finished") return null;
  const seat = seatOf(room, playerId);
  if (seat === null || room.seats[seat]!.name === name) return null;
  return withSeatName(room, seat, name, now);
}

/**
 * The seat's new name, and its notices' (each begins with the name the seat had then, which is
 * its name now: a rename rewrites them, so a notice never names someone the table no longer shows).
 */
function withSeatName(room: Room, seat: Seat, name: string, now: number): Room {
  const old = room.seats[seat]!.name;
  const seats = room.seats.map((s, i) => (i === seat ? { ...s, name } : s));
  const notices = room.notices?.map((n) => (n.seat === seat && old !== null && n.text.startsWith(old) ? { ...n, text: name + n.text.slice(old.length) } : n));
  return bump(room, now, { seats, ...(notices ? { notices } : {}) });
}

export function leaveRoom(room: Room, player: Player, now: number): Room {
  requireOpen(room);
  const seat = seatOf(room, player.id);
  if (seat === null) throw err("NOT_SEATED", "You do not sit in this room.");
  const seats = room.seats.map((s, i) => (i === seat ? { playerId: null, name: null, bot: false } : s));
  // A rematch seat kept for this player is free for anyone once they leave.
  if (room.reserved?.[seat]) room = { ...room, reserved: room.reserved.map((r, i) => (i === seat ? null : r)) };
  const humans = seats.filter((s) => s.playerId !== null);
  if (humans.length === 0) return bump(room, now, { seats, status: "closed" });
  if (room.hostId !== player.id) return bump(room, now, { seats });
  // A new host: whether the old one was away says nothing of them.
  const { hostAwaySince: _a, hostSeenAt: _s, ...rest } = room;
  return bump(rest, now, { seats, hostId: humans[0]!.playerId! });
}

/** The most players a room remembers removing (the oldest forgotten first). */
export const REMOVED_KEPT = 20;

/**
 * The host of an open room removes the player in `seat` (Board Game Arena's "expel"): a stranger who
 * sat down and went quiet, or one the host does not want; the seat is free again, and that player
 * may not sit in this room again (REMOVED_FROM_ROOM). Only before the start; not the host's own
 * seat (they leave instead). Returns the room and who was removed.
 */
export function removeFromRoom(room: Room, host: Player, seat: unknown, now: number): { room: Room; removed: string } {
  requireOpen(room);
  if (room.hostId !== host.id) throw err("NOT_HOST", "Only the room's host may remove a player.");
  requireSeat(room, seat);
  const s = room.seats[seat]!;
  if (s.bot || s.playerId === null) throw err("NOT_SEATED", "Nobody sits in that seat.");
  if (s.playerId === host.id) throw err("BAD_SEAT", "That is your own seat: leave the room instead.");
  const removed = s.playerId;
  const seats = room.seats.map((x, i) => (i === seat ? { playerId: null, name: null, bot: false } : x));
  const reserved = room.reserved?.map((r, i) => (i === seat ? null : r));
  return { room: bump(room, now, { seats, ...(reserved ? { reserved } : {}), removed: [...(room.removed ?? []), removed].slice(-REMOVED_KEPT) }), removed };
}

/**
 * The host seats a bot in an empty seat of an open casual room, as Board Game Arena's "add a bot":
 * a rematch a player declined, a table nobody else comes to. Not in a ranked room
 * (RANKED_NO_BOTS), nor in a seat a rematch keeps (SEAT_RESERVED). A room that starts by itself (a
 * turn-based one) starts when the bot fills its last seat, in the same change.
 */
export function addBot(room: Room, host: Player, seat: unknown, seed: string, now: number): Room {
  requireOpen(room);
  if (room.hostId !== host.id) throw err("NOT_HOST", "Only the room's host may add a bot.");
  if (room.ranked) throw err("RANKED_NO_BOTS", "Ranked games are between people only.");
  requireSeat(room, seat);
  const s = room.seats[seat]!;
  if (s.bot || s.playerId !== null) throw err("SEAT_TAKEN", "That seat is taken.");
  if (room.reserved?.[seat]) throw err("SEAT_RESERVED", "That seat is kept for a player of the last game until they answer the rematch.");
  const names = new Set(room.seats.map((x) => x.name));
  let n = 1;
  while (names.has(`Bot ${n}`)) n++;
  const seats = room.seats.map((x, i) => (i === seat ? { playerId: null, name: `Bot ${n}`, bot: true } : x));
  const added = bump(room, now, { seats });
  return startsItself(added) ? beginGame({ ...added, version: room.version }, seed, now) : added;
}

/** The host takes a bot out of an open room's seat (NOT_HOST; a seat with no bot: NOT_A_BOT). */
export function removeBot(room: Room, host: Player, seat: unknown, now: number): Room {
  requireOpen(room);
  if (room.hostId !== host.id) throw err("NOT_HOST", "Only the room's host may remove a bot.");
  requireSeat(room, seat);
  if (!room.seats[seat]!.bot) throw err("NOT_A_BOT", "No bot sits in that seat.");
  return bump(room, now, { seats: room.seats.map((x, i) => (i === seat ? { playerId: null, name: null, bot: false } : x)) });
}

/** `seat` names one of the room's seats (a whole number from 0); BAD_SEAT otherwise. */
function requireSeat(room: Room, seat: unknown): asserts seat is number {
  if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0 || seat >= room.seats.length) {
    throw err("BAD_SEAT", `Seats are numbered 0 to ${room.seats.length - 1}.`);
  }
}

export function startRoom(room: Room, player: Player, seed: string, now: number): Room {
  requireOpen(room);
  if (room.hostId !== player.id) throw err("NOT_HOST", "Only the player who created the room can start it.");
  if (!isFull(room)) throw err("SEATS_EMPTY", "Every seat needs a player or a bot before the game can start.");
  return beginGame(room, seed, now);
}

/** Every seat has a player or a bot. */
function isFull(room: Room): boolean {
  return room.seats.every((s) => s.bot || s.playerId !== null);
}

/**
 * A turn-based room starts by itself once every seat is taken: its players are not expected to be
 * there together to press Start.
 */
function startsItself(room: Room): boolean {
  return room.status === "open" && isTurnBased(room.clock) && isFull(room);
}

/** A room just made, started (one more version) if it starts by itself; else as it is. */
export function startIfFull(room: Room, seed: string, now: number): Room {
  return startsItself(room) ? beginGame(room, seed, now) : room;
}

/** Takes a seat (joinRoom); when that fills a room that starts by itself, the game starts in the same change (one version). */
export function joinAndStart(room: Room, player: Player, seat: unknown, seed: string, now: number): Room {
  const joined = joinRoom(room, player, seat, now);
  return startsItself(joined) ? beginGame({ ...joined, version: room.version }, seed, now) : joined;
}

function beginGame(room: Room, seed: string, now: number): Room {
  const game = gameOf(room);
  const rules = game.rulesVersion ?? 1;
  const { state, events } = game.setup({ players: room.seats.length, options: room.options, seed, rules });
  const clocks = room.clock ? startClocks(room.clock, room.seats.length, game.activeSeats(state), (s) => personPlays(room, s), now) : undefined;
  // Invitations, and who they let sit, are for open rooms: they go with the start.
  const { hostAwaySince: _a, hostSeenAt: _s, invited: _i, admitted: _d, ...rest } = room;
  return bump(rest, now, {
    status: "playing",
    startedAt: now,
    seed,
    commitment: commit(seed),
    state,
    rules,
    ...(rules > 1 ? { playedUnder: rules } : {}),
    log: appendEvents([], events),
    actions: [],
    ...(clocks ? { clocks } : {}),
  });
}

/**
 * Apply one game action by a seat. A repeat of that seat's last accepted action id is
 * reported as a duplicate (returns null) rather than applied twice. `byBot`: the bot that plays
 * the seat of an away player makes it (recorded as such); the player cannot, until they return.
 * A move after the seat's clock has run out is refused (TIME_UP): the seat has timed out, even
 * if the time-out has not been written yet, so a move and its own time-out never both happen.
 */
export function actInRoom(room: Room, seat: Seat, action: Action, actionId: string | undefined, now: number, byBot = false): Room | null {
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
  if (room.status !== "playing") throw err(room.status === "closed" ? "ROOM_CLOSED" : "NOT_STARTED", room.status === "closed" ? "This game was called off." : "This game has not started yet.");
  const away = room.seats[seat]?.away;
  if (away && !byBot) {
    throw err("SEAT_AWAY", away === "resigned" ? "You resigned this game; a bot plays your seat." : "A bot plays your seat since you ran out of time; take your seat back first.");
  }
  if (room.clock && room.clocks && !byBot && expiredSeats(room.clock, room.clocks, now).includes(seat)) {
    throw err("TIME_UP", "Your time ran out before this move arrived; a bot plays your seat now.");
  }
  const game = gameOf(room);
  const r = game.apply(gameState(room), seat, action);
  if (!r.ok) throw err(r.error.code, r.error.message);
  const state = r.value.state;
  const record: ActionRecord = actionId === undefined ? { seat, action, at: now } : { seat, action, at: now, id: actionId };
  if (away) record.bot = true;
  const over = game.isOver(state);
  const clocks =
    room.clock && room.clocks
      ? advanceClocks(room.clock, room.clocks, away ? null : seat, over ? [] : game.activeSeats(state), (s) => personPlays(room, s), now)
      : undefined;
  return bump(room, now, {
    state,
    rules: game.rulesVersion ?? 1,
    log: r.value.events.length > 0 ? appendEvents(room.log, r.value.events) : room.log,
    actions: [...room.actions, record],
    ...(clocks ? { clocks } : {}),
    ...(over ? { status: "finished" as const, finishedAt: now, outcome: game.outcome(state) ?? undefined, persisted: false } : {}),
  });
}

/** Whether the game is still in its opening for this seat: it has not made a move yet. */
function neverMoved(room: Room, seat: Seat): boolean {
  return room.clocks ? !room.clocks[seat]!.moved : !room.actions.some((a) => a.seat === seat && !a.bot);
}

/**
 * The clocks that have run out at `now`, applied (null: none has). A seat that runs out is played
 * by a bot from then on; its player may come back (`returnToSeat`) after a first time-out, not
 * after a second. In a ranked game between people, a seat that runs out before making its first
 * move aborts the game instead: nobody's rating changes (the player never showed up).
 */
export function timeOut(room: Room, now: number): Room | null {
  if (room.status !== "playing" || !room.clock || !room.clocks) return null;
  const expired = expiredSeats(room.clock, room.clocks, now);
  if (expired.length === 0) return null;
  const noShow = room.ranked && room.seats.length > 1 ? expired.find((seat) => neverMoved(room, seat)) : undefined;
  if (noShow !== undefined) {
    const clocks = room.clocks.map((c) => (c.since === null ? c : { ...c, since: null }));
    return bump(room, now, {
      status: "closed",
      ended: "aborted",
      clocks,
      notices: notice(room, now, "aborted", noShow, `${seatName(room, noShow)} did not make a first move in time. The game is called off; no ratings change.`),
    });
  }
  let clocks = room.clocks;
  let notices = room.notices ?? [];
  const seats = room.seats.map((s, seat) => {
    if (!expired.includes(seat)) return s;
    clocks = stopClock(room.clock!, clocks, seat, now);
    const timeouts = (s.timeouts ?? 0) + 1;
    const text =
      timeouts >= 2
        ? `${seatName(room, seat)} ran out of time again; a bot plays their seat to the end.`
        : `${seatName(room, seat)} ran out of time; a bot plays their seat until they take it back.`;
    notices = [...notices, { at: now, logAt: logLength(room), kind: "timeout" as const, seat, text }];
    return { ...s, away: "timeout" as const, timeouts };
  });
  return bump(room, now, { seats, clocks, notices });
}

/** A player gives up: a bot plays their seat to the end, and a ranked game places them last. */
export function resign(room: Room, player: Player, now: number): Room {
  if (room.status !== "playing") throw err("NOT_PLAYING", "You can only resign a game in play.");
  const seat = seatOf(room, player.id);
  if (seat === null) throw err("NOT_SEATED", "You do not sit in this game.");
  if (room.seats[seat]!.away === "resigned") throw err("ALREADY_RESIGNED", "You have already resigned this game.");
  const seats = room.seats.map((s, i) => (i === seat ? { ...s, away: "resigned" as const } : s));
  const clocks = room.clock && room.clocks ? stopClock(room.clock, room.clocks, seat, now) : undefined;
  const last = room.ranked && room.seats.length > 1 ? " They are placed last in the rating update." : "";
  return bump(room, now, {
    seats,
    ...(clocks ? { clocks } : {}),
    notices: notice(room, now, "resigned", seat, `${seatName(room, seat)} resigned; a bot plays their seat to the end.${last}`),
  });
}

/** A player who ran out of time once takes their seat back from the bot (their bank does not refill). */
export function returnToSeat(room: Room, player: Player, now: number): Room {
  if (room.status !== "playing") throw err("NOT_PLAYING", "This game is not in play.");
  const seat = seatOf(room, player.id);
  if (seat === null) throw err("NOT_SEATED", "You do not sit in this game.");
  const s = room.seats[seat]!;
  if (!s.away) throw err("NOT_AWAY", "You are playing your seat already.");
  if (s.away === "resigned") throw err("RESIGNED", "You resigned this game; a bot plays your seat to the end.");
  if ((s.timeouts ?? 0) >= 2) throw err("TIMED_OUT_TWICE", "You ran out of time twice; a bot plays your seat to the end of this game.");
  const seats = room.seats.map((t, i) => (i === seat ? { playerId: t.playerId, name: t.name, bot: t.bot, timeouts: t.timeouts } : t));
  const next: Room = { ...room, seats };
  // Back by their own hand, the player is here: the first move's shorter limit (meant to find a
  // no-show fast) is over for their seat, and their turn allowance and what is left of the bank apply.
  const here = room.clocks?.map((c, i) => (i === seat && !c.moved ? { ...c, moved: true } : c));
  const clocks =
    room.clock && here ? advanceClocks(room.clock, here, null, gameOf(room).activeSeats(gameState(room)), (i) => personPlays(next, i), now) : undefined;
  return bump(room, now, {
    seats,
    ...(clocks ? { clocks } : {}),
    notices: notice(room, now, "returned", seat, `${seatName(room, seat)} is back and plays their own seat again.`),
  });
}

/** An open room whose host has been away too long closes; everyone waiting is told (they see it closed). */
export function closeAbandoned(room: Room, now: number): Room {
  requireOpen(room);
  return bump(room, now, {
    status: "closed",
    ended: "host-away",
    notices: notice(room, now, "closed", null, `${room.seats.find((s) => s.playerId === room.hostId)?.name ?? "The host"} left the room and did not come back; it is closed. Find or create another room in the lobby.`),
  });
}

/**
 * An open turn-based room whose seats were not all taken within TURN_BASED_OPEN_MS closes; whoever
 * sat in it is told. Null: not such a room, or not yet.
 */
export function closeUnfilled(room: Room, now: number): Room | null {
  if (room.status !== "open" || !isTurnBased(room.clock) || now < room.createdAt + TURN_BASED_OPEN_MS) return null;
  return bump(room, now, {
    status: "closed",
    ended: "unfilled",
    notices: notice(room, now, "closed", null, `Nobody took the free seats within ${spanWords(TURN_BASED_OPEN_MS)}, so the room is closed. Find or create another room in the lobby.`),
  });
}

/**
 * A finished daily deal's room at its day's end: a version on, `seedShown`, so every watcher gets
 * the seed its view now shows (views.ts: seedPublic). Null: not such a room, already shown, or the
 * day is not over yet.
 */
export function revealDailySeed(room: Room, now: number): Room | null {
  if (room.status !== "finished" || !room.daily || room.seedShown || !dayOver(room.daily, now)) return null;
  return bump(room, now, { seedShown: true });
}

/**
 * Marks an open room's host present (null: away since `now`), or returns null if that is already
 * known. A turn-based room's host need not stay, so it records neither.
 */
export function hostPresence(room: Room, present: boolean, now: number): Room | null {
  if (room.status !== "open" || isTurnBased(room.clock)) return null;
  if (present) {
    if (room.hostAwaySince === undefined && room.hostSeenAt !== undefined && now - room.hostSeenAt < 1000) return null;
    const { hostAwaySince: _a, ...rest } = room;
    return bump(rest, now, { hostSeenAt: now });
  }
  if (room.hostAwaySince !== undefined) return null;
  return bump(room, now, { hostAwaySince: now });
}

/**
 * Whether a room waits for its record in Postgres: a finished game (results.ts), or a ranked game
 * called off because a seat never made its first move (its no-show is recorded: leaves.ts).
 */
export function awaitsRecord(room: Room): boolean {
  return !room.persisted && (room.status === "finished" || (room.status === "closed" && room.ended === "aborted"));
}

/** The seat whose missing first move called a ranked game off (null: not called off). */
export function noShowSeat(room: Room): Seat | null {
  if (room.status !== "closed" || room.ended !== "aborted") return null;
  const notices = room.notices ?? [];
  for (let i = notices.length - 1; i >= 0; i--) if (notices[i]!.kind === "aborted") return notices[i]!.seat;
  return null;
}

export function markPersisted(room: Room, ratingChanges: RatingChangeInfo[], now: number): Room {
  if (room.persisted) return room;
  return bump(room, now, { persisted: true, ratingChanges });
}


/* ---------------------------------------------------------------- rematch (issue 23) */

/** The players (not bots) who sat at a finished table: who may offer, accept or decline its rematch. */
function rematchSeat(room: Room, playerId: string): Seat {
  if (room.status !== "finished") throw err("NOT_FINISHED", "A rematch can be offered once the game has ended.");
  if (room.daily) throw err("NO_REMATCH", "A daily challenge is played once a day; there is no rematch.");
  const seat = seatOf(room, playerId);
  if (seat === null || room.seats[seat]!.bot) throw err("NOT_A_PLAYER", "Only the players of this game can offer or answer a rematch.");
  return seat;
}

/**
 * The new room of a rematch of the finished room `old`, offered by `player`: the same game,
 * options, clock, ranked flag and seats, bots in the same seats (same names), the offerer in
 * their own seat, and every other player's seat kept for them (`reserved`). The seed is drawn
 * when it starts. The usual checks apply (a ranked rematch needs an account: ACCOUNT_REQUIRED).
 */
export function createRematchRoom(id: string, old: Room, player: Player, now: number): Room {
  const seat = rematchSeat(old, player.id);
  if (old.rematch) throw err("REMATCH_OFFERED", "A rematch has already been offered; accept it instead.");
  const base = createRoom(id, player, { game: old.game, seats: old.seats.length, ranked: old.ranked, options: old.options, clock: old.clock?.id ?? "none", ratingRange: old.ratingRange ?? null, reliableOnly: old.reliableOnly ?? false, private: old.private ?? false, invitedOnly: old.invitedOnly ?? false }, now);
  const seats: SeatInfo[] = old.seats.map((s, i) =>
    s.bot ? { playerId: null, name: s.name, bot: true } : i === seat ? { playerId: player.id, name: player.name, bot: false } : { playerId: null, name: null, bot: false },
  );
  const reserved = old.seats.map((s, i) => (s.bot || i === seat ? null : s.playerId));
  // A turn-based rematch waits days for players who may not come by the finished table in time:
  // each is also invited (Your games lists it, with Join and Decline, and closed pages are told).
  const invited: KeptInvitation[] = isTurnBased(base.clock)
    ? reserved.flatMap((id) => (id ? [{ playerId: id, from: { id: player.id, name: player.name, account: !!player.account }, at: now, rematch: true as const }] : []))
    : [];
  const keptNames = Object.fromEntries(old.seats.flatMap((s, i) => (reserved[i] && s.name !== null ? [[reserved[i], s.name]] : [])));
  return { ...base, seats, reserved, keptNames, rematchOf: old.id, ...(invited.length > 0 ? { invited } : {}) };
}

/** Records the offer on the finished room (REMATCH_OFFERED when one already is: accept that one). */
export function offerRematch(room: Room, playerId: string, newRoomId: string, now: number): Room {
  rematchSeat(room, playerId);
  if (room.rematch) throw err("REMATCH_OFFERED", "A rematch has already been offered; accept it instead.");
  return bump(room, now, { rematch: { roomId: newRoomId, by: playerId, accepted: [playerId], declined: [] } });
}

/** The offer a player may answer: NO_REMATCH when none, REMATCH_DECLINED when they declined it. */
export function rematchFor(room: Room, playerId: string): RematchOffer {
  rematchSeat(room, playerId);
  const offer = room.rematch;
  if (!offer) throw err("NO_REMATCH", "Nobody has offered a rematch of this game.");
  if (offer.declined.includes(playerId)) throw err("REMATCH_DECLINED", "You declined this rematch; your seat was given up.");
  return offer;
}

/** A player's answer on the finished room (null: already recorded). */
export function answerRematch(room: Room, playerId: string, accept: boolean, now: number): Room | null {
  const offer = rematchFor(room, playerId);
  if (offer.accepted.includes(playerId)) {
    if (accept) return null;
    throw err("REMATCH_ACCEPTED", "You already accepted this rematch; leave the new room instead.");
  }
  const rematch = accept ? { ...offer, accepted: [...offer.accepted, playerId] } : { ...offer, declined: [...offer.declined, playerId] };
  return bump(room, now, { rematch });
}

/**
 * The rematch room gives up what it kept for a player who declined at the finished table: their
 * seat, and a turn-based rematch's invitation (Your games would offer Join on it still), exactly as
 * declining that invitation does (declined). Null: nothing kept for them.
 */
export function releaseSeat(room: Room, playerId: string, now: number): Room | null {
  if (room.status !== "open") return null;
  const change = declined(room, playerId, now);
  if (!change.reserved && !change.invited && !change.admitted) return null;
  return bump(room, now, change);
}

/** The notices with one more: the player a rematch room kept a seat for declined (whoever waits there is told; the game's log keeps it at its start). */
function declinedNotice(room: Room, playerId: string, now: number): RoomNotice[] {
  const name = room.keptNames?.[playerId] ?? "A player of the last game";
  return notice(room, now, "declined", room.reserved?.indexOf(playerId) ?? null, `${name} declined the rematch; their seat is open to anyone.`);
}

/** `reserved` without the seat a rematch keeps for the player, while nobody sits there ({}: none kept). */
function unreserved(room: Room, playerId: string): { reserved?: (string | null)[] } {
  const i = room.reserved?.indexOf(playerId) ?? -1;
  return i >= 0 && room.seats[i]!.playerId === null ? { reserved: room.reserved!.map((r, j) => (j === i ? null : r)) } : {};
}

/**
 * Starts a rematch room once every player it kept a seat for has taken it and no seat is empty
 * (null: not yet, or not a rematch room). Seats freed by a decline make it an ordinary open room
 * that its host starts as usual.
 */
export function startRematchIfReady(room: Room, seed: string, now: number): Room | null {
  if (room.status !== "open" || !room.reserved) return null;
  if (room.seats.some((s) => !s.bot && s.playerId === null)) return null;
  if (room.reserved.some((r, i) => r !== null && room.seats[i]!.playerId !== r)) return null;
  const host = room.seats.find((s) => s.playerId === room.hostId);
  if (!host) return null;
  return startRoom(room, { id: room.hostId, name: host.name ?? "" }, seed, now);
}
