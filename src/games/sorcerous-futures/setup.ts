/** Setup: everyone gets $100, then the first game is dealt (a simultaneous setup phase). */
import { seedRng } from "../rng.js";
import type { GameEvent, SetupContext, Step } from "../types.js";
import { dealGame } from "./deal.js";
import {
  GAME_ID,
  MAX_PLAYERS,
  MIN_PLAYERS,
  STARTING_MONEY,
  type SorcerousFuturesOptions,
  type SorcerousFuturesState,
} from "./state.js";

export function setup(ctx: SetupContext<SorcerousFuturesOptions>): Step<SorcerousFuturesState> {
  const { players, seed } = ctx;
  const options = ctx.options ?? {};
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RangeError(`Sorcerous Futures needs ${MIN_PLAYERS}-${MAX_PLAYERS} players, got ${players}`);
  }
  const n = players;
  const state: SorcerousFuturesState = {
    game: GAME_ID,
    players: n,
    rng: seedRng(seed),
    // The Pawns or Courts are used only with 5 players ("pawns" unless the room chose "courts").
    extended: n === 5 ? (options.extended ?? "pawns") : null,
    matchGames: options.match === 3 ? 3 : 1,
    matchGame: 1,
    phase: "setup",
    turn: null,
    money: Array(n).fill(STARTING_MONEY),
    deck: [],
    valuations: [],
    faceDown: [],
    extraValuations: [],
    extraSetAside: [],
    knowledge: {},
    paid: Array(n).fill(0),
    confirmed: Array(n).fill(false),
    revealed: [],
    excuse: null,
    firstExcuse: null,
    marketSize: n === 4 ? 5 : 4,
    marketNumber: 0,
    market: [],
    auction: null,
    auctions: 0,
    holdings: [],
    discard: [],
    results: [],
  };
  const events: GameEvent[] = [];
  return { state: dealGame(state, events), events };
}
