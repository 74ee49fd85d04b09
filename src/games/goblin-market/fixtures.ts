/**
 * Build a state in a chosen position (for tests and worked examples): the start of an
 * auction's bidding with given coins, owned cards and offer. Unlisted basic cards form the
 * Auction Deck (in data order) unless `auctionDeck` is given. Play it on with `play` (the
 * state) or `playLogged` (the state and the event log a room would keep, from that position on).
 */
import { BASIC_DECK } from "../decktet/cards.js";
import { seedRng } from "../rng.js";
import type { Action, LogEntry, Seat } from "../types.js";
import { randomLegalAction } from "../legal.js";
import { apply } from "./apply.js";
import { legalActions } from "./legal.js";
import { setup } from "./setup.js";
import { GOBLIN_CARDS } from "./deal.js";
import { GAME_ID, STARTING_COINS, type GoblinMarketState } from "./state.js";
import { deepFreeze, seededRandom, started, stepped, type Logged } from "../testing.js";

export interface PositionSpec {
  players: number;
  offer: string[];
  sizeCard?: string | null;
  firstBidder?: Seat;
  coins?: number[];
  owned?: string[][];
  auctionDeck?: string[];
  goblinDeck?: string[];
  goblinFlipped?: string[];
  sizeCards?: string[];
  discard?: string[];
  auctionNumber?: number;
  seed?: string;
}

export function position(spec: PositionSpec): GoblinMarketState {
  const n = spec.players;
  const owned = spec.owned ?? Array.from({ length: n }, () => []);
  const sizeCard = spec.sizeCard === undefined ? null : spec.sizeCard;
  const sizeCards = spec.sizeCards ?? (sizeCard ? [sizeCard] : []);
  const discard = spec.discard ?? [];
  const used = new Set([...spec.offer, ...owned.flat(), ...sizeCards, ...discard]);
  const auctionDeck = spec.auctionDeck ?? BASIC_DECK.filter((c) => !used.has(c));
  const goblinFlipped = spec.goblinFlipped ?? [];
  const goblinDeck = spec.goblinDeck ?? GOBLIN_CARDS.filter((c) => !goblinFlipped.includes(c));
  const firstBidder = spec.firstBidder ?? 0;
  return {
    game: GAME_ID,
    players: n,
    rng: seedRng(spec.seed ?? "fixture"),
    phase: "bidding",
    turn: firstBidder,
    coins: spec.coins ?? Array(n).fill(STARTING_COINS),
    owned: owned.map((o) => [...o]),
    auctionDeck,
    goblinDeck,
    goblinFlipped,
    sizeCards,
    discard,
    auction: {
      number: spec.auctionNumber ?? 1,
      sizeCard,
      offer: [...spec.offer],
      bids: [],
      passed: [],
      firstBidder,
    },
    lastPayouts: null,
  };
}

/**
 * Apply `moves` in order to a state, or to a state with its log; the state and the log with each
 * move's events appended (a bare state starts with an empty log). Throws (with the error code) if
 * a move is refused.
 */
export function playLogged(
  start: GoblinMarketState | Logged<GoblinMarketState>,
  moves: ReadonlyArray<readonly [Seat, Action]>,
): Logged<GoblinMarketState> {
  let g: Logged<GoblinMarketState> = "log" in start ? start : { state: start, log: [] };
  for (const [seat, action] of moves) {
    const r = stepped(g, apply(g.state, seat, action));
    if (!r.ok) throw new Error(`seat ${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    g = r.value;
  }
  return g;
}

/** Apply `moves` in order; the resulting state. Throws (with the error code) if one is refused. */
export function play(state: GoblinMarketState, moves: ReadonlyArray<readonly [Seat, Action]>): GoblinMarketState {
  return playLogged(state, moves).state;
}

export { deepFreeze, seededRandom };
export type { Logged };

export interface RandomGame {
  seed: string;
  players: number;
  moves: Array<[Seat, Action]>;
  final: GoblinMarketState;
  /** The event log a room would keep beside `final`. */
  log: LogEntry[];
}

/**
 * Play a whole game with uniformly random legal actions (seeded), calling `onStep` on every
 * state reached (including the first) with the log so far. Throws if a chosen legal action is
 * refused or the game runs longer than `maxSteps`.
 */
export function randomGame(
  players: number,
  seed: string,
  onStep?: (state: GoblinMarketState, log: LogEntry[]) => void,
  maxSteps = 5000,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let g = started(setup({ players, options: {}, seed }));
  const moves: Array<[Seat, Action]> = [];
  onStep?.(g.state, g.log);
  while (g.state.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const seat = g.state.turn!;
    const action = randomLegalAction(legalActions(g.state, seat), random);
    if (!action) throw new Error(`seat ${seat} has no legal action`);
    const r = stepped(g, apply(g.state, seat, action));
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    moves.push([seat, action]);
    g = r.value;
    onStep?.(g.state, g.log);
  }
  return { seed, players, moves, final: g.state, log: g.log };
}
