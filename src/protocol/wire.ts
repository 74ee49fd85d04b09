/**
 * The shapes that cross the wire (docs/protocol.md), in one place with no runtime code and no
 * Node imports, so the server and the browser client type-check against the same definitions.
 */
import type { ClockPreset, LegalAction, LogEntry, OptionSpec, Outcome, Seat } from "../games/types.js";

import type { Patch } from "./patch.js";

export type { Action, ClockPreset, LegalAction, LogEntry, OptionSpec, Outcome, ParamSpec, Seat } from "../games/types.js";
export type { Patch, PatchOp } from "./patch.js";

/** Why a bot plays a player's seat: they ran out of time (may come back once) or resigned. */
export type SeatAway = "timeout" | "resigned";

/** Something that happened at the table besides a move, in a plain sentence for everyone. */
export interface RoomNotice {
  /** Server epoch ms. */
  at: number;
  /** How many game log entries there were when it happened (show it after entry number logAt). */
  logAt: number;
  /**
   * "downtime": the service was down and the clocks were stopped for that time (src/platform/downtime.ts).
   * "vacation": the seat's player is on vacation from turn-based games, or back from it early
   * (src/platform/vacations.ts).
   * "declined": before a room starts, a player invited to it declined the invitation ("Dee declined
   * the invitation."; `seat` null), or a player a rematch room kept a seat for declined the rematch
   * (the seat is open; `seat`: that seat).
   */
  kind: "timeout" | "returned" | "resigned" | "aborted" | "closed" | "downtime" | "vacation" | "declined";
  seat: Seat | null;
  text: string;
}

/**
 * One seat's clock in a view (docs/protocol.md, "Clocks"). A running clock runs out at
 * `clockDeadline(room.clock, clock)` (src/protocol/clock.ts): count down to it using `serverTime`.
 */
export interface SeatClockView {
  /** Bank left, ms, as of `since` (a running clock spends its turn allowance first). */
  bankMs: number;
  /** When the clock started running (server epoch ms), or null when stopped. */
  since: number | null;
  /** Still the seat's first move (firstMoveMs applies). */
  firstMove: boolean;
  /**
   * The seat's player is on vacation from turn-based games until then (server epoch ms): while
   * `serverTime` is before it, the clock is stopped, with `deadline - pausedUntil` left to it (the
   * deadline already counts the vacation). Also on a stopped clock (not the seat's turn): a turn
   * that comes to it before then starts then. Absent, or past: no vacation.
   */
  pausedUntil?: number;
}

/** A game this server offers, as `lobby:list` and `GET /api/games` describe it. */
export interface GameInfo {
  id: string;
  name: string;
  minPlayers: number;
  maxPlayers: number;
  /** Has a daily challenge (docs/protocol.md, `daily:start`). */
  daily: boolean;
  /** Whether `room:create` may make a ranked room of it (false for solitaire: ratings compare players; RANKED_SOLITAIRE). */
  rankedRooms: boolean;
  /** Room options a lobby may offer; the first choice of each is the default. */
  options: OptionSpec[];
  /** Clock presets, the default first; casual rooms may also pass clock "none". */
  clocks: ClockPreset[];
  /** The clock a room gets when `room:create` names none, casual ("none" or a preset id). */
  defaultCasualClock: string;
}

export type RoomStatus = "open" | "playing" | "finished" | "closed";

export interface RatingChangeInfo {
  seat: Seat;
  playerId: string;
  before: { mu: number; sigma: number; ordinal: number };
  after: { mu: number; sigma: number; ordinal: number };
}

