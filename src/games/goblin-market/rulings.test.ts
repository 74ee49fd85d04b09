/** The decided rulings, one by one. */
import { describe, expect, it } from "vitest";
import { BASIC_DECK, COURTS, PAWNS } from "../decktet/cards.js";
import type { LogEntry } from "../types.js";
import { auctionSize } from "./deal.js";
import { deepFreeze, play, playLogged, position, type Logged } from "./fixtures.js";
import { goblinMarket } from "./index.js";
import type { GoblinMarketState } from "./state.js";

const setupStep = (players: number, seed = "s") => goblinMarket.setup({ players, options: {}, seed });
const setup = (players: number, seed = "s") => setupStep(players, seed).state;
const logOf = (log: readonly LogEntry[], type: string) => log.filter((e) => e.type === type);
/** Everyone passes, from the seat whose turn it is: the state and the log of those passes. */
const allPass = (s: GoblinMarketState): Logged<GoblinMarketState> => {
  const first = s.turn!;
  const moves = Array.from({ length: s.players }, (_, i) => [(first + i) % s.players, { type: "pass" }] as const);
  return playLogged(s, moves);
};

describe("setup", () => {
  it("deals a shuffled 36-card Auction Deck, an 8-card Goblin Deck, 10 coins each, and starts auction 1", () => {
    const s = setup(4);
    const deckCards = [...s.auctionDeck, ...s.sizeCards, ...s.auction!.offer];
    expect([...deckCards].sort()).toEqual([...BASIC_DECK].sort());
    expect([...s.goblinDeck].sort()).toEqual([...PAWNS, ...COURTS].sort());
    expect(s.goblinDeck).not.toContain("excuse");
    expect(s.coins).toEqual([10, 10, 10, 10]);
    expect(s.owned).toEqual([[], [], [], []]);
    expect(s.auction!.number).toBe(1);
    expect(s.sizeCards).toHaveLength(1);
    expect(s.auction!.offer).toHaveLength(auctionSize(s.sizeCards[0]));
    expect(s.turn).toBe(s.auction!.firstBidder);
  });

  it("reports the game start, then auction 1's start", () => {
    const { state: s, events } = setupStep(4);
    expect(events).toEqual([
      { type: "game-start", players: 4, coins: 10, firstBidder: s.turn },
      {
        type: "auction-start",
        auction: 1,
        sizeCard: s.sizeCards[0],
        final: false,
        offer: s.auction!.offer,
        firstBidder: s.turn,
      },
    ]);
  });

  it("picks the first bidder with the seeded RNG: deterministic per seed, every seat possible", () => {
    expect(setupStep(5, "abc")).toEqual(setupStep(5, "abc"));
    const firsts = new Set(Array.from({ length: 60 }, (_, i) => setup(4, `seed-${i}`).turn));
    expect([...firsts].sort()).toEqual([0, 1, 2, 3]);
  });

  it("rejects player counts outside 3-6", () => {
    expect(() => setup(2)).toThrow();
    expect(() => setup(7)).toThrow();
    expect(goblinMarket.minPlayers).toBe(3);
    expect(goblinMarket.maxPlayers).toBe(6);
  });
});

describe("step A: size card", () => {
  it("Ace -> 1 card, numbers -> 2, Crown -> 3", () => {
    expect(auctionSize("ace-suns")).toBe(1);
    for (const c of ["author", "journey", "mountain", "forest", "lunatic", "castle", "mill", "pact"]) {
      expect(auctionSize(c)).toBe(2);
    }
    expect(auctionSize("windfall")).toBe(3);
  });

  it("sets the size card aside (never on offer) and flips that many cards", () => {
    const { state: s, log } = allPass(
      position({ players: 3, offer: ["journey"], auctionDeck: ["sea", "pact", "forest", "mill", "bard", "end"] }),
    );
    expect(s.auction!.sizeCard).toBe("sea");
    expect(s.sizeCards).toEqual(["sea"]);
    expect(s.auction!.offer).toEqual(["pact", "forest", "mill"]);
    expect(s.auctionDeck).toEqual(["bard", "end"]);
    expect(logOf(log, "auction-start").at(-1)).toMatchObject({ sizeCard: "sea", offer: ["pact", "forest", "mill"], final: false });
  });

  it("with exactly 4 cards left a size card is still flipped", () => {
    const { state: s } = allPass(
      position({ players: 3, offer: ["journey"], auctionDeck: ["ace-moons", "pact", "forest", "mill"] }),
    );
    expect(s.auction!.sizeCard).toBe("ace-moons");
    expect(s.auction!.offer).toEqual(["pact"]);
    expect(s.auctionDeck).toEqual(["forest", "mill"]);
  });

  it("with three or fewer cards left, they are all sold in a final auction with no size card", () => {
    for (const deck of [["pact"], ["pact", "forest"], ["pact", "forest", "mill"]]) {
      const { state: s, log } = allPass(position({ players: 3, offer: ["journey"], auctionDeck: deck }));
      expect(s.auction!.sizeCard).toBeNull();
      expect(s.auction!.offer).toEqual(deck);
      expect(s.auctionDeck).toEqual([]);
      expect(s.sizeCards).toEqual([]);
      expect(logOf(log, "auction-start").at(-1)).toMatchObject({ sizeCard: null, final: true });
    }
  });
});

