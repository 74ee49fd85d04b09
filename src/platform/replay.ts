/**
 * The replay of a finished game, step by step, and its proof. Pure: a finished game's record in
 * (seed, action log, recorded outcome: GET /api/finished/:id's `game`), out the game replayed with
 * its own rules from the seed: step 0 is the deal (setup), step k the state after the k-th
 * recorded action. For each step: who acted and what, the log entries that step added as the
 * chosen viewer may see them, the seats to act next, and (for the steps asked for) that viewer's
 * view, exactly as a live room showed that viewer at that moment (platform/views.ts builds it with
 * the same `game.view`; tested against rooms built by room.ts).
 *
 * The proof: sha256(seed) equals the commitment published when the game started (so the deal was
 * fixed before the first move), every recorded action is accepted by the rules where it was made,
 * and the replayed outcome equals the recorded one (for a record scored by earlier scoring rules,
 * under the rules it names: tools/replay-game.ts `checkOutcome`).
 *
 * Viewers: a seat, the spectators, or `all` (the default): everything that was hidden, handled by
 * each game's view module (types.ts `Viewer`). `all` sees every log entry, private ones included.
 * Only finished games are replayed: a live room never gets here (views.ts `viewerFor` makes its
 * viewers, seats and spectators only).
 */
import { findGame } from "../games/registry.js";
import { appendEvents, visibleLog } from "../games/log.js";
import type { LogEntry, Outcome, Seat, Viewer } from "../games/types.js";
import type { ActionsCheck, OutcomeCheck, Replay, ReplayStep, SeedCheck } from "../protocol/replay.js";
import { checkOutcome, recordedRules, type ReplayResult } from "../tools/replay-game.js";
import type { Action, RatingChangeInfo } from "../protocol/wire.js";

export type { ActionsCheck, OutcomeCheck, Replay, ReplayStep, SeedCheck };
import { commit } from "./commitment.js";
import { err } from "./errors.js";

/** What a replay needs of a finished game's record (db/finished-games.ts FinishedGameRecord). */
export interface ReplayRecord {
  roomId: string;
  gameType: string;
  options: unknown;
  seed: string;
  commitment: string;
  /** The game's rules version it was played under (absent: 1). */
  rules?: number;
  actions: ReadonlyArray<{ seat: number; action: unknown; at?: number; bot?: true }>;
  outcome: Outcome;
  seats: ReadonlyArray<{ seat: number; name: string; isBot: boolean; playerId?: string | null; forfeit?: string | null }>;
  ranked?: boolean;
  startedAt?: Date | string | number;
  finishedAt?: Date | string | number;
  daily?: string | null;
  /** As getFinishedGame gives them (ranked games). */
  ratingChanges?: ReadonlyArray<RatingChangeInfo>;
}

/** `all`, `spectator` or `seat:N` (N from 0) -> a viewer of a game of `players` seats; BAD_VIEWER otherwise. */
export function parseViewer(raw: unknown, players: number): Viewer {
  if (raw === undefined || raw === "" || raw === "all") return { kind: "all" };
  if (raw === "spectator") return { kind: "spectator" };
  const m = typeof raw === "string" ? /^seat:(\d{1,2})$/.exec(raw) : null;
  const seat = m ? Number(m[1]) : -1;
  if (seat >= 0 && seat < players) return { kind: "seat", seat };
  throw err("BAD_VIEWER", `viewer is all, spectator, or seat:N with N from 0 to ${players - 1}.`);
}

export function viewerName(v: Viewer): string {
  return v.kind === "seat" ? `seat:${v.seat}` : v.kind;
}

function epoch(t: Date | string | number | undefined): number | null {
  if (t === undefined) return null;
  const ms = t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t);
  return Number.isFinite(ms) ? ms : null;
}

/** The log entries a replay viewer may see: `all` sees every one. */
function seen(entries: readonly LogEntry[], viewer: Viewer): LogEntry[] {
  return viewer.kind === "all" ? entries.slice() : visibleLog(entries, viewer);
}

export interface ReplayOptions {
  viewer?: Viewer;
  /** The first step whose view is included (default 0). */
  from?: number;
  /** The last step whose view is included (default: the last step). */
  to?: number;
}

