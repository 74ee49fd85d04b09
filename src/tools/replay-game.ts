/**
 * Replays a game from its seed and action log with the game's own engine. Used by the replay
 * command and the tests to show a deal was fixed in advance: the seed hashes to the commitment
 * sent at the start, and the same actions from it reach the same result.
 */
import { createHash } from "node:crypto";
import { findGame } from "../games/registry.js";
import { appendEvents } from "../games/log.js";
import type { Action, AnyGame, LogEntry, Outcome } from "../games/types.js";
import { err } from "../platform/errors.js";

export interface ReplayInput {
  gameType: string;
  players: number;
  options: unknown;
  seed: string;
  /** The game's rules version it was played under (absent: 1, as records made before it say). */
  rules?: number;
  actions: Array<{ seat: number; action: unknown }>;
}

export interface ReplayResult {
  state: unknown;
  /** Every event of the replayed game, numbered as a room's log numbers them. */
  log: LogEntry[];
  outcome: Outcome | null;
  commitment: string;
}

export function replayGame(input: ReplayInput): ReplayResult {
  const game = findGame(input.gameType);
  if (!game) throw new Error(`unknown game ${input.gameType}`);
  const opts = game.parseOptions(input.options ?? {});
  if (!opts.ok) throw new Error(`bad options: ${opts.error.message}`);
  const start = game.setup({ players: input.players, options: opts.value, seed: input.seed, rules: recordedRules(game, input.rules) });
  let state: unknown = start.state;
  const events = [...start.events];
  input.actions.forEach((a, i) => {
    const r = game.apply(state, a.seat, a.action as Action);
    if (!r.ok) throw new Error(`action ${i + 1} (seat ${a.seat}) was refused on replay: ${r.error.code} ${r.error.message}`);
    state = r.value.state;
    events.push(...r.value.events);
  });
  return { state, log: appendEvents([], events), outcome: game.outcome(state), commitment: createHash("sha256").update(input.seed, "utf8").digest("hex") };
}

/**
 * The rules version a record says its game was played under (absent: 1), checked against this
 * build's: a record of newer rules than it has is refused (RULES_TOO_NEW), never replayed wrong.
 */
export function recordedRules(game: AnyGame, rules: number | undefined): number {
  const v = rules ?? 1;
  const have = game.rulesVersion ?? 1;
  if (!Number.isInteger(v) || v < 1) throw err("BAD_RULES", `The recorded rules version must be a whole number from 1 (got ${String(rules)}).`);
  if (v > have) throw err("RULES_TOO_NEW", `This game was played under ${game.name} rules ${v}; this server has ${have}.`);
  return v;
}

export interface OutcomeCheck {
  /** The recorded outcome is the replayed game's, under today's scoring or the rules `rules` names. */
  matches: boolean;
  /** The replayed game's outcome under today's scoring. */
  current: Outcome | null;
  /**
   * Set when the record was scored by earlier rules of the game (GameDefinition.outcomeAsRecorded)
   * and today's differ: those rules' name. With `matches`, the record is exactly what they gave.
   */
  rules?: string;
}

/**
 * Does a record's outcome follow from its replayed game? First under today's scoring; if that
 * differs and the game's scoring has changed since, under the rules the record names. Records
 * keep the result they were given, so an old one is checked against the rules that scored it.
 */
export function checkOutcome(gameType: string, replayed: ReplayResult, recorded: Outcome): OutcomeCheck {
  const current = replayed.outcome;
  if (canonicalJson(current) === canonicalJson(recorded)) return { matches: true, current };
  const game = findGame(gameType);
  const then = game?.outcomeAsRecorded?.(replayed.state, recorded) ?? null;
  // No earlier rules named, or the record names today's: it simply differs.
  if (!then || canonicalJson(then.outcome) === canonicalJson(current)) return { matches: false, current };
  return { matches: canonicalJson(then.outcome) === canonicalJson(recorded), current, rules: then.rules };
}

/** JSON with object keys sorted at every depth: stored JSONB does not keep key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
