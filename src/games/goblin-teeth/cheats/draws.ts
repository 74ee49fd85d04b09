/**
 * Cheat cards that move Cheat cards between the decks and hands: Pass, Pilfer, Revivify,
 * Share the Load (whose choices come after the draw, see decisions.ts). Sneak Preview is in
 * index.ts (it needs the whole table of cards). Each does as much of its text as it can: a draw
 * from empty piles draws what there is; Revivify and Share the Load with fewer than 3 cards fill
 * their steps in printed order (on the deck, then to the left, then kept); a card none of whose
 * text can be done can't be played.
 */
import { cheatSupply, drawCheats, reviveFromDiscard, shareOut } from "../cards.js";
import { cheat } from "../data.js";
import { emit, leftOf, type Draft } from "../draft.js";
import type { GoblinTeethState } from "../state.js";
import { err, NONE, type CheatRule } from "./rule.js";

export const pass: CheatRule = {
  params: [],
  domains: () => ({}),
  // At the end of the round there is no die to place: with nothing to draw, nothing would happen.
  // Rules 1 refused only the Patient play, not Pass played through Sneak Preview then (it drew
  // nothing); games dealt under rules 1 keep that, so their records replay as they were played.
  precondition: (s, ctx) =>
    (ctx.mode === "patient" || (s.phase === "end" && (s.rules ?? 1) >= 2)) && cheatSupply(s) === 0
      ? err("NOTHING_TO_DRAW", "Pass: the Cheat deck and the discard pile are empty, and there is no die left to place this round.")
      : null,
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
  domains: (s, ctx) => ({ take: [NONE, ...opponentsOngoing(s, ctx.seat)] }),
  precondition: (s, ctx) =>
    cheatSupply(s) === 0 && opponentsOngoing(s, ctx.seat).length === 0
      ? err("NOTHING_TO_DRAW", "Pilfer: the Cheat deck and the discard pile are empty, and no other player has an Ongoing card to take.")
      : null,
  check: (s, ctx, f) =>
    f.take === NONE || (typeof f.take === "string" && opponentsOngoing(s, ctx.seat).includes(f.take))
      ? null
      : err("BAD_TAKE", 'Pilfer takes "none" or an Ongoing card in front of another player.'),
  play: (d, ctx, f) => {
    drawCheats(d, ctx.seat, 1, "pilfer");
    if (f.take === NONE) return;
    const card = f.take as string;
    const from = d.ongoing.findIndex((cards) => cards.includes(card));
    d.ongoing[from] = d.ongoing[from].filter((c) => c !== card);
    d.ongoing[ctx.seat].push(card);
    emit(d, { type: "ongoing-moved", card, from, holder: ctx.seat, reason: "pilfer" });
  },
};

/** The top 3 cards of the Cheat discard pile (the last three discarded), or all of it if it holds fewer. */
export function discardTop3(s: GoblinTeethState): string[] {
  return s.discard.slice(-3);
}

/**
 * The events for `seat` putting `top` on the Cheat deck and giving `give` (if any) to the player
 * on their left (cards.ts moved them). The public `gave` event always comes (count 0 when there was
 * nothing left to give): it closes the share-out for those following the drawn cards.
 */
function emitTopAndGive(d: Draft, seat: number, top: string, give: string | null, reason: string): void {
  const left = leftOf(d.players, seat);
  emit(d, { type: "gave", seat, receiver: left, count: give === null ? 0 : 1, reason });
  emit(d, { type: "returned-to-deck", seat, count: 1, reason });
  if (give !== null) emit(d, { type: "given", to: [seat, left], from: seat, seat: left, card: give, reason });
  emit(d, { type: "deck-top", to: [seat], seat, card: top, reason });
}

/**
 * What is wrong with `top` (on the deck) and `give` (to the left) chosen among `options`: two
 * different ones of them; with a single option, it goes on the deck and `give` is "none".
 */
function pickProblem(options: readonly string[], top: unknown, give: unknown, what: string) {
  if (typeof top !== "string" || !options.includes(top)) return err("BAD_CARD", `The card for the top of the deck must be one of ${what}.`);
  if (options.length === 1) {
    return give === NONE ? null : err("BAD_CARD", `With a single card, it goes on top of the deck and there is none to give: give "${NONE}".`);
  }
  if (typeof give !== "string" || !options.includes(give)) return err("BAD_CARD", `The card to give must be one of ${what}.`);
  return top === give ? err("SAME_CARD", "Put one card on the deck and give a different one.") : null;
}

export const revivify: CheatRule = {
  params: ["top", "give"],
  secret: ["top", "give"],
  domains: (s) => {
    const three = discardTop3(s);
    return { top: three, give: three.length > 1 ? three : [NONE] };
  },
  precondition: (s) => (s.discard.length > 0 ? null : err("NOT_ENOUGH_CARDS", "Revivify needs a card in the Cheat discard pile.")),
  check: (s, _ctx, f) => pickProblem(discardTop3(s), f.top, f.give, "the top 3 cards of the discard pile"),
  play: (d, ctx, f) => {
    const three = discardTop3(d);
    const give = f.give === NONE ? null : (f.give as string);
    const keep = three.find((c) => c !== f.top && c !== give);
    reviveFromDiscard(d, ctx.seat, three, f.top as string, give, keep ?? null);
    emit(d, { type: "revivify", seat: ctx.seat, count: three.length });
    emitTopAndGive(d, ctx.seat, f.top as string, give, "revivify");
    if (keep === undefined) return;
    emit(d, { type: "kept", to: [ctx.seat], seat: ctx.seat, card: keep, reason: "revivify" });
  },
};

export const shareTheLoad: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s) =>
    cheatSupply(s) > 0 ? null : err("NOT_ENOUGH_CARDS", "Share the Load: the Cheat deck and the discard pile are empty, so there is nothing to draw."),
  check: () => null,
  play: (d, ctx) => {
    const cards = drawCheats(d, ctx.seat, 3, "share-the-load");
    // Two or three drawn: choose which goes back and which to the left. One: it goes back on top.
    if (cards.length > 1) d.pending.unshift({ kind: "share", seat: ctx.seat, card: ctx.card, cards });
    else resolveShare(d, ctx.seat, cards, cards[0], null);
  },
};

/** Share the Load's choice: return `top` to the deck, give `give` to the left (both from the cards drawn). */
export function shareProblem(s: GoblinTeethState, seat: number, cards: readonly string[], top: unknown, give: unknown) {
  const inHand = cards.filter((c) => s.hands[seat].includes(c));
  return pickProblem(inHand, top, give, `the cards you drew (${inHand.map((c) => cheat(c).name).join(", ")})`);
}

/**
 * Share the Load's choice made: `top` and `give` (null: only one card was drawn) leave the hand
 * face down, picked among the cards drawn (`drawn`, those still held); the player on the left
 * sees only the card they get.
 */
export function resolveShare(d: Draft, seat: number, drawn: readonly string[], top: string, give: string | null): void {
  shareOut(d, seat, drawn, top, give);
  emitTopAndGive(d, seat, top, give, "share-the-load");
}
