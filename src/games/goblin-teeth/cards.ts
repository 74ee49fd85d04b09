/**
 * Moving cards between hands, decks, the discard pile and the Pot, keeping `knowledge` (who knows
 * exactly where a hidden card is) right: the one place it is decided. A card in a public place
 * (discard, in play, in front of a player, face up in the Pot) has no knowledge entry; a card in a
 * hand is always known to its owner. A seat knows where a card is only while nothing it could not
 * see may have moved it: a card taken from a hand face down (given, discarded unseen, put on the
 * deck) makes every card it could have been uncertain to whoever did not see which it was.
 *
 * Path by path (the callers say what was seen, these functions decide): a card drawn is known to
 * whoever put it on the deck (`drawCheats`); a card given face down (Poisoner, Revivify, Share the
 * Load) to giver and receiver (`addToHand`); the face-down Item to who peeked or put it there, and
 * to them in its taker's hand (award, Switcheroo); a Sneak Preview card back in hand to everyone.
 * Knowledge ends when the card is played or discarded face up (`forgetCard`, `discardCheat`), put
 * on the deck (`putOnCheatDeck`: its putter only), shuffled (`shuffleIntoItemDeck`,
 * `reshuffleDiscard`), or when a card leaves that hand unseen among cards it could have been
 * (`removeFromHand` with `unseen`: Poisoner among the whole hand but for its target; Exchange,
 * Switcheroo and a Quick Fingers Item among the hand's Items; Share the Load among the cards drawn).
 * provenance.ts follows the same paths from each viewer's entries alone, and its tests hold the views to it.
 */
import { forget, knows } from "../knowledge.js";
import { shuffle } from "../rng.js";
import type { Seat, Viewer } from "../types.js";
import { log, type Draft } from "./draft.js";
import type { GoblinTeethState } from "./state.js";

/** Set exactly who knows where `card` is, replacing what was known; `shown`: everyone (spectators too). */
export function setKnown(d: Draft, card: string, seats: readonly Seat[], shown = false): void {
  const uniq = [...new Set(seats)].sort((a, b) => a - b);
  d.knowledge = uniq.length > 0 ? { ...d.knowledge, [card]: uniq } : forget(d.knowledge, card);
  d.shown = d.shown.filter((c) => c !== card);
  if (shown) d.shown.push(card);
}

/** The card is now in a public place, or shuffled: nobody tracks it. */
export function forgetCard(d: Draft, card: string): void {
  setKnown(d, card, []);
}

export function knowersOf(s: GoblinTeethState, card: string): Seat[] {
  return s.knowledge[card] ?? [];
}

/** Does `viewer` know where this hidden card is? */
export function knowsCard(s: GoblinTeethState, card: string, viewer: Viewer): boolean {
  return s.shown.includes(card) || knows(s.knowledge, card, viewer);
}

/** How a card left a hand unseen: picked among `among` (what it could have been, to the others); only `seenBy` (and its holder) saw which. */
export interface Unseen {
  among: readonly string[];
  seenBy: readonly Seat[];
}

/**
 * Take `card` out of `seat`'s hand: in plain view (the caller says where it goes), or `unseen`. Then
 * everyone but the holder and `seenBy` loses track of every other card in `among` still in that
 * hand (it may be the one that left), a card shown to all by Sneak Preview included.
 */
export function removeFromHand(d: Draft, seat: Seat, card: string, unseen?: Unseen): void {
  const i = d.hands[seat].indexOf(card);
  if (i < 0) throw new Error(`${card} is not in seat ${seat}'s hand`);
  d.hands[seat].splice(i, 1);
  if (!unseen) return;
  const saw = new Set([seat, ...unseen.seenBy]);
  for (const c of new Set(unseen.among)) {
    if (c === card || !d.hands[seat].includes(c)) continue;
    const knew = d.shown.includes(c) ? Array.from({ length: d.players }, (_, s) => s) : knowersOf(d, c);
    setKnown(d, c, knew.filter((s) => saw.has(s)));
  }
}

/** Put `card` into `seat`'s hand; the owner and `others` know it is there (`shown`: everyone). */
export function addToHand(d: Draft, seat: Seat, card: string, others: readonly Seat[] = [], shown = false): void {
  d.hands[seat].push(card);
  setKnown(d, card, [seat, ...others], shown);
}

/** Cards that can still be drawn: the Cheat deck plus the discard pile (reshuffled when needed). */
export function cheatSupply(s: GoblinTeethState): number {
  return s.cheatDeck.length + s.discard.length;
}

/** The Cheat deck is empty: shuffle the discard pile to form a new deck. */
export function reshuffleDiscard(d: Draft): void {
  const sh = shuffle(d.rng, d.discard);
  d.rng = sh.rng;
  d.cheatDeck = sh.value;
  d.discard = [];
  for (const c of d.cheatDeck) forgetCard(d, c);
  log(d, { type: "cheat-reshuffle", count: d.cheatDeck.length });
}

/**
 * `seat` draws up to `count` Cheat cards into hand (reshuffling the discard pile when the deck is
 * empty; fewer if both run out). Whoever knew a drawn card's place (it was put on top) still knows it.
 * Logged publicly as a count, privately with the cards. Returns the cards drawn.
 */
export function drawCheats(d: Draft, seat: Seat, count: number, reason: string): string[] {
  const got: string[] = [];
  for (let i = 0; i < count; i++) {
    if (d.cheatDeck.length === 0) {
      if (d.discard.length === 0) break;
      reshuffleDiscard(d);
    }
    const card = d.cheatDeck.shift()!;
    addToHand(d, seat, card, knowersOf(d, card));
    got.push(card);
  }
  log(d, { type: "draw", seat, count: got.length, reason });
  if (got.length > 0) log(d, { type: "drew", to: [seat], seat, cards: got, reason });
  return got;
}

/** A Cheat card goes face up onto the discard pile. */
export function discardCheat(d: Draft, card: string): void {
  d.discard.push(card);
  forgetCard(d, card);
}

/** `seat` puts `card` on top of the Cheat deck: only they know it is there. */
export function putOnCheatDeck(d: Draft, seat: Seat, card: string): void {
  d.cheatDeck.unshift(card);
  setKnown(d, card, [seat]);
}

/** Shuffle Items back into the Item deck (nobody knows where they are any more). */
export function shuffleIntoItemDeck(d: Draft, items: readonly string[]): void {
  if (items.length === 0) return;
  const sh = shuffle(d.rng, [...d.itemDeck, ...items]);
  d.rng = sh.rng;
  d.itemDeck = sh.value;
  for (const c of items) forgetCard(d, c);
}