/**
 * Replays `record` with its game's own rules. Never throws on a bad record (a tampered seed or
 * action log): the checks say what failed, and the steps stop at the first refused action.
 * Throws UNKNOWN_GAME / BAD_OPTIONS / RULES_TOO_NEW for a record this server cannot replay at all.
 */
export function replayRecord(record: ReplayRecord, opts: ReplayOptions = {}): Replay {
  const game = findGame(record.gameType);
  if (!game) throw err("UNKNOWN_GAME", `This server does not offer the game "${record.gameType}".`);
  const players = record.seats.length;
  const parsed = game.parseOptions(record.options ?? {});
  if (!parsed.ok) throw err("BAD_OPTIONS", `The recorded options cannot be read: ${parsed.error.message}`);
  const viewer = opts.viewer ?? { kind: "all" };
  if (viewer.kind === "seat" && (viewer.seat < 0 || viewer.seat >= players)) throw err("BAD_VIEWER", `Seats are numbered 0 to ${players - 1}.`);

  const total = record.actions.length + 1; // at most; fewer if an action is refused
  const from = Math.max(0, opts.from ?? 0);
  const to = opts.to ?? total - 1;

  const rules = recordedRules(game, record.rules);
  const start = game.setup({ players, options: parsed.value, seed: record.seed, rules });
  let state: unknown = start.state;
  let log = appendEvents([], start.events);
  const steps: ReplayStep[] = [];
  const push = (n: number, seat: Seat | null, action: Action | null, at: number | null, bot: boolean, added: readonly LogEntry[]) => {
    const step: ReplayStep = { n, seat, action, at, ...(bot ? { bot: true as const } : {}), log: seen(added, viewer), active: game.activeSeats(state) };
    if (n >= from && n <= to) step.view = game.view(state, viewer);
    steps.push(step);
  };
  push(0, null, null, null, false, log);

  let refused: ActionsCheck["refused"];
  for (let i = 0; i < record.actions.length; i++) {
    const a = record.actions[i]!;
    const action = a.action as Action;
    const r = game.isOver(state)
      ? { ok: false as const, error: { code: "GAME_OVER", message: "The game was already over." } }
      : game.apply(state, a.seat, action);
    if (!r.ok) {
      refused = { step: i + 1, seat: a.seat, code: r.error.code, message: r.error.message };
      break;
    }
    const before = log.length;
    state = r.value.state;
    log = appendEvents(log, r.value.events);
    push(i + 1, a.seat, action, a.at ?? null, a.bot === true, log.slice(before));
  }

  const sha256 = commit(record.seed);
  const seedCheck: SeedCheck = { seed: record.seed, commitment: record.commitment, sha256, ok: sha256 === record.commitment };
  const actionsCheck: ActionsCheck = refused ? { ok: false, refused } : { ok: true };
  let outcomeCheck: OutcomeCheck;
  if (refused || !game.isOver(state)) {
    outcomeCheck = { ok: false, recorded: record.outcome, replayed: null };
  } else {
    const replayed: ReplayResult = { state, log, outcome: game.outcome(state), commitment: sha256 };
    const c = checkOutcome(record.gameType, replayed, record.outcome);
    outcomeCheck = { ok: c.matches, recorded: record.outcome, replayed: c.current, ...(c.rules !== undefined ? { rules: c.rules } : {}) };
  }
  return {
    roomId: record.roomId,
    game: game.id,
    rules,
    rulesToday: game.rulesVersion ?? 1,
    options: parsed.value,
    players: [...record.seats]
      .sort((x, y) => x.seat - y.seat)
      .map((s) => ({ seat: s.seat, name: s.name, bot: s.isBot, forfeit: s.forfeit ?? null })),
    ranked: record.ranked ?? false,
    startedAt: epoch(record.startedAt),
    finishedAt: epoch(record.finishedAt),
    daily: record.daily ?? null,
    ratingChanges: [...(record.ratingChanges ?? [])],
    viewer: viewerName(viewer),
    seedCheck,
    actionsCheck,
    outcomeCheck,
    proven: seedCheck.ok && actionsCheck.ok && outcomeCheck.ok,
    total: steps.length,
    from: Math.min(from, steps.length - 1),
    to: Math.min(to, steps.length - 1),
    steps,
  };
}

