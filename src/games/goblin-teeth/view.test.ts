/**
 * Views and the log: no seat sees another hand's cards (but those it knows are there), the
 * face-down Item unless it knows it, or the decks; the spectator only public facts; private log
 * entries go only to their seats; at the end everything is revealed.
 */
import { describe, expect, it } from "vitest";
import { visibleLog } from "../log.js";
import type { LogEntry, Viewer } from "../types.js";
import { knowsCard } from "./cards.js";
import { isCheat } from "./data.js";
import { play, position, randomGame } from "./fixtures.js";
import { goblinTeeth as game } from "./index.js";
import { view } from "./view.js";
import type { GoblinTeethOptions, GoblinTeethState } from "./state.js";

/** True when `text` (JSON) has `id` as a string value (not as an object key). */
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

/** Card ids `viewer` may not see (empty once the game is over). */
export function hiddenFrom(s: GoblinTeethState, viewer: Viewer): string[] {
  if (s.phase === "over") return [];
  const out = new Set<string>([...s.itemDeck, ...s.cheatDeck]);
  s.hands.forEach((h, seat) => {
    if (viewer.kind !== "seat" || viewer.seat !== seat) for (const c of h) out.add(c);
  });
  for (const p of s.pot) if (p.faceDown) out.add(p.item);
  return [...out].filter((c) => !knowsCard(s, c, viewer));
}

/** Problems with the views of `s`, and with the log entries `prev` -> `s` added (`added`), as readable strings. */
function viewProblems(prev: GoblinTeethState | null, s: GoblinTeethState, added: readonly LogEntry[]): string[] {
  const problems: string[] = [];
  const bad = (cond: boolean, what: string) => {
    if (cond) problems.push(what);
  };
  const over = s.phase === "over";
  for (const viewer of viewers(s.players)) {
    const v = view(s, viewer);
    const who = JSON.stringify(viewer);
    const { reveal, result, outcome, ...rest } = v;
    for (const key of ["rng", "itemDeck", "cheatDeck", "knowledge", "hands", "shown"]) bad(hasKey(rest, key), `${who}: has key ${key}`);
    bad(!over && (reveal !== null || result !== null || outcome !== null), `${who}: reveal before the end`);
    const json = JSON.stringify(v);
    for (const word of s.rng) bad(json.includes(String(word)), `${who}: contains an RNG word`);
    const hidden = hiddenFrom(s, viewer);
    for (const id of hidden) bad(names(json, id), `${who}: names hidden ${id}`);
    bad(v.cheatDeckCount !== s.cheatDeck.length || v.itemDeckCount !== s.itemDeck.length, `${who}: deck counts`);
    bad(JSON.stringify(v.seats.map((x) => x.handCount)) !== JSON.stringify(s.hands.map((h) => h.length)), `${who}: hand sizes`);
    if (viewer.kind === "seat" && !over) {
      bad(JSON.stringify(v.mine!.hand.map((c) => c.card)) !== JSON.stringify(s.hands[viewer.seat]), `${who}: own hand`);
      bad(v.you !== viewer.seat, `${who}: you`);
    } else {
      bad(v.mine !== null, `${who}: mine is not null`);
    }
    bad(viewer.kind === "spectator" && "you" in v, "spectator has you");
    // Log entries added by this step: a card may be named only if the viewer could know it just before or just after.
    if (prev) {
      const before = new Set(hiddenFrom(prev, viewer));
      for (const e of visibleLog(added, viewer)) {
        const ej = JSON.stringify(e);
        for (const id of hidden) bad(before.has(id) && names(ej, id), `${who}: log ${e.n} (${e.type}) names hidden ${id}`);
        if (viewer.kind === "spectator") bad(e.to !== undefined, `spectator gets private log ${e.n}`);
        else if (viewer.kind === "seat") bad(e.to !== undefined && !e.to.includes(viewer.seat), `${who} gets someone else's log ${e.n}`);
      }
    }
  }
  return problems;
}

const VARIANTS: Array<[number, GoblinTeethOptions]> = [
  [2, {}],
  [3, {}],
  [4, { advanced: true }],
  [5, {}],
  [5, { advanced: true }],
];