/** What the lobby shows of a room. */
export interface RoomSummary {
  id: string;
  game: string;
  ranked: boolean;
  status: RoomStatus;
  seats: Array<{ name: string | null; bot: boolean; taken: boolean }>;
  createdAt: number;
  /** The room's clock preset id, or null (no clock). */
  clock: string | null;
  /** A daily-challenge deal: its UTC day (today's may only be watched by players who played it). */
  daily?: string;
  /**
   * Open rooms only (absent otherwise): whether the host is away, i.e. no connection of theirs
   * watches the room (the host-away rule; the room closes after HOST_AWAY_MS). docs/protocol.md.
   */
  hostAway?: boolean;
  /**
   * Open turn-based rooms only (instead of hostAway: their host need not stay): when the room closes
   * unless every seat is taken by then (epoch ms, the server's clock).
   */
  closesAt?: number;
  /** A ranked room's rating range: only players rated min to max in its game may sit (absent: anyone). */
  ratingRange?: { min: number; max: number };
  /** A ranked room kept for players who play their games out (left at most 1 in 10 of their latest ranked games). */
  reliableOnly?: true;
  /**
   * A private table: the lobby, its pages and its pushes never list it; its players see it in Your
   * games and invitations, and anyone with its link may join or watch it.
   */
  private?: true;
  /** A private table whose seats only players invited to it may take (anyone with its link may watch). */
  invitedOnly?: true;
}

/**
 * An invitation to a free seat (platform/invitations.ts; docs/protocol.md, "Invitations"), pushed
 * as `room:invited` to every connected device of the account invited.
 */
export interface RoomInvited {
  /** The room as the lobby shows it. */
  room: RoomSummary;
  /** Who invites: their name at the table, and whether it is an account's. */
  from: { id: string; name: string; account: boolean };
  /** Server epoch ms. */
  at: number;
  /** A turn-based rematch's invitation: `from` offered a rematch of a game you played, and a seat is kept for you. */
  rematch?: true;
}

/** A ranked room's rating range (platform/rating-range.ts): the widths the web client offers; the server takes any whole number from RANGE_MIN to RANGE_MAX. */
export const RATING_RANGE_CHOICES = [100, 200, 300, 500] as const;
export const RANGE_MIN = 50;
export const RANGE_MAX = 1000;

/**
 * Your games (issue 23; docs/protocol.md, "Your games"): an open or playing room you sit in, as
 * listed in `mine` of lobby:subscribe and lobby:mine. `seat`: yours; `active`: the seats that must
 * act now ([] before the start). Made from the room as read at that moment: later turn changes
 * arrive as `turn:yours` (public lists carry no `active`: it would change on every move).
 */
export interface YourRoom extends RoomSummary {
  seat: number;
  active: number[];
  /** While your seat's clock runs: when it runs out (epoch ms, the server's clock); absent otherwise. */
  deadline?: number;
  /**
   * While your seat's clock runs and was stopped for your vacation (vacations.ts): until when;
   * `deadline` counts the vacation, so `deadline - pausedUntil` is the time you will have then.
   * Past once the vacation is over (it stays until your clock next starts afresh).
   */
  pausedUntil?: number;
  /** The players' chat has a message after the last one you marked seen (`chat:seen`); absent otherwise. */
  unreadChat?: true;
  /**
   * A game in play whose seat a bot plays for you: "may-return" after a first time-out (`room:return`
   * takes it back), "for-good" after resigning or a second time-out; absent while you play it.
   */
  away?: "may-return" | "for-good";
}

/** `turn:yours`, sent to every socket of a player when one of their seats becomes one that must act. */
export interface TurnYours {
  roomId: string;
  game: string;
  /** The room's version at which it became your turn. */
  version: number;
  seat: number;
}

