/**
 * Build a state in a chosen position (for tests and worked examples): the start of an
 * auction's bidding with given coins, owned cards and offer. Unlisted basic cards form the
 * Auction Deck (in data order) unless `auctionDeck` is given.
 */
import { BASIC_DECK } from "../decktet/cards.js";
import { seedRng } from "../rng.js";
import type { Action, Seat } from "../types.js";
import { randomLegalAction } from "../legal.js";
import { apply } from "./apply.js";
import { legalActions } from "./legal.js";
import { setup } from "./setup.js";
import { GOBLIN_CARDS } from "./deal.js";
import { GAME_ID, STARTING_COINS, type GoblinMarketState } from "./state.js";
import { deepFreeze, seededRandom } from "../testing.js";

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
    log: [],
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

/** Apply `moves` in order; throws (with the error code) if one is refused. */
export function play(
  state: GoblinMarketState,
  moves: ReadonlyArray<readonly [Seat, Action]>,
): GoblinMarketState {
  let s = state;
  for (const [seat, action] of moves) {
    const r = apply(s, seat, action);
    if (!r.ok) throw new Error(`seat ${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    s = r.value;
  }
  return s;
}

export { deepFreeze, seededRandom };

export interface RandomGame {
  seed: string;
  players: number;
  moves: Array<[Seat, Action]>;
  final: GoblinMarketState;
}

/**
 * Play a whole game with uniformly random legal actions (seeded), calling `onStep` on every
 * state reached (including the first). Throws if a chosen legal action is refused or the game
 * runs longer than `maxSteps`.
 */
export function randomGame(
  players: number,
  seed: string,
  onStep?: (state: GoblinMarketState) => void,
  maxSteps = 5000,
): RandomGame {
  const random = seededRandom(`bot:${seed}`);
  let s = setup({ players, options: {}, seed });
  const moves: Array<[Seat, Action]> = [];
  onStep?.(s);
  while (s.phase !== "over") {
    if (moves.length >= maxSteps) throw new Error(`game ${seed} did not end in ${maxSteps} steps`);
    const seat = s.turn!;
    const action = randomLegalAction(legalActions(s, seat), random);
    if (!action) throw new Error(`seat ${seat} has no legal action`);
    const r = apply(s, seat, action);
    if (!r.ok) throw new Error(`legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    moves.push([seat, action]);
    s = r.value;
    onStep?.(s);
  }
  return { seed, players, moves, final: s };
}
