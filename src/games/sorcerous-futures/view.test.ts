/**
 * Views: a seat sees its own hand/valuations and the face-down cards it has seen; nobody sees
 * another seat's valuations, an unseen face-down card, the 3-player extras, the deck or the RNG
 * before a game ends; everything is revealed at the end.
 */
import { describe, expect, it } from "vitest";
import { SUITS } from "../decktet/cards.js";
import { knows } from "../knowledge.js";
import { visibleLog } from "../log.js";
import type { LogEntry, Viewer } from "../types.js";
import { play, position, randomGame } from "./fixtures.js";
import { sorcerousFutures as game } from "./index.js";
import type { SorcerousFuturesOptions, SorcerousFuturesState } from "./state.js";
import { unaccounted } from "./view.js";

/** True when `text` (JSON) has card id `id` as a string value (not as an object key, e.g. "market":). */
function names(text: string, id: string): boolean {
  const q = `"${id}"`;
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) if (text[i + q.length] !== ":") return true;
  return false;
}

function viewers(players: number): Viewer[] {
  return [{ kind: "spectator" }, ...Array.from({ length: players }, (_, seat) => ({ kind: "seat" as const, seat }))];
}

function hasKey(value: unknown, key: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return true;
  return Object.values(value).some((v) => hasKey(v, key));
}

/** Card ids `viewer` may not see in this game of the match (empty once the match is over). */
export function hiddenFrom(s: SorcerousFuturesState, viewer: Viewer): string[] {
  if (s.phase === "over") return [];
  const out = new Set<string>([...s.deck, ...s.extraValuations, ...s.extraSetAside]);
  for (let seat = 0; seat < s.players; seat++) {
    const own = viewer.kind === "seat" && viewer.seat === seat;
    if (!own) for (const id of s.valuations[seat]) out.add(id);
    for (const id of s.faceDown[seat]) if (!knows(s.knowledge, id, viewer)) out.add(id);
  }
  // Pawns/Courts revealed in setup are public by name (shuffled back: where they are is not).
  for (const id of s.revealed) out.delete(id);
  return [...out];
}

/**
 * Problems with the views of `s` and with the entries of its log (as a room keeps it beside the
 * state) from `fromLog` on, as readable strings.
 * (Checking each entry when it appears is enough: within a game, what is hidden from a viewer
 * only shrinks; a new game of a match is a new deal, and its entries carry its number.)
 */