/** What one viewer receives about a room (`room:state`, and `state` in sync replies). */
export interface RoomView {
  roomId: string;
  game: string;
  version: number;
  status: RoomStatus;
  ranked: boolean;
  hostId: string;
  options: unknown;
  /** `away`: a bot plays this player's seat (they ran out of time, or resigned); `timeouts`: times they ran out. */
  seats: Array<{ playerId: string | null; name: string | null; bot: boolean; away: SeatAway | null; timeouts: number }>;
  /** Your seat, or null when you are spectating. */
  seat: Seat | null;
  /** SHA-256 of the seed, from the start of the game. */
  commitment: string | null;
  /** The seed itself, only after the game has ended (a daily deal's: once its UTC day is over). */
  seed: string | null;
  /** A daily-challenge deal: its UTC day ("2026-11-22"); null for other rooms. */
  daily: string | null;
  /** The game's view for you (null before the start). */
  view: unknown;
  /** Seats that must act now. */
  active: Seat[];
  /** Your legal actions now ([] for spectators, and while a bot plays your seat: `seats[seat].away`). */
  legal: LegalAction[];
  /** Log entries numbered from logFrom+1; a full sync sends them all (logFrom 0). */
  logFrom: number;
  log: LogEntry[];
  outcome: Outcome | null;
  ratingChanges: RatingChangeInfo[] | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** The room's clock setting, or null (no clock). */
  clock: ClockPreset | null;
  /** One per seat while the game runs with a clock; else null. */
  clocks: SeatClockView[] | null;
  /** The server's clock when this view was made (epoch ms): count down from deadlines with it, not your own clock. */
  serverTime: number;
  /** Time-outs, returns, resignations, a call-off, in order. */
  notices: RoomNotice[];
  /** Why a closed room closed, when not by everyone leaving: "aborted", "host-away" or "unfilled". */
  ended: "aborted" | "host-away" | "unfilled" | null;
  /**
   * A finished room: the rematch offered from its end screen (absent: none yet). `roomId`: the new
   * room; `by`: who offered; `accepted` / `declined`: player ids (the offerer has accepted).
   */
  rematch?: { roomId: string; by: string; accepted: string[]; declined: string[] };
  /** An open rematch room: per seat, the player of the last game it is kept for (null: open to anyone, or a bot). */
  reserved?: (string | null)[];
  /** With `reserved`: per seat, the name of the player it is kept for, as the finished game knew them (null: not kept, or not known). */
  reservedNames?: (string | null)[];
  /** A private table (RoomSummary.private): listed nowhere; whoever has its link may join or watch. */
  private?: true;
  /** Only players invited to it may sit (RoomSummary.invitedOnly); anyone with its link may watch. */
  invitedOnly?: true;
  /**
   * In the host's view of an open room only: the invitations the room keeps that wait for an answer
   * (a turn-based room's, a table's for invited players only), oldest first; absent when there are
   * none, and in everyone else's view. Each goes when its player takes a seat, declines it (a
   * notice says so) or the host withdraws it (`room:uninvite`).
   */
  invitations?: PendingInvitation[];
}

/** An invitation waiting for an answer, as its table's host sees it (RoomView.invitations). */
export interface PendingInvitation {
  /** The invited account's player id (what `room:uninvite` names). */
  playerId: string;
  /** The account's name when it was invited (null: not known, for an invitation kept by an older build). */
  name: string | null;
  /** Who invited them: their name at the table. */
  from: string;
  /** When (server epoch ms). */
  at: number;
  /** A turn-based rematch's: a seat is kept for them until they answer (the host cannot withdraw it). */
  rematch?: true;
}

/**
 * What changed in one viewer's RoomView from version `b` to `v` (docs/protocol.md, "Updates"):
 * sent on `room:state` (and as a `room:sync` reply's `state` when asked with `since`) instead of
 * the whole view. Apply it with `applyUpdate` (src/protocol/room-state.ts). Its keys are one
 * letter: it is nearly all the server sends (one per viewer per change), and with whole words the
 * envelope was a quarter of a typical update.
 */
export interface RoomUpdate {
  /** The room (a whole view's `roomId`). */
  r: string;
  /** The view's version once applied (a whole view's `version`). */
  v: number;
  /**
   * The version of the view this applies to (absent: `v - 1`, as in nearly every push): exactly
   * the one you hold, else ask `room:sync` with `since`. See `baseOf`.
   */
  b?: number;
  /** The log entries you may see that were added after the base (absent: none). */
  l?: LogEntry[];
  /** What changed in the rest of the view (all but version, serverTime, logFrom and log). */
  p: Patch;
}

/**
 * The wire protocol's version, in `session`: raised when the server starts sending what a client
 * of the version before cannot read. 2 (2026-11-25): updates with one-letter keys. A `session`
 * without it comes from an earlier build (the client reads that build's updates too). A client
 * older than the server's version should ask to be reloaded.
 */
