/**
 * Replays a game from its seed and action log with the game's own engine. Used by the replay
 * command and the tests to show a deal was fixed in advance: the seed hashes to the commitment
 * sent at the start, and the same actions from it reach the same result.
 */
import { createHash } from "node:crypto";
import { findGame } from "../games/registry.js";
import type { Action, Outcome } from "../games/types.js";

export interface ReplayInput {
  gameType: string;
  players: number;
  options: unknown;
  seed: string;
  actions: Array<{ seat: number; action: unknown }>;
}

export interface ReplayResult {
  state: unknown;
  outcome: Outcome | null;
  commitment: string;
}

export function replayGame(input: ReplayInput): ReplayResult {
  const game = findGame(input.gameType);
  if (!game) throw new Error(`unknown game ${input.gameType}`);
  const opts = game.parseOptions(input.options ?? {});
  if (!opts.ok) throw new Error(`bad options: ${opts.error.message}`);
  let state = game.setup({ players: input.players, options: opts.value, seed: input.seed });
  input.actions.forEach((a, i) => {
    const r = game.apply(state, a.seat, a.action as Action);
    if (!r.ok) throw new Error(`action ${i + 1} (seat ${a.seat}) was refused on replay: ${r.error.code} ${r.error.message}`);
    state = r.value;
  });
  return { state, outcome: game.outcome(state), commitment: createHash("sha256").update(input.seed, "utf8").digest("hex") };
}

/** JSON with object keys sorted at every depth: stored JSONB does not keep key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
