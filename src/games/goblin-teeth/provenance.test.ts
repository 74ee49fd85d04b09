/**
 * Every place a Goblin Teeth view gives a hidden card (a card in another hand, a card on the Cheat
 * deck, the face-down Item) is explained by an entry that viewer was sent, and every fact its
 * entries explain is shown (provenance.ts keeps the account, apart from the rules). Many seeded
 * games, 2-5 players, basic and Advanced Play, every Cheat card played, every seat and a spectator
 * checked after every action; and the check itself is shown to catch planted leaks.
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../legal.js";
import { visibleLog } from "../log.js";
import type { Action, LegalAction, Seat, Viewer } from "../types.js";
import { apply } from "./apply.js";
import { CHEAT_IDS, cheat } from "./data.js";
import { seededRandom } from "./fixtures.js";
import { activeSeats, legalActions } from "./legal.js";
import { disagreements, placesInView, Provenance } from "./provenance.js";
import { setup } from "./setup.js";
import type { GoblinTeethOptions, GoblinTeethState } from "./state.js";
import { view as realView } from "./view.js";

type ViewFn = (state: GoblinTeethState, viewer: Viewer) => unknown;

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

/**
 * A bot that plays a Cheat card it has not played yet when it can, else (often) a card that moves
 * hidden cards, Poisoner or a draw from the Altar, else anything: so every path is walked often.
 */
function picker(played: Set<string>, random: () => number) {
  return (legal: LegalAction[]): Action | null => {
    const cardOf = (l: LegalAction) => (l.type === "cheat" && l.params?.card?.kind === "choice" ? String(l.params.card.options[0]) : null);
    const fresh = legal.filter((l) => cardOf(l) !== null && !played.has(cardOf(l)!));
    const busy = legal.filter((l) => l.type === "poison" || l.type === "altar-draw" || l.type === "share" || l.type === "quick-fingers" || (cardOf(l) !== null && MOVERS.has(cheat(cardOf(l)!).kind)));
    const from = fresh.length > 0 && random() < 0.8 ? fresh : busy.length > 0 && random() < 0.6 ? busy : legal;
    const action = randomLegalAction(from, random);
    if (action?.type === "cheat") played.add(action.card as string);
    return action;
  };
}

interface Checked {
  views: number;
  problems: string[];
  /** How often each kind of cause explained a fact shown (the entry type and reason that taught it). */
  causes: Map<string, number>;
  played: Set<string>;
}

/** Play one seeded game, holding every viewer's view against its own entries after every action. */
function checkGame(players: number, options: GoblinTeethOptions, seed: string, view: ViewFn = realView, into?: Checked): Checked {
  const out: Checked = into ?? { views: 0, problems: [], causes: new Map(), played: new Set() };
  const viewers: Viewer[] = [...Array.from({ length: players }, (_, seat): Viewer => ({ kind: "seat", seat })), { kind: "spectator" }];
  const accounts = viewers.map((v) => new Provenance(v, players));
  const pick = picker(out.played, seededRandom(`pick:${seed}`));
  const random = seededRandom(`seat:${seed}`);
  const reported = new Set<string>();
  let s = setup({ players, options, seed });
  for (let step = 0; ; step++) {
    viewers.forEach((viewer, i) => {
      const account = accounts[i]!;
      account.feed(visibleLog(s.log, viewer));
      if (s.phase === "over") return;
      const who = viewer.kind === "seat" ? `seat ${viewer.seat}` : "a spectator";
      // Each disagreement once, where it first shows (it would repeat until the card moves).
      for (const p of disagreements(placesInView(view(s, viewer), players), account, `${seed} step ${step} (entry #${s.log.length}), ${who}`)) {
        const key = p.replace(/ step \d+ \(entry #\d+\)/, "");
        if (!reported.has(key)) out.problems.push(p);
        reported.add(key);
      }
      out.views++;
      const places = account.places();
      for (const card of [...places.hands.flat(), ...places.deckTop.map((t) => t.card), ...(places.faceDown ? [places.faceDown] : [])]) {
        const cause = account.why(card)!.replace(/^#\d+ /, "").replace(/:.*/, "");
        out.causes.set(cause, (out.causes.get(cause) ?? 0) + 1);
      }
    });
    if (s.phase === "over" || out.problems.length > 20) return out;
    if (step > 20000) throw new Error(`${seed} did not end`);
    const active = activeSeats(s);
    const seat: Seat = active[Math.floor(random() * active.length)]!;
    const action = pick(legalActions(s, seat));
    if (!action) throw new Error(`${seed}: seat ${seat} has no legal action`);
    const r = apply(s, seat, action);
    if (!r.ok) throw new Error(`${seed}: legal action refused: ${JSON.stringify(action)} ${r.error.code}`);
    s = r.value;
  }
}

describe("Goblin Teeth knowledge: every hidden card a view gives has a cause in that viewer's own entries", () => {
  it("holds for every seat and a spectator after every action of 48 seeded games, every Cheat card played", () => {
    const all: Checked = { views: 0, problems: [], causes: new Map(), played: new Set() };
    for (let g = 0; g < 48; g++) {
      const [players, options] = VARIANTS[g % VARIANTS.length]!;
      checkGame(players, options, `provenance-${g}`, realView, all);
    }
    expect(all.problems.slice(0, 10)).toEqual([]);
    expect(all.views).toBeGreaterThan(20_000);
    expect([...all.played].sort()).toEqual([...CHEAT_IDS].sort());
    // Every way of learning where a card is was walked, many times (a cause never seen would
    // leave its path unchecked).
    const causes = Object.fromEntries(all.causes);
    for (const cause of [
      "given (poisoner)",
      "given (revivify)",
      "given (share-the-load)",
      "deck-top",
      "draw (altar)",
      "peeked",
      "switched",
      "back-to-hand",
      "award",
    ]) {
      expect(causes[cause] ?? 0, `${cause} in ${JSON.stringify(causes)}`).toBeGreaterThan(10);
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
});
