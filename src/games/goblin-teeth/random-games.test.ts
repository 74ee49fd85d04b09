/**
 * Many complete random games (2-5 players, basic and Advanced Play): every legal action is
 * accepted, games end, cards are conserved, dice stay in 1-6 with no tie and no bid over 10,
 * knowledge stays consistent, replays are identical, and what legalActions offers is exactly what
 * apply accepts.
 */
import { describe, expect, it } from "vitest";
import { matchesLegal } from "../legal.js";
import { replayed } from "../testing.js";
import type { Action } from "../types.js";
import { cheatParams } from "./cheats/index.js";
import { CHEAT_IDS, isCheat, isItem, ITEM_IDS } from "./data.js";
import { positionLegal } from "./dice.js";
import { randomGame } from "./fixtures.js";
import { goblinTeeth as game } from "./index.js";
import type { GoblinTeethOptions, GoblinTeethState } from "./state.js";

export function checkInvariants(s: GoblinTeethState) {
  // The state keeps no event log (the room keeps it beside the state), nor a step's events.
  expect(s).not.toHaveProperty("log");
  expect(s).not.toHaveProperty("events");
  const items = [...s.itemDeck, ...s.pot.map((p) => p.item), ...s.hands.flat().filter(isItem)];
  expect(items.sort()).toEqual([...ITEM_IDS].sort());
  const cheats = [...s.cheatDeck, ...s.discard, ...s.hands.flat().filter(isCheat), ...s.ongoing.flat(), ...s.inPlay.map((c) => c.card)];
  expect(cheats.sort()).toEqual([...CHEAT_IDS].sort());
  for (const d of s.dice) {
    expect(Number.isInteger(d.value) && d.value >= 1 && d.value <= 6).toBe(true);
    expect(d.at === "supply" || d.at === "altar" || (typeof d.at === "number" && d.at >= 0 && d.at < s.pot.length)).toBe(true);
  }
  expect(positionLegal(s.dice, s.pot.length, s.players)).toBe(true);
  const active = game.activeSeats(s);
  if (s.phase === "over") {
    expect(active).toEqual([]);
    expect(s.result).not.toBeNull();
    return;
  }
  expect(active).toHaveLength(1);
  expect(game.legalActions(s, active[0]).length).toBeGreaterThan(0);
  for (let seat = 0; seat < s.players; seat++) if (seat !== active[0]) expect(game.legalActions(s, seat)).toEqual([]);
  // One Item per player at most; only slot 0 may be face down (with the Item deck empty, Refresh takes an Item's place away).
  expect(s.pot.length).toBeLessThanOrEqual(s.players);
  s.pot.forEach((p, slot) => expect(p.faceDown && slot !== 0).toBe(false));
  // Knowledge: a hand card is known to its owner; entries only for hidden places.
  const hidden = new Set([...s.hands.flat(), ...s.cheatDeck, ...s.pot.filter((p) => p.faceDown).map((p) => p.item)]);
  s.hands.forEach((h, seat) => h.forEach((c) => expect(s.knowledge[c]).toContain(seat)));
  for (const c of Object.keys(s.knowledge)) expect(hidden.has(c)).toBe(true);
  for (const c of s.shown) expect(s.hands.flat()).toContain(c);
  if (s.phase === "turn" && s.pending.length === 0) expect(s.dice.some((d) => d.owner === s.turn && d.at === "supply")).toBe(true);
}

/** Every concrete instance of every template of `seat`'s legal actions. */
export function instances(s: GoblinTeethState, seat: number): Action[] {
  const out: Action[] = [];
  for (const l of game.legalActions(s, seat)) {
    let acts: Action[] = [{ type: l.type }];
    for (const [k, spec] of Object.entries(l.params ?? {})) {
      const values = spec.kind === "int" ? Array.from({ length: spec.max - spec.min + 1 }, (_, i) => spec.min + i) : spec.options;
      acts = acts.flatMap((a) => values.map((v) => ({ ...a, [k]: v })));
    }
    out.push(...acts);
  }
  return out;
}

