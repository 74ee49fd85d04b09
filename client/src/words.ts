/** Small English words for numbers, shared by every page (one place, one rule). */

/** "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", ... */
export function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return n % 10 === 1 ? `${n}st` : n % 10 === 2 ? `${n}nd` : n % 10 === 3 ? `${n}rd` : `${n}th`;
}

/** "1 player", "3 players", "0 players"; `many` for an irregular plural ("1 tooth", "2 teeth"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "1 card", "2 cards". */
export const cardsWord = (n: number): string => plural(n, "card");

/** "1 coin", "5 coins". */
export const coinsWord = (n: number): string => plural(n, "coin");
