/**
 * Build states in chosen positions (for tests and worked examples), play move lists, and play
 * whole seeded random games (any active seat may act: setup is simultaneous).
 */
import { learn, type Knowledge } from "../knowledge.js";
import { randomLegalAction } from "../legal.js";
import type { Action, Seat } from "../types.js";
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
import { deepFreeze, seededRandom } from "../testing.js";

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
  return setup({ players, options: { extended: extended ?? undefined }, seed });
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
    log: [],
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

/** A state after setup, at the Excuse holder's pick (or its auction, when the market has one card). */
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
    log: [],
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
  return nextPick(s);
}

/** Apply `moves` in order; throws (with the error code) if one is refused. */
export function play(state: SorcerousFuturesState, moves: ReadonlyArray<readonly [Seat, Action]>): SorcerousFuturesState {
  let s = state;
  for (const [seat, action] of moves) {
    const r = apply(s, seat, action);
    if (!r.ok) throw new Error(`seat ${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    s = r.value;
  }
  return s;
}

/** Every seat passes in turn until the current auction is over (the card is discarded). */
export function allPass(state: SorcerousFuturesState): SorcerousFuturesState {
  let s = state;
  const number = s.auction!.number;
  while (s.auction?.number === number) s = play(s, [[s.turn!, { type: "pass" }]]);
  return s;
}

export { deepFreeze, seededRandom };

export interface RandomGame {
  seed: string;
  players: number;
  options: SorcerousFuturesOptions;
  moves: Array<[Seat, Action]>;
  final: SorcerousFuturesState;
}

/**
 * Play a whole match with uniformly random legal actions (seeded): at each step a random
 * active seat acts. `onStep` sees every state reached (including the first). Throws if a
 * chosen legal action is refused or the game runs longer than `maxSteps`.
 */
export function randomGame(
  players: number,
  seed: string,
  options: SorcerousFuturesOptions = {},
  onStep?: (state: SorcerousFuturesState) => void,
  maxSteps = 20000,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let s = setup({ players, options, seed });
  const moves: Array<[Seat, Action]> = [];
  onStep?.(s);
  while (s.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const active = activeSeats(s);
    const seat = active[Math.floor(random() * active.length)];
    const action = randomLegalAction(legalActions(s, seat), random);
    if (!action) throw new Error(`seat ${seat} has no legal action`);
    const r = apply(s, seat, action);
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    moves.push([seat, action]);
    s = r.value;
    onStep?.(s);
  }
  return { seed, players, options, moves, final: s };
}
