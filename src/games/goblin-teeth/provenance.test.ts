/**
 * Every place a Goblin Teeth view gives a hidden card (a card in another hand, a card on the Cheat
 * deck, the face-down Item) is explained by an entry that viewer was sent, and every fact its
 * entries explain is shown (provenance.ts keeps the account, apart from the rules). Many seeded
 * games, 2-5 players, basic and Advanced Play, every Cheat card played, every seat and a spectator
 * checked after every action, and now and then a fresh account from the whole log (a reload, a late
 * spectator); every way of learning a card and every way such knowledge ends must be walked. Then
 * each path on its own, with what each viewer may know written out from the rules. And the check
 * itself is shown to catch planted leaks, in the view and in the engine (knowledge and entries
 * agreeing with each other, which only the rules-checks of the account can catch).
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import { visibleLog } from "../log.js";
import { started, stepped, type Logged } from "../testing.js";
import type { Action, LegalAction, Seat, Viewer } from "../types.js";
import { apply } from "./apply.js";
import { CHEAT_IDS, cheat } from "./data.js";
import { played, positioned, seededRandom } from "./fixtures.js";
import { activeSeats, legalActions } from "./legal.js";
import { disagreements, placesInView, Provenance } from "./provenance.js";
import { setup } from "./setup.js";
import type { LogEntry } from "../types.js";
import type { GoblinTeethOptions, GoblinTeethState } from "./state.js";
import { view as realView } from "./view.js";

type ViewFn = (state: GoblinTeethState, viewer: Viewer) => unknown;
/** A game as a room keeps it: the state and its log beside it. */
type Game = Logged<GoblinTeethState>;
/** A planted engine bug: turns the state (and log) an action produced (from `prev`) into wrong ones. */
type Tamper = (prev: Game, next: Game) => Game;

const VARIANTS: Array<[number, GoblinTeethOptions]> = [
  [3, {}],
  [2, {}],
  [4, { advanced: true }],
  [5, {}],
  [2, { advanced: true }],
  [3, { advanced: true }],
  [4, {}],
  [5, { advanced: true }],
];

/** Cheat cards whose plays move hidden cards: picked first whenever one can be played. */
const MOVERS = new Set(["share-the-load", "revivify", "sneaky-sneaky", "switcheroo", "exchange", "sneak-preview", "quick-fingers", "pass", "pilfer"]);

/** Ways to draw from the Cheat deck, preferred while another seat knows a card near its top. */
const DRAWS = new Set(["share-the-load", "pass", "pilfer"]);

/**
 * A bot that plays a Cheat card it has not played yet when it can, else (often) a card that moves
 * hidden cards, Poisoner or a draw from the Altar, else anything: so every path is walked often.
 * While another seat knows a card in the top 3 of the Cheat deck it likes drawing (Share the Load
 * above all: the share-out after a known card was drawn is the rarest path). It reads the state to
 * steer, never to check.
 */
function picker(played: Set<string>, random: () => number) {
  return (s: GoblinTeethState, seat: Seat, legal: LegalAction[]): Action | null => {
    const cardOf = (l: LegalAction) => (l.type === "cheat" && l.params?.card?.kind === "choice" ? String(l.params.card.options[0]) : null);
    const fresh = legal.filter((l) => cardOf(l) !== null && !played.has(cardOf(l)!));
    const busy = legal.filter((l) => l.type === "poison" || l.type === "altar-draw" || l.type === "share" || l.type === "quick-fingers" || (cardOf(l) !== null && MOVERS.has(cheat(cardOf(l)!).kind)));
    const watched = s.cheatDeck.slice(0, 3).some((c) => (s.knowledge[c] ?? []).some((k) => k !== seat));
    const draws = watched ? legal.filter((l) => l.type === "altar-draw" || (cardOf(l) !== null && DRAWS.has(cheat(cardOf(l)!).kind))) : [];
    const share = draws.filter((l) => cardOf(l) !== null && cheat(cardOf(l)!).kind === "share-the-load");
    const from =
      share.length > 0 && random() < 0.9
        ? share
        : draws.length > 0 && random() < 0.7
          ? draws
          : fresh.length > 0 && random() < 0.8
            ? fresh
            : busy.length > 0 && random() < 0.6
              ? busy
              : legal;
    const action = randomLegalAction(from, random);
    if (action?.type === "cheat") played.add(action.card as string);
    return action;
  };
}

