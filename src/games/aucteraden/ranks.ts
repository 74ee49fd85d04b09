/**
 * Aucteraden's view of a Decktet card: its rank for chains (Ace 1, numbers 2-9, Crown 10;
 * Pawns and Courts 0, below Aces, in the extended game) and the kinds the placement rules name.
 */
import { ALL_CARDS, BASIC_DECK, card, EXCUSE } from "../decktet/cards.js";

/** The cards of a game: the 36 basic cards, plus the Excuse, Pawns and Courts when extended. */
export function gameDeck(extended: boolean): readonly string[] {
  return extended ? EXTENDED_DECK : BASIC_DECK;
}

const EXTENDED_DECK: readonly string[] = ALL_CARDS.map((c) => c.id);

/** Rank in a chain: Ace 1 ... Crown 10, Pawn and Court 0. The Excuse never reaches the tableau. */
export function chainRank(id: string): number {
  const c = card(id);
  if (c.value !== null) return c.value;
  if (c.rank === "Pawn" || c.rank === "Court") return 0;
  throw new Error(`${id} has no rank in Aucteraden`);
}

export const isAceOrCrown = (id: string): boolean => {
  const r = card(id).rank;
  return r === "Ace" || r === "Crown";
};

export const isPawnOrCourt = (id: string): boolean => {
  const r = card(id).rank;
  return r === "Pawn" || r === "Court";
};

export const isExcuse = (id: string): boolean => id === EXCUSE;
