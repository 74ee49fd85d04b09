/**
 * What every registered game owes the platform, checked the same way for each (a new game gets
 * these by adding its line to registry.ts; its own tests cover its rules):
 *
 * - setup is deterministic in the seed, and the state is plain JSON;
 * - random games at every player count reach the end, every legal action (as the view lists it)
 *   is accepted, the input state is never mutated (it is deep-frozen), `activeSeats` is empty
 *   exactly when the game is over, and the outcome has a score and a place per seat;
 * - the same seed and actions give the same game, byte for byte;
 * - every view (each seat and a spectator) is JSON and carries no RNG state;
 * - garbage actions, and moves by seats that are not to act, are refused with a code and a
 *   sentence, at every step of a game.
 */
import { describe, expect, it } from "vitest";
import { GAMES } from "./registry.js";
import { matchesLegal, randomLegalAction } from "./legal.js";
import { deepFreeze, seededRandom } from "./testing.js";
import type { Action, AnyGame, BaseState, GameEvent, Seat } from "./types.js";

const GAMES_PER_COUNT = Number(process.env.CONFORMANCE_GAMES ?? 3);
const MAX_STEPS = 20_000;

/** Actions no game accepts: wrong shapes, unknown types, out-of-range and mistyped parameters. */
const GARBAGE: unknown[] = [
  null,
  undefined,
  42,
  "bid",
  [],
  {},
  { type: "" },
  { type: 7 },
  { type: "no-such-action" },
  { type: "__proto__" },
  { type: "constructor" },
  { type: "toString" },
];

/** Mutations of a legal action that must be refused (or, if accepted, still be legal). */
function mutants(action: Action): Action[] {
  const out: Action[] = [{ ...action, extra: 1 }];
  for (const [k, v] of Object.entries(action)) {
    if (k === "type") continue;
    out.push({ ...action, [k]: typeof v === "number" ? v + 1000 : 1000 });
    out.push({ ...action, [k]: typeof v === "number" ? -1 : null });
    out.push({ ...action, [k]: typeof v === "number" ? v + 0.5 : { nested: v } });
    out.push({ ...action, [k]: String(v) + "x" });
  }
  return out;
}

interface Played {
  state: BaseState;
  /** Every event the game reported, in order (what a room's log holds, without numbers). */
  events: GameEvent[];
  actions: Array<{ seat: Seat; action: Action }>;
}

/** A step's events are plain JSON events a room can log: a type, and `to` naming real seats. */
function checkEvents(game: AnyGame, players: number, events: GameEvent[]): void {
  expect(Array.isArray(events)).toBe(true);
  for (const e of events) {
    expect(typeof e.type, `${game.id}: event without a type`).toBe("string");
    expect("n" in e, `${game.id}: events are numbered by the room, not the game`).toBe(false);
    if (e.to !== undefined) for (const seat of e.to) expect(Number.isInteger(seat) && seat >= 0 && seat < players).toBe(true);
  }
  expect(JSON.parse(JSON.stringify(events))).toEqual(events);
}

function play(game: AnyGame, players: number, seed: string, check: (state: BaseState, step: number) => void): Played {
  const options = game.parseOptions({});
  if (!options.ok) throw new Error(`${game.id}: default options refused: ${options.error.message}`);
  const start = deepFreeze(game.setup({ players, options: options.value, seed }));
  checkEvents(game, players, start.events);
  let state = start.state as BaseState;
  const events: GameEvent[] = [...start.events];
  const random = seededRandom(`${seed}/moves`);
  const actions: Played["actions"] = [];
  for (let step = 0; step < MAX_STEPS; step++) {
    // The log is the room's: a game state holds none.
    expect("log" in state, `${game.id}: a state holds a log`).toBe(false);
    check(state, step);
    const active = game.activeSeats(state);
    if (game.isOver(state)) {
      expect(active).toEqual([]);
      return { state, events, actions };
    }
    expect(active.length).toBeGreaterThan(0);
    const seat = active[Math.floor(random() * active.length)]!;
    const legal = game.legalActions(state, seat);
    const action = randomLegalAction(legal, random);
    if (!action) throw new Error(`${game.id}: seat ${seat} is active with no legal action`);
    expect(matchesLegal(legal, action)).toBe(true);
    const r = game.apply(state, seat, action);
    if (!r.ok) throw new Error(`${game.id}: legal ${JSON.stringify(action)} refused: ${r.error.code} ${r.error.message}`);
    actions.push({ seat, action });
    checkEvents(game, players, r.value.events);
    events.push(...r.value.events);
    state = deepFreeze(r.value.state) as BaseState;
  }
  throw new Error(`${game.id}: no end after ${MAX_STEPS} actions`);
}

function expectRefused(game: AnyGame, state: BaseState, seat: Seat, action: unknown): void {
  const before = JSON.stringify(state);
  let r: ReturnType<AnyGame["apply"]>;
  try {
    r = game.apply(state, seat, action as Action);
  } catch (e) {
    throw new Error(`${game.id}: apply threw on ${JSON.stringify(action)}: ${String(e)}`);
  }
  expect(r.ok, `${game.id} accepted ${JSON.stringify(action)} from seat ${seat}`).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(r.error.message.length).toBeGreaterThan(5);
  }
  expect(JSON.stringify(state)).toBe(before);
}

