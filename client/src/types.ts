/**
 * The protocol shapes the client reads (docs/protocol.md). The wire types are the server's own
 * (src/protocol/wire.ts, type-only: nothing of the server enters the bundle), so a change on
 * one side that the other does not follow fails the type check in `npm test`.
 */
import type { GameInfo, RatingChangeInfo, RoomSummary } from "../../src/protocol/wire.js";

export type {
  Action,
  GameInfo,
  LegalAction,
  OptionSpec,
  LogEntry,
  Outcome,
  ParamSpec,
  RoomStatus,
  RoomState,
  RoomSummary,
  RoomUpdate,
  RoomView,
  Seat,
} from "../../src/protocol/wire.js";

export type RatingChange = RatingChangeInfo;
export type Rating = RatingChangeInfo["before"];

export interface ErrorInfo {
  code: string;
  message: string;
}

export type Ack<T = Record<string, unknown>> = ({ ok: true } & T) | { ok: false; error: ErrorInfo };

export interface Player {
  id: string;
  name: string;
}

export interface LobbyLists {
  games: GameInfo[];
  open: RoomSummary[];
  /** Games of one sitting being played: the newest of each game when subscribed, and those started since. */
  live: RoomSummary[];
  /** How many games of one sitting are being played, by game id (`lobby:counts`; absent from older servers). */
  liveCounts?: Record<string, number>;
  /** How many turn-based rooms wait for players, by game id (`lobby:counts`; absent from older servers). */
  waitingCounts?: Record<string, number>;
}