function viewProblems(s: SorcerousFuturesState, log: readonly LogEntry[], fromLog: number): string[] {
  const problems: string[] = [];
  const bad = (cond: boolean, what: string) => {
    if (cond) problems.push(what);
  };
  const over = s.phase === "over";
  for (const viewer of viewers(s.players)) {
    const v = game.view(s, viewer) as Record<string, any>;
    const who = JSON.stringify(viewer);
    // The platform adds each viewer's visible events; the game's view carries no log.
    bad(hasKey(v, "log"), `${who}: has key log`);
    for (const key of ["rng", "deck", "knowledge", "valuations", "faceDown", "extraValuations", "extraSetAside"]) {
      // Allowed only inside `mine` (own cards) and in finished games' results (and the outcome).
      const { mine, results, ...rest } = v;
      bad(!over && hasKey(rest, key), `${who}: has key ${key}`);
    }
    const json = JSON.stringify(v);
    for (const word of s.rng) bad(json.includes(String(word)), `${who}: contains an RNG word`);
    // Previous games' results are checked below; this game's secrets must not appear elsewhere.
    // `unaccounted` names every card the viewer can't place (checked separately below).
    const { results, unaccounted: unacc, ...current } = v;
    const text = JSON.stringify(over ? { ...v, unaccounted: null } : current);
    for (const id of hiddenFrom(s, viewer)) bad(names(text, id), `${who}: names hidden ${id}`);
    bad(v.deckCount !== s.deck.length, `${who}: deck count`);
    // The unaccounted panel: every hidden card (without saying where) and nothing the viewer can place.
    const listed = new Set(Object.values(unacc as Record<string, string[]>).flat());
    for (const id of hiddenFrom(s, viewer)) bad(!over && !listed.has(id), `${who}: unaccounted lacks ${id}`);
    const placed = [...s.market, ...s.holdings.flat(), ...s.discard, ...(s.auction ? [s.auction.card] : [])];
    if (viewer.kind === "seat") placed.push(...s.valuations[viewer.seat]);
    for (const id of placed) bad(listed.has(id), `${who}: unaccounted lists ${id}`);
    bad(results.length !== s.results.length, `${who}: results`);
    // Set-aside cards in finished games' results: hidden while the match goes on (the owner sees
    // those it had seen; the 3-player set-asides no one), all shown once it is over.
    s.results.forEach((r, k) => {
      const seen = (seat: number, i: number) => viewer.kind === "seat" && viewer.seat === seat && r.faceDownSeen![seat]![i]!;
      const faceDown = over ? r.faceDown : r.faceDown.map((cards, seat) => cards.map((id, i) => (seen(seat, i) ? id : null)));
      bad(JSON.stringify(results[k].faceDown) !== JSON.stringify(faceDown), `${who}: game ${r.game}'s set-aside cards`);
      bad(JSON.stringify(results[k].extraSetAside) !== JSON.stringify(over ? r.extraSetAside : r.extraSetAside.map(() => null)), `${who}: game ${r.game}'s 3-player set-asides`);
      bad(JSON.stringify(results[k].valuations) !== JSON.stringify(r.valuations), `${who}: game ${r.game}'s valuations`);
      bad("faceDownSeen" in results[k], `${who}: game ${r.game}'s faceDownSeen`);
    });
    if (viewer.kind === "seat" && !over) {
      bad(JSON.stringify(v.mine.valuations) !== JSON.stringify(s.valuations[viewer.seat]), `${who}: own valuations`);
      const fd = s.faceDown[viewer.seat].map((id) => (knows(s.knowledge, id, viewer) ? id : null));
      bad(JSON.stringify(v.mine.faceDown) !== JSON.stringify(fd), `${who}: own face-down`);
    } else {
      bad(v.mine !== null, `${who}: mine is not null`);
    }
    bad(viewer.kind === "spectator" && "you" in v, "spectator has you");
    // The log this viewer gets, for the current game.
    const hidden = hiddenFrom(s, viewer);
    for (const e of visibleLog(log.slice(fromLog), viewer)) {
      if (!over && e.game !== s.matchGame) continue;
      const ej = JSON.stringify(e);
      for (const id of hidden) bad(names(ej, id), `${who}: log ${e.n} (${e.type}) names hidden ${id}`);
      if (viewer.kind === "spectator") bad(e.to !== undefined, `spectator gets private log ${e.n}`);
      // The end of a game reveals the valuations, never the set-aside cards (in the log for good).
      bad(e.type === "valuations" && ("faceDown" in e || "extraSetAside" in e), `${who}: log ${e.n} reveals set-aside cards`);
    }
  }
  return problems;
}

const VARIANTS: Array<[number, SorcerousFuturesOptions]> = [
  [3, {}],
  [4, {}],
  [5, { extended: "pawns" }],
  [5, { extended: "courts" }],
  [3, { match: 3 }],
  [4, { match: 3 }],
  [5, { extended: "courts", match: 3 }],
];