/** Candidate actions around the legal ones: every type with parameters from wide domains. */
function candidates(s: GoblinTeethState, seat: number): Action[] {
  const dice = s.dice.map((_, id) => id);
  const slots = [...s.pot.map((_, i) => i), s.pot.length];
  const seats = [...Array(s.players).keys()];
  const hand = s.hands[seat];
  const out: Action[] = [{ type: "end-turn" }, { type: "reroll" }, { type: "decline" }, { type: "draw" }];
  for (const die of dice) {
    out.push({ type: "altar", die }, { type: "altar-draw", die }, { type: "clumsy", die });
    for (const slot of slots) out.push({ type: "place", die, slot });
    for (const target of seats) out.push({ type: "altar-clear", die, target });
    for (const give of hand) out.push({ type: "poison", give, die });
  }
  for (const top of hand) for (const give of hand) out.push({ type: "share", top, give });
  for (const raise of dice.slice(0, 6)) for (const reduce of dice) for (const discard of hand.slice(0, 2)) out.push({ type: "quick-fingers", discard, raise, reduce });
  for (const card of hand.filter(isCheat)) {
    const params = cheatParams(card);
    const wide: Record<string, Array<string | number>> = {
      die: dice, other: dice, raise: dice, reduce: dice, slot: slots, target: seats, value: [2, 3, 4],
      item: hand, take: ["none", ...s.ongoing.flat()], top: [...s.discard.slice(-4), ...hand], give: [...s.discard.slice(-4), ...hand],
    };
    let acts: Action[] = [{ type: "cheat", card }];
    for (const p of params) acts = acts.flatMap((a) => wide[p].map((v) => ({ ...a, [p]: v })));
    out.push(...acts.slice(0, 400));
  }
  return out;
}

/** apply accepts an action exactly when it matches the legal templates. */
export function checkLegalMatchesApply(s: GoblinTeethState) {
  const active = game.activeSeats(s);
  if (active.length === 0) return;
  const seat = active[0];
  const legal = game.legalActions(s, seat);
  for (const a of instances(s, seat)) {
    const r = game.apply(s, seat, a);
    expect(r.ok ? "ok" : `${r.error.code}: ${JSON.stringify(a)}`).toBe("ok");
  }
  for (const a of candidates(s, seat)) {
    const r = game.apply(s, seat, a);
    expect(r.ok, `${JSON.stringify(a)} -> ${r.ok ? "ok" : r.error.code}`).toBe(matchesLegal(legal, a));
  }
}

const VARIANTS: Array<[number, GoblinTeethOptions]> = [
  [2, {}],
  [3, {}],
  [4, {}],
  [5, {}],
  [2, { advanced: true }],
  [3, { advanced: true }],
  [4, { advanced: true }],
  [5, { advanced: true }],
];

describe("random games", () => {
  it("25 seeds per variant (2-5 players, basic and advanced): invariants hold, games end, every Cheat card is played, replays are identical", () => {
    let games = 0;
    const kinds = new Set<string>();
    for (const [players, options] of VARIANTS) {
      for (let i = 0; i < 25; i++) {
        const seed = `rg-${players}-${options.advanced ? "adv" : "basic"}-${i}`;
        const g = randomGame(players, seed, options, (s, last) => {
          if (i % 5 === 0) checkInvariants(s);
          if (last?.[1].type === "cheat") kinds.add(last[1].card as string);
        });
        checkInvariants(g.final);
        expect(game.isOver(g.final)).toBe(true);
        const o = game.outcome(g.final)!;
        expect(o.scores).toHaveLength(players);
        expect(Math.min(...o.places)).toBe(1);
        for (let seat = 0; seat < players; seat++) expect(game.legalActions(g.final, seat)).toEqual([]);
        games++;
        if (i % 5 !== 0) continue;
        // Replay: same seed + same actions = byte-identical JSON (the state and the log kept beside it).
        const s = replayed(game, { players, options, seed }, g.moves);
        expect(JSON.stringify(s.state)).toBe(JSON.stringify(g.final));
        expect(JSON.stringify(s.log)).toBe(JSON.stringify(g.log));
      }
    }
    expect(games).toBe(200);
    expect([...kinds].sort()).toEqual([...CHEAT_IDS].sort());
  }, 300_000);

  it("legal actions are exactly what apply accepts (every instance accepted; nearby candidates agree)", () => {
    let checked = 0;
    for (const [players, options] of VARIANTS) {
      for (let i = 0; i < 3; i++) {
        randomGame(players, `agree-${players}-${options.advanced}-${i}`, options, (s) => {
          if (checked++ % 3 === 0) checkLegalMatchesApply(s);
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
  }, 300_000);

  it("different seeds give different games", () => {
    expect(JSON.stringify(randomGame(4, "one").final)).not.toBe(JSON.stringify(randomGame(4, "two").final));
  });
});
