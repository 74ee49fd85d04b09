/** The market: prices by position, payments, and the refill exactly as printed. */
import { describe, expect, it } from "vitest";
import { chipsOf, layout, play, played, position } from "./fixtures.js";
import { packRight, payments, price, refill } from "./market.js";

describe("prices and payments", () => {
  it("left 2 chips, middle 1, right free; Pawns and Courts one more", () => {
    expect([0, 1, 2].map((slot) => price("pact", slot as 0 | 1 | 2))).toEqual([2, 1, 0]);
    expect([0, 1, 2].map((slot) => price("harvest", slot as 0 | 1 | 2))).toEqual([3, 2, 1]);
    expect([0, 1, 2].map((slot) => price("island", slot as 0 | 1 | 2))).toEqual([3, 2, 1]);
  });

  it("pay with chips of one suit the card bears, enough for the whole price; the free card takes none", () => {
    expect(payments("pact", 0, chipsOf())).toEqual(["Moons", "Suns"]);
    expect(payments("pact", 0, chipsOf({ Moons: 1 }))).toEqual(["Suns"]);
    expect(payments("pact", 1, chipsOf({ Moons: 1, Suns: 0 }))).toEqual(["Moons"]);
    expect(payments("pact", 0, chipsOf({ Moons: 1, Suns: 1 }))).toEqual([]);
    expect(payments("pact", 2, chipsOf({ Moons: 0, Suns: 0 }))).toEqual(["none"]);
    expect(payments("ace-waves", 0, chipsOf())).toEqual(["Waves"]);
    // A Pawn in the free slot still costs one chip.
    expect(payments("harvest", 2, chipsOf({ Moons: 0, Suns: 0 }))).toEqual(["Leaves"]);
    expect(payments("harvest", 0, chipsOf({ Moons: 2, Suns: 3, Leaves: 4 }))).toEqual(["Suns", "Leaves"]);
  });

  it("packs cards into the rightmost slots", () => {
    expect(packRight([])).toEqual([null, null, null]);
    expect(packRight(["a"])).toEqual([null, null, "a"]);
    expect(packRight(["a", "b"])).toEqual([null, "a", "b"]);
    expect(packRight(["a", "b", "c"])).toEqual(["a", "b", "c"]);
  });
});

/**
 * The printed examples: the market was (X, Wave/Wyrm, Knot) and the left card was bought, so
 * cave (Waves/Wyrms) and castle (Suns/Knots) are left, shifted right.
 */
describe("refill: the printed examples", () => {
  const left = ["cave", "castle"];

  it("Ace of Leaves drawn: nothing removed, the Ace goes leftmost", () => {
    const r = refill(left, ["ace-leaves", "pact", "sea"]);
    expect(r.market).toEqual(["ace-leaves", "cave", "castle"]);
    expect(r.discarded).toEqual([]);
    expect(r.deck).toEqual(["pact", "sea"]);
    expect(r.draws).toEqual([{ card: "ace-leaves", removed: [] }]);
  });

  it("a Wyrm/Knot card drawn: both cards removed, it goes right, two more fill the centre and left", () => {
    // soldier (Wyrms/Knots) and betrayal (Wyrms/Knots), drawn later, remove nothing.
    const r = refill(left, ["battle", "soldier", "betrayal", "pact"]);
    expect(r.market).toEqual(["betrayal", "soldier", "battle"]);
    expect(r.discarded).toEqual(["cave", "castle"]);
    expect(r.deck).toEqual(["pact"]);
    expect(r.draws).toEqual([
      { card: "battle", removed: ["cave", "castle"] },
      { card: "soldier", removed: [] },
      { card: "betrayal", removed: [] },
    ]);
  });

  it("a Wyrm/Leaves card drawn: the Wave/Wyrm card removed, it goes in the middle, one more on the left", () => {
    const r = refill(left, ["savage", "darkness", "pact"]);
    expect(r.market).toEqual(["darkness", "savage", "castle"]);
    expect(r.discarded).toEqual(["cave"]);
    expect(r.deck).toEqual(["pact"]);
  });
});

