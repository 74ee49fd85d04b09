/** Small English words shared by the server's notices and the web client (one place, one rule). */
import type { SeatAway } from "./wire.js";

/** "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", ... */
export function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return n % 10 === 1 ? `${n}st` : n % 10 === 2 ? `${n}nd` : n % 10 === 3 ? `${n}rd` : `${n}th`;
}

/** "Ann", "Ann and Bea", "Ann, Bea and Cy". */
export function andList(xs: readonly string[]): string {
  return xs.length <= 2 ? xs.join(" and ") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

/** A seat as a game's result names it. */
export interface ResultSeat {
  /** Its player's name (a bot's own name for a bot's seat). */
  name: string;
  /** A bot finished the seat for its player, who resigned or ran out of time (the seat's `away` at the end); null: they played it out. */
  forfeit: SeatAway | null;
  /** The reader's own seat. */
  you?: boolean;
}

/** What the player of a seat a bot finished did: "resigned", "ran out of time". */
export function forfeitWords(forfeit: SeatAway): string {
  return forfeit === "resigned" ? "resigned" : "ran out of time";
}

/**
 * Who a result names for a seat, mid-sentence: its player ("Bram", "you"); or, for a seat a bot
 * finished for its player, the seat ("Bram's seat", "your seat") with how (`bot`: "played by a bot
 * after Bram resigned"): the player did not win or place there, their seat did.
 */
export function resultSubject(s: ResultSeat): { who: string; bot: string | null } {
  if (!s.forfeit) return { who: s.you ? "you" : s.name, bot: null };
  return { who: s.you ? "your seat" : `${s.name}'s seat`, bot: `played by a bot after ${s.you ? "you" : s.name} ${forfeitWords(s.forfeit)}` };
}

/** The subject with its bot's note, for a list: "Bram's seat (played by a bot after Bram resigned)". */
export function resultSubjectNoted(s: ResultSeat): string {
  const r = resultSubject(s);
  return r.bot ? `${r.who} (${r.bot})` : r.who;
}

/** A sentence's first letter up, when it is the reader's "you"/"your" (a player's name is left as they wrote it). */
export function sentenceStart(text: string, you: boolean | undefined): string {
  return you ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * The winners of a game in a sentence: "Bram wins!", "You win!", "Ann and Bea share first place!";
 * a seat a bot finished for its player wins as a seat, and without the cheer: "Bram's seat wins
 * (played by a bot after Bram resigned)", "Ann and Bram's seat share first place (Bram's seat played
 * by a bot after Bram resigned)". `shared`: the words of a shared win; `end`: the mark after it
 * ("!" is left off after a bot's note).
 */
export function winnersSentence(winners: readonly ResultSeat[], o: { shared?: string; end?: "!" | "." } = {}): string {
  const subjects = winners.map(resultSubject);
  const noted = subjects.filter((x) => x.bot !== null);
  const one = subjects.length === 1;
  const verb = one ? (subjects[0]!.who === "you" ? "win" : "wins") : (o.shared ?? "share first place");
  const note = noted.length === 0 ? "" : one ? ` (${noted[0]!.bot})` : ` (${noted.map((x) => `${x.who} ${x.bot}`).join("; ")})`;
  const end = o.end ?? "!";
  return sentenceStart(`${andList(subjects.map((x) => x.who))} ${verb}${note}${noted.length > 0 && end === "!" ? "" : end}`, winners[0]?.you);
}