interface Checked {
  views: number;
  /** Fresh accounts (the whole log at once, as after a reload or for a late spectator) checked. */
  fresh: number;
  problems: string[];
  /** The distinct facts each kind of cause explained (the entry type and reason that taught it). */
  causes: Map<string, Set<string>>;
  /** How many facts each kind of entry ended, over every viewer. */
  ended: Map<string, number>;
  played: Set<string>;
  /** Cards another seat knew put back on the Cheat deck (the share-out of a known drawn card): the rarest path. */
  knownBack: number;
}

const emptyChecked = (): Checked => ({ views: 0, fresh: 0, problems: [], causes: new Map(), ended: new Map(), played: new Set(), knownBack: 0 });

/** How many times the change from `prev` to `next` put on the Cheat deck a card a seat other than the putter knew. */
function knownPutBack(prev: Game, next: Game): number {
  return next.log
    .slice(prev.log.length)
    .filter((e) => e.type === "deck-top" && (prev.state.knowledge[e.card as string] ?? []).some((k) => k !== e.seat)).length;
}

/**
 * Play one seeded game, holding every viewer's view against its own entries after every action
 * (and, every 37 actions, against a fresh account of the whole log).
 */
function checkGame(players: number, options: GoblinTeethOptions, seed: string, view: ViewFn = realView, into?: Checked, tamper?: Tamper): Checked {
  const out: Checked = into ?? emptyChecked();
  const viewers: Viewer[] = [...Array.from({ length: players }, (_, seat): Viewer => ({ kind: "seat", seat })), { kind: "spectator" }];
  const accounts = viewers.map((v) => new Provenance(v, players));
  const pick = picker(out.played, seededRandom(`pick:${seed}`));
  const random = seededRandom(`seat:${seed}`);
  const reported = new Set<string>();
  let g: Game = started(setup({ players, options, seed }));
  for (let step = 0; ; step++) {
    const s = g.state;
    viewers.forEach((viewer, i) => {
      const account = accounts[i]!;
      account.feed(visibleLog(g.log, viewer));
      if (s.phase === "over") return;
      const who = viewer.kind === "seat" ? `seat ${viewer.seat}` : "a spectator";
      // Each disagreement once, where it first shows (it would repeat until the card moves).
      for (const p of disagreements(placesInView(view(s, viewer), players), account, `${seed} step ${step} (entry #${g.log.length}), ${who}`)) {
        const key = p.replace(/ step \d+ \(entry #\d+\)/, "");
        if (!reported.has(key)) out.problems.push(p);
        reported.add(key);
      }
      out.views++;
      if (step % 37 === 36) {
        const fresh = new Provenance(viewer, players);
        fresh.feed(visibleLog(g.log, viewer));
        out.problems.push(...disagreements(placesInView(view(s, viewer), players), fresh, `${seed} step ${step}, ${who} from the whole log`));
        out.fresh++;
      }
      const places = account.places();
      for (const card of [...places.hands.flat(), ...places.deckTop.map((t) => t.card), ...(places.faceDown ? [places.faceDown] : [])]) {
        const why = account.why(card)!;
        const cause = why.replace(/^#\d+ /, "").replace(/:.*/, "");
        out.causes.set(cause, (out.causes.get(cause) ?? new Set()).add(`${seed} ${who} ${card} ${why}`));
      }
    });
    if (s.phase === "over" || out.problems.length > 20) {
      for (const a of accounts) for (const [k, n] of a.ended) out.ended.set(k, (out.ended.get(k) ?? 0) + n);
      return out;
    }
    if (step > 20000) throw new Error(`${seed} did not end`);
    const active = activeSeats(s);
    const seat: Seat = active[Math.floor(random() * active.length)]!;
    const action = pick(s, seat, legalActions(s, seat));
    if (!action) throw new Error(`${seed}: seat ${seat} has no legal action`);
    const r = stepped(g, apply(s, seat, action));
    if (!r.ok) throw new Error(`${seed}: legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    out.knownBack += knownPutBack(g, r.value);
    g = tamper ? tamper(g, r.value) : r.value;
  }
}

describe("Goblin Teeth knowledge: every hidden card a view gives has a cause in that viewer's own entries", () => {
  it("holds for every seat and a spectator after every action of 48 seeded games, every Cheat card played", () => {
    const all = emptyChecked();
    for (let g = 0; g < 48; g++) {
      const [players, options] = VARIANTS[g % VARIANTS.length]!;
      checkGame(players, options, `provenance-${g}`, realView, all);
    }
    expect(all.problems.slice(0, 10)).toEqual([]);
    expect(all.views).toBeGreaterThan(20_000);
    expect(all.fresh).toBeGreaterThan(500);
    expect([...all.played].sort()).toEqual([...CHEAT_IDS].sort());
    // The rarest path, the share-out of a card someone else put on top, walked too (a card put back
    // on the deck keeping its knowers shows only there).
    expect(all.knownBack, "a card another seat knew put back on the Cheat deck").toBeGreaterThanOrEqual(5);
    // Every way of learning where a card is was walked, by many distinct facts (a cause never seen
    // would leave its path unchecked).
    const causes = Object.fromEntries([...all.causes].map(([k, v]) => [k, v.size]));
    for (const [cause, least] of [
      ["given (poisoner)", 30],
      ["given (revivify)", 30],
      ["given (share-the-load)", 30],
      ["deck-top", 30],
      ["draw (altar)", 30],
      ["draw (no-items)", 8],
      ["draw (share-the-load)", 8],
      ["draw (pass)", 5],
      ["peeked", 30],
      ["switched", 30],
      ["switcheroo", 20],
      ["back-to-hand", 30],
      ["award", 30],
    ] as const) {
      expect(causes[cause] ?? 0, `${cause} in ${JSON.stringify(causes)}`).toBeGreaterThanOrEqual(least);
    }
    // And every way such knowledge ends: a known card played or discarded face up, or a card
    // leaving that hand unseen (a view still listing it would be caught).
    const ended = Object.fromEntries(all.ended);
    for (const [why, least] of [
      ["cheat", 100],
      ["poison", 20],
      ["exchange", 20],
      ["switcheroo", 20],
      ["quick-fingers (an Item)", 20],
      ["quick-fingers (a Cheat card)", 20],
      ["gave (share-the-load)", 8],
      ["deck-top", 3],
      ["no-bids", 30],
      ["refresh", 5],
    ] as const) {
      expect(ended[why] ?? 0, `${why} in ${JSON.stringify(ended)}`).toBeGreaterThanOrEqual(least);
    }
  }, 300_000);

  it("catches a planted leak: another hand's unknown card shown once", () => {
    let planted = false;
    const leaky: ViewFn = (state, viewer) => {
      const v = realView(state, viewer) as { seats: Array<{ seat: Seat; known: string[] }> };
      if (planted || viewer.kind !== "seat" || state.round < 2) return v;
      const other = v.seats.find((x) => x.seat !== viewer.seat && state.hands[x.seat]!.some((c) => !x.known.includes(c)))!;
      if (!other) return v;
      planted = true;
      other.known = [...other.known, state.hands[other.seat]!.find((c) => !other.known.includes(c))!];
      return v;
    };
    const r = checkGame(3, {}, "provenance-planted-1", leaky);
    expect(planted).toBe(true);
    expect(r.problems.join("\n")).toMatch(/with no cause \(nothing this viewer was told puts it there\)/);
  });

  it("catches a planted leak: a card still listed after it left that hand", () => {
    // Every card a seat was ever shown in another hand stays listed there: the landed bug's shape.
    const seen = new Map<string, Set<string>>();
    const sticky: ViewFn = (state, viewer) => {
      const v = realView(state, viewer) as { seats: Array<{ seat: Seat; known: string[] }> };
      if (viewer.kind !== "seat") return v;
      for (const x of v.seats) {
        const key = `${viewer.seat}>${x.seat}`;
        const was = seen.get(key) ?? new Set();
        for (const c of x.known) was.add(c);
        seen.set(key, was);
        x.known = [...was].sort();
      }
      return v;
    };
    let problems: string[] = [];
    for (let g = 0; g < 8 && problems.length === 0; g++) problems = checkGame(4, {}, `provenance-sticky-${g}`, sticky).problems;
    expect(problems.join("\n")).toMatch(/with no cause/);
  });

  it("catches lost knowledge: a view that forgets what a Poisoner's target was given", () => {
    const forgetful: ViewFn = (state, viewer) => {
      const v = realView(state, viewer) as { seats: Array<{ seat: Seat; known: string[] }> };
      for (const x of v.seats) x.known = [];
      return v;
    };
    let problems: string[] = [];
    for (let g = 0; g < 8 && problems.length === 0; g++) problems = checkGame(3, {}, `provenance-forget-${g}`, forgetful).problems;
    expect(problems.join("\n")).toMatch(/leaves out .* known since #\d+/);
  });

  /** Runs games until `tamper`'s planted bug shows (or `games` are played); the problems found. */
  function planted(tamper: Tamper, players: number, name: string, games = 16): string[] {
    let problems: string[] = [];
    for (let g = 0; g < games && problems.length === 0; g++) problems = checkGame(players, {}, `provenance-${name}-${g}`, realView, undefined, tamper).problems;
    return problems;
  }
  const added = (prev: Game, next: Game): LogEntry[] => next.log.slice(prev.log.length);
  const union = (a: readonly Seat[] = [], b: readonly Seat[] = []): Seat[] => [...new Set([...a, ...b])].sort((x, y) => x - y);

  it("catches a planted engine leak: a known card put back on the Cheat deck keeps whoever knew it", () => {
    const stickyDeck: Tamper = (prev, next) => {
      let knowledge = next.state.knowledge;
      for (const e of added(prev, next)) {
        if (e.type === "deck-top") knowledge = { ...knowledge, [e.card as string]: union(knowledge[e.card as string], prev.state.knowledge[e.card as string]) };
      }
      return { ...next, state: { ...next.state, knowledge } };
    };
    expect(planted(stickyDeck, 4, "sticky-deck").join("\n")).toMatch(/on the Cheat deck with no cause|hand with no cause/);
    // And always, on that path itself (not left to the seeded games): seat 0 puts the swap on top
    // with Revivify, seat 1 draws it with Share the Load and puts it back; seat 0 can't tell it did.
    const s = positioned({
      players: 3,
      dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1"],
      hands: [["cheat-revivify"], ["cheat-share-the-load"], []],
      discard: ["cheat-pass", "cheat-swap", "cheat-borrow"],
      cheatDeck: ["cheat-distraction", "cheat-refresh", "cheat-pilfer", "cheat-reposition"],
    });
    const deckAtStart = s.state.cheatDeck.length;
    const drawn = played(s, [
      [0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "cheat-pass" }],
      [0, { type: "altar", die: 0 }],
      [1, { type: "cheat", card: "cheat-share-the-load" }],
    ]);
    const back = played(drawn, [[1, { type: "share", top: "cheat-swap", give: "cheat-refresh" }]]);
    expect(knownPutBack(drawn, back)).toBe(1);
    const account = new Provenance({ kind: "seat", seat: 0 }, 3, deckAtStart);
    const leaked = stickyDeck(drawn, back);
    account.feed(visibleLog(leaked.log, { kind: "seat", seat: 0 }));
    expect(disagreements(placesInView(realView(leaked.state, { kind: "seat", seat: 0 }), 3), account, "seat 0")).toEqual([
      "seat 0: the view places cheat-swap@0 on the Cheat deck with no cause",
    ]);
  });

  it("catches a planted engine leak: a third seat told the card a Poisoner gave", () => {
    const gossip: Tamper = (prev, next) => {
      const e = added(prev, next).find((x) => x.type === "given" && x.reason === "poisoner");
      if (!e) return next;
      const third = [0, 1, 2].find((x) => x !== e.from && x !== e.seat)!;
      return { ...next, state: { ...next.state, knowledge: { ...next.state.knowledge, [e.card as string]: union(next.state.knowledge[e.card as string], [third]) } } };
    };
    expect(planted(gossip, 3, "gossip").join("\n")).toMatch(/with no cause \(nothing this viewer was told puts it there\)/);
  });

  it("catches a planted engine leak: what was known in a hand stays known after a card left it unseen (the landed bug)", () => {
    const unforgetting: Tamper = (prevGame, nextGame) => {
      const e = added(prevGame, nextGame).find((x) => ["exchange", "switcheroo", "poison"].includes(x.type) || (x.type === "quick-fingers" && x.item));
      if (!e) return nextGame;
      const [prev, next] = [prevGame.state, nextGame.state];
      const seat = e.seat as Seat;
      const knowledge = { ...next.knowledge };
      for (const c of next.hands[seat]!) if (prev.hands[seat]!.includes(c)) knowledge[c] = union(knowledge[c], prev.knowledge[c]);
      return { ...nextGame, state: { ...next, knowledge, shown: [...new Set([...next.shown, ...prev.shown.filter((c) => next.hands[seat]!.includes(c))])] } };
    };
    expect(planted(unforgetting, 4, "unforgetting").join("\n")).toMatch(/with no cause/);
  });

  it("catches a planted engine leak the engine's own entries agree with: a peek told to every seat", () => {
    // The knowledge and the entries agree (each seat is sent a `peeked` and its view shows the
    // card): only the account's rule that a peek is told to the one who peeked can catch it.
    const toldAll: Tamper = (prev, next) => {
      const peek = added(prev, next).find((x) => x.type === "peeked");
      if (!peek) return next;
      const all = Array.from({ length: next.state.players }, (_, i) => i);
      return { log: next.log.map((e) => (e === peek ? { ...e, to: all } : e)), state: { ...next.state, knowledge: { ...next.state.knowledge, [peek.card as string]: all } } };
    };
    const problems = planted(toldAll, 3, "told-all");
    expect(problems.join("\n")).toMatch(/entry #\d+ peeked: addressed to \[0,1,2\]; the rules tell only \[\d\]/);
    expect(problems.filter((p) => !/: entry #\d+ /.test(p))).toEqual([]);
  });
});

/**
 * Each path a card takes, on its own: what each viewer's view places afterwards, written out from
 * the printed rules (per seat, the cards it may know in other hands; its known cards on the Cheat
 * deck, "card@place"; the face-down Item it knows), and the same from an account of that viewer's
 * whole log read at once (as after a reload, or for a spectator arriving late).
 */
describe("Goblin Teeth knowledge, path by path: who may know which card afterwards, and when it ends", () => {
  const spectator: Viewer = { kind: "spectator" };
  type Want = { hands?: Record<number, string[]>; deckTop?: string[]; faceDown?: string | null };

  function placed(s: GoblinTeethState, viewer: Viewer) {
    const p = placesInView(realView(s, viewer), s.players);
    return {
      hands: Object.fromEntries(p.hands.flatMap((h, seat) => (h.length > 0 ? [[seat, h]] : []))),
      deckTop: p.deckTop.map((t) => `${t.card}@${t.fromTop}`),
      faceDown: p.faceDown,
    };
  }

  /** Each position's Cheat deck size before its first entry (its log starts there). */
  const deckAtStart = new WeakMap<object, number>();

  /** Viewers are "0", "1"... and "spectator"; one left out may know nothing. */
  function expectPlaces(g: Game, want: Record<string, Want>): void {
    const s = g.state;
    const viewers: Viewer[] = [...Array.from({ length: s.players }, (_, seat): Viewer => ({ kind: "seat", seat })), spectator];
    for (const v of viewers) {
      const key = v.kind === "seat" ? String(v.seat) : "spectator";
      const w = want[key] ?? {};
      const sorted = Object.fromEntries(Object.entries(w.hands ?? {}).map(([k, cards]) => [k, [...cards].sort()]));
      expect(placed(s, v), `viewer ${key}`).toEqual({ hands: sorted, deckTop: w.deckTop ?? [], faceDown: w.faceDown ?? null });
      const account = new Provenance(v, s.players, deckAtStart.get(g.log[0]!));
      account.feed(visibleLog(g.log, v));
      expect(disagreements(placesInView(realView(s, v), s.players), account, `viewer ${key}`)).toEqual([]);
    }
  }

  /** A position and its log, remembered with its Cheat deck's size (keyed by its first log entry, which every later log keeps). */
  const at = (spec: Parameters<typeof positioned>[0]): Game => {
    const g = positioned(spec);
    deckAtStart.set(g.log[0]!, g.state.cheatDeck.length);
    return g;
  };
  const table = (spec: Partial<Parameters<typeof positioned>[0]>) =>
    at({ players: 3, dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]], pot: ["item-bone-1", "item-tooth-1", "item-worms-1"], ...spec });

  it("Poisoner: giver and receiver know the card; it ends when played, or when that hand gives a card to a third player unseen, not when it gives one to the knower", () => {
    const s = table({ hands: [["cheat-swap", "cheat-borrow"], ["cheat-pilfer"], []], ongoing: [["cheat-poisoner"], [], []], cheatDeck: ["cheat-refresh", "cheat-distraction"] });
    const given = played(s, [[0, { type: "poison", give: "cheat-swap", die: 3 }]]);
    expectPlaces(given, { "0": { hands: { 1: ["cheat-swap"] } } });
    // Seat 1 draws (the card drawn is unknown) and pilfers the Poisoner: nothing leaves its hand.
    const pilfered = played(given, [[0, { type: "altar", die: 0 }], [1, { type: "cheat", card: "cheat-pilfer", take: "cheat-poisoner" }]]);
    expectPlaces(pilfered, { "0": { hands: { 1: ["cheat-swap"] } } });
    // A card to seat 2, face down: seat 0 can't tell which, so no longer knows the swap is there.
    expectPlaces(played(pilfered, [[1, { type: "poison", give: "cheat-refresh", die: 6 }]]), { "1": { hands: { 2: ["cheat-refresh"] } } });
    // A card to seat 0 itself: it sees it got the other one, so the swap is still there.
    expectPlaces(played(pilfered, [[1, { type: "poison", give: "cheat-refresh", die: 1 }]]), { "0": { hands: { 1: ["cheat-swap"] } }, "1": { hands: { 0: ["cheat-refresh"] } } });
    // Played face up: it has left the hand, and no view lists it.
    expectPlaces(played(pilfered, [[1, { type: "cheat", card: "cheat-swap", die: 4, other: 5 }]]), {});
  });

  it("Sneak Preview: everyone (spectators too) knows the card back in that hand; an Item leaving doesn't end it; a card given unseen ends it for all but the two", () => {
    const s = table({ hands: [["cheat-sneak-preview", "cheat-swap", "cheat-exchange", "item-bone-2", "cheat-borrow"], [], []], ongoing: [["cheat-poisoner"], [], []] });
    const shown = played(s, [[0, { type: "cheat", card: "cheat-sneak-preview" }], [0, { type: "cheat", card: "cheat-swap", die: 0, other: 3 }]]);
    const all = { hands: { 0: ["cheat-swap"] } };
    expectPlaces(shown, { "1": all, "2": all, spectator: all });
    const exchanged = played(shown, [[0, { type: "cheat", card: "cheat-exchange", item: "item-bone-2" }]]);
    expectPlaces(exchanged, { "1": all, "2": all, spectator: all });
    const poisoned = played(exchanged, [[0, { type: "poison", give: "cheat-borrow", die: 3 }]]);
    expectPlaces(poisoned, { "0": { hands: { 1: ["cheat-borrow"] } }, "1": all });
  });

  it("Revivify and Share the Load: the receiver knows its card, the player the card on the deck and whoever draws it; a known card drawn is lost in the share-out", () => {
    const s = table({
      hands: [["cheat-revivify"], ["cheat-share-the-load"], []],
      discard: ["cheat-pass", "cheat-swap", "cheat-borrow"],
      cheatDeck: ["cheat-distraction", "cheat-refresh", "cheat-pilfer", "cheat-reposition"],
    });
    const revived = played(s, [[0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "cheat-pass" }]]);
    expectPlaces(revived, { "0": { hands: { 1: ["cheat-pass"] }, deckTop: ["cheat-swap@0"] } });
    // Seat 1's Share the Load draws the swap seat 0 put on top: seat 0 follows it into seat 1's hand.
    const drawn = played(revived, [[0, { type: "altar", die: 0 }], [1, { type: "cheat", card: "cheat-share-the-load" }]]);
    expectPlaces(drawn, { "0": { hands: { 1: ["cheat-pass", "cheat-swap"] } } });
    // One of the three back on top, one to seat 2: seat 0 can't tell which (the pass it gave stays).
    const shared = played(drawn, [[1, { type: "share", top: "cheat-distraction", give: "cheat-swap" }]]);
    expectPlaces(shared, { "0": { hands: { 1: ["cheat-pass"] } }, "1": { hands: { 2: ["cheat-swap"] }, deckTop: ["cheat-distraction@0"] } });
    // Even when the card it knew stays in that hand: it might have been either of the two that went.
    const kept = played(drawn, [[1, { type: "share", top: "cheat-distraction", give: "cheat-refresh" }]]);
    expectPlaces(kept, { "0": { hands: { 1: ["cheat-pass"] } }, "1": { hands: { 2: ["cheat-refresh"] }, deckTop: ["cheat-distraction@0"] } });
    // Or when the one put back is the card it knew (and on the deck only seat 1 knows it: the engine
    // letting it keep its knowers would show it to seat 0 there).
    const back = played(drawn, [[1, { type: "share", top: "cheat-swap", give: "cheat-refresh" }]]);
    expectPlaces(back, { "0": { hands: { 1: ["cheat-pass"] } }, "1": { hands: { 2: ["cheat-refresh"] }, deckTop: ["cheat-swap@0"] } });
    // Seat 2 draws the card seat 1 put on top: seat 1 follows it.
    const taken = played(shared, [[1, { type: "altar", die: 3 }], [2, { type: "altar-draw", die: 6 }]]);
    expectPlaces(taken, { "0": { hands: { 1: ["cheat-pass"] } }, "1": { hands: { 2: ["cheat-distraction", "cheat-swap"] } } });
  });

  it("the face-down Item: who peeked follows it into a Switcheroo player's hand, until an Item leaves that hand unseen; Refresh ends it", () => {
    const s = table({ hands: [["cheat-sneaky-sneaky"], ["cheat-switcheroo", "cheat-exchange", "cheat-refresh", "item-emerald-1", "item-mushroom-1"], []] });
    const peeked = played(s, [[0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 0, value: 3 }]]);
    expectPlaces(peeked, { "0": { faceDown: "item-bone-1" } });
    const switched = played(peeked, [[0, { type: "altar", die: 0 }], [1, { type: "cheat", card: "cheat-switcheroo", item: "item-emerald-1" }]]);
    expectPlaces(switched, { "0": { hands: { 1: ["item-bone-1"] } }, "1": { faceDown: "item-emerald-1" } });
    const exchanged = played(switched, [[1, { type: "cheat", card: "cheat-exchange", item: "item-mushroom-1" }]]);
    expectPlaces(exchanged, { "1": { faceDown: "item-emerald-1" } });
    expectPlaces(played(exchanged, [[1, { type: "cheat", card: "cheat-refresh", slot: 0 }]]), {});
  });

  it("the face-down Item awarded: who peeked knows it is in its taker's hand (nobody else does)", () => {
    const s = at({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [["altar", "altar", "supply"], [0, "altar", "altar"]],
      pot: ["item-bone-1", "item-tooth-1"],
      hands: [["cheat-sneaky-sneaky"], []],
    });
    const next = played(s, [[0, { type: "cheat", card: "cheat-sneaky-sneaky", die: 2, value: 3 }], [0, { type: "altar", die: 2 }]]);
    expect(next.state.round).toBe(2);
    expect(next.state.hands[1]).toContain("item-bone-1");
    expectPlaces(next, { "0": { hands: { 1: ["item-bone-1"] } } });
  });

  it("Quick Fingers: a Cheat card discarded face up ends nothing else; an Item discarded unseen ends what was known of that hand's Items", () => {
    const s = table({ hands: [["item-bone-2", "cheat-swap"], ["cheat-quick-fingers", "item-emerald-1", "cheat-borrow"], []], ongoing: [["cheat-poisoner"], [], []] });
    const given = played(s, [[0, { type: "poison", give: "item-bone-2", die: 3 }], [0, { type: "altar", die: 0 }], [1, { type: "cheat", card: "cheat-quick-fingers" }]]);
    expectPlaces(given, { "0": { hands: { 1: ["item-bone-2"] } } });
    const cheatOut = played(given, [[1, { type: "quick-fingers", discard: "cheat-borrow", raise: 4, reduce: 5 }]]);
    expectPlaces(cheatOut, { "0": { hands: { 1: ["item-bone-2"] } } });
    expectPlaces(played(cheatOut, [[1, { type: "quick-fingers", discard: "item-emerald-1", raise: 4, reduce: 5 }]]), {});
  });
});
