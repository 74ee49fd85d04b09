/** Many complete random games: every legal action accepted, the game ends, invariants hold, replays match. */
import { describe, expect, it } from "vitest";
import { BASIC_DECK } from "../decktet/cards.js";
import { replayed } from "../testing.js";
import { randomGame } from "./fixtures.js";
import { goblinMarket } from "./index.js";
import type { GoblinMarketState } from "./state.js";

const SORTED_DECK = [...BASIC_DECK].sort();
const SORTED_GOBLINS = ["borderland", "consul", "harvest", "island", "light-keeper", "rite", "watchman", "window"];

function checkInvariants(s: GoblinMarketState) {
  for (const c of s.coins) {
    expect(Number.isInteger(c)).toBe(true);
    expect(c).toBeGreaterThanOrEqual(0);
  }
  // Card conservation: every basic card in exactly one place.
  const places = [...s.auctionDeck, ...s.sizeCards, ...(s.auction?.offer ?? []), ...s.owned.flat(), ...s.discard];
  expect(places.sort()).toEqual(SORTED_DECK);
  expect([...s.goblinDeck, ...s.goblinFlipped].sort()).toEqual(SORTED_GOBLINS);
  if (s.auction?.sizeCard) expect(s.sizeCards.at(-1)).toBe(s.auction.sizeCard);
  expect(goblinMarket.activeSeats(s)).toEqual(s.phase === "over" ? [] : [s.turn]);
}

describe("random games", () => {
  it("200 seeds x 3-6 players: legal actions accepted, games end, invariants hold, replays are identical", () => {
    let games = 0;
    let auctions = 0;
    for (let players = 3; players <= 6; players++) {
      for (let i = 0; i < 200; i++) {
        const seed = `rg-${players}-${i}`;
        const g = randomGame(players, seed, i % 10 === 0 ? checkInvariants : undefined);
        checkInvariants(g.final);
        expect(goblinMarket.isOver(g.final)).toBe(true);
        expect(g.final.auctionDeck).toEqual([]);
        const o = goblinMarket.outcome(g.final)!;
        expect(o.scores).toHaveLength(players);
        expect(Math.min(...o.places)).toBe(1);
        for (let seat = 0; seat < players; seat++) expect(goblinMarket.legalActions(g.final, seat)).toEqual([]);

        // Replay: same seed + same actions = byte-identical JSON (state and log).
        const s = replayed(goblinMarket, { players, options: {}, seed }, g.moves);
        expect(JSON.stringify(s.state)).toBe(JSON.stringify(g.final));
        expect(JSON.stringify(s.log)).toBe(JSON.stringify(g.log));
        // JSON round trip loses nothing.
        expect(JSON.parse(JSON.stringify(g.final))).toEqual(g.final);
        games++;
        auctions += g.log.filter((e) => e.type === "auction-start").length;
      }
    }
    expect(games).toBe(800);
    expect(auctions).toBeGreaterThan(800 * 8);
  });

  it("different seeds give different games", () => {
    const a = randomGame(4, "one").final;
    const b = randomGame(4, "two").final;
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });

  it("the state stays compact (and carries no log: the room keeps it)", () => {
    const g = randomGame(6, "compact");
    expect(Object.hasOwn(g.final, "log")).toBe(false);
    expect(JSON.stringify(g.final).length).toBeLessThan(2500);
    expect(g.log.length).toBeGreaterThan(0);
  });
});
