/** Helpers for every game's tests and fixtures (not used by the server at run time). */
import { appendEvents } from "./log.js";
import { randomInt, seedRng } from "./rng.js";
import type { Action, LogEntry, Result, Seat, SetupContext, Step } from "./types.js";

/** Recursively freeze a value (so any mutation in strict-mode code throws). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A deterministic random() in [0, 1) from a seed string (for bots and tests). */
export function seededRandom(seed: string): () => number {
  let rng = seedRng(seed);
  return () => {
    const r = randomInt(rng, 0x100000000);
    rng = r.rng;
    return r.value / 0x100000000;
  };
}

/** A game state with the event log a room would keep beside it (tests only). */
export interface Logged<S> {
  state: S;
  log: LogEntry[];
}

/** The state and log after setup. */
export function started<S>(step: Step<S>): Logged<S> {
  return { state: step.state, log: appendEvents([], step.events) };
}

/** The state and log after one `apply` (a refusal passes through, the log untouched). */
export function stepped<S>(prev: Logged<S> | readonly LogEntry[], r: Result<Step<S>>): Result<Logged<S>> {
  if (!r.ok) return r;
  const log = Array.isArray(prev) ? (prev as readonly LogEntry[]) : (prev as Logged<S>).log;
  return { ok: true, value: { state: r.value.state, log: appendEvents(log, r.value.events) } };
}

/**
 * A game replayed: the state and log after `setup(ctx)` and then `moves` in order, each action
 * through a JSON round trip as it would arrive. Throws at the first move refused (a replay must
 * take every move the game it repeats took).
 */
export function replayed<S, O>(
  game: { setup(ctx: SetupContext<O>): Step<S>; apply(state: S, seat: Seat, action: Action): Result<Step<S>> },
  ctx: SetupContext<O>,
  moves: ReadonlyArray<readonly [Seat, Action]>,
): Logged<S> {
  let s = started(game.setup(ctx));
  moves.forEach(([seat, action], i) => {
    const r = stepped(s, game.apply(s.state, seat, JSON.parse(JSON.stringify(action)) as Action));
    if (!r.ok) throw new Error(`move ${i} (seat ${seat}) refused on replay: ${r.error.code}`);
    s = r.value;
  });
  return s;
}