describe("step C: bidding", () => {
  const base = () =>
    deepFreeze(position({ players: 4, sizeCard: "author", offer: ["pact", "forest"], coins: [10, 5, 0, 10], firstBidder: 1 }));

  it("goes clockwise from the first bidder, skipping those who passed; a pass is final", () => {
    let s = play(base(), [[1, { type: "bid", amount: 3 }]]);
    expect(s.turn).toBe(2);
    s = play(s, [[2, { type: "pass" }]]);
    expect(s.turn).toBe(3);
    s = play(s, [[3, { type: "bid", amount: 4 }], [0, { type: "pass" }]]);
    expect(s.turn).toBe(1);
    s = play(s, [[1, { type: "bid", amount: 5 }]]);
    expect(s.turn).toBe(3); // 2 and 0 have passed
    const r = goblinMarket.apply(s, 0, { type: "bid", amount: 9 });
    expect(r.ok || r.error.code).toBe("NOT_YOUR_TURN");
  });

  it("a bid must be a whole number >= 1, above the high bid, at most your coins", () => {
    const s = base();
    const code = (st: GoblinMarketState, seat: number, amount: unknown) => {
      const r = goblinMarket.apply(st, seat, { type: "bid", amount });
      return r.ok ? "ok" : r.error.code;
    };
    expect(code(s, 1, 0)).toBe("BAD_AMOUNT");
    expect(code(s, 1, -2)).toBe("BAD_AMOUNT");
    expect(code(s, 1, 2.5)).toBe("BAD_AMOUNT");
    expect(code(s, 1, "3")).toBe("BAD_AMOUNT");
    expect(code(s, 1, 6)).toBe("BID_TOO_HIGH");
    expect(code(s, 1, 5)).toBe("ok");
    const s2 = play(s, [[1, { type: "bid", amount: 3 }], [2, { type: "pass" }]]);
    expect(code(s2, 3, 3)).toBe("BID_TOO_LOW");
    expect(code(s2, 3, 2)).toBe("BID_TOO_LOW");
    expect(code(s2, 3, 4)).toBe("ok");
    expect(code(s2, 3, 11)).toBe("BID_TOO_HIGH");
  });

  it("a player with 0 coins can only pass", () => {
    const s = play(base(), [[1, { type: "bid", amount: 3 }]]);
    expect(s.turn).toBe(2);
    expect(goblinMarket.legalActions(s, 2)).toEqual([{ type: "pass", label: "Pass" }]);
    expect(goblinMarket.legalActions(base(), 1)[0]).toEqual({
      type: "bid",
      params: { amount: { kind: "int", min: 1, max: 5 } },
      label: "Bid 1-5 coins",
    });
    const zero = position({ players: 3, offer: ["pact"], coins: [0, 4, 4] });
    expect(goblinMarket.legalActions(zero, 0)).toEqual([{ type: "pass", label: "Pass" }]);
    const r = goblinMarket.apply(zero, 0, { type: "bid", amount: 1 });
    expect(r.ok ? "ok" : r.error.code).toBe("BID_TOO_HIGH");
  });

  it("a player who cannot bid above the high bid can only pass", () => {
    const s = play(base(), [[1, { type: "bid", amount: 3 }], [2, { type: "pass" }], [3, { type: "bid", amount: 10 }], [0, { type: "pass" }]]);
    expect(s.turn).toBe(1);
    expect(goblinMarket.legalActions(s, 1)).toEqual([{ type: "pass", label: "Pass" }]);
  });

  it("only the active seat has legal actions", () => {
    const s = base();
    expect(goblinMarket.activeSeats(s)).toEqual([1]);
    for (const seat of [0, 2, 3, 4, -1]) expect(goblinMarket.legalActions(s, seat)).toEqual([]);
  });

  it("all pass without a bid: cards discarded, no coins move, no goblin card, same first bidder next", () => {
    const start = position({ players: 3, sizeCard: "author", offer: ["pact", "forest"], firstBidder: 2, coins: [3, 4, 5] });
    const { state: s, log } = playLogged(start, [[2, { type: "pass" }], [0, { type: "pass" }], [1, { type: "pass" }]]);
    expect(s.discard).toEqual(["pact", "forest"]);
    expect(s.coins).toEqual([3, 4, 5]);
    expect(s.goblinDeck).toEqual(start.goblinDeck);
    expect(s.goblinFlipped).toEqual([]);
    expect(s.auction!.number).toBe(2);
    expect(s.auction!.firstBidder).toBe(2);
    expect(s.turn).toBe(2);
    expect(s.lastPayouts).toEqual({ auction: 1, winner: null, winningBid: null, sisterhood: [0, 0, 0], goblinCard: null, goblin: [0, 0, 0] });
    expect(logOf(log, "all-passed")).toEqual([expect.objectContaining({ auction: 1, discarded: ["pact", "forest"] })]);
  });

  it("the last player may still bid when everyone before them passed", () => {
    const s = play(position({ players: 3, offer: ["pact"] }), [[0, { type: "pass" }], [1, { type: "pass" }]]);
    expect(s.turn).toBe(2);
    const s2 = play(s, [[2, { type: "bid", amount: 1 }]]);
    expect(s2.owned[2]).toEqual(["pact"]);
  });
});

