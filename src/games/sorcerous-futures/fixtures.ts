/**
 * Build states in chosen positions (for tests and worked examples), play move lists, and play
 * whole seeded random games (any active seat may act: setup is simultaneous). Play on with `play`
 * (the state) or `playLogged` (the state and the event log a room would keep, from that position on).
 */
import { learn, type Knowledge } from "../knowledge.js";
import { randomLegalAction } from "../legal.js";
import type { Action, GameEvent, LogEntry, Seat } from "../types.js";
import { apply } from "./apply.js";
import { gameDeck, nextPick } from "./deal.js";
import { activeSeats, legalActions } from "./legal.js";
import { setup } from "./setup.js";
import {
  STARTING_MONEY,
  type Extended,
  type SorcerousFuturesOptions,
  type SorcerousFuturesState,
} from "./state.js";
import { deepFreeze, seededRandom, started, stepped, type Logged } from "../testing.js";

export interface SetupSpec {
  players: number;
  /** Each seat's two hand cards. */
  hands: string[][];
  /** Each seat's two face-down cards; missing seats are filled from the deck. */
  faceDown?: string[][];
  extended?: Extended | null;
  money?: number[];
  /** The undrawn deck, top first; default: every unlisted card in data order. */
  deck?: string[];
  matchGames?: 1 | 3;
  seed?: string;
}

function base(players: number, extended: Extended | null, seed: string): SorcerousFuturesState {
  return setup({ players, options: { extended: extended ?? undefined }, seed }).state;
}

/** A state in the setup phase with the given hands (nobody has confirmed or paid). */
export function setupPosition(spec: SetupSpec): SorcerousFuturesState {
  const n = spec.players;
  const extended = spec.extended === undefined ? (n === 5 ? "pawns" : null) : spec.extended;
  const listed = new Set([...spec.hands.flat(), ...(spec.faceDown ?? []).flat()]);
  let rest = spec.deck ?? gameDeck(extended).filter((c) => !listed.has(c));
  const faceDown: string[][] = [];
  for (let seat = 0; seat < n; seat++) {
    const f = spec.faceDown?.[seat];
    if (f) faceDown.push([...f]);
    else {
      faceDown.push(rest.slice(0, 2));
      rest = rest.slice(2);
    }
  }
  let knowledge: Knowledge = {};
  spec.hands.forEach((h, seat) => h.forEach((id) => (knowledge = learn(knowledge, id, [seat]))));
  return {
    ...base(n, extended, spec.seed ?? "fixture"),
    extended,
    matchGames: spec.matchGames ?? 1,
    money: spec.money ?? Array(n).fill(STARTING_MONEY),
    deck: rest,
    valuations: spec.hands.map((h) => [...h]),
    faceDown,
    knowledge,
  };
}

export interface PositionSpec {
  players: number;
  valuations: string[][];
  market: string[];
  excuse?: Seat;
  firstExcuse?: Seat;
  faceDown?: string[][];
  extraValuations?: string[];
  extraSetAside?: string[];
  holdings?: string[][];
  discard?: string[];
  money?: number[];
  /** The undrawn deck, top first; default: every unlisted card in data order. */
  deck?: string[];
  marketNumber?: number;
  extended?: Extended | null;
  matchGames?: 1 | 3;
  seed?: string;
}

/**
 * A state after setup, at the Excuse holder's pick (or its auction, when the market has one card:
 * the events of that automatic pick are not kept, as a position starts with an empty log).
 */
