/**
 * The words of a game's result shared by the end screen, the Goblin Teeth log and the server's
 * end-of-game notices (words.ts): a seat a bot finished for its player, who resigned or ran out of
 * time, wins as a seat ("Bram's seat wins (played by a bot after Bram resigned)"), never as them.
 */
import { describe, expect, it } from "vitest";
import { andList, ordinal, resultSubject, resultSubjectNoted, winnersSentence, type ResultSeat } from "./words.js";

const ann: ResultSeat = { name: "Ann", forfeit: null };
const bram: ResultSeat = { name: "Bram", forfeit: "resigned" };
const cy: ResultSeat = { name: "Cy", forfeit: "timeout" };

describe("a game's result in words", () => {
  it("says places as ordinals and lists as English does", () => {
    expect([1, 2, 3, 11, 22].map(ordinal)).toEqual(["1st", "2nd", "3rd", "11th", "22nd"]);
    expect([[], ["Ann"], ["Ann", "Bea"], ["Ann", "Bea", "Cy"]].map(andList)).toEqual(["", "Ann", "Ann and Bea", "Ann, Bea and Cy"]);
  });

  it("names a player who played their seat out, and the seat of one a bot played for", () => {
    expect(resultSubject(ann)).toEqual({ who: "Ann", bot: null });
    expect(resultSubject(bram)).toEqual({ who: "Bram's seat", bot: "played by a bot after Bram resigned" });
    expect(resultSubject(cy)).toEqual({ who: "Cy's seat", bot: "played by a bot after Cy ran out of time" });
    expect(resultSubject({ ...bram, you: true })).toEqual({ who: "your seat", bot: "played by a bot after you resigned" });
    expect(resultSubjectNoted(bram)).toBe("Bram's seat (played by a bot after Bram resigned)");
    expect(resultSubjectNoted(ann)).toBe("Ann");
  });

  it("cheers a winner who played, and says a bot-played seat won without the cheer", () => {
    expect(winnersSentence([ann])).toBe("Ann wins!");
    expect(winnersSentence([{ ...ann, you: true }])).toBe("You win!");
    expect(winnersSentence([bram])).toBe("Bram's seat wins (played by a bot after Bram resigned)");
    expect(winnersSentence([cy])).toBe("Cy's seat wins (played by a bot after Cy ran out of time)");
    expect(winnersSentence([{ ...bram, you: true }])).toBe("Your seat wins (played by a bot after you resigned)");
    expect(winnersSentence([bram], { end: "." })).toBe("Bram's seat wins (played by a bot after Bram resigned).");
  });

  it("shares first place, each bot-played seat said as such", () => {
    expect(winnersSentence([ann, { name: "Bea", forfeit: null }])).toBe("Ann and Bea share first place!");
    expect(winnersSentence([ann, bram])).toBe("Ann and Bram's seat share first place (Bram's seat played by a bot after Bram resigned)");
    expect(winnersSentence([{ ...ann, you: true }, bram, cy], { shared: "share the win", end: "." })).toBe(
      "You, Bram's seat and Cy's seat share the win (Bram's seat played by a bot after Bram resigned; Cy's seat played by a bot after Cy ran out of time).",
    );
    // A player's own name keeps the letters they chose; only "you" starts the sentence with a capital.
    expect(winnersSentence([{ name: "émile", forfeit: null }])).toBe("émile wins!");
  });
});
