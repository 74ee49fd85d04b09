import { describe, expect, it } from "vitest";
import { isReliable, leftTooMany } from "./reliability.js";

describe("reliability (rooms kept for players who play their games out)", () => {
  it("admits a player who left at most one in ten of their latest ranked games, and a newcomer", () => {
    expect(isReliable({ games: 0, left: 0 })).toBe(true);
    expect(isReliable({ games: 10, left: 1 })).toBe(true);
    expect(isReliable({ games: 100, left: 10 })).toBe(true);
    expect(isReliable({ games: 9, left: 1 })).toBe(false);
    expect(isReliable({ games: 100, left: 11 })).toBe(false);
    expect(isReliable({ games: 1, left: 1 })).toBe(false);
  });

  it("tells the player refused their own numbers", () => {
    expect(leftTooMany({ games: 5, left: 2 }, false).code).toBe("LEFT_TOO_MANY");
    expect(leftTooMany({ games: 5, left: 2 }, false).message).toBe("This table is for players who play their games out (who left at most 1 in 10 of their latest ranked games); you left 2 of your latest 5 ranked games.");
    expect(leftTooMany({ games: 1, left: 1 }, true).message).toBe("Only players who left at most 1 in 10 of their latest ranked games may sit at such a table, and you left 1 of your one ranked game, so you cannot make one. Play ranked games out to make it again.");
  });
});
