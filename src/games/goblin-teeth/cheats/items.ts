/**
 * Cheat cards that move Items: Exchange, Refresh, Switcheroo. A discarded Item is not shown: it is
 * shuffled back into the Item deck (after any replacement is drawn, so it can't come straight back).
 * With the Item deck empty, Exchange and Refresh still discard: nothing is drawn, and a refreshed
 * Item's place leaves the Pot (the Items after it move up one slot, with their dice).
 */
import { exchangeItem, shuffleIntoItemDeck, switchFaceDown } from "../cards.js";
import { face } from "../data.js";
import { onItems } from "../dice.js";
import { emit, type Draft } from "../draft.js";
import { allSlots, err, faceDownSlot, handItemArg, handItems, slotArg, type CheatRule } from "./rule.js";

export const exchange: CheatRule = {
  params: ["item"],
  secret: ["item"],
  domains: (s, ctx) => ({ item: handItems(s, ctx.seat) }),
  check: (s, ctx, f) => handItemArg(s, ctx.seat, f.item),
  play: (d, ctx, f) => {
    const gave = f.item as string;
    const got = exchangeItem(d, ctx.seat, gave);
    emit(d, { type: "exchange", seat: ctx.seat, drew: got !== null });
    emit(d, { type: "exchanged", to: [ctx.seat], seat: ctx.seat, gave: face(gave), got });
  },
};

/** Take Pot slot `slot` (no dice on it) out of the Pot: later slots move up one, with their dice and pending decisions. */
function removeSlot(d: Draft, slot: number): void {
  d.pot.splice(slot, 1);
  for (const die of d.dice) if (typeof die.at === "number" && die.at > slot) die.at -= 1;
  d.pending = d.pending.map((p) => (p.kind === "clumsy" && p.slot > slot ? { ...p, slot: p.slot - 1 } : p));
}

export const refresh: CheatRule = {
  params: ["slot"],
  domains: (s) => ({ slot: allSlots(s) }),
  check: (s, _ctx, f) => {
    const bad = slotArg(s, f.slot);
    if (bad) return bad;
    return onItems(s, f.slot as number).length > 0 ? err("HAS_DICE", "Refresh discards an Item without any dice on it.") : null;
  },
  play: (d, _ctx, f) => {
    const slot = f.slot as number;
    const p = d.pot[slot];
    const old = p.item;
    const next = d.itemDeck.shift() ?? null;
    if (next === null) removeSlot(d, slot);
    else p.item = next;
    shuffleIntoItemDeck(d, [old]);
    emit(d, {
      type: "refresh",
      slot,
      faceDown: p.faceDown,
      discarded: p.faceDown ? null : face(old),
      item: p.faceDown || next === null ? null : face(next),
      ...(next === null ? { removed: true } : {}),
    });
  },
};

export const switcheroo: CheatRule = {
  params: ["item"],
  secret: ["item"],
  domains: (s, ctx) => ({ item: handItems(s, ctx.seat) }),
  precondition: (s) => (faceDownSlot(s) !== null ? null : err("NO_FACE_DOWN", "There is no face-down Item in the Pot to take.")),
  check: (s, ctx, f) => handItemArg(s, ctx.seat, f.item),
  play: (d, ctx, f) => {
    const put = f.item as string;
    const slot = faceDownSlot(d)!;
    const took = switchFaceDown(d, ctx.seat, slot, put);
    emit(d, { type: "switcheroo", seat: ctx.seat, slot });
    emit(d, { type: "switched", to: [ctx.seat], seat: ctx.seat, took, put });
  },
};
