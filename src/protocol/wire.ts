/**
 * The shapes that cross the wire (docs/protocol.md), in one place with no runtime code and no
 * Node imports, so the server and the browser client type-check against the same definitions.
 */
import type { LegalAction, LogEntry, OptionSpec, Outcome, Seat } from "../games/types.js";

export type { Action, LegalAction, LogEntry, OptionSpec, Outcome, ParamSpec, Seat } from "../games/types.js";

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
  /** A daily-challenge deal: its UTC day (today's may only be watched by players who played it). */
  daily?: string;
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
  seats: Array<{ playerId: string | null; name: string | null; bot: boolean }>;
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
  /** Your legal actions now (always [] for spectators). */
  legal: LegalAction[];
  /** Log entries numbered from logFrom+1; a full sync sends them all (logFrom 0). */
  logFrom: number;
  log: LogEntry[];
  outcome: Outcome | null;
  ratingChanges: RatingChangeInfo[] | null;
  startedAt: number | null;
  finishedAt: number | null;
}
