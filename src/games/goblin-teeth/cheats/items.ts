/**
 * Cheat cards that move Items: Exchange, Refresh, Switcheroo. A discarded Item is not shown: it is
 * shuffled back into the Item deck (after any replacement is drawn, so it can't come straight back).
 */
import { addToHand, knowersOf, removeFromHand, setKnown, shuffleIntoItemDeck } from "../cards.js";
import { face } from "../data.js";
import { onItems } from "../dice.js";
import { log } from "../draft.js";
import type { GoblinTeethState } from "../state.js";
import { allSlots, err, handItemArg, handItems, slotArg, type CheatRule } from "./rule.js";

const itemDeckNotEmpty = (s: GoblinTeethState) =>
  s.itemDeck.length > 0 ? null : err("ITEM_DECK_EMPTY", "The Item deck is empty: there is nothing to draw.");

export const exchange: CheatRule = {
  params: ["item"],
  secret: ["item"],
  domains: (s, ctx) => ({ item: handItems(s, ctx.seat) }),
  precondition: itemDeckNotEmpty,
  check: (s, ctx, f) => handItemArg(s, ctx.seat, f.item),
  play: (d, ctx, f) => {
    const gave = f.item as string;
    removeFromHand(d, ctx.seat, gave, { among: handItems(d, ctx.seat), seenBy: [] });
    const got = d.itemDeck.shift()!;
    addToHand(d, ctx.seat, got);
    shuffleIntoItemDeck(d, [gave]);
    log(d, { type: "exchange", seat: ctx.seat });
    log(d, { type: "exchanged", to: [ctx.seat], seat: ctx.seat, gave: face(gave), got });
  },
};

export const refresh: CheatRule = {
  params: ["slot"],
  domains: (s) => ({ slot: allSlots(s) }),
  precondition: itemDeckNotEmpty,
  check: (s, _ctx, f) => {
    const bad = slotArg(s, f.slot);
    if (bad) return bad;
    return onItems(s, f.slot as number).length > 0 ? err("HAS_DICE", "Refresh discards an Item without any dice on it.") : null;
  },
  play: (d, _ctx, f) => {
    const slot = f.slot as number;
    const p = d.pot[slot];
    const old = p.item;
    p.item = d.itemDeck.shift()!;
    shuffleIntoItemDeck(d, [old]);
    log(d, {
      type: "refresh",
      slot,
      faceDown: p.faceDown,
      discarded: p.faceDown ? null : face(old),
      item: p.faceDown ? null : face(p.item),
    });
  },
};

export const switcheroo: CheatRule = {
  params: ["item"],
  secret: ["item"],
  domains: (s, ctx) => ({ item: handItems(s, ctx.seat) }),
  check: (s, ctx, f) => handItemArg(s, ctx.seat, f.item),
  play: (d, ctx, f) => {
    const put = f.item as string;
    const faceDown = d.pot[0];
    const took = faceDown.item;
    removeFromHand(d, ctx.seat, put, { among: handItems(d, ctx.seat), seenBy: [] });
    // Whoever knew the face-down Item saw it go into this hand; only this player knows the new one.
    addToHand(d, ctx.seat, took, knowersOf(d, took));
    faceDown.item = put;
    setKnown(d, put, [ctx.seat]);
    log(d, { type: "switcheroo", seat: ctx.seat, slot: 0 });
    log(d, { type: "switched", to: [ctx.seat], seat: ctx.seat, took, put });
  },
};
