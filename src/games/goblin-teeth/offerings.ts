/**
 * Offerings: does a hand complete one, which is the best completed, and the winner's tie-breaks
 * (6-Item beats A beats B, then most Goblin Teeth, then a shared win).
 *
 * An Offering is a list of slots: a specific Item type, Goblin Teeth adding up to N (several
 * Tooth cards may fill one such slot; each tooth counts), "?" (any one Item) or "??" (any 2 Items
 * of one type). Each Item card fills at most one slot. A small exhaustive search decides it.
 */
import { isItem, item, offering, type Need, type OfferingGroup } from "./data.js";
import type { GoblinTeethState } from "./state.js";
import type { Seat } from "../types.js";

type Slot = { kind: "item"; type: string } | { kind: "teeth"; n: number } | { kind: "pair" } | { kind: "any" };

function slotsOf(needs: readonly Need[]): Slot[] {
  const out: Slot[] = [];
  for (const need of needs) {
    if ("item" in need) out.push({ kind: "item", type: need.item });
    else if ("teeth" in need) out.push({ kind: "teeth", n: need.teeth });
    else if ("pair" in need) for (let i = 0; i < need.pair; i++) out.push({ kind: "pair" });
    else for (let i = 0; i < need.any; i++) out.push({ kind: "any" });
  }
  const rank = { item: 0, teeth: 1, pair: 2, any: 3 } as const;
  return out.sort((a, b) => rank[a.kind] - rank[b.kind]);
}

/** Hand Items grouped by (type, teeth), with how many of each. */
interface Group {
  type: string;
  teeth: number;
  count: number;
}

function groupsOf(cards: readonly string[]): Group[] {
  const out: Group[] = [];
  for (const id of cards) {
    if (!isItem(id)) continue;
    const c = item(id);
    const g = out.find((x) => x.type === c.type && x.teeth === c.teeth);
    if (g) g.count++;
    else out.push({ type: c.type, teeth: c.teeth, count: 1 });
  }
  return out;
}

function fill(slots: readonly Slot[], i: number, groups: Group[]): boolean {
  if (i === slots.length) return true;
  const slot = slots[i];
  switch (slot.kind) {
    case "item":
      for (const g of groups) {
        if (g.type !== slot.type || g.count === 0) continue;
        g.count--;
        const done = fill(slots, i + 1, groups);
        g.count++;
        if (done) return true;
      }
      return false;
    case "teeth":
      return fillTeeth(slots, i, groups, slot.n, 0);
    case "pair": {
      const types = [...new Set(groups.map((g) => g.type))];
      for (const type of types) {
        const gs = groups.filter((g) => g.type === type);
        if (gs.reduce((a, g) => a + g.count, 0) < 2) continue;
        // Take two cards of this type: two from one group or one each from two groups.
        for (let a = 0; a < gs.length; a++) {
          for (let b = a; b < gs.length; b++) {
            if (a === b ? gs[a].count < 2 : gs[a].count < 1 || gs[b].count < 1) continue;
            gs[a].count--;
            gs[b].count--;
            const done = fill(slots, i + 1, groups);
            gs[a].count++;
            gs[b].count++;
            if (done) return true;
          }
        }
      }
      return false;
    }
    case "any": {
      const left = groups.reduce((a, g) => a + g.count, 0);
      return left >= slots.length - i; // "any" slots come last
    }
  }
}

/** Fill a teeth slot needing `need` more teeth, using toothed cards from group index `from` on. */
function fillTeeth(slots: readonly Slot[], i: number, groups: Group[], need: number, from: number): boolean {
  if (need <= 0) return fill(slots, i + 1, groups);
  for (let k = from; k < groups.length; k++) {
    const g = groups[k];
    if (g.teeth <= 0 || g.count === 0) continue;
    g.count--;
    const done = fillTeeth(slots, i, groups, need - g.teeth, k);
    g.count++;
    if (done) return true;
  }
  return false;
}

/** Do the Items among `cards` complete Offering `id`? */
export function completes(cards: readonly string[], id: string): boolean {
  return fill(slotsOf(offering(id).needs), 0, groupsOf(cards));
}

const GROUP_LEVEL: Record<OfferingGroup, number> = { six: 3, A: 2, B: 1 };

/** 3 for the 6-Item Offering, 2 for an A, 1 for a B. */
export function offeringLevel(id: string): number {
  return GROUP_LEVEL[offering(id).group];
}

/** The Offerings `seat` may complete: the shared ones, plus their own in Advanced Play. */
export function offeringsFor(s: GoblinTeethState, seat: Seat): string[] {
  return [...s.offerings, ...(s.seatOfferings?.[seat] ?? [])];
}

/** The best Offering `seat`'s hand completes (6-Item, then A, then B), or null. */
export function bestCompleted(s: GoblinTeethState, seat: Seat): string | null {
  let best: string | null = null;
  for (const id of offeringsFor(s, seat)) {
    if (completes(s.hands[seat], id) && (best === null || offeringLevel(id) > offeringLevel(best))) best = id;
  }
  return best;
}

/** How far a hand is toward one Offering: `complete` is exact; `covered` marks, need by need, what
 * the hand's Items can fill when the needs are taken in order (specific Items, then teeth, then
 * pairs, then any), each Item used once: a guide for the player, never the decision. */
export interface OfferingProgress {
  offering: string;
  complete: boolean;
  covered: boolean[];
}

export function progress(cards: readonly string[], id: string): OfferingProgress {
  const needs = offering(id).needs;
  const left = cards.filter(isItem).map((c) => item(c));
  const take = (pred: (c: (typeof left)[number]) => boolean): boolean => {
    const i = left.findIndex(pred);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  };
  const covered: boolean[] = needs.map(() => false);
  needs.forEach((n, i) => {
    if ("item" in n) covered[i] = take((c) => c.type === n.item);
  });
  needs.forEach((n, i) => {
    if (!("teeth" in n)) return;
    const toothed = left.filter((c) => c.teeth > 0).sort((a, b) => b.teeth - a.teeth);
    let sum = 0;
    const used: typeof left = [];
    for (const c of toothed) {
      if (sum >= n.teeth) break;
      sum += c.teeth;
      used.push(c);
    }
    if (sum >= n.teeth) {
      covered[i] = true;
      for (const c of used) left.splice(left.indexOf(c), 1);
    }
  });
  needs.forEach((n, i) => {
    if (!("pair" in n)) return;
    let ok = true;
    for (let p = 0; p < n.pair && ok; p++) {
      const type = [...new Set(left.map((c) => c.type))].find((t) => left.filter((c) => c.type === t).length >= 2);
      if (type === undefined) ok = false;
      else take((c) => c.type === type) && take((c) => c.type === type);
    }
    covered[i] = ok;
  });
  needs.forEach((n, i) => {
    if (!("any" in n)) return;
    if (left.length >= n.any) {
      left.splice(0, n.any);
      covered[i] = true;
    }
  });
  return { offering: id, complete: completes(cards, id), covered };
}
