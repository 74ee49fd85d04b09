/** Sorcerous Futures (Adam Blinkinsop, P.D. Magnus): a Decktet commodity-speculation auction game for 3-5 players. */
import type { GameDefinition } from "../types.js";
import { apply } from "./apply.js";
import { activeSeats, legalActions } from "./legal.js";
import { parseOptions } from "./options.js";
import { setup } from "./setup.js";
import {
  GAME_ID,
  MAX_PLAYERS,
  MIN_PLAYERS,
  type SorcerousFuturesOptions,
  type SorcerousFuturesState,
} from "./state.js";
import { outcome, view } from "./view.js";
import { clockPresets } from "./pace.js";
import { sorcerousFuturesBot } from "./bot.js";

export const sorcerousFutures: GameDefinition<SorcerousFuturesState, SorcerousFuturesOptions> = {
  id: GAME_ID,
  name: "Sorcerous Futures",
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
  optionSpecs: [
    {
      key: "match",
      label: "Length",
      choices: [
        { value: 1, label: "One game" },
        { value: 3, label: "Three-game match", detail: "A series of three games; each player keeps their bankroll from one game to the next." },
      ],
    },
    {
      key: "extended",
      label: "Deck",
      choices: [
        { value: "pawns", label: "With the Pawns", detail: "With five players the four Pawns join the deck." },
        { value: "courts", label: "With the Courts", detail: "With five players the four Courts join the deck." },
      ],
      players: [5],
    },
  ],
  clockPresets,
  parseOptions,
  setup,
  activeSeats,
  legalActions,
  apply,
  view,
  isOver: (state) => state.phase === "over",
  outcome,
  bot: sorcerousFuturesBot,
};

export type {
  SorcerousFuturesState,
  SorcerousFuturesOptions,
  Auction,
  AuctionMove,
  Extended,
  Phase,
} from "./state.js";
export type { GameResult, SeatSale, SuitSale, SuitValue, ItemSale } from "./sale.js";
export type { Pending } from "./view.js";