export function position(spec: PositionSpec): SorcerousFuturesState {
  const n = spec.players;
  const extended = spec.extended === undefined ? (n === 5 ? "pawns" : null) : spec.extended;
  const holdings = spec.holdings ?? Array.from({ length: n }, () => []);
  const faceDown = spec.faceDown ?? Array.from({ length: n }, () => []);
  const extraValuations = spec.extraValuations ?? [];
  const extraSetAside = spec.extraSetAside ?? [];
  const discard = spec.discard ?? [];
  const listed = new Set([
    ...spec.valuations.flat(),
    ...faceDown.flat(),
    ...extraValuations,
    ...extraSetAside,
    ...spec.market,
    ...holdings.flat(),
    ...discard,
  ]);
  const deck = spec.deck ?? gameDeck(extended).filter((c) => !listed.has(c));
  const excuse = spec.excuse ?? 0;
  const s: SorcerousFuturesState = {
    ...base(n, extended, spec.seed ?? "fixture"),
    extended,
    matchGames: spec.matchGames ?? 1,
    phase: "pick",
    turn: excuse,
    money: spec.money ?? Array(n).fill(STARTING_MONEY),
    deck,
    valuations: spec.valuations.map((v) => [...v]),
    faceDown: faceDown.map((f) => [...f]),
    extraValuations: [...extraValuations],
    extraSetAside: [...extraSetAside],
    knowledge: {},
    confirmed: Array(n).fill(true),
    excuse,
    firstExcuse: spec.firstExcuse ?? excuse,
    market: [...spec.market],
    marketNumber: spec.marketNumber ?? 1,
    holdings: holdings.map((h) => [...h]),
    discard: [...discard],
  };
  const events: GameEvent[] = [];
  return nextPick(s, events);
}

/**
 * Apply `moves` in order to a state, or to a state with its log: the state and the log with each
 * move's events appended (a bare state starts with an empty log). Throws (with the error code) if
 * a move is refused.
 */
export function playLogged(
  start: SorcerousFuturesState | Logged<SorcerousFuturesState>,
  moves: ReadonlyArray<readonly [Seat, Action]>,
): Logged<SorcerousFuturesState> {
  let g: Logged<SorcerousFuturesState> = isLogged(start) ? start : { state: start, log: [] };
  for (const [seat, action] of moves) {
    const r = stepped(g, apply(g.state, seat, action));
    if (!r.ok) throw new Error(`seat ${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    g = r.value;
  }
  return g;
}

/** Apply `moves` in order; the resulting state. Throws (with the error code) if one is refused. */
export function play(state: SorcerousFuturesState, moves: ReadonlyArray<readonly [Seat, Action]>): SorcerousFuturesState {
  return playLogged(state, moves).state;
}

function isLogged(x: SorcerousFuturesState | Logged<SorcerousFuturesState>): x is Logged<SorcerousFuturesState> {
  return "state" in x && "log" in x;
}

/**
 * Every seat passes in turn until the current auction is over (the card is discarded): from a
 * state, the state; from a state with its log, the state and the log with the passes' events.
 */
export function allPass(start: SorcerousFuturesState): SorcerousFuturesState;
export function allPass(start: Logged<SorcerousFuturesState>): Logged<SorcerousFuturesState>;
export function allPass(
  start: SorcerousFuturesState | Logged<SorcerousFuturesState>,
): SorcerousFuturesState | Logged<SorcerousFuturesState> {
  let g: Logged<SorcerousFuturesState> = isLogged(start) ? start : { state: start, log: [] };
  const number = g.state.auction!.number;
  while (g.state.auction?.number === number) g = playLogged(g, [[g.state.turn!, { type: "pass" }]]);
  return isLogged(start) ? g : g.state;
}

export { deepFreeze, seededRandom, started };
export type { Logged };

export interface RandomGame {
  seed: string;
  players: number;
  options: SorcerousFuturesOptions;
  moves: Array<[Seat, Action]>;
  final: SorcerousFuturesState;
  /** The event log a room would keep beside `final`. */
  log: LogEntry[];
}

/**
 * Play a whole match with uniformly random legal actions (seeded): at each step a random
 * active seat acts. `onStep` sees every state reached (including the first), with the log so
 * far. Throws if a chosen legal action is refused or the game runs longer than `maxSteps`.
 */
export function randomGame(
  players: number,
  seed: string,
  options: SorcerousFuturesOptions = {},
  onStep?: (state: SorcerousFuturesState, log: LogEntry[]) => void,
  maxSteps = 20000,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let g = started(setup({ players, options, seed }));
  const moves: Array<[Seat, Action]> = [];
  onStep?.(g.state, g.log);
  while (g.state.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const active = activeSeats(g.state);
    const seat = active[Math.floor(random() * active.length)];
    const action = randomLegalAction(legalActions(g.state, seat), random);
    if (!action) throw new Error(`seat ${seat} has no legal action`);
    const r = stepped(g, apply(g.state, seat, action));
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    moves.push([seat, action]);
    g = r.value;
    onStep?.(g.state, g.log);
  }
  return { seed, players, options, moves, final: g.state, log: g.log };
}
