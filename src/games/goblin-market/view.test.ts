/** Views: everything public, nothing about the undrawn decks or the RNG. */
import { describe, expect, it } from "vitest";
import type { LogEntry, Viewer } from "../types.js";
import { GOBLIN_CARDS } from "./deal.js";
import { play, position, randomGame } from "./fixtures.js";
import { goblinMarket } from "./index.js";
import type { GoblinMarketState } from "./state.js";

const quoted = (id: string) => `"${id}"`;

function viewers(players: number): Viewer[] {
  return [{ kind: "spectator" }, ...Array.from({ length: players }, (_, seat) => ({ kind: "seat" as const, seat }))];
}

function hasKey(value: unknown, key: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return true;
  return Object.values(value).some((v) => hasKey(v, key));
}

/** Problems with the views of `s` (and with the log entries `added` by the step to it), as readable strings. */
function viewProblems(s: GoblinMarketState, added: readonly LogEntry[]): string[] {
  const problems: string[] = [];
  const bad = (cond: boolean, what: string) => {
    if (cond) problems.push(what);
  };
  const spectatorJson = JSON.stringify(goblinMarket.view(s, { kind: "spectator" }));
  for (const viewer of viewers(s.players)) {
    const v = goblinMarket.view(s, viewer) as Record<string, any>;
    const json = JSON.stringify(v);
    const who = JSON.stringify(viewer);
    // The log is not the game's to show (the platform adds each viewer's visible events).
    for (const key of ["rng", "auctionDeck", "goblinDeck", "log"]) bad(hasKey(v, key), `${who}: has key ${key}`);
    for (const word of s.rng) bad(json.includes(String(word)), `${who}: contains an RNG word`);
    // No undrawn Auction Deck card, in any form.
    for (const id of s.auctionDeck) bad(json.includes(quoted(id)), `${who}: names undrawn ${id}`);
    // Goblin ids appear only as flipped cards (goblinFlipped, last payouts' card).
    const { goblinFlipped, lastPayouts, ...rest } = v;
    const restJson = JSON.stringify({ ...rest, lastPayouts: lastPayouts && { ...lastPayouts, goblinCard: null } });
    for (const id of GOBLIN_CARDS) bad(restJson.includes(quoted(id)), `${who}: names goblin card ${id}`);
    for (const id of goblinFlipped as string[]) bad(s.goblinDeck.includes(id), `${who}: flipped ${id} is undrawn`);
    if (lastPayouts?.goblinCard && s.goblinDeck.includes(lastPayouts.goblinCard)) {
      // Only right after a reshuffle, when the whole Goblin Deck is back (public knowledge).
      bad(s.goblinDeck.length !== 8 || goblinFlipped.length !== 0, `${who}: last goblin card is undrawn`);
    }
    // Seat views are the spectator view (one view for all, as viewKey says).
    if (viewer.kind === "seat") bad(JSON.stringify(v) !== spectatorJson, `${who}: differs from the spectator view`);
  }
  // New public log entries never name an undrawn Auction Deck card, and name Goblin cards only when flipped.
  for (const e of added) {
    const json = JSON.stringify(e);
    bad(e.to !== undefined, `log ${e.n}: not public`);
    for (const id of s.auctionDeck) bad(json.includes(quoted(id)), `log ${e.n}: names undrawn ${id}`);
    if (e.type !== "goblin-card") for (const id of GOBLIN_CARDS) bad(json.includes(quoted(id)), `log ${e.n}: names ${id}`);
  }
  return problems;
}

describe("view", () => {
  it("never reveals the undrawn decks or the RNG, at every step of many random games", () => {
    let steps = 0;
    for (let players = 3; players <= 6; players++) {
      for (let i = 0; i < 25; i++) {
        let logSeen = 0;
        randomGame(players, `view-${players}-${i}`, (s, log) => {
          const problems = viewProblems(s, log.slice(logSeen));
          if (problems.length > 0) expect(problems).toEqual([]);
          logSeen = log.length;
          steps++;
        });
      }
    }
    expect(steps).toBeGreaterThan(1000);
  });

  it("shows the public facts of an auction in progress", () => {
    const start = position({
      players: 3,
      sizeCard: "bard",
      offer: ["pact", "forest", "mill"],
      coins: [10, 8, 6],
      owned: [["sea"], [], ["ace-moons"]],
      discard: ["end"],
      sizeCards: ["ace-knots", "bard"],
      goblinFlipped: ["harvest"],
    });
    const s = play(start, [
      [0, { type: "bid", amount: 2 }],
      [1, { type: "pass" }],
    ]);
    const v = goblinMarket.view(s, { kind: "seat", seat: 2 }) as Record<string, any>;
    expect(v).toMatchObject({
      game: "goblin-market",
      players: 3,
      phase: "bidding",
      firstBidder: 0,
      auction: {
        number: 1,
        sizeCard: "bard",
        final: false,
        offer: ["pact", "forest", "mill"],
        bids: [{ seat: 0, amount: 2 }],
        passed: [1],
      },
      sizeCards: ["ace-knots", "bard"],
      discard: ["end"],
      auctionDeckCount: s.auctionDeck.length,
      goblinDeckCount: 7,
      goblinFlipped: ["harvest"],
    });
    // Each fact once: the room says whose turn it is (active) and has the outcome; the phase says
    // what that seat decides; the high bid is the last bid; the log has the payouts; the cards
    // give the suit counts.
    for (const key of ["outcome", "turn", "pending", "lastPayouts"]) expect(v).not.toHaveProperty(key);
    expect(v.auction).not.toHaveProperty("highBid");
    expect(v.auction).not.toHaveProperty("highBidder");
    expect(v.seats[0]).toEqual({ seat: 0, coins: 10, cards: ["sea"], score: { positiveSuits: ["Waves", "Moons", "Suns"], positive: 1, negative: 0, score: 1 } });
    expect(v.seats[2].score.positiveSuits).toEqual(["Moons", "Suns", "Waves"]);
    expect(goblinMarket.view(s, { kind: "spectator" })).toEqual(v);
  });

  it("shows the pending decision and, at the end, the final state (the outcome is the room's)", () => {
    const s0 = play(position({ players: 3, sizeCard: "author", offer: ["pact", "forest"], auctionDeck: [] }), [
      [0, { type: "bid", amount: 2 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    const v0 = goblinMarket.view(s0, { kind: "spectator" }) as Record<string, any>;
    expect(v0).toMatchObject({ phase: "taking", auction: { places: [{ seat: 0, amount: 2 }] } });
    expect(goblinMarket.activeSeats(s0)).toEqual([0]);
    const s = play(s0, [[0, { type: "take-all" }]]);
    const v = goblinMarket.view(s, { kind: "spectator" }) as Record<string, any>;
    expect(v).toMatchObject({ phase: "over", auction: null, auctionDeckCount: 0 });
    expect(v).not.toHaveProperty("outcome");
    expect(goblinMarket.outcome(s)).not.toBeNull();
  });
});
