/**
 * Rounds: dealing the Pot and rolling at the start; at the end, awarding each Item to its highest
 * bidder, checking for a winner, the first player token, Items without bids back into the deck,
 * a Cheat card for everyone who took nothing. Also the end of the game and its result.
 */
import type { Seat } from "../types.js";
import { awardItem, drawCheats, revealAll, shuffleIntoItemDeck } from "./cards.js";
import { face, teethOf } from "./data.js";
import { diceOf, highBidder, offerBlessed, rollAll, slotTotals } from "./dice.js";
import { clockwise, emit, type Draft } from "./draft.js";
import { bestCompleted, offeringLevel } from "./offerings.js";
import { hasOngoing } from "./ongoing.js";
import type { Award, GameResult } from "./state.js";

/**
 * Start a round: one Item face down, then face up until the Pot holds one per player (fewer if
 * the Item deck runs short; none left at all ends the game). Everyone takes their dice back and
 * (`roll`) rolls them. Then the start-of-round decisions: Fresh Start, Blessed.
 */
export function startRound(d: Draft, roll: boolean): void {
  if (d.itemDeck.length === 0) {
    finishGame(d, "items-exhausted");
    return;
  }
  const size = Math.min(d.players, d.itemDeck.length);
  d.pot = Array.from({ length: size }, (_, i) => ({ item: d.itemDeck.shift()!, faceDown: i === 0 }));
  for (const die of d.dice) die.at = "supply";
  if (roll) for (let seat = 0; seat < d.players; seat++) rollAll(d, seat);
  d.phase = "start";
  d.turn = null;
  d.inPlay = [];
  d.pending = [];
  d.patientDone = false;
  emit(d, {
    type: "round-start",
    round: d.round,
    firstPlayer: d.firstPlayer,
    pot: d.pot.map((p, slot) => ({ slot, faceDown: p.faceDown, item: p.faceDown ? null : face(p.item) })),
    itemDeckCount: d.itemDeck.length,
  });
  if (roll) emit(d, { type: "roll", dice: d.dice.map((x) => x.value) });
  for (const seat of clockwise(d.players, d.firstPlayer)) {
    if (hasOngoing(d, seat, "fresh-start")) d.pending.push({ kind: "fresh-start", seat });
    else offerBlessed(d, diceOf(seat));
  }
}

/**
 * The last die is placed (and Patient has had its chance): award the Items, then either the game
 * ends or the next round starts.
 */
export function endRound(d: Draft): void {
  const awards: Award[] = [];
  const took = Array<boolean>(d.players).fill(false);
  const unbid: string[] = [];
  let newFirst: Seat = d.firstPlayer;
  d.pot.forEach((p, slot) => {
    const seat = highBidder(d.dice, slot, d.players);
    if (seat === null) {
      unbid.push(p.item);
      awards.push({ slot, faceDown: p.faceDown, seat: null, bid: null });
      emit(d, { type: "no-bids", slot, faceDown: p.faceDown, item: p.faceDown ? null : face(p.item) });
      return;
    }
    const bid = slotTotals(d.dice, slot, d.players)[seat];
    took[seat] = true;
    awards.push({ slot, faceDown: p.faceDown, seat, bid });
    awardItem(d, seat, slot);
    emit(d, { type: "award", slot, seat, bid, faceDown: p.faceDown, item: p.faceDown ? null : face(p.item) });
    if (p.faceDown) {
      newFirst = seat;
      emit(d, { type: "took-face-down", to: [seat], seat, card: p.item });
    }
  });
  shuffleIntoItemDeck(d, unbid);
  d.pot = [];
  d.lastAwards = awards;
  for (const die of d.dice) die.at = "supply";

  if (d.hands.some((_, seat) => bestCompleted(d, seat) !== null)) {
    finishGame(d, "offering");
    return;
  }
  if (newFirst !== d.firstPlayer) emit(d, { type: "first-player", seat: newFirst });
  d.firstPlayer = newFirst;
  for (const seat of clockwise(d.players, d.firstPlayer)) if (!took[seat]) drawCheats(d, seat, 1, "no-items");
  d.round++;
  startRound(d, true);
}

/** Places from sort keys (higher is better); equal keys share a place (1, 1, 3). */
function placesFrom(keys: readonly number[]): number[] {
  return keys.map((k) => 1 + keys.filter((x) => x > k).length);
}

/**
 * The game is over. Best completed Offering (6-Item 3, A 2, B 1, none 0), then Goblin Teeth,
 * decide places; still tied = a shared place. Score = 100 x that level + teeth. Every hand is
 * revealed (and the decks).
 */
export function finishGame(d: Draft, reason: GameResult["reason"]): void {
  const completed = d.hands.map((_, seat) => bestCompleted(d, seat));
  const teeth = d.hands.map((h) => teethOf(h));
  const scores = completed.map((id, seat) => (id ? offeringLevel(id) : 0) * 100 + teeth[seat]);
  const places = placesFrom(scores);
  const winners = places.flatMap((p, seat) => (p === 1 ? [seat] : []));
  d.phase = "over";
  d.turn = null;
  d.pending = [];
  d.inPlay = [];
  d.result = { reason, round: d.round, completed, teeth, scores, places, winners, hands: d.hands.map((h) => [...h]) };
  emit(d, { type: "game-end", reason, round: d.round, completed, teeth, scores, places, winners });
  emit(d, {
    type: "reveal",
    hands: d.hands.map((h) => [...h]),
    pot: d.pot.map((p) => p.item),
    itemDeck: [...d.itemDeck],
    cheatDeck: [...d.cheatDeck],
  });
  revealAll(d);
}