describe("view", () => {
  it("never shows a viewer another hand's cards, an unknown face-down Item, the decks or the RNG, at every step", () => {
    let steps = 0;
    let knownElsewhere = 0;
    for (const [players, options] of VARIANTS) {
      for (let i = 0; i < 8; i++) {
        let prev: GoblinTeethState | null = null;
        let logged = 0;
        randomGame(players, `view-${players}-${options.advanced}-${i}`, options, (s, _last, log) => {
          const problems = viewProblems(prev, s, log.slice(logged));
          logged = log.length;
          if (problems.length > 0) expect(problems.slice(0, 5)).toEqual([]);
          if (s.phase !== "over") knownElsewhere += view(s, { kind: "seat", seat: 0 }).seats.reduce((a, x) => a + x.known.length, 0);
          prev = s;
          steps++;
        });
      }
    }
    expect(steps).toBeGreaterThan(2000);
    expect(knownElsewhere).toBeGreaterThan(0);
  }, 120_000);

  it("depends only on what the viewer knows: the decks' order, unknown hand cards and the RNG don't change it", () => {
    for (const [players, options] of VARIANTS) {
      randomGame(players, `indep-${players}-${options.advanced}`, options, (s) => {
        if (s.phase === "over" || s.cheatDeck.length < 2 || s.itemDeck.length < 2) return;
        for (const viewer of [{ kind: "spectator" } as const, { kind: "seat" as const, seat: 0 }]) {
          const hands = s.hands.map((h) => [...h]);
          const cheatDeck = [...s.cheatDeck];
          const itemDeck = [...s.itemDeck];
          // Swap an unknown card of seat 1's hand with an unknown card of the matching deck.
          const i = hands[1].findIndex((c) => !knowsCard(s, c, viewer));
          if (i >= 0) {
            const deck = isCheat(hands[1][i]) ? cheatDeck : itemDeck;
            const j = deck.findIndex((c) => !knowsCard(s, c, viewer));
            if (j >= 0) [hands[1][i], deck[j]] = [deck[j], hands[1][i]];
          }
          const pot = s.pot.map((p) => ({ ...p }));
          if (!knowsCard(s, pot[0].item, viewer)) [pot[0].item, itemDeck[itemDeck.length - 1]] = [itemDeck[itemDeck.length - 1], pot[0].item];
          // Reverse the order of the Cheat deck's cards the viewer doesn't know (known ones keep their places).
          const unknown = cheatDeck.filter((c) => !knowsCard(s, c, viewer)).reverse();
          const reordered = cheatDeck.map((c) => (knowsCard(s, c, viewer) ? c : unknown.shift()!));
          const other: GoblinTeethState = { ...s, hands, pot, cheatDeck: reordered, itemDeck: [...itemDeck].reverse(), rng: [1, 2, 3, 4] };
          expect(JSON.stringify(view(other, viewer))).toBe(JSON.stringify(view(s, viewer)));
        }
      });
    }
  });

  it("a seat sees its own hand with faces; others see sizes, Ongoing cards, dice, bids and face-up Items by face", () => {
    const s = position({
      players: 3,
      dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]],
      at: [[1, "altar", "supply"], [1, "supply", "supply"], ["supply", "supply", "supply"]],
      pot: ["item-bone-1", "item-tooth-6", "item-worms-1"],
      hands: [["cheat-swap", "item-emerald-1"], ["cheat-pass"], []],
      ongoing: [[], ["cheat-cursed"], []],
      turn: 1,
    });
    const v0 = view(s, { kind: "seat", seat: 0 });
    expect(v0.mine!.hand).toEqual([
      { card: "cheat-swap", kind: "cheat", name: "Swap", cheat: "swap", type: "action", text: "Exchange the values of any 2 unplayed dice." },
      { card: "item-emerald-1", kind: "item", name: "Fancy Emerald", itemType: "emerald", teeth: 0 },
    ]);
    expect(v0.seats[1]).toEqual({ seat: 1, handCount: 1, ongoing: ["cheat-cursed"], offerings: null, unplayed: 2, known: [] });
    expect(v0.pot[0]).toEqual({ slot: 0, faceDown: true, item: null, bids: [0, 0, 0], high: null });
    expect(v0.pot[1]).toEqual({ slot: 1, faceDown: false, item: { type: "tooth", name: "Goblin Tooth", teeth: 2 }, bids: [4, 5, 0], high: 1 });
    expect(v0.dice[1]).toEqual({ id: 1, owner: 0, value: 2, at: "altar" });
    expect(v0).toMatchObject({ phase: "turn", turn: 1, pending: null, you: 0, cheatDeckCount: 27, itemDeckCount: 27 });
    const spec = view(s, { kind: "spectator" });
    expect(spec.mine).toBeNull();
    expect(spec).not.toHaveProperty("you");
    expect(JSON.stringify(spec)).not.toContain("item-tooth-6");
  });

  it("at the end everything is revealed to everyone", () => {
    const g = randomGame(3, "reveal-end");
    const s = g.final;
    for (const viewer of viewers(3)) {
      const v = view(s, viewer);
      expect(v.phase).toBe("over");
      expect(v.mine).toBeNull();
      expect(v.reveal!.hands.map((h) => h.map((c) => c.card))).toEqual(s.hands);
      expect(v.reveal!.itemDeck).toEqual(s.itemDeck);
      expect(v.reveal!.cheatDeck).toEqual(s.cheatDeck);
      expect(v.outcome).toEqual(game.outcome(s));
      expect(v.result).toEqual(s.result);
    }
    const revealed = g.log.find((e) => e.type === "reveal")!;
    expect(revealed.to).toBeUndefined();
    expect(revealed.hands).toEqual(s.hands);
  });

  it("the pending decision is public by kind and seat; its private part (Share the Load's cards) only to its seat", () => {
    const s = play(
      position({ players: 2, dice: [[4, 2, 6], [5, 1, 3]], pot: ["item-bone-1", "item-tooth-1"], hands: [["cheat-share-the-load"], []] }),
      [[0, { type: "cheat", card: "cheat-share-the-load" }]],
    );
    const mine = view(s, { kind: "seat", seat: 0 });
    const theirs = view(s, { kind: "seat", seat: 1 });
    expect(mine.pending).toEqual({ kind: "share", seat: 0 });
    expect(mine.mine!.pending!.cards).toHaveLength(3);
    expect(theirs.mine!.pending).toBeNull();
    for (const c of mine.mine!.pending!.cards) expect(names(JSON.stringify(theirs), c)).toBe(false);
  });
});