export const PROTOCOL_VERSION = 2;

/** A `room:state` payload: a whole view or an update (it has `p`). */
export type RoomState = RoomView | RoomUpdate;

// ---- Quick play (docs/protocol.md, "Quick play") ------------------------------------------------

/** A quick play pool: one game, table size, clock preset ("none": no clock) and mode. */
export interface QueuePool {
  game: string;
  /**
   * A table size; "any": every size the game allows; or some sizes, ascending (a player who takes
   * any of them). A table found always names its size.
   */
  seats: number | "any" | number[];
  clock: string;
  ranked: boolean;
}

/** Players queued in one pool. */
export interface QueueCount extends QueuePool {
  queued: number;
}

/** A player's quick play state, as `queue:status` and the queue events' acks carry it. */
export interface QueueStatus {
  queued: null | {
    pool: QueuePool;
    /** 1-based: 1 is next in line. */
    place: number;
    waitMs: number;
    /** ± display rating points the table may span now. */
    window: number;
    botsAfterMs: number | null;
  };
  match: null | {
    matchId: string;
    pool: QueuePool;
    /** Server epoch ms. */
    deadline: number;
    /** The people at the table, oldest waiter first; `id`: their player id (their profile, their rating in the pool's game). */
    players: Array<{ id: string; name: string; accepted: boolean }>;
    youAccepted: boolean;
  };
  counts: QueueCount[];
  serverTime: number;
  /** Why the state just changed, in a sentence (a table failed, the lease ran out), when it did. */
  notice?: string;
}

// ---- Your account (GET /api/me; docs/protocol.md, "Leaving ranked games", "Rating given back") --

/** The name a player's seats and chat messages carry once their data was erased (docs/protocol.md, "Your data"). */
export const ERASED_NAME = "Deleted player";

/** Ranked games left in the last 7 days, and until when ranked play is paused (src/platform/leaves.ts). */
export interface LeaveStatus {
  /** Leaves within the window now. */
  recent: number;
  /** Until when ranked play is paused (epoch ms), or null: it is not. */
  pausedUntil: number | null;
}

/** Rating given back in one refund and game (src/db/rating-refunds.ts). */
export interface RefundReceived {
  /** The game's id. */
  game: string;
  /** Display points given back. */
  points: number;
  /** How many of the player's games it covers. */
  games: number;
  /** When, epoch ms. */
  at: number;
}

// ---- Daily challenge (README "Daily challenge"; GET /api/daily...) -------------------------------

/** One daily game's deal, as `GET /api/daily` lists it. */
export interface DailyInfo {
  game: string;
  name: string;
  /** Today's deal. */
  day: string;
  commitment: string;
  /** When today's deal closes and the next opens (epoch ms). */
  endsAt: number;
  /** Yesterday's deal, with its seed now public. */
  previous: { day: string; commitment: string; seed: string };
}

/** A player's daily state for one game (the `daily:status` ack). */
export interface DailyStatus {
  game: string;
  day: string;
  /** This player's ranked attempt today, if any. */
  attempt: { roomId: string; finished: boolean; score: number | null } | null;
  /** Set (true) for an account with no attempt that played today's deal unrated, as a guest: it may not play it rated (DAILY_SEEN), only replay it casually. */
  seenUnrated?: true;
  /**
   * Set (true) for a player with no attempt (a guest, or an account from its guest days) who has
   * played today's deal unrated to its end (recorded): they may watch others' games of it
   * (DailyChallenges.knowsDeal), as after a finished ranked attempt.
   */
  finishedUnrated?: true;
}

/** The longest private note on a player, in characters (platform/notes.ts; the web client's field). */
export const NOTE_MAX = 1000;

/** Pushed as `room:removed` to every device of a player the host removed from an open room's seat. */
export interface RoomRemoved {
  roomId: string;
  /** The host's name. */
  by: string;
}

/** Pushed as `room:uninvited` to every device of an account whose kept invitation the table's host withdrew (`room:uninvite`). */
export interface RoomUninvited {
  roomId: string;
  /** The host's name at the table. */
  by: string;
}