describe.each(GAMES.map((g) => ({ id: g.id, game: g })))("$id conforms to the game contract", ({ game }) => {
  const counts = Array.from({ length: game.maxPlayers - game.minPlayers + 1 }, (_, i) => game.minPlayers + i);

  it("declares itself consistently", () => {
    expect(game.id).toMatch(/^[a-z][a-z0-9-]+$/);
    expect(game.minPlayers).toBeGreaterThanOrEqual(1);
    expect(game.maxPlayers).toBeGreaterThanOrEqual(game.minPlayers);
    if (game.daily) expect(game.maxPlayers).toBe(1);
    expect(game.parseOptions({ noSuchOption: true }).ok).toBe(false);
    expect(game.parseOptions("nonsense").ok).toBe(false);
    // Every choice a lobby may offer is accepted, and the first one is the default.
    for (const spec of game.optionSpecs ?? []) {
      expect(spec.choices.length).toBeGreaterThan(0);
      for (const c of spec.choices) expect(game.parseOptions({ [spec.key]: c.value }).ok, `${spec.key}=${String(c.value)}`).toBe(true);
      const defaults = game.parseOptions({});
      if (defaults.ok && spec.players === undefined) expect((defaults.value as Record<string, unknown>)[spec.key]).toEqual(spec.choices[0]!.value);
    }
    expect(game.parseOptions([]).ok).toBe(false);
  });

  it.each(counts)("sets up deterministically from the seed (%i players)", (players) => {
    const options = game.parseOptions({});
    if (!options.ok) throw new Error(options.error.message);
    const a = game.setup({ players, options: options.value, seed: "conformance-a" });
    const b = game.setup({ players, options: options.value, seed: "conformance-a" });
    const c = game.setup({ players, options: options.value, seed: "conformance-c" });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect((a.state as BaseState).game).toBe(game.id);
    expect((a.state as BaseState).players).toBe(players);
  });

  it.each(counts)("plays random games to the end, views and refusals checked at every step (%i players)", (players) => {
    for (let g = 0; g < GAMES_PER_COUNT; g++) {
      const seed = `conformance/${game.id}/${players}/${g}`;
      const garbageRandom = seededRandom(`${seed}/garbage`);
      const { state, events, actions } = play(game, players, seed, (s, step) => {
        const viewers = [...Array.from({ length: players }, (_, seat) => ({ kind: "seat" as const, seat })), { kind: "spectator" as const }];
        const byKey = new Map<string, string>();
        for (const v of viewers) {
          const text = JSON.stringify(game.view(s, v));
          expect(typeof text).toBe("string");
          const rng = (s as { rng?: unknown }).rng;
          if (rng !== undefined) expect(text.includes(JSON.stringify(rng))).toBe(false);
          // Viewers the game says share a view really get the same view.
          const key = game.viewKey?.(s, v);
          if (key === undefined) continue;
          const seen = byKey.get(key);
          if (seen === undefined) byKey.set(key, text);
          else expect(text, `${game.id}: viewKey ${key} shared by different views`).toBe(seen);
        }
        // Refusals, sampled (every step of the first game, one step in eight after).
        if (g > 0 && step % 8 !== 0) return;
        const active = game.activeSeats(s);
        const idle = Array.from({ length: players }, (_, i) => i).filter((i) => !active.includes(i));
        for (const seat of [...active, ...idle.slice(0, 1)]) {
          for (const bad of GARBAGE) expectRefused(game, s, seat, bad);
        }
        if (game.isOver(s)) {
          for (let seat = 0; seat < players; seat++) expectRefused(game, s, seat, { type: "pass" });
          return;
        }
        const seat = active[0]!;
        const legal = game.legalActions(s, seat);
        const sample = randomLegalAction(legal, garbageRandom);
        if (sample) {
          for (const idleSeat of idle.slice(0, 1)) {
            if (!matchesLegal(game.legalActions(s, idleSeat), sample)) expectRefused(game, s, idleSeat, sample);
          }
          for (const m of mutants(sample)) {
            if (!matchesLegal(legal, m)) expectRefused(game, s, seat, m);
          }
        }
        for (const bad of [-1, players, 1.5, NaN]) {
          if (sample) expectRefused(game, s, bad, sample);
        }
      });
      const outcome = game.outcome(state)!;
      expect(outcome).not.toBeNull();
      expect(outcome.scores).toHaveLength(players);
      expect(outcome.places).toHaveLength(players);
      for (const p of outcome.places) expect(p).toBeGreaterThanOrEqual(1);
      expect(Math.min(...outcome.places)).toBe(1);

      // Same seed, same actions: the same game and the same events, byte for byte.
      const options = game.parseOptions({});
      if (!options.ok) throw new Error(options.error.message);
      const first = game.setup({ players, options: options.value, seed });
      let again = first.state as BaseState;
      const eventsAgain: GameEvent[] = [...first.events];
      for (const { seat, action } of actions) {
        const r = game.apply(again, seat, action);
        if (!r.ok) throw new Error(`replay refused ${JSON.stringify(action)}: ${r.error.message}`);
        again = r.value.state as BaseState;
        eventsAgain.push(...r.value.events);
      }
      expect(JSON.stringify(again)).toBe(JSON.stringify(state));
      expect(JSON.stringify(eventsAgain)).toBe(JSON.stringify(events));
    }
  });
});