describe("view", () => {
  it("never reveals another seat's valuations, unseen face-down cards, extras, the deck or the RNG, at every step", () => {
    let steps = 0;
    let seenCounted = 0;
    for (const [players, options] of VARIANTS) {
      for (let i = 0; i < 8; i++) {
        let logSeen = 0;
        let before: SorcerousFuturesState | null = null;
        randomGame(players, `view-${players}-${JSON.stringify(options)}-${i}`, options, (s, log) => {
          const problems = viewProblems(s, log, logSeen);
          if (problems.length > 0) expect(problems.slice(0, 5)).toEqual([]);
          // A game just ended: each seat's faceDownSeen is what it knew of its set-aside cards then.
          if (before && s.results.length > before.results.length) {
            const b = before;
            const r = s.results.at(-1)!;
            expect(r.faceDown).toEqual(b.faceDown);
            expect(r.faceDownSeen).toEqual(b.faceDown.map((f, seat) => f.map((id) => knows(b.knowledge, id, { kind: "seat", seat }))));
            seenCounted += r.faceDownSeen!.flat().filter(Boolean).length;
          }
          before = s;
          logSeen = log.length;
          steps++;
        });
      }
    }
    expect(steps).toBeGreaterThan(3000);
    // Some set-aside cards had been seen by their owners (exchanges), so both cases were checked.
    expect(seenCounted).toBeGreaterThan(0);
  });

  it("depends only on what the viewer knows: deck order and others' hidden cards don't change it", () => {
    for (const [players, options] of VARIANTS.slice(0, 4)) {
      randomGame(players, `indep-${players}-${options.extended}`, options, (s) => {
        if (s.phase === "over" || s.deck.length < 2) return;
        // Swap seat 1's first valuation with the deck's last card, and reverse the deck.
        const valuations = s.valuations.map((v) => [...v]);
        const deck = [...s.deck];
        const tmp = valuations[1][0];
        valuations[1][0] = deck[deck.length - 1];
        deck[deck.length - 1] = tmp;
        const other: SorcerousFuturesState = { ...s, valuations, deck: deck.reverse(), rng: [1, 2, 3, 4] };
        for (const viewer of [{ kind: "spectator" } as const, { kind: "seat" as const, seat: 0 }]) {
          expect(JSON.stringify(game.view(other, viewer))).toBe(JSON.stringify(game.view(s, viewer)));
        }
      });
    }
  });

  it("a seat sees its own hand and face-down cards as seen; others only counts and payments", () => {
    const s0 = game.setup({ players: 4, options: {}, seed: "mine" }).state;
    const s = play(s0, [[1, { type: "exchange", hand: s0.valuations[1][0], slot: 0 }]]);
    const v1 = game.view(s, { kind: "seat", seat: 1 }) as Record<string, any>;
    expect(v1.you).toBe(1);
    expect(v1.mine).toEqual({
      valuations: [s0.faceDown[1][0], s0.valuations[1][1]],
      faceDown: [s0.valuations[1][0], null],
      paid: 3,
      confirmed: false,
    });
    const v0 = game.view(s, { kind: "seat", seat: 0 }) as Record<string, any>;
    expect(v0.seats[1]).toEqual({ seat: 1, money: 97, paid: 3, confirmed: false, holdings: [], valuationCount: 2 });
    expect(v0.mine.faceDown).toEqual([null, null]);
    expect(v0.deckCount).toBe(20);
    expect(v0.pending).toBe("setup");
    const spec = game.view(s, { kind: "spectator" }) as Record<string, any>;
    expect(spec.mine).toBeNull();
    expect(spec).not.toHaveProperty("you");
  });

  it("the replay's everything view says which seats still hold a hand (they may exchange) and which have kept their valuations", () => {
    const s0 = game.setup({ players: 4, options: {}, seed: "hands" }).state;
    const inHand = (s: SorcerousFuturesState) => ((game.view(s, { kind: "all" }) as Record<string, any>).hidden.seats as Array<{ inHand: boolean }>).map((x) => x.inHand);
    expect(inHand(s0)).toEqual([true, true, true, true]);
    const s1 = play(s0, [[2, { type: "confirm" }]]);
    expect(inHand(s1)).toEqual([true, true, false, true]);
    const s2 = play(s1, [[0, { type: "confirm" }], [1, { type: "confirm" }], [3, { type: "confirm" }]]);
    expect(s2.phase).not.toBe("setup");
    expect(inHand(s2)).toEqual([false, false, false, false]);
  });

  it("shows the public facts of an auction in progress", () => {
    const s = play(
      position({ players: 4, valuations: [["pact", "sea"], ["mill", "forest"], ["author", "end"], ["bard", "cave"]], market: ["journey", "diplomat", "mountain"], excuse: 2 }),
      [
        [2, { type: "pick", card: "diplomat" }],
        [2, { type: "bid", amount: 4 }],
        [3, { type: "pass" }],
      ],
    );
    const v = game.view(s, { kind: "seat", seat: 0 }) as Record<string, any>;
    expect(v).toMatchObject({
      phase: "bidding",
      pending: "bid",
      turn: 0,
      excuse: 2,
      market: ["journey", "mountain"],
      auction: { number: 1, card: "diplomat", excuse: 2, highBid: 4, highBidder: 2, minBid: 5, turn: 0, finalChance: false },
      extras: null,
      markets: 4,
      marketSize: 5,
    });
    expect(v.auction.moves).toEqual([{ seat: 2, bid: 4 }, { seat: 3, bid: null }]);
  });

  it("unaccounted: per suit, the cards not in own valuations/seen cards, the market, holdings or discard", () => {
    const s = play(
      position({
        players: 4,
        valuations: [["pact", "sea"], ["mill", "forest"], ["author", "end"], ["bard", "cave"]],
        faceDown: [["huntress", "ace-moons"], [], [], []],
        market: ["journey", "diplomat", "mountain"],
        holdings: [[], ["lunatic"], [], []],
        discard: ["chance-meeting"],
        excuse: 0,
      }),
      [],
    );
    const withSeen = { ...s, knowledge: { huntress: [0] } };
    const u0 = unaccounted(withSeen, { kind: "seat", seat: 0 });
    // Moons cards: ace-moons, author, journey, mountain, forest, lunatic, chance-meeting, diplomat, pact, huntress.
    // Seat 0 accounts for pact (own), huntress (seen), journey/diplomat/mountain (market), lunatic, chance-meeting.
    expect(u0.Moons).toEqual(["ace-moons", "author", "forest"]);
    const uSpec = unaccounted(withSeen, { kind: "spectator" });
    expect(uSpec.Moons).toEqual(["ace-moons", "author", "forest", "pact", "huntress"]);
    const u1 = unaccounted(withSeen, { kind: "seat", seat: 1 });
    expect(u1.Moons).toEqual(["ace-moons", "author", "pact", "huntress"]);
    expect(Object.keys(u0)).toEqual([...SUITS]);
    expect((game.view(withSeen, { kind: "seat", seat: 0 }) as Record<string, any>).unaccounted).toEqual(u0);
  });

  it("at the end everything is revealed with the full sale breakdown", () => {
    const g = randomGame(3, "reveal-end");
    const s = g.final;
    for (const viewer of viewers(3)) {
      const v = game.view(s, viewer) as Record<string, any>;
      expect(v.phase).toBe("over");
      expect(v.mine).toBeNull();
      const r = v.results[0];
      expect(r.valuations).toEqual(s.valuations);
      expect(r.faceDown).toEqual(s.faceDown);
      expect(r.extraValuations).toEqual(s.extraValuations);
      expect(r.extraSetAside).toEqual(s.extraSetAside);
      expect(r.sales).toHaveLength(3);
      expect(r.sales[0]).toHaveProperty("perItem");
      expect(r.suitValues).toHaveLength(6);
      expect(v.outcome).toEqual(game.outcome(s));
      expect(Object.values(v.unaccounted).flat()).toEqual([]);
    }
    const revealed = g.log.find((e) => e.type === "valuations")!;
    expect(revealed.to).toBeUndefined();
    expect(revealed.valuations).toEqual(s.valuations);
  });
});
