/**
 * The Decktet, shared by every Decktet game. Data copied from ../shared/data/decktet.json.
 */
import data from "./decktet.json" with { type: "json" };

export type Suit = "Moons" | "Suns" | "Waves" | "Leaves" | "Wyrms" | "Knots";
export type Rank = "Ace" | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | "Crown" | "Pawn" | "Court" | null;

export interface DecktetCard {
  id: string;
  name: string;
  rank: Rank;
  /** Ace 1, numbers 2-9, Crown 10; null for Pawns, Courts and the Excuse. */
  value: number | null;
  suits: Suit[];
  deck: "basic" | "extended";
  types: string[];
}

export const SUITS: readonly Suit[] = data.suits as Suit[];
export const ALL_CARDS: readonly DecktetCard[] = data.cards as DecktetCard[];

const byId = new Map(ALL_CARDS.map((c) => [c.id, c]));

export function card(id: string): DecktetCard {
  const c = byId.get(id);
  if (!c) throw new Error(`unknown Decktet card ${id}`);
  return c;
}

export function isCardId(id: unknown): id is string {
  return typeof id === "string" && byId.has(id);
}

/** The 36 cards of the basic deck, in data order. */
export const BASIC_DECK: readonly string[] = ALL_CARDS.filter((c) => c.deck === "basic").map((c) => c.id);
export const PAWNS: readonly string[] = ALL_CARDS.filter((c) => c.rank === "Pawn").map((c) => c.id);
export const COURTS: readonly string[] = ALL_CARDS.filter((c) => c.rank === "Court").map((c) => c.id);
export const EXCUSE = "excuse";
