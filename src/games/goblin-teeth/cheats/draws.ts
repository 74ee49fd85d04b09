/**
 * Cheat cards that move Cheat cards between the decks and hands: Pass, Pilfer, Revivify,
 * Share the Load (whose choices come after the draw, see decisions.ts). Sneak Preview is in
 * index.ts (it needs the whole table of cards).
 */
import { addToHand, cheatSupply, drawCheats, putOnCheatDeck, removeFromHand } from "../cards.js";
import { cheat } from "../data.js";
import { leftOf, log, type Draft } from "../draft.js";
import type { GoblinTeethState } from "../state.js";
import { err, type CheatRule } from "./rule.js";

export const pass: CheatRule = {
  params: [],
  domains: () => ({}),
  check: () => null,
  play: (d, ctx) => {
    drawCheats(d, ctx.seat, 1, "pass");
    if (ctx.mode !== "patient") d.turnState.passed = true;
  },
};

/** Ongoing cards in front of other players. */
function opponentsOngoing(s: GoblinTeethState, seat: number): string[] {
  return s.ongoing.flatMap((cards, owner) => (owner === seat ? [] : cards));
}

export const pilfer: CheatRule = {
  params: ["take"],
  domains: (s, ctx) => ({ take: ["none", ...opponentsOngoing(s, ctx.seat)] }),
  check: (s, ctx, f) =>
    f.take === "none" || (typeof f.take === "string" && opponentsOngoing(s, ctx.seat).includes(f.take))
      ? null
      : err("BAD_TAKE", 'Pilfer takes "none" or an Ongoing card in front of another player.'),
  play: (d, ctx, f) => {
    drawCheats(d, ctx.seat, 1, "pilfer");
    if (f.take === "none") return;
    const card = f.take as string;
    const from = d.ongoing.findIndex((cards) => cards.includes(card));
    d.ongoing[from] = d.ongoing[from].filter((c) => c !== card);
    d.ongoing[ctx.seat].push(card);
    log(d, { type: "ongoing-moved", card, from, holder: ctx.seat, reason: "pilfer" });
  },
};

/** The top 3 cards of the Cheat discard pile (the last three discarded). */
export function discardTop3(s: GoblinTeethState): string[] {
  return s.discard.slice(-3);
}

/** `seat` puts `top` on the Cheat deck and gives `give` to the player on their left. */
function topAndGive(d: Draft, seat: number, top: string, give: string, reason: string): void {
  const left = leftOf(d.players, seat);
  putOnCheatDeck(d, seat, top);
  addToHand(d, left, give, [seat]);
  log(d, { type: "gave", seat, receiver: left, count: 1, reason });
  log(d, { type: "returned-to-deck", seat, count: 1, reason });
  log(d, { type: "given", to: [seat, left], from: seat, seat: left, card: give, reason });
  log(d, { type: "deck-top", to: [seat], seat, card: top, reason });
}

function pickProblem(options: readonly string[], top: unknown, give: unknown, what: string) {
  if (typeof top !== "string" || !options.includes(top)) return err("BAD_CARD", `The card for the top of the deck must be one of ${what}.`);
  if (typeof give !== "string" || !options.includes(give)) return err("BAD_CARD", `The card to give must be one of ${what}.`);
  return top === give ? err("SAME_CARD", "Put one card on the deck and give a different one.") : null;
}

export const revivify: CheatRule = {
  params: ["top", "give"],
  secret: ["top", "give"],
  domains: (s) => ({ top: discardTop3(s), give: discardTop3(s) }),
  precondition: (s) => (s.discard.length >= 3 ? null : err("NOT_ENOUGH_CARDS", "Revivify needs 3 cards in the Cheat discard pile.")),
  check: (s, _ctx, f) => pickProblem(discardTop3(s), f.top, f.give, "the top 3 cards of the discard pile"),
  play: (d, ctx, f) => {
    const three = discardTop3(d);
    d.discard = d.discard.slice(0, -3);
    const keep = three.find((c) => c !== f.top && c !== f.give)!;
    log(d, { type: "revivify", seat: ctx.seat, count: 3 });
    topAndGive(d, ctx.seat, f.top as string, f.give as string, "revivify");
    addToHand(d, ctx.seat, keep);
    log(d, { type: "kept", to: [ctx.seat], seat: ctx.seat, card: keep, reason: "revivify" });
  },
};

export const shareTheLoad: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s) => (cheatSupply(s) >= 3 ? null : err("NOT_ENOUGH_CARDS", "Share the Load needs 3 Cheat cards to draw (deck and discard pile together).")),
  check: () => null,
  play: (d, ctx) => {
    const cards = drawCheats(d, ctx.seat, 3, "share-the-load");
    d.pending.unshift({ kind: "share", seat: ctx.seat, card: ctx.card, cards });
  },
};

/** Share the Load's choice: return `top` to the deck, give `give` to the left (both from the 3 drawn). */
export function shareProblem(s: GoblinTeethState, seat: number, cards: readonly string[], top: unknown, give: unknown) {
  const inHand = cards.filter((c) => s.hands[seat].includes(c));
  return pickProblem(inHand, top, give, `the cards you drew (${inHand.map((c) => cheat(c).name).join(", ")})`);
}

/**
 * Share the Load's choice made: `top` and `give` leave the hand face down, picked among the cards
 * drawn (`drawn`, those still held); the player on the left sees only the card they get.
 */
export function resolveShare(d: Draft, seat: number, drawn: readonly string[], top: string, give: string): void {
  const among = drawn.filter((c) => d.hands[seat].includes(c));
  removeFromHand(d, seat, top, { among, seenBy: [] });
  removeFromHand(d, seat, give, { among, seenBy: [leftOf(d.players, seat)] });
  topAndGive(d, seat, top, give, "share-the-load");
}
