import { describe, expect, it } from "vitest";
import { cardsWord, initials, ordinal, plural, scoreText } from "../client/src/words.js";

describe("the client's number words (client/src/words.ts)", () => {
  it("writes places as English ordinals, the teens included", () => {
    expect([1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 21, 22, 23, 101, 111, 112, 113, 121].map(ordinal)).toEqual([
      "1st", "2nd", "3rd", "4th", "5th", "10th", "11th", "12th", "13th", "14th", "21st", "22nd", "23rd", "101st", "111th", "112th", "113th", "121st",
    ]);
  });

  it("counts in the singular only for one", () => {
    expect([0, 1, 2].map(cardsWord)).toEqual(["0 cards", "1 card", "2 cards"]);
    expect(plural(1, "tooth", "teeth")).toBe("1 tooth");
    expect(plural(3, "tooth", "teeth")).toBe("3 teeth");
    expect(plural(2, "player")).toBe("2 players");
  });

  it("prints a negative score with a true minus sign, as the rows beside it", () => {
    expect([-140, -8, 0, 12].map(scoreText)).toEqual(["\u2212140", "\u22128", "0", "12"]);
  });

  it("gives an avatar the name's first letter and the number it ends with, so a bot and a namesake differ", () => {
    expect(["Bob", "Bot 1", "Bot 12", "ada2", "émile", "R2D2x", "", null].map(initials)).toEqual(["B", "B1", "B12", "A2", "É", "R", "?", "?"]);
  });
});
