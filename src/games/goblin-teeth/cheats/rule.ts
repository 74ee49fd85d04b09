/**
 * The shape of one Cheat card's rules, and the argument checks the cards share. A card's choices
 * are action parameters; `domains` lists candidate values, `check` decides one concrete choice
 * (with a specific error), and the legal-action templates are built from exactly those two, so
 * what legalActions offers and what apply accepts are the same set.
 */
import type { GameError, Seat } from "../../types.js";
import { cheat, isCheat, isItem } from "../data.js";
import { isDieId } from "../dice.js";
import type { Draft } from "../draft.js";
import type { GoblinTeethState } from "../state.js";

/** How a card is being played: on your turn, through Sneak Preview, or at the end of the round (Patient). */
export type PlayMode = "turn" | "preview" | "patient";

export interface PlayCtx {
  seat: Seat;
  mode: PlayMode;
  /** The card being played. */
  card: string;
}

export type Fields = Record<string, unknown>;
export type Choice = string | number;

export interface CheatRule {
  /** Parameters besides `type` and `card`, in order. */
  params: readonly string[];
  /** Parameters whose value never changes whether the rest is legal (every template lists all of them). */
  free?: readonly string[];
  /** Parameters whose values are hidden cards: left out of the public log entry. */
  secret?: readonly string[];
  /** Candidate values of each parameter (a superset of the legal ones). */
  domains(s: GoblinTeethState, ctx: PlayCtx): Record<string, Choice[]>;
  /** Why the card cannot be played at all right now, whatever the choices; null if it may be. */
  precondition?(s: GoblinTeethState, ctx: PlayCtx): GameError | null;
  /** What is wrong with this concrete choice; null if it is legal. Fields are present but unchecked. */
  check(s: GoblinTeethState, ctx: PlayCtx, f: Fields): GameError | null;
  /** Resolve the card's text on the draft (the card is already out of the hand, and in play if an Action). */
  play(d: Draft, ctx: PlayCtx, f: Fields): void;
}

export const err = (code: string, message: string): GameError => ({ code, message });

export function dieArg(s: GoblinTeethState, v: unknown, name = "die"): GameError | null {
  return isDieId(s, v) ? null : err("BAD_DIE", `Choose a die for ${name}: a die id 0-${s.dice.length - 1}.`);
}

export function slotArg(s: GoblinTeethState, v: unknown, name = "slot"): GameError | null {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < s.pot.length
    ? null
    : err("BAD_SLOT", `Choose an Item in the Pot for ${name}: slot 0-${s.pot.length - 1}.`);
}

export function seatArg(s: GoblinTeethState, v: unknown, name = "target"): GameError | null {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < s.players
    ? null
    : err("BAD_TARGET", `Choose a player for ${name}: seat 0-${s.players - 1}.`);
}

export function handCardArg(s: GoblinTeethState, seat: Seat, v: unknown, name: string): GameError | null {
  return typeof v === "string" && s.hands[seat].includes(v) ? null : err("NOT_IN_HAND", `The ${name} must be a card in your hand.`);
}

export function handItemArg(s: GoblinTeethState, seat: Seat, v: unknown, name = "item"): GameError | null {
  if (typeof v !== "string" || !s.hands[seat].includes(v)) return err("NOT_IN_HAND", `The ${name} must be an Item in your hand.`);
  return isItem(v) ? null : err("NOT_AN_ITEM", `The ${name} must be an Item, not a Cheat card.`);
}

export function cardName(id: string): string {
  return isCheat(id) ? cheat(id).name : "an Item";
}

/** Values of `seat`'s hand that are Items. */
export function handItems(s: GoblinTeethState, seat: Seat): string[] {
  return s.hands[seat].filter((c) => isItem(c));
}

/**
 * The choice "none": a step of the card that can't be done now (Pilfer's take is optional; Revivify's
 * give with one card taken; Sneaky Sneaky's die and value with no unplayed die). Offered only then.
 */
export const NONE = "none";

/** The Pot slot holding the face-down Item (slot 0), or null when there is none (Refresh took it away). */
export function faceDownSlot(s: GoblinTeethState): number | null {
  return s.pot[0]?.faceDown ? 0 : null;
}

export const allDice = (s: GoblinTeethState): number[] => s.dice.map((_, id) => id);
export const allSlots = (s: GoblinTeethState): number[] => s.pot.map((_, slot) => slot);
export const allSeats = (s: GoblinTeethState): number[] => Array.from({ length: s.players }, (_, seat) => seat);
