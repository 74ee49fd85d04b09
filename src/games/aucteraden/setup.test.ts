/** Setup: the deck, the chips, the first market; the same seed always gives the same deal. */
import { describe, expect, it } from "vitest";
import { ALL_CARDS, BASIC_DECK, SUITS } from "../decktet/cards.js";
import { started } from "../testing.js";
import { marketCards } from "./market.js";
import { aucteraden as game } from "./index.js";

/** The state and log after setup. */
const setup = (seed: string, extended = false) => started(game.setup({ players: 1, options: { extended }, seed }));

describe("setup", () => {
  it("standard: the 36 basic cards, 4 chips of each suit, a market of three, an empty tableau", () => {
    const { state: s, log } = setup("a");
    expect(s.extended).toBe(false);
    expect([...s.deck, ...marketCards(s.market), ...s.discard].sort()).toEqual([...BASIC_DECK].sort());
    expect(s.deck).toHaveLength(33);
    expect(s.market.every((c) => c !== null)).toBe(true);
    expect(s.chips).toEqual(Object.fromEntries(SUITS.map((x) => [x, 4])));
    expect(s.tableau).toEqual([]);
    expect(s.marketDiscards).toBe(0);
    expect(s.phase).toBe("play");
    expect(game.activeSeats(s)).toEqual([0]);
    expect(log[0]).toMatchObject({ type: "game-start", extended: false, chips: 4, deckCount: 36 });
    expect(log[1]).toMatchObject({ type: "refill", market: s.market });
  });

  it("extended: 45 cards (with the Excuse, Pawns and Courts)", () => {
    const s = setup("a", true).state;
    expect(s.extended).toBe(true);
    expect([...s.deck, ...marketCards(s.market), ...s.discard].sort()).toEqual(ALL_CARDS.map((c) => c.id).sort());
  });

  it("the first market is dealt as the refill of an empty market: first card right, then middle, then left", () => {
    const { state: s, log } = setup("b");
    const draws = log[1].draws as Array<{ card: string; removed: string[] }>;
    expect(draws.map((d) => d.card)).toEqual([s.market[2], s.market[1], s.market[0]]);
    expect(draws.every((d) => d.removed.length === 0)).toBe(true);
  });

  it("extended: an Excuse in the first deal removes the cards dealt before it and is discarded", () => {
    let seen = 0;
    for (let i = 0; i < 300; i++) {
      const { state: s, log } = setup(`excuse-${i}`, true);
      const draws = log[1].draws as Array<{ card: string; removed: string[] }>;
      const at = draws.findIndex((d) => d.card === "excuse");
      if (at < 0) continue;
      seen++;
      expect(draws[at].removed).toEqual(draws.slice(0, at).map((d) => d.card).reverse());
      expect(s.discard).toEqual([...draws[at].removed, "excuse"]);
      expect(marketCards(s.market)).toHaveLength(3);
      expect(s.market).not.toContain("excuse");
    }
    expect(seen).toBeGreaterThan(5);
  });

  it("same seed, same deal (a daily challenge gives everyone one deal); other seeds differ", () => {
    expect(setup("daily-2024-05-01")).toEqual(setup("daily-2024-05-01"));
    expect(JSON.stringify(setup("daily-2024-05-01", true))).toBe(JSON.stringify(setup("daily-2024-05-01", true)));
    expect(setup("daily-2024-05-01").state.deck).not.toEqual(setup("daily-2024-05-02").state.deck);
    const firsts = new Set(Array.from({ length: 40 }, (_, i) => setup(`s${i}`).state.market.join()));
    expect(firsts.size).toBe(40);
  });
});
