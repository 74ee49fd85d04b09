/** Small English words for numbers, shared by every page (one place, one rule). */

/** "1st", "2nd", ... (shared with the server's notices). */
export { ordinal } from "../../src/protocol/words.js";

/** "1 player", "3 players", "0 players"; `many` for an irregular plural ("1 tooth", "2 teeth"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A number as a score is printed: a negative one with a true minus sign ("−8", not "-8"). */
export const scoreText = (n: number): string => (n < 0 ? `\u2212${-n}` : String(n));

/**
 * What a round avatar shows for a name: its first letter, and a number the name ends with, so
 * "Bot 1" (B1) and "Bob" (B) differ at a glance; "?" for no name.
 */
export const initials = (name: string | null | undefined): string => `${(name?.[0] ?? "?").toUpperCase()}${/\d{1,2}$/.exec(name ?? "")?.[0] ?? ""}`;

/** "1 card", "2 cards". */
export const cardsWord = (n: number): string => plural(n, "card");

/** "1 coin", "5 coins". */
export const coinsWord = (n: number): string => plural(n, "coin");
