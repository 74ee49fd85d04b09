/**
 * The protocol shapes the client reads (docs/protocol.md). Mirrors of the server's types,
 * kept here so the client bundle does not pull in server code.
 */

export type Seat = number;

export interface ErrorInfo {
  code: string;
  message: string;
}

export type Ack<T = Record<string, unknown>> = ({ ok: true } & T) | { ok: false; error: ErrorInfo };

export interface Player {
  id: string;
  name: string;
}

export interface GameInfo {
  id: string;
  name: string;
  minPlayers: number;
  maxPlayers: number;
}

export type RoomStatus = "open" | "playing" | "finished" | "closed";

export interface RoomSummary {
  id: string;
  game: string;
  ranked: boolean;
  status: RoomStatus;
  seats: Array<{ name: string | null; bot: boolean; taken: boolean }>;
  createdAt: number;
}

export interface LobbyLists {
  games: GameInfo[];
  open: RoomSummary[];
  live: RoomSummary[];
}

export type ParamSpec = { kind: "int"; min: number; max: number } | { kind: "choice"; options: Array<string | number> };

export interface LegalAction {
  type: string;
  params?: Record<string, ParamSpec>;
  label?: string;
}

export interface Action {
  type: string;
  [param: string]: unknown;
}

export interface LogEntry {
  n: number;
  type: string;
  to?: Seat[];
  [field: string]: unknown;
}

export interface Outcome {
  scores: number[];
  places: number[];
  details?: unknown;
}

export interface Rating {
  mu: number;
  sigma: number;
  ordinal: number;
}

export interface RatingChange {
  seat: Seat;
  playerId: string;
  before: Rating;
  after: Rating;
}

export interface RoomView {
  roomId: string;
  game: string;
  version: number;
  status: RoomStatus;
  ranked: boolean;
  hostId: string;
  options: unknown;
  seats: Array<{ playerId: string | null; name: string | null; bot: boolean }>;
  seat: Seat | null;
  commitment: string | null;
  seed: string | null;
  view: unknown;
  active: Seat[];
  legal: LegalAction[];
  logFrom: number;
  log: LogEntry[];
  outcome: Outcome | null;
  ratingChanges: RatingChange[] | null;
  startedAt: number | null;
  finishedAt: number | null;
}
