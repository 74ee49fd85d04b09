/**
 * Moving cards between hands, decks, the discard pile and the Pot, keeping `knowledge` (who knows
 * exactly where a hidden card is) and `shown` right: the one place it is decided. Callers say only
 * what happened ("a Poisoner gift", "a peek", "a card put back on the deck"); each path the rules
 * give has its function here, and that function alone decides who knows what afterwards. No other
 * file writes `knowledge` or `shown` (setup and test positions only start them).
 *
 * A card in a public place (discard, in play, in front of a player, face up in the Pot) has no
 * knowledge entry; a card in a hand is always known to its owner. A seat knows where a card is
 * only while nothing it could not see may have moved it: a card taken from a hand face down
 * (given, discarded unseen, put on the deck) makes every card it could have been uncertain to
 * whoever did not see which it was.
 *
 * Learning, path by path:
 * - `drawCheats`: a card drawn is known to its drawer and to whoever put it on top of the deck.
 * - `handOver` (Poisoner): the card given face down, to giver and receiver.
 * - `reviveFromDiscard` (Revivify), `shareOut` (Share the Load): the card given to the left, to
 *   giver and receiver; the card put back on the deck, to its putter only (`putBackOnDeck`); a
 *   card kept, to its holder.
 * - `peekFaceDown` (Sneaky Sneaky): the face-down Item, to the peeker too.
 * - `switchFaceDown` (Switcheroo): the Item put face down, to its putter only; the face-down Item
 *   taken, to its taker and whoever knew it (they saw where it went); so does `awardItem` for the
 *   face-down Item (a face-up Item's id is never public: only its taker knows the card).
 * - `exchangeItem` (Exchange): the Item drawn, to its holder.
 * - `previewBackToHand` (Sneak Preview): the card back in hand, to everyone (spectators too).
 * Ending, path by path:
 * - played or discarded face up (`playFromHand`, `discardFromHand`, `discardCheat`): public, untracked;
 * - put on the deck (`putBackOnDeck`): its putter only; shuffled (`shuffleIntoItemDeck`,
 *   `reshuffleDiscard`): nobody; the game over (`revealAll`): everything is public;
 * - a card leaving a hand unseen ends, for whoever did not see which, what was known of every card
 *   it could have been: Poisoner (`handOver`) among the whole hand, for all but giver and receiver;
 *   Exchange, Switcheroo and a Quick Fingers Item (`exchangeItem`, `switchFaceDown`,
 *   `discardItemUnseen`) among the hand's Items, for all but the holder; Share the Load
 *   (`shareOut`) among the cards drawn, for all but the holder (and the receiver, for the card it got).
 * provenance.ts follows the same paths from each viewer's entries alone, and its tests hold the views to it.
 */
import { forget, knows } from "../knowledge.js";
import { shuffle } from "../rng.js";
import type { Seat, Viewer } from "../types.js";
import { isItem } from "./data.js";
import { emit, leftOf, type Draft } from "./draft.js";
import type { GoblinTeethState } from "./state.js";

// --- Who knows: the primitives (private: the paths below are the only ways in) -----------------

/** Set exactly who knows where `card` is, replacing what was known; `shown`: everyone (spectators too). */
function setKnown(d: Draft, card: string, seats: readonly Seat[], shown = false): void {
  const uniq = [...new Set(seats)].sort((a, b) => a - b);
  d.knowledge = uniq.length > 0 ? { ...d.knowledge, [card]: uniq } : forget(d.knowledge, card);
  d.shown = d.shown.filter((c) => c !== card);
  if (shown) d.shown.push(card);
}

/** The card is now in a public place, or shuffled: nobody tracks it. */
function forgetCard(d: Draft, card: string): void {
  setKnown(d, card, []);
}

function knowersOf(s: GoblinTeethState, card: string): Seat[] {
  return s.knowledge[card] ?? [];
}

/** Does `viewer` know where this hidden card is? */
export function knowsCard(s: GoblinTeethState, card: string, viewer: Viewer): boolean {
  return s.shown.includes(card) || knows(s.knowledge, card, viewer);
}

/** How a card left a hand unseen: picked among `among` (what it could have been, to the others); only `seenBy` (and its holder) saw which. */
interface Unseen {
  among: readonly string[];
  seenBy: readonly Seat[];
}

