/**
 * The shapes of GET /api/replay/:id (docs/protocol.md, "Replays"), shared with the browser client
 * (type-only there). Made by src/platform/replay.ts.
 */
import type { Action, LogEntry, Outcome, RatingChangeInfo, Seat } from "./wire.js";

export interface ReplayStep {
  /** 0: the deal; k: after the k-th recorded action. */
  n: number;
  /** Who acted (null for the deal). */
  seat: Seat | null;
  action: Action | null;
  /** Epoch ms the action was accepted (null for the deal). */
  at: number | null;
  /** Made by the bot that played the seat of a player who was away. */
  bot?: true;
  /** The log entries this step added, as the viewer may see them (numbered as in the room's log). */
  log: LogEntry[];
  /** Seats to act after this step (empty once over). */
  active: Seat[];
  /** The viewer's game view after this step: present for the steps asked for (`from`..`to`). */
  view?: unknown;
}

export interface SeedCheck {
  seed: string;
  commitment: string;
  /** sha256(seed) in hex, computed here. */
  sha256: string;
  ok: boolean;
}

export interface ActionsCheck {
  ok: boolean;
  /** The first recorded action the rules refused (1-based), with their reason. */
  refused?: { step: number; seat: Seat; code: string; message: string };
}

export interface OutcomeCheck {
  ok: boolean;
  recorded: Outcome;
  /** The replayed game's outcome under today's scoring (null: the replay did not reach an end). */
  replayed: Outcome | null;
  /** Set when the record was scored by earlier scoring rules of the game: their name. */
  rules?: string;
}

export interface Replay {
  roomId: string;
  game: string;
  /** The game's rules version it was played under, and replayed under here. */
  rules: number;
  /** The game's rules version of today (this server's): a game started now is played under it. */
  rulesToday: number;
  options: unknown;
  players: Array<{ seat: Seat; name: string; bot: boolean; forfeit: string | null }>;
  ranked: boolean;
  /** Epoch ms (null: not in the record). */
  startedAt: number | null;
  finishedAt: number | null;
  daily: string | null;
  ratingChanges: RatingChangeInfo[];
  viewer: string;
  seedCheck: SeedCheck;
  actionsCheck: ActionsCheck;
  outcomeCheck: OutcomeCheck;
  /** All three checks hold: the seed is the committed one and the rules give the recorded game. */
  proven: boolean;
  /** How many steps there are (steps.length): the deal plus each replayed action. */
  total: number;
  /** The steps whose views are included: from..to, inclusive. */
  from: number;
  to: number;
  steps: ReplayStep[];
}
