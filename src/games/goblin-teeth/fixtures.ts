/**
 * Build states in chosen positions (for tests and worked examples), play move lists, and play
 * whole seeded random games with uniformly random legal actions. Where a test looks at the log,
 * `positioned` and `played` keep it beside the state the way a room would (testing.ts `Logged`).
 */
import { randomLegalAction } from "../legal.js";
import type { Action, LogEntry, Seat, Step } from "../types.js";
import { apply } from "./apply.js";
import { CHEAT_IDS, DICE_PER_PLAYER, ITEM_IDS } from "./data.js";
import { draft, finish } from "./draft.js";
import { beginTurn, settle } from "./flow.js";
import { activeSeats, legalActions } from "./legal.js";
import { setup } from "./setup.js";
import type { Die, DieSpot, GoblinTeethOptions, GoblinTeethState, PotSlot } from "./state.js";
import { deepFreeze, seededRandom, started, stepped, type Logged } from "../testing.js";

export interface PositionSpec {
  players: number;
  /** Each seat's dice faces (3 per seat); with `at`, where each die is (default unplayed). */
  dice: number[][];
  at?: DieSpot[][];
  /** Pot Items, slot 0 face down. */
  pot: string[];
  hands?: string[][];
  ongoing?: string[][];
  discard?: string[];
  /** Decks, top first; default: every unlisted card in data order. */
  itemDeck?: string[];
  cheatDeck?: string[];
  turn?: Seat;
  firstPlayer?: Seat;
  offerings?: string[];
  seatOfferings?: string[][] | null;
  advanced?: boolean;
  knowledge?: Record<string, Seat[]>;
  round?: number;
  seed?: string;
}

/** A state in the middle of a round, at the start of `turn`'s turn (no decision pending). */
export function position(spec: PositionSpec): GoblinTeethState {
  return positionStep(spec).state;
}

/** The same position with the log a room started there would keep: the events of that turn's start. */
export function positioned(spec: PositionSpec): Logged<GoblinTeethState> {
  return started(positionStep(spec));
}

function positionStep(spec: PositionSpec): Step<GoblinTeethState> {
  const n = spec.players;
  const hands = spec.hands ?? Array.from({ length: n }, () => []);
  const ongoing = spec.ongoing ?? Array.from({ length: n }, () => []);
  const discard = spec.discard ?? [];
  const listed = new Set([...spec.pot, ...hands.flat(), ...ongoing.flat(), ...discard]);
  const dice: Die[] = [];
  for (let seat = 0; seat < n; seat++) {
    for (let k = 0; k < DICE_PER_PLAYER; k++) dice.push({ owner: seat, value: spec.dice[seat][k], at: spec.at?.[seat]?.[k] ?? "supply" });
  }
  const pot: PotSlot[] = spec.pot.map((item, slot) => ({ item, faceDown: slot === 0 }));
  const base = setup({ players: n, options: { advanced: spec.advanced ?? false }, seed: spec.seed ?? "fixture" }).state;
  const knowledge: Record<string, Seat[]> = { ...(spec.knowledge ?? {}) };
  hands.forEach((h, seat) => h.forEach((c) => (knowledge[c] = [...new Set([seat, ...(knowledge[c] ?? [])])].sort())));
  const d = draft({
    ...base,
    phase: "turn",
    round: spec.round ?? 1,
    firstPlayer: spec.firstPlayer ?? spec.turn ?? 0,
    turn: spec.turn ?? 0,
    itemDeck: spec.itemDeck ?? ITEM_IDS.filter((c) => !listed.has(c)),
    cheatDeck: spec.cheatDeck ?? CHEAT_IDS.filter((c) => !listed.has(c)),
    discard: [...discard],
    hands: hands.map((h) => [...h]),
    ongoing: ongoing.map((o) => [...o]),
    offerings: spec.offerings ?? base.offerings,
    seatOfferings: spec.seatOfferings === undefined ? base.seatOfferings : spec.seatOfferings,
    pot,
    dice,
    knowledge,
    shown: [],
    inPlay: [],
    pending: [],
    patientDone: false,
    lastAwards: null,
    result: null,
  });
  beginTurn(d, spec.turn ?? 0);
  settle(d);
  return finish(d);
}

/** Apply `moves` in order; throws (with the error code) if one is refused. */
export function play(state: GoblinTeethState, moves: ReadonlyArray<readonly [Seat, Action]>): GoblinTeethState {
  return played(state, moves).state;
}

/**
 * Apply `moves` in order, keeping the log beside the state as a room would (from a bare state, the
 * log starts empty); throws (with the error code) if one is refused.
 */
export function played(from: GoblinTeethState | Logged<GoblinTeethState>, moves: ReadonlyArray<readonly [Seat, Action]>): Logged<GoblinTeethState> {
  let g: Logged<GoblinTeethState> = "state" in from ? from : { state: from, log: [] };
  for (const [seat, action] of moves) {
    const r = stepped(g, apply(g.state, seat, action));
    if (!r.ok) throw new Error(`seat ${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    g = r.value;
  }
  return g;
}

/** The code of apply's answer ("ok" when accepted). */
export function codeOf(state: GoblinTeethState, seat: unknown, action: unknown): string {
  const r = apply(state, seat as number, action as Action);
  return r.ok ? "ok" : r.error.code;
}

export { deepFreeze, seededRandom };

export interface RandomGame {
  seed: string;
  players: number;
  options: GoblinTeethOptions;
  moves: Array<[Seat, Action]>;
  final: GoblinTeethState;
  /** The whole game's log, as the room kept it. */
  log: LogEntry[];
}

/**
 * Play a whole game with uniformly random legal actions (seeded). `onStep` sees every state reached
 * (including the first), the action that led to it and the log so far (as a room keeps it). Throws
 * if a chosen legal action is refused or the game runs longer than `maxSteps`.
 */
export function randomGame(
  players: number,
  seed: string,
  options: GoblinTeethOptions = {},
  onStep?: (state: GoblinTeethState, last: [Seat, Action] | null, log: readonly LogEntry[]) => void,
  maxSteps = 20000,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let g = started(setup({ players, options, seed }));
  let s = g.state;
  const moves: Array<[Seat, Action]> = [];
  onStep?.(s, null, g.log);
  while (s.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const active = activeSeats(s);
    const seat = active[Math.floor(random() * active.length)];
    const action = randomLegalAction(legalActions(s, seat), random);
    if (!action) throw new Error(`seat ${seat} has no legal action`);
    const r = stepped(g, apply(s, seat, action));
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code} ${r.error.message}`);
    moves.push([seat, action]);
    g = r.value;
    s = g.state;
    onStep?.(s, [seat, action], g.log);
  }
  return { seed, players, options, moves, final: s, log: g.log };
}

/** Every concrete legal action of `seat` (templates expanded), optionally only those playing `card`. */
export function legalInstances(state: GoblinTeethState, seat: Seat, card?: string): Action[] {
  const out: Action[] = [];
  for (const l of legalActions(state, seat)) {
    let acts: Action[] = [{ type: l.type }];
    for (const [k, spec] of Object.entries(l.params ?? {})) {
      const values = spec.kind === "int" ? Array.from({ length: spec.max - spec.min + 1 }, (_, i) => spec.min + i) : spec.options;
      acts = acts.flatMap((a) => values.map((v) => ({ ...a, [k]: v })));
    }
    out.push(...acts);
  }
  return card === undefined ? out : out.filter((a) => a.type === "cheat" && a.card === card);
}