describe("refill: other cases", () => {
  it("after buying the middle or right card the rest shift right, in order", () => {
    // market (pact, cave, castle); the middle card bought: pact and castle are left.
    expect(refill(["pact", "castle"], ["ace-leaves"]).market).toEqual(["ace-leaves", "pact", "castle"]);
  });

  it("only the first drawn card removes cards", () => {
    // forest (Moons/Leaves) removes nothing from (cave, castle); journey (Moons/Waves) drawn second would have removed cave.
    expect(refill(["castle"], ["forest", "journey"]).market).toEqual(["journey", "forest", "castle"]);
    expect(refill(["cave", "castle"], ["forest"]).discarded).toEqual([]);
  });

  it("the first card can empty the market; then three are drawn", () => {
    const r = refill(["cave", "castle"], ["darkness", "huntress", "end", "bard"]);
    // darkness (Waves/Wyrms) removes cave only; castle stays.
    expect(r.market).toEqual(["huntress", "darkness", "castle"]);
    const r2 = refill(["cave", "castle"], ["penitent", "huntress", "end", "bard"]);
    // penitent (Suns/Wyrms) removes both.
    expect(r2.market).toEqual(["end", "huntress", "penitent"]);
    expect(r2.discarded).toEqual(["cave", "castle"]);
  });

  it("a short deck leaves the market short; an empty deck leaves it as it is, shifted right", () => {
    expect(refill(["cave", "castle"], []).market).toEqual([null, "cave", "castle"]);
    expect(refill(["cave", "castle"], ["battle"]).market).toEqual([null, null, "battle"]);
    expect(refill([], []).market).toEqual([null, null, null]);
  });

  it("an empty market (after a discard) is refilled with three cards, right to left", () => {
    expect(refill([], ["pact", "cave", "castle", "sea"]).market).toEqual(["castle", "cave", "pact"]);
  });
});

describe("refill: the Excuse (extended)", () => {
  it("drawn first: every market card is removed, the Excuse is discarded, drawing goes on", () => {
    const r = refill(["cave", "castle"], ["excuse", "pact", "sea", "forest", "mill"]);
    expect(r.market).toEqual(["forest", "sea", "pact"]);
    expect(r.discarded).toEqual(["cave", "castle", "excuse"]);
    expect(r.deck).toEqual(["mill"]);
    expect(r.draws[0]).toEqual({ card: "excuse", removed: ["cave", "castle"] });
  });

  it("drawn later: it removes the cards drawn before it too", () => {
    // ace-leaves (first) removes nothing; the Excuse then removes ace-leaves and castle.
    const r = refill(["castle"], ["ace-leaves", "excuse", "pact", "sea", "forest"]);
    expect(r.market).toEqual(["forest", "sea", "pact"]);
    expect(r.discarded).toEqual(["ace-leaves", "castle", "excuse"]);
  });

  it("the last card of the deck: the market is left empty", () => {
    const r = refill(["cave", "castle"], ["excuse"]);
    expect(r.market).toEqual([null, null, null]);
    expect(r.discarded).toEqual(["cave", "castle", "excuse"]);
  });
});

describe("refill in play", () => {
  it("a buy refills the market and logs every draw", () => {
    const s = position({ market: ["pact", "cave", "castle"], deck: ["savage", "darkness", "sea"] });
    const { state: next, log } = played(s, [{ type: "buy", card: "pact", row: 3, col: 3, pay: "Moons" }]);
    expect(next.market).toEqual(["darkness", "savage", "castle"]);
    expect(next.deck).toEqual(["sea"]);
    expect(next.discard).toEqual(["cave"]);
    expect(log.at(-1)).toMatchObject({
      type: "refill",
      draws: [
        { card: "savage", removed: ["cave"] },
        { card: "darkness", removed: [] },
      ],
      market: ["darkness", "savage", "castle"],
      deckCount: 1,
    });
  });

  it("a market discard refills from empty: the first card drawn removes nothing", () => {
    const s = position({ market: ["pact", "cave", "castle"], deck: ["mountain", "diplomat", "huntress", "sea"], tableau: layout(["journey"]) });
    const next = play(s, [{ type: "discard-market" }]);
    expect(next.market).toEqual(["huntress", "diplomat", "mountain"]);
    expect(next.discard).toEqual(["pact", "cave", "castle"]);
  });
});
