/**
 * What the platform tells whoever measures it (GET /metrics: transport/metrics.ts). The platform
 * only calls these methods; it knows nothing of Prometheus, so the rules and stores stay free of
 * any metrics library, and a service built without an observer (unit tests, tools) uses
 * NO_METRICS. Every argument is a bounded value (a game id, a kind of work, a scope), never a room
 * or player id, so an implementation may use them as labels.
 */
import type { DueWork } from "./timers.js";

/** Who made a move: a player's own action, or a bot's (timers.ts). */
export type MoveBy = "player" | "bot";

/**
 * Where a request was refused for coming too fast: "socket" (a socket's token bucket,
 * transport/socket.ts), "account" (login and registration limits, accounts.ts), "http" (the HTTP
 * rate limit), "chat" (a player's messages at one table, chat.ts). A new limiter adds its name here.
 */
export type RateLimitScope = "socket" | "account" | "http" | "chat";

/** How a finished game's write to Postgres ended (results.ts). */
export type FinishedGameWrite = "written" | "already-written" | "failed";

export interface PlatformMetrics {
  /** A game action was stored, `ms` after it arrived (wall time: validation, retries, the write). */
  moveApplied(game: string, by: MoveBy, ms: number): void;
  /** A change lost its compare-and-swap to another writer and is tried again on the newer room. */
  casConflict(): void;
  /** A change made here finished a game. */
  gameFinished(game: string): void;
  /** Another node's change reached this node `ms` after it was written (wall time). */
  changeFeedLag(ms: number): void;
  /** A timer fired `ms` after its deadline (by the server's clock). */
  timerFired(work: DueWork, ms: number): void;
  /** One attempt to write a finished game to Postgres, and how it ended. */
  finishedGameWrite(result: FinishedGameWrite): void;
  /** A request refused with RATE_LIMITED. */
  rateLimited(scope: RateLimitScope): void;
  /** This node recorded an outage of the whole service, `ms` long (downtime.ts). */
  downtime(ms: number): void;
  /** A full read of the lobby's lists changed `rooms` rooms of this node's lobby that its changes had not (lobby-mirror.ts). */
  lobbyHealed(rooms: number): void;
}

/** Measures nothing: the default wherever no observer is given. */
export const NO_METRICS: PlatformMetrics = {
  moveApplied() {},
  casConflict() {},
  gameFinished() {},
  changeFeedLag() {},
  timerFired() {},
  finishedGameWrite() {},
  rateLimited() {},
  downtime() {},
  lobbyHealed() {},
};
