/**
 * Build states in chosen positions (for tests and worked examples), play move lists, and play
 * whole seeded random games (with the event log a room would keep beside the state).
 */
import { SUITS, type Suit } from "../decktet/cards.js";
import { randomLegalAction } from "../legal.js";
import { seedRng } from "../rng.js";
import type { Action, LogEntry } from "../types.js";
import { apply } from "./apply.js";
import { legalActions } from "./legal.js";
import { packRight } from "./market.js";
import { gameDeck } from "./ranks.js";
import { setup } from "./setup.js";
import { CENTRE, GAME_ID, STARTING_CHIPS, type AucteradenState, type Phase, type Placed } from "./state.js";
import { deepFreeze, seededRandom, started, stepped, type Logged } from "../testing.js";

/**
 * A tableau from a picture: one string per row, card ids separated by spaces, "." for an empty
 * cell. The picture's top-left corner goes at (top, left), by default the centre cell (3, 3).
 */
export function layout(rows: readonly string[], top = CENTRE, left = CENTRE): Placed[] {
  const out: Placed[] = [];
  rows.forEach((line, r) =>
    line
      .trim()
      .split(/\s+/)
      .forEach((id, c) => {
        if (id !== "." && id !== "") out.push({ row: top + r, col: left + c, card: id });
      }),
  );
  return out;
}

/** Chips per suit: 4 each unless given. */
export function chipsOf(given: Partial<Record<Suit, number>> = {}): Record<Suit, number> {
  return Object.fromEntries(SUITS.map((s) => [s, given[s] ?? STARTING_CHIPS])) as Record<Suit, number>;
}

export interface PositionSpec {
  extended?: boolean;
  /** The market's cards, left to right (packed into the rightmost slots). */
  market: string[];
  tableau?: Placed[];
  chips?: Partial<Record<Suit, number>>;
  /** The undrawn deck, top first; default: every unlisted card of the game, in data order. */
  deck?: string[];
  discard?: string[];
  marketDiscards?: number;
  phase?: Phase;
  seed?: string;
}

export function position(spec: PositionSpec): AucteradenState {
  const extended = spec.extended ?? false;
  const tableau = spec.tableau ?? [];
  const discard = spec.discard ?? [];
  const used = new Set([...spec.market, ...tableau.map((p) => p.card), ...discard]);
  return {
    game: GAME_ID,
    players: 1,
    rng: seedRng(spec.seed ?? "fixture"),
    extended,
    phase: spec.phase ?? "play",
    turn: spec.phase === "over" ? null : 0,
    deck: spec.deck ?? gameDeck(extended).filter((c) => !used.has(c)),
    market: packRight(spec.market),
    tableau: tableau.map((p) => ({ ...p })),
    chips: chipsOf(spec.chips),
    marketDiscards: spec.marketDiscards ?? 0,
    discard: [...discard],
    ended: null,
  };
}

/**
 * Apply `moves` in order from `state` (a position with an empty log, or a state and its log); the
 * state reached and the log with the moves' events. Throws (with the error code) if one is refused.
 */
export function played(state: AucteradenState | Logged<AucteradenState>, moves: readonly Action[]): Logged<AucteradenState> {
  let g: Logged<AucteradenState> = "log" in state && "state" in state ? state : { state, log: [] };
  for (const action of moves) {
    const r = stepped(g, apply(g.state, 0, action));
    if (!r.ok) throw new Error(`${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    g = r.value;
  }
  return g;
}

/** Apply `moves` in order; the state reached. Throws (with the error code) if one is refused. */
export function play(state: AucteradenState, moves: readonly Action[]): AucteradenState {
  return played(state, moves).state;
}

export { deepFreeze, seededRandom };

export interface RandomGame {
  seed: string;
  extended: boolean;
  moves: Action[];
  final: AucteradenState;
  /** The whole game's event log, as a room would keep it. */
  log: LogEntry[];
}

/**
 * Play a whole game with uniformly random legal actions (seeded), calling `onStep` on every
 * state reached (including the first) with the log so far. Throws if a chosen legal action is
 * refused or the game runs longer than `maxSteps`.
 */
export function randomGame(
  seed: string,
  extended = false,
  onStep?: (state: AucteradenState, log: LogEntry[]) => void,
  maxSteps = 500,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let g = started(setup({ players: 1, options: { extended }, seed }));
  const moves: Action[] = [];
  onStep?.(g.state, g.log);
  while (g.state.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const action = randomLegalAction(legalActions(g.state, 0), random);
    if (!action) throw new Error("no legal action");
    const r = stepped(g, apply(g.state, 0, action));
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    moves.push(action);
    g = r.value;
    onStep?.(g.state, g.log);
  }
  return { seed, extended, moves, final: g.state, log: g.log };
}
