import { describe, expect, it } from "vitest";
import { play, position } from "./fixtures.js";
import { goblinMarket } from "./index.js";
import { outcomeOf, rankPlaces, scoreCards } from "./scoring.js";

describe("scoring", () => {
  it("counts both suits of a number card, one suit of an Ace or Crown", () => {
    const s = scoreCards(["pact", "diplomat", "mountain", "huntress", "ace-waves"]);
    expect(s.suitCounts).toEqual({ Moons: 4, Suns: 3, Waves: 1, Leaves: 0, Wyrms: 0, Knots: 0 });
    expect(s.positiveSuits).toEqual(["Moons", "Suns", "Waves"]);
    expect(s.negativeSuits).toEqual(["Leaves", "Wyrms", "Knots"]);
    expect(s).toMatchObject({ positive: 8, negative: 0, score: 8 });
  });

  it("number cards are worth +2, 0 or -2; Aces and Crowns +1 or -1", () => {
    // Moons 3; Suns, Leaves, Wyrms, Knots 2 each (which two count as positive does not change the score); Waves 1
    const s = scoreCards(["pact", "forest", "huntress", "painter", "battle", "cave", "end"]);
    expect(s.suitCounts).toEqual({ Moons: 3, Suns: 2, Waves: 1, Leaves: 2, Wyrms: 2, Knots: 2 });
    expect(s.positive).toBe(7);
    expect(s.negative).toBe(5);
    expect(s.score).toBe(2);
  });

  it("no cards scores 0", () => {
    expect(scoreCards([])).toMatchObject({ positive: 0, negative: 0, score: 0 });
  });

  it("ties: most positive points wins; still tied = shared place (1, 1, 3)", () => {
    expect(
      rankPlaces([
        { score: 3, positive: 5 },
        { score: 3, positive: 7 },
        { score: 4, positive: 4 },
        { score: 3, positive: 5 },
      ]),
    ).toEqual([3, 2, 1, 3]);
    expect(
      rankPlaces([
        { score: 2, positive: 2 },
        { score: 2, positive: 2 },
        { score: 1, positive: 9 },
      ]),
    ).toEqual([1, 1, 3]);
  });

  it("outcome carries scores, places and per-seat details", () => {
    const o = outcomeOf([["pact"], ["diplomat"], ["cave", "end"]]);
    expect(o.scores).toEqual([2, 2, 3]);
    expect(o.places).toEqual([2, 2, 1]);
    expect(o.details.seats[2]).toMatchObject({ positive: 3, negative: 0, score: 3 });
  });

  it("a finished game's outcome ranks the seats with shared places", () => {
    const s = play(
      position({ players: 3, offer: ["ace-knots"], auctionDeck: [], owned: [["pact"], ["diplomat"], []] }),
      [
        [0, { type: "pass" }],
        [1, { type: "pass" }],
        [2, { type: "bid", amount: 1 }],
      ],
    );
    const o = goblinMarket.outcome(s)!;
    expect(o.scores).toEqual([2, 2, 1]);
    expect(o.places).toEqual([1, 1, 3]);
    expect(o.details).toEqual({ seats: [scoreCards(["pact"]), scoreCards(["diplomat"]), scoreCards(["ace-knots"])] });
  });
});
