/** Goblin Market (P.D. Magnus): a Decktet auction game for 3-6 players. */
import type { GameDefinition } from "../types.js";
import { apply } from "./apply.js";
import { activeSeats, legalActions } from "./legal.js";
import { parseOptions } from "./options.js";
import { MAX_PLAYERS, MIN_PLAYERS, setup } from "./setup.js";
import { GAME_ID, type GoblinMarketOptions, type GoblinMarketState } from "./state.js";
import { outcome, view, viewKey } from "./view.js";
import { goblinMarketBot } from "./bot.js";

export const goblinMarket: GameDefinition<GoblinMarketState, GoblinMarketOptions> = {
  id: GAME_ID,
  name: "Goblin Market",
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
  parseOptions,
  setup,
  activeSeats,
  legalActions,
  apply,
  view,
  viewKey,
  isOver: (state) => state.phase === "over",
  outcome,
  bot: goblinMarketBot,
};

export type { GoblinMarketState, GoblinMarketOptions, Auction, Bid, Payouts, Phase } from "./state.js";
export type { SeatScore } from "./scoring.js";
