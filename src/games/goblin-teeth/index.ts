/** Goblin Teeth (Frank Tedeschi): a dice bidding game for 2-5 players, with Cheat cards. */
import type { GameDefinition } from "../types.js";
import { apply } from "./apply.js";
import { activeSeats, legalActions } from "./legal.js";
import { parseOptions } from "./options.js";
import { setup } from "./setup.js";
import { GAME_ID, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, type GoblinTeethOptions, type GoblinTeethState } from "./state.js";
import { outcome, view } from "./view.js";
import { clockPresets } from "./pace.js";
import { goblinTeethBot } from "./bot.js";

export const goblinTeeth: GameDefinition<GoblinTeethState, GoblinTeethOptions> = {
  id: GAME_ID,
  name: "Goblin Teeth",
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
  // States of version 1 read as they are (same shape); each keeps its own rules (state.rules).
  rulesVersion: RULES_VERSION,
  clockPresets,
  optionSpecs: [
    {
      key: "advanced",
      label: "Offerings",
      choices: [
        { value: false, label: "Basic", detail: "The 6-Item Offering, with one A and one B Offering shared by everyone." },
        { value: true, label: "Advanced", detail: "The 6-Item Offering, and an A and a B Offering in front of each player (for experienced players)." },
      ],
    },
  ],
  parseOptions,
  setup,
  activeSeats,
  legalActions,
  apply,
  view,
  isOver: (state) => state.phase === "over",
  outcome,
  bot: goblinTeethBot,
};

export type {
  GoblinTeethState,
  GoblinTeethOptions,
  Phase,
  Die,
  DieSpot,
  PotSlot,
  Decision,
  InPlay,
  TurnState,
  Award,
  GameResult,
} from "./state.js";
