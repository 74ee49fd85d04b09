/**
 * The Goblin Teeth state: plain JSON (card ids, dice and small arrays), stored on every change.
 *
 * Secret parts (decided in view.ts, never sent as such): `rng`; `itemDeck` and `cheatDeck`
 * (contents and order; a seat that put a card on top of the Cheat deck knows it, per
 * `knowledge`); `hands` (each seat sees its own, others only the size and the cards `knowledge`
 * says they know); the face-down Item in the Pot (only the seats in `knowledge`). Public: dice,
 * bids, the face-up Items (by face: type and teeth, never by id), Ongoing cards, the Cheat
 * discard pile, cards in play, Offerings, hand sizes, deck counts.
 */
import type { Knowledge } from "../knowledge.js";
import type { RngState } from "../rng.js";
import type { BaseState, Seat } from "../types.js";

export const GAME_ID = "goblin-teeth";
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 5;

/**
 * The version of these rules (GameDefinition.rulesVersion). 2: at the end of the round Pass can't
 * be played with nothing to draw, through Sneak Preview either (1 allowed that play, which drew
 * nothing). A game keeps the rules it was dealt under to its end (`GoblinTeethState.rules`).
 */
export const RULES_VERSION = 2;

/** Room options as given (after parseOptions). */
export interface GoblinTeethOptions {
  /** Advanced play: each player gets their own A and B Offering. */
  advanced?: boolean;
}

/**
 * start: the round's start-of-round decisions (Fresh Start, Blessed) are being taken.
 * turn:  players take turns; `turn` is the seat whose turn it is.
 * end:   the last die is placed; the Patient holder may play a card before the Items are awarded.
 * over:  someone completed an Offering (or the Item deck ran out).
 */
export type Phase = "start" | "turn" | "end" | "over";

/** Where a die is: unplayed ("supply"), on the Altar, or on the Pot slot with that index. */
export type DieSpot = "supply" | "altar" | number;

/** A die; its id is its index in `dice` (seat s owns dice 3s, 3s+1, 3s+2). */
export interface Die {
  owner: Seat;
  value: number;
  at: DieSpot;
}

/** One Item in the Pot; slot 0 is the face-down Item. */
export interface PotSlot {
  item: string;
  faceDown: boolean;
}

/**
 * A decision someone must take before play goes on, first in `pending` first. Decisions tagged
 * with `card` belong to the text of that card in play (it is finished when they are all taken);
 * the others are triggers of Ongoing cards.
 */
export type Decision =
  | { kind: "fresh-start"; seat: Seat }
  | { kind: "blessed"; seat: Seat; die: number }
  | { kind: "clumsy"; seat: Seat; slot: number; die: number }
  | { kind: "help-draw"; seat: Seat; card: string }
  | { kind: "share"; seat: Seat; card: string; cards: string[] }
  | { kind: "quick-fingers"; seat: Seat; card: string }
  | { kind: "preview"; seat: Seat; card: string }
  | { kind: "patient"; seat: Seat };

export type DecisionKind = Decision["kind"];

/** An Action card being resolved (face up, public). `preview`: it returns to hand when done. */
export interface InPlay {
  card: string;
  seat: Seat;
  preview: boolean;
}

/** What the seat whose turn it is has done this turn. */
export interface TurnState {
  /** Cheat cards played from hand this turn (Lawful). */
  cheats: number;
  /** Pass was played: the turn may end without placing a die. */
  passed: boolean;
  /** A die was placed: the turn ends once pending decisions are taken. */
  placed: boolean;
  /** Poisoner was used this turn. */
  poisoned: boolean;
  /** The player ended the turn without placing (after Pass). */
  ended: boolean;
}

/** One Pot slot's result at the end of a round. */
export interface Award {
  slot: number;
  faceDown: boolean;
  /** Who took it; null when nobody bid (it went back into the Item deck). */
  seat: Seat | null;
  bid: number | null;
}

/** The end of the game, fully public. */
export interface GameResult {
  reason: "offering" | "items-exhausted";
  round: number;
  /** Per seat: the best Offering completed (id), or null. */
  completed: Array<string | null>;
  teeth: number[];
  scores: number[];
  places: number[];
  winners: Seat[];
  /** Every hand, revealed. */
  hands: string[][];
}

export interface GoblinTeethState extends BaseState {
  game: typeof GAME_ID;
  rng: RngState;
  advanced: boolean;
  phase: Phase;
  /** 1-based round number. */
  round: number;
  /** Holder of the first player token. */
  firstPlayer: Seat;
  /** The seat whose turn it is (phase turn); null otherwise. */
  turn: Seat | null;
  /** Undrawn Items, top first. Secret. */
  itemDeck: string[];
  /** Undrawn Cheat cards, top first. Secret (see knowledge). */
  cheatDeck: string[];
  /** Cheat discard pile, bottom first (the last card is the top). Public. */
  discard: string[];
  /** Each seat's hand (Cheat cards and Items mixed). Secret but for the size. */
  hands: string[][];
  /** Ongoing cards in front of each seat. Public. */
  ongoing: string[][];
  /** The Offerings everyone can complete: the 6-Item Offering, and in the basic game one A and one B. */
  offerings: string[];
  /** Advanced play: each seat's own [A, B] Offerings; null in the basic game. */
  seatOfferings: string[][] | null;
  pot: PotSlot[];
  dice: Die[];
  /** Card id -> seats that know exactly where it is (cards in hands, the Cheat deck, face down). */
  knowledge: Knowledge;
  /** Cards in hands whose whereabouts everyone (spectators too) knows: shown with Sneak Preview. */
  shown: string[];
  turnState: TurnState;
  /** Action cards being resolved, oldest first (a Sneak Preview under the card it plays). */
  inPlay: InPlay[];
  pending: Decision[];
  /** Whether the Patient holder has had their end-of-round chance this round. */
  patientDone: boolean;
  /** The previous round's awards (public). */
  lastAwards: Award[] | null;
  result: GameResult | null;
  /**
   * The rules version this game is played under, from its setup to its end (absent: 1, as in
   * every state made before version 2). Public: the same for everyone, and never in a view.
   */
  rules?: number;
}