/**
 * Take `card` out of `seat`'s hand: in plain view (the path says where it goes), or `unseen`. Then
 * everyone but the holder and `seenBy` loses track of every other card in `among` still in that
 * hand (it may be the one that left), a card shown to all by Sneak Preview included.
 */
function removeFromHand(d: Draft, seat: Seat, card: string, unseen?: Unseen): void {
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
function addToHand(d: Draft, seat: Seat, card: string, others: readonly Seat[] = [], shown = false): void {
  d.hands[seat].push(card);
  setKnown(d, card, [seat, ...others], shown);
}

/** `seat` puts `card` (out of any hand) on top of the Cheat deck: only they know it is there. */
function putBackOnDeck(d: Draft, seat: Seat, card: string): void {
  d.cheatDeck.unshift(card);
  setKnown(d, card, [seat]);
}

/** `from` gives `card` (out of any hand) face down to `to`: the two of them know where it is. */
function giveFaceDown(d: Draft, from: Seat, to: Seat, card: string): void {
  addToHand(d, to, card, [from]);
}

// --- The Cheat deck and the discard pile ---------------------------------------------------------

/** Cards that can still be drawn: the Cheat deck plus the discard pile (reshuffled when needed). */
export function cheatSupply(s: GoblinTeethState): number {
  return s.cheatDeck.length + s.discard.length;
}

/** The Cheat deck is empty: shuffle the discard pile to form a new deck (nobody knows its order). */
function reshuffleDiscard(d: Draft): void {
  const sh = shuffle(d.rng, d.discard);
  d.rng = sh.rng;
  d.cheatDeck = sh.value;
  d.discard = [];
  for (const c of d.cheatDeck) forgetCard(d, c);
  emit(d, { type: "cheat-reshuffle", count: d.cheatDeck.length });
}

/**
 * `seat` draws up to `count` Cheat cards into hand (reshuffling the discard pile when the deck is
 * empty; fewer if both run out). Whoever knew a drawn card's place (it was put on top) still knows it.
 * Reported publicly as a count (`draw`), privately with the cards (`drew`). Returns the cards drawn.
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
  emit(d, { type: "draw", seat, count: got.length, reason });
  if (got.length > 0) emit(d, { type: "drew", to: [seat], seat, cards: got, reason });
  return got;
}

/** A Cheat card not in a hand (in play, in front of a player) goes face up onto the discard pile. */
export function discardCheat(d: Draft, card: string): void {
  d.discard.push(card);
  forgetCard(d, card);
}

// --- Out of a hand in plain view ---------------------------------------------------------------

/** `seat` plays Cheat card `card` face up (the caller puts it into play or in front of a player): nobody tracks it. */
export function playFromHand(d: Draft, seat: Seat, card: string): void {
  removeFromHand(d, seat, card);
  forgetCard(d, card);
}

/** `seat` discards Cheat card `card` from hand face up onto the discard pile (Quick Fingers): nothing else changes. */
export function discardFromHand(d: Draft, seat: Seat, card: string): void {
  removeFromHand(d, seat, card);
  discardCheat(d, card);
}

/** Sneak Preview: the card it played goes back into `seat`'s hand, and everyone (spectators too) saw it. */
export function previewBackToHand(d: Draft, seat: Seat, card: string): void {
  addToHand(d, seat, card, [], true);
}

// --- Face down between hands and the Cheat deck --------------------------------------------------

/**
 * Poisoner: `from` gives `card` from hand face down to `to`. Giver and receiver know where it is;
 * anyone else can't tell which card of `from`'s hand it was, so loses track of all of them.
 */
export function handOver(d: Draft, from: Seat, to: Seat, card: string): void {
  removeFromHand(d, from, card, { among: [...d.hands[from]], seenBy: [to] });
  giveFaceDown(d, from, to, card);
}

/**
 * Revivify: `seat` takes the top cards of the discard pile (face up, so nobody knew them in a hand):
 * `top` goes on the Cheat deck (only `seat` knows it is there), `give` (if any) to the player on
 * the left (the two of them know), `keep` (if any) into `seat`'s hand.
 */
export function reviveFromDiscard(d: Draft, seat: Seat, taken: readonly string[], top: string, give: string | null, keep: string | null): void {
  d.discard = d.discard.slice(0, -taken.length);
  putBackOnDeck(d, seat, top);
  if (give !== null) giveFaceDown(d, seat, leftOf(d.players, seat), give);
  if (keep !== null) addToHand(d, seat, keep);
}

/**
 * Share the Load's share-out: `top` goes back on the Cheat deck and `give` (if any) to the player
 * on the left, both face down and picked among the cards `drawn` (those still held). Only `seat`
 * knows the card on the deck; giver and receiver know the card given; anyone else loses track of
 * every drawn card still held (the receiver too, but for the card it got: it did not see which
 * went back on the deck).
 */
export function shareOut(d: Draft, seat: Seat, drawn: readonly string[], top: string, give: string | null): void {
  const left = leftOf(d.players, seat);
  const among = drawn.filter((c) => d.hands[seat].includes(c));
  removeFromHand(d, seat, top, { among, seenBy: [] });
  if (give !== null) removeFromHand(d, seat, give, { among, seenBy: [left] });
  putBackOnDeck(d, seat, top);
  if (give !== null) giveFaceDown(d, seat, left, give);
}

// --- Items: the face-down Item, the Item deck --------------------------------------------------

/** An Item leaves `seat`'s hand face down: anyone but its holder loses track of that hand's Items (it could have been any). */
function itemOutUnseen(d: Draft, seat: Seat, item: string): void {
  removeFromHand(d, seat, item, { among: d.hands[seat].filter(isItem), seenBy: [] });
}

/** Shuffle Items back into the Item deck (nobody knows where they are any more). */
export function shuffleIntoItemDeck(d: Draft, items: readonly string[]): void {
  if (items.length === 0) return;
  const sh = shuffle(d.rng, [...d.itemDeck, ...items]);
  d.rng = sh.rng;
  d.itemDeck = sh.value;
  for (const c of items) forgetCard(d, c);
}

/**
 * Exchange: `seat` discards `item` face down, draws the top Item (only they know it), then the
 * discarded one is shuffled into the Item deck (after the draw, so it can't come straight back).
 * Returns the Item drawn, or null when the Item deck is empty.
 */
export function exchangeItem(d: Draft, seat: Seat, item: string): string | null {
  itemOutUnseen(d, seat, item);
  const got = d.itemDeck.shift() ?? null;
  if (got !== null) addToHand(d, seat, got);
  shuffleIntoItemDeck(d, [item]);
  return got;
}

/** Quick Fingers: `seat` discards `item` face down, shuffled into the Item deck. */
export function discardItemUnseen(d: Draft, seat: Seat, item: string): void {
  itemOutUnseen(d, seat, item);
  shuffleIntoItemDeck(d, [item]);
}

/** Sneaky Sneaky: `seat` peeks at the face-down Item in Pot slot `slot` (whoever knew it still does). Returns it. */
export function peekFaceDown(d: Draft, seat: Seat, slot: number): string {
  const item = d.pot[slot].item;
  setKnown(d, item, [...knowersOf(d, item), seat]);
  return item;
}

/**
 * Switcheroo: `seat` takes the face-down Item in Pot slot `slot` into hand (whoever knew it saw
 * where it went) and puts `put` from hand face down in its place (only `seat` knows it; the others
 * lose track of that hand's Items). Returns the Item taken.
 */
export function switchFaceDown(d: Draft, seat: Seat, slot: number, put: string): string {
  const took = d.pot[slot].item;
  itemOutUnseen(d, seat, put);
  addToHand(d, seat, took, knowersOf(d, took));
  d.pot[slot].item = put;
  setKnown(d, put, [seat]);
  return took;
}

/**
 * The end of the round: `seat` takes the Item in Pot slot `slot`. The face-down Item: whoever knew
 * it saw where it went. A face-up Item is told by face, never by card: only its taker knows which card it is.
 */
export function awardItem(d: Draft, seat: Seat, slot: number): void {
  const p = d.pot[slot];
  addToHand(d, seat, p.item, p.faceDown ? knowersOf(d, p.item) : []);
}

/** The game is over: every hand and deck is revealed, nobody needs tracking. */
export function revealAll(d: Draft): void {
  d.knowledge = {};
  d.shown = [];
}
