/** Many complete random games: legal actions accepted, games end, cards and money conserved, replays identical. */
import { describe, expect, it } from "vitest";
import { gameDeck } from "./deal.js";
import { randomGame } from "./fixtures.js";
import { isPawnOrCourt } from "./sale.js";
import { sorcerousFutures as game } from "./index.js";
import { replayed } from "../testing.js";
import type { LogEntry } from "../types.js";
import { STARTING_MONEY, type SorcerousFuturesOptions, type SorcerousFuturesState } from "./state.js";

function checkInvariants(s: SorcerousFuturesState, log: readonly LogEntry[]) {
  for (const m of s.money) {
    expect(Number.isInteger(m)).toBe(true);
    expect(m).toBeGreaterThanOrEqual(0);
  }
  // Card conservation: every card of the game's deck in exactly one place.
  const places = [
    ...s.deck,
    ...s.valuations.flat(),
    ...s.faceDown.flat(),
    ...s.extraValuations,
    ...s.extraSetAside,
    ...s.market,
    ...(s.auction ? [s.auction.card] : []),
    ...s.holdings.flat(),
    ...s.discard,
  ];
  expect(places.sort()).toEqual(gameDeck(s.extended).sort());
  for (let seat = 0; seat < s.players; seat++) {
    expect(s.valuations[seat]).toHaveLength(2);
    expect(s.faceDown[seat]).toHaveLength(2);
  }
  if (s.phase !== "setup") {
    expect(s.valuations.flat().some(isPawnOrCourt)).toBe(false);
    expect(s.extraValuations).toHaveLength(s.players === 3 ? 2 : 0);
  }
  // Money: start + sales of finished games - exchanges - winning bids (all public in the log).
  const spent = Array(s.players).fill(0);
  for (const e of log) {
    if (e.type === "exchange") spent[e.seat as number] += e.cost as number;
    if (e.type === "win") spent[e.seat as number] += e.paid as number;
  }
  const sold = Array(s.players).fill(0);
  for (const r of s.results) r.sales.forEach((x) => (sold[x.seat] += x.total));
  expect(s.money).toEqual(spent.map((x, seat) => STARTING_MONEY + sold[seat] - x));
  const active = game.activeSeats(s);
  if (s.phase === "over") expect(active).toEqual([]);
  else if (s.phase === "setup") expect(active).toEqual(s.confirmed.flatMap((c, i) => (c ? [] : [i])));
  else expect(active).toEqual([s.turn]);
}

const VARIANTS: Array<[number, SorcerousFuturesOptions]> = [
  [3, {}],
  [3, { match: 3 }],
  [4, {}],
  [4, { match: 3 }],
  [5, { extended: "pawns" }],
  [5, { extended: "courts" }],
  [5, { extended: "pawns", match: 3 }],
  [5, { extended: "courts", match: 3 }],
];

describe("random games", () => {
  // One test per variant (each with the whole test timeout: 480 games in one ran past it on a busy machine).
  it.each(VARIANTS)("60 seeds of %i players, options %j: invariants hold, replays are identical", (players, options) => {
    let games = 0;
    for (let i = 0; i < 60; i++) {
      const seed = `rg-${players}-${JSON.stringify(options)}-${i}`;
      const g = randomGame(players, seed, options, i % 6 === 0 ? checkInvariants : undefined);
      checkInvariants(g.final, g.log);
      expect(game.isOver(g.final)).toBe(true);
      expect(g.final.results).toHaveLength(options.match ?? 1);
      const o = game.outcome(g.final)!;
      expect(o.scores).toEqual(g.final.money);
      expect(Math.min(...o.places)).toBe(1);
      for (let seat = 0; seat < players; seat++) expect(game.legalActions(g.final, seat)).toEqual([]);

      // Replay: same seed + same actions = byte-identical JSON (the state and its log).
      const s = replayed(game, { players, options, seed }, g.moves);
      expect(JSON.stringify(s.state)).toBe(JSON.stringify(g.final));
      expect(JSON.stringify(s.log)).toBe(JSON.stringify(g.log));
      expect(JSON.parse(JSON.stringify(g.final))).toEqual(g.final);
      games++;
    }
    expect(games).toBe(60);
  });

  it("different seeds give different games", () => {
    expect(JSON.stringify(randomGame(4, "one").final)).not.toBe(JSON.stringify(randomGame(4, "two").final));
  });

  it("the state stays compact (the log is kept beside it, not in it)", () => {
    const g = randomGame(5, "compact", { match: 3 });
    const { results, ...rest } = g.final;
    expect(rest).not.toHaveProperty("log");
    expect(JSON.stringify(rest).length).toBeLessThan(3000);
    expect(g.log.length).toBeGreaterThan(0);
    expect(results).toHaveLength(3);
  });
});
