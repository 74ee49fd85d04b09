/**
 * Steps E and F as pure computations over owned cards: sisterhood money and goblin money.
 */
import { card, type Suit } from "../decktet/cards.js";

/** Rank of a basic card as a number: Ace 1, numbers 2-9, Crown 10. */
export function rankOf(id: string): number {
  return card(id).value ?? 0;
}

/** The rank just below `rank`, wrapping: below Ace is Crown, below Crown is 9. */
export function rankBelow(rank: number): number {
  return rank === 1 ? 10 : rank - 1;
}

/** The rank a bid's last digit names: 0 = Crown (10), 1 = Ace, 2-9 = that number. */
export function rankOfDigit(bid: number): number {
  const d = bid % 10;
  return d === 0 ? 10 : d;
}

/** [rank paying 3, rank paying 2, rank paying 1] for a winning bid. */
export function payingRanks(winningBid: number): [number, number, number] {
  const r3 = rankOfDigit(winningBid);
  const r2 = rankBelow(r3);
  return [r3, r2, rankBelow(r2)];
}

export interface SisterhoodPayout {
  coins: number;
  /** The owned cards that paid, with what each paid. */
  cards: Array<{ card: string; coins: number }>;
}

/** Sisterhood money for a player who got no card from an auction won with `winningBid`. */
export function sisterhoodPayout(owned: readonly string[], winningBid: number): SisterhoodPayout {
  const [r3, r2, r1] = payingRanks(winningBid);
  const cards: SisterhoodPayout["cards"] = [];
  for (const id of owned) {
    const r = rankOf(id);
    const coins = r === r3 ? 3 : r === r2 ? 2 : r === r1 ? 1 : 0;
    if (coins > 0) cards.push({ card: id, coins });
  }
  return { coins: cards.reduce((s, c) => s + c.coins, 0), cards };
}

export interface GoblinPayout {
  coins: number;
  /** Suits of the goblin card that are on none of the player's cards (one coin each). */
  suits: Suit[];
}

/** Goblin money: one coin per suit on the goblin card that is on none of the owned cards. */
export function goblinPayout(owned: readonly string[], goblinCard: string): GoblinPayout {
  const have = new Set(owned.flatMap((id) => card(id).suits));
  const suits = card(goblinCard).suits.filter((s) => !have.has(s));
  return { coins: suits.length, suits };
}
