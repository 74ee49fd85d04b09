/**
 * Setup: shuffle the deck with the seeded RNG (the same seed always gives the same deal, so a
 * daily challenge can give everyone one deal), 4 chips of each suit, deal the market of three.
 * The first market is dealt as a refill of an empty market (so, extended, an Excuse drawn
 * there removes the cards dealt before it and is discarded). Events: game-start, then that refill.
 */
import { SUITS, type Suit } from "../decktet/cards.js";
import { seedRng, shuffle } from "../rng.js";
import type { SetupContext, Step } from "../types.js";
import { refillMarket } from "./market.js";
import { gameDeck } from "./ranks.js";
import { andThen } from "./turn.js";
import { GAME_ID, MAX_PLAYERS, MIN_PLAYERS, STARTING_CHIPS, type AucteradenOptions, type AucteradenState } from "./state.js";

export function setup(ctx: SetupContext<AucteradenOptions>): Step<AucteradenState> {
  const { players, seed } = ctx;
  if (players !== MIN_PLAYERS && players !== MAX_PLAYERS) {
    throw new RangeError(`Aucteraden is for exactly one player, got ${players}`);
  }
  const extended = ctx.options?.extended === true;
  const shuffled = shuffle(seedRng(seed), gameDeck(extended));
  const chips = Object.fromEntries(SUITS.map((s) => [s, STARTING_CHIPS])) as Record<Suit, number>;
  const state: AucteradenState = {
    game: GAME_ID,
    players: 1,
    rng: shuffled.rng,
    extended,
    phase: "play",
    turn: 0,
    deck: shuffled.value,
    market: [null, null, null],
    tableau: [],
    chips,
    marketDiscards: 0,
    discard: [],
    ended: null,
  };
  const start = { type: "game-start", extended, chips: STARTING_CHIPS, deckCount: shuffled.value.length };
  return andThen({ state, events: [start] }, refillMarket);
}
