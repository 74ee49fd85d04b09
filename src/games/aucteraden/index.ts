/** Aucteraden (Jack Neal): a solitaire Decktet tableau-building and market game. */
import type { GameDefinition } from "../types.js";
import { apply } from "./apply.js";
import { activeSeats, legalActions } from "./legal.js";
import { parseOptions } from "./options.js";
import { setup } from "./setup.js";
import { GAME_ID, MAX_PLAYERS, MIN_PLAYERS, type AucteradenOptions, type AucteradenState } from "./state.js";
import { outcome, outcomeAsRecorded, view, viewKey } from "./view.js";
import { clockPresets } from "./pace.js";
import { aucteradenBot } from "./bot.js";

export const aucteraden: GameDefinition<AucteradenState, AucteradenOptions> = {
  id: GAME_ID,
  name: "Aucteraden",
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
  // One shared deal a day for everyone (the platform's daily challenge; standard deck).
  daily: true,
  optionSpecs: [
    {
      key: "extended",
      label: "Deck",
      choices: [
        { value: false, label: "Standard Decktet", detail: "The basic deck: Aces, numbered cards and Crowns." },
        { value: true, label: "Extended Decktet", detail: "Adds the Excuse, the Pawns and the Courts, with the rules' extra rules for them." },
      ],
    },
  ],
  clockPresets,
  parseOptions,
  setup,
  activeSeats,
  legalActions,
  apply,
  view,
  viewKey,
  isOver: (state) => state.phase === "over",
  outcome,
  outcomeAsRecorded,
  bot: aucteradenBot,
};

export type { AucteradenState, AucteradenOptions, Market, Phase, Placed } from "./state.js";
export type { Chain, ChipPenalty, ScoreBreakdown, ScoringRules, Verdict } from "./scoring.js";
export type { Offer } from "./legal.js";
export type { Board, Bounds, Cell } from "./tableau.js";
export type { AucteradenView, Pending } from "./view.js";
export type { Draw, Payment, Slot, SlotName } from "./market.js";
