/** Setup: shuffle both decks, give everyone 10 coins, pick the first bidder, start auction 1. */
import { BASIC_DECK } from "../decktet/cards.js";
import { randomInt, seedRng, shuffle } from "../rng.js";
import type { GameEvent, SetupContext, Step } from "../types.js";
import { GOBLIN_CARDS, startAuction } from "./deal.js";
import { GAME_ID, STARTING_COINS, type GoblinMarketOptions, type GoblinMarketState } from "./state.js";

export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 6;

export function setup(ctx: SetupContext<GoblinMarketOptions>): Step<GoblinMarketState> {
  const { players, seed } = ctx;
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RangeError(`Goblin Market needs ${MIN_PLAYERS}-${MAX_PLAYERS} players, got ${players}`);
  }
  let rng = seedRng(seed);
  const auctionDeck = shuffle(rng, BASIC_DECK);
  rng = auctionDeck.rng;
  const goblinDeck = shuffle(rng, GOBLIN_CARDS);
  rng = goblinDeck.rng;
  // Online stand-in for "the youngest player starts the bidding".
  const first = randomInt(rng, players);
  rng = first.rng;
  const state: GoblinMarketState = {
    game: GAME_ID,
    players,
    rng,
    phase: "bidding",
    turn: first.value,
    coins: Array(players).fill(STARTING_COINS),
    owned: Array.from({ length: players }, () => []),
    auctionDeck: auctionDeck.value,
    goblinDeck: goblinDeck.value,
    goblinFlipped: [],
    sizeCards: [],
    discard: [],
    auction: null,
    lastPayouts: null,
  };
  const events: GameEvent[] = [{ type: "game-start", players, coins: STARTING_COINS, firstBidder: first.value }];
  return { state: startAuction(state, first.value, 1, events), events };
}