describe("step D: distributing the cards", () => {
  it("a one-card auction resolves automatically: the winner takes it and pays", () => {
    const start = position({ players: 3, sizeCard: "ace-moons", offer: ["pact"], goblinDeck: ["harvest", "rite"] });
    const { state: s, log } = playLogged(start, [
      [0, { type: "bid", amount: 4 }],
      [1, { type: "bid", amount: 6 }],
      [2, { type: "pass" }],
      [0, { type: "pass" }],
    ]);
    expect(s.owned[1]).toEqual(["pact"]);
    expect(s.coins[1] - s.lastPayouts!.goblin[1]).toBe(4); // paid 6
    expect(s.coins[0] - s.lastPayouts!.goblin[0] - s.lastPayouts!.sisterhood[0]).toBe(10); // second place pays nothing
    expect(logOf(log, "take")).toEqual([expect.objectContaining({ seat: 1, cards: ["pact"], paid: 6, how: "auto" })]);
    expect(s.phase).toBe("bidding");
    expect(s.auction!.number).toBe(2);
  });

  it("take-one is refused in a one-card auction", () => {
    const s = position({ players: 3, offer: ["pact"] });
    const r = goblinMarket.apply(s, 0, { type: "take-one", card: "pact" });
    expect(r.ok ? "ok" : r.error.code).toBe("CANNOT_TAKE_ONE");
  });

  it("take all: the winner pays, the other bidders pay nothing and collect sisterhood money", () => {
    const start = position({ players: 3, sizeCard: "author", offer: ["pact", "forest"], coins: [10, 10, 12], owned: [[], ["ace-moons"], []] });
    const s = play(start, [
      [0, { type: "bid", amount: 2 }],
      [1, { type: "bid", amount: 3 }],
      [2, { type: "bid", amount: 11 }],
      [0, { type: "pass" }],
      [1, { type: "pass" }],
      [2, { type: "take-all" }],
    ]);
    const p = s.lastPayouts!;
    expect(s.owned).toEqual([[], ["ace-moons"], ["pact", "forest"]]);
    expect(p.sisterhood).toEqual([0, 3, 0]);
    expect(s.coins).toEqual([10 + p.goblin[0], 10 + 3 + p.goblin[1], 12 - 11 + p.goblin[2]]);
    expect(s.discard).toEqual([]);
  });

  it("two-card auction, take one: second place gets the other card automatically and pays its own bid", () => {
    const g0 = playLogged(position({ players: 4, sizeCard: "author", offer: ["pact", "forest"] }), [
      [0, { type: "bid", amount: 2 }],
      [1, { type: "bid", amount: 4 }],
      [2, { type: "pass" }],
      [3, { type: "pass" }],
      [0, { type: "bid", amount: 5 }],
      [1, { type: "pass" }],
    ]);
    const s0 = g0.state;
    expect(s0.phase).toBe("taking");
    expect(goblinMarket.legalActions(s0, 0)).toEqual([
      { type: "take-all", label: "Take all 2 cards for 5 coins" },
      { type: "take-one", params: { card: { kind: "choice", options: ["pact", "forest"] } }, label: "Take one card for 5 coins" },
    ]);
    const { state: s, log } = playLogged(g0, [[0, { type: "take-one", card: "forest" }]]);
    expect(s.owned[0]).toEqual(["forest"]);
    expect(s.owned[1]).toEqual(["pact"]);
    const p = s.lastPayouts!;
    expect(s.coins[0] - p.goblin[0]).toBe(5);
    expect(s.coins[1] - p.goblin[1]).toBe(6); // its own highest bid, 4
    expect(p.sisterhood[0] + p.sisterhood[1]).toBe(0);
    expect(logOf(log, "take")[1]).toMatchObject({ seat: 1, place: 2, paid: 4, how: "auto" });
  });

  it("three-card auction with two bidders: second place chooses, the last card is discarded", () => {
    const { state: s, log } = playLogged(position({ players: 3, sizeCard: "bard", offer: ["pact", "forest", "mill"] }), [
      [0, { type: "bid", amount: 2 }],
      [1, { type: "bid", amount: 3 }],
      [2, { type: "pass" }],
      [0, { type: "pass" }],
      [1, { type: "take-one", card: "mill" }],
      [0, { type: "choose", card: "forest" }],
    ]);
    expect(s.owned).toEqual([["forest"], ["mill"], []]);
    expect(s.discard).toEqual(["pact"]);
    expect(logOf(log, "discard")).toEqual([expect.objectContaining({ cards: ["pact"] })]);
  });

  it("second and third place are the bidders' own highest bids; those who never bid have no place", () => {
    const s0 = play(position({ players: 5, sizeCard: "bard", offer: ["pact", "forest", "mill"], coins: [20, 20, 20, 20, 20] }), [
      [0, { type: "bid", amount: 1 }],
      [1, { type: "pass" }],
      [2, { type: "bid", amount: 3 }],
      [3, { type: "bid", amount: 4 }],
      [4, { type: "pass" }],
      [0, { type: "bid", amount: 6 }],
      [2, { type: "pass" }],
      [3, { type: "bid", amount: 8 }],
      [0, { type: "pass" }],
      [3, { type: "take-one", card: "pact" }],
    ]);
    expect(s0.turn).toBe(0); // second place: seat 0 (6) ahead of seat 2 (3)
    const s = play(s0, [[0, { type: "choose", card: "mill" }]]);
    expect(s.owned).toEqual([["mill"], [], ["forest"], ["pact"], []]);
    const p = s.lastPayouts!;
    expect(s.coins.map((c, i) => c - p.goblin[i] - p.sisterhood[i])).toEqual([14, 20, 17, 12, 20]);
  });

  it("the winner who was the only bidder and takes one: the rest are discarded", () => {
    const s = play(position({ players: 3, sizeCard: "bard", offer: ["pact", "forest", "mill"] }), [
      [0, { type: "pass" }],
      [1, { type: "bid", amount: 1 }],
      [2, { type: "pass" }],
      [1, { type: "take-one", card: "forest" }],
    ]);
    expect(s.owned[1]).toEqual(["forest"]);
    expect(s.discard).toEqual(["pact", "mill"]);
    expect(s.phase).toBe("bidding");
  });

  it("the winner may not take two: only take-all or take-one, and only cards on offer", () => {
    const s = play(position({ players: 3, sizeCard: "bard", offer: ["pact", "forest", "mill"] }), [
      [0, { type: "bid", amount: 1 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    const code = (a: object) => {
      const r = goblinMarket.apply(s, 0, a as never);
      return r.ok ? "ok" : r.error.code;
    };
    expect(code({ type: "take-one", card: ["pact", "forest"] })).toBe("NOT_ON_OFFER");
    expect(code({ type: "take-one", card: "sea" })).toBe("NOT_ON_OFFER");
    expect(code({ type: "take-one", card: "pact", card2: "forest" })).toBe("UNKNOWN_ACTION");
    expect(code({ type: "choose", card: "pact" })).toBe("WRONG_STEP");
    expect(code({ type: "bid", amount: 5 })).toBe("WRONG_STEP");
    expect(code({ type: "take-one", card: "pact" })).toBe("ok");
  });
});

describe("steps E and F: payouts", () => {
  it("a bid ending in 0 pays Crowns 3, nines 2, eights 1; a bid ending in 2 pays twos 3, Aces 2, Crowns 1", () => {
    const owned = [[], ["sea", "pact", "mill", "author", "ace-moons", "bard"], []];
    for (const [bid, expected] of [
      [10, 3 + 3 + 2 + 1],
      [20, 3 + 3 + 2 + 1],
      [2, 3 + 2 + 1 + 1],
    ] as const) {
      const s = play(position({ players: 3, offer: ["forest"], owned, coins: [30, 10, 10] }), [
        [0, { type: "bid", amount: bid }],
        [1, { type: "pass" }],
        [2, { type: "pass" }],
      ]);
      expect(s.lastPayouts!.sisterhood).toEqual([0, expected, 0]);
    }
  });

  it("goblin money is paid after every won auction, to every player including the winner", () => {
    const { state: s, log } = playLogged(position({ players: 3, offer: ["forest"], goblinDeck: ["island", "rite"] }), [
      [0, { type: "bid", amount: 1 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ]);
    expect(s.lastPayouts!.goblinCard).toBe("island");
    expect(s.lastPayouts!.goblin).toEqual([3, 3, 3]);
    expect(s.goblinFlipped).toEqual(["island"]);
    expect(s.goblinDeck).toEqual(["rite"]);
    expect(logOf(log, "goblin-card")).toEqual([expect.objectContaining({ card: "island" })]);
  });

  it("when the Goblin Deck is used up, all 8 are reshuffled with the state's RNG", () => {
    const flipped = [...PAWNS, ...COURTS].filter((c) => c !== "window");
    const start = deepFreeze(position({ players: 3, offer: ["forest"], goblinDeck: ["window"], goblinFlipped: flipped }));
    const moves = [
      [0, { type: "bid", amount: 1 }],
      [1, { type: "pass" }],
      [2, { type: "pass" }],
    ] as const;
    const { state: s, log } = playLogged(start, moves);
    expect(s.lastPayouts!.goblinCard).toBe("window");
    expect([...s.goblinDeck].sort()).toEqual([...PAWNS, ...COURTS].sort());
    expect(s.goblinFlipped).toEqual([]);
    expect(s.rng).not.toEqual(start.rng);
    expect(logOf(log, "goblin-reshuffle")).toHaveLength(1);
    expect(JSON.stringify(playLogged(start, moves))).toBe(JSON.stringify({ state: s, log }));
  });
});

describe("the end of the game", () => {
  it("ends when the Auction Deck is empty, after the last auction's steps E and F", () => {
    const start = position({
      players: 3,
      offer: ["pact", "forest"],
      auctionDeck: [],
      owned: [["ace-moons"], ["sea", "bard"], ["huntress"]],
      goblinDeck: ["harvest", "rite"],
    });
    const g0 = playLogged(start, [
      [0, { type: "bid", amount: 3 }],
      [1, { type: "pass" }],
      [2, { type: "bid", amount: 10 }],
      [0, { type: "pass" }],
    ]);
    expect(goblinMarket.isOver(g0.state)).toBe(false);
    const { state: s, log } = playLogged(g0, [[2, { type: "take-one", card: "pact" }]]);
    expect(s.owned[0]).toEqual(["ace-moons", "forest"]); // second place got the other card automatically
    expect(s.lastPayouts!.sisterhood).toEqual([0, 6, 0]); // bid 10: 3 per Crown; seat 1 has two
    expect(goblinMarket.isOver(s)).toBe(true);
    expect(s.phase).toBe("over");
    expect(goblinMarket.activeSeats(s)).toEqual([]);
    for (const seat of [0, 1, 2]) expect(goblinMarket.legalActions(s, seat)).toEqual([]);
    const r = goblinMarket.apply(s, 0, { type: "pass" });
    expect(r.ok ? "ok" : r.error.code).toBe("GAME_OVER");
    expect(s.lastPayouts!.goblinCard).toBe("harvest");
    const end = log.at(-1)!;
    expect(end.type).toBe("game-end");
    const o = goblinMarket.outcome(s)!;
    expect(end).toMatchObject({ scores: o.scores, places: o.places });
  });

  it("outcome is null until the game is over", () => {
    expect(goblinMarket.outcome(setup(3))).toBeNull();
  });
});
