/**
 * Dice: where they are, bids, the bidding rules (no bid over 10, no ties), the 1-6 range, and
 * rolling (Cursed rerolls a 6; a reroll of a die on an Item follows the tie / over-10 rules).
 */
import { randomInt } from "../rng.js";
import type { GameError, Seat } from "../types.js";
import { DICE_PER_PLAYER, MAX_BID } from "./data.js";
import type { Draft } from "./draft.js";
import { hasOngoing } from "./ongoing.js";
import type { Die, GoblinTeethState } from "./state.js";

export const MIN_PIPS = 1;
export const MAX_PIPS = 6;

/** A die always shows 1-6: a raise or reduction that would leave that range does as much as it can. */
export function clampPips(v: number): number {
  return Math.min(MAX_PIPS, Math.max(MIN_PIPS, v));
}

/** Ids of `seat`'s dice. */
export function diceOf(seat: Seat): number[] {
  return Array.from({ length: DICE_PER_PLAYER }, (_, k) => seat * DICE_PER_PLAYER + k);
}

export function isDieId(s: GoblinTeethState, id: unknown): id is number {
  return typeof id === "number" && Number.isInteger(id) && id >= 0 && id < s.dice.length;
}

/** Unplayed dice (of `seat`, or of everyone). */
export function unplayed(s: GoblinTeethState, seat?: Seat): number[] {
  return s.dice.flatMap((d, id) => (d.at === "supply" && (seat === undefined || d.owner === seat) ? [id] : []));
}

/** Dice on an Item (any slot) or on the given slot. */
export function onItems(s: GoblinTeethState, slot?: number): number[] {
  return s.dice.flatMap((d, id) => (typeof d.at === "number" && (slot === undefined || d.at === slot) ? [id] : []));
}

export function onAltar(s: GoblinTeethState): number[] {
  return s.dice.flatMap((d, id) => (d.at === "altar" ? [id] : []));
}

/** Played = placed this round, on an Item or on the Altar. */
export function isPlayed(d: Die): boolean {
  return d.at !== "supply";
}

/** Each seat's total bid on `slot`. */
export function slotTotals(dice: readonly Die[], slot: number, players: number): number[] {
  const t = Array<number>(players).fill(0);
  for (const d of dice) if (d.at === slot) t[d.owner] += d.value;
  return t;
}

/** The seat with the highest bid on `slot` (bids never tie), or null when nobody bid. */
export function highBidder(dice: readonly Die[], slot: number, players: number): Seat | null {
  const t = slotTotals(dice, slot, players);
  let best: Seat | null = null;
  for (let seat = 0; seat < players; seat++) if (t[seat] > 0 && (best === null || t[seat] > t[best])) best = seat;
  return best;
}

/**
 * What is wrong with a position, if anything: a bid over 10 or two players tied on an Item.
 * (Every position reached in play is legal; a card or placement that would break this is refused.)
 */
export function positionProblem(dice: readonly Die[], slots: number | readonly number[], players: number): GameError | null {
  const which = typeof slots === "number" ? Array.from({ length: slots }, (_, i) => i) : slots;
  for (const slot of which) {
    const t = slotTotals(dice, slot, players);
    for (let seat = 0; seat < players; seat++) {
      if (t[seat] > MAX_BID) {
        return { code: "BID_OVER_10", message: `That would make a player's bid on an Item ${t[seat]}: no bid may be more than ${MAX_BID}.` };
      }
      for (let other = seat + 1; other < players; other++) {
        if (t[seat] > 0 && t[seat] === t[other]) {
          return { code: "BID_TIE", message: `That would tie two players' bids on an Item at ${t[seat]}: goblins hate ties.` };
        }
      }
    }
  }
  return null;
}

export function positionLegal(dice: readonly Die[], slots: number | readonly number[], players: number): boolean {
  return positionProblem(dice, slots, players) === null;
}

/** The Pot slots some dice stand on (the only bids a change to those dice can affect). */
export function slotsOf(dice: readonly Die[], ids: readonly number[]): number[] {
  return [...new Set(ids.flatMap((id) => (typeof dice[id].at === "number" ? [dice[id].at as number] : [])))];
}

/** A copy of `dice` with some dice changed (for checking a move before making it). */
export function withDice(dice: readonly Die[], changes: Record<number, Partial<Die>>): Die[] {
  return dice.map((d, id) => (changes[id] ? { ...d, ...changes[id] } : d));
}

/**
 * The value die `id` ends with when rolled to `v` where it stands: `v` itself; for a die on an
 * Item whose bid would go over 10, the value that makes the bid 10 (or the highest bid below 10
 * that ties no one); null when that roll must be rolled again (it ties, or no value can be set).
 */
export function settleRoll(dice: readonly Die[], id: number, v: number, players: number): { value: number; set: boolean } | null {
  const die = dice[id];
  if (typeof die.at !== "number") return { value: v, set: false };
  const t = slotTotals(dice, die.at, players);
  const rest = t[die.owner] - die.value;
  const others = t.filter((x, seat) => seat !== die.owner && x > 0);
  if (rest + v > MAX_BID) {
    for (let b = MAX_BID; b >= rest + 1; b--) if (!others.includes(b)) return { value: b - rest, set: true };
    return null;
  }
  return others.includes(rest + v) ? null : { value: v, set: false };
}

/** The faces a roll of this die may stop on: Cursed rerolls a 6; "until different" rerolls the current face. */
function faces(s: GoblinTeethState, id: number, mustDiffer: boolean): number[] {
  const die = s.dice[id];
  const cursed = hasOngoing(s, die.owner, "cursed");
  const out: number[] = [];
  for (let v = MIN_PIPS; v <= MAX_PIPS; v++) {
    if (cursed && v === MAX_PIPS) continue;
    if (mustDiffer && v === die.value) continue;
    out.push(v);
  }
  return out;
}

/** Can die `id` be rerolled (some roll ends legally)? A reroll no roll could finish is not allowed. */
export function canReroll(s: GoblinTeethState, id: number, mustDiffer: boolean): boolean {
  return faces(s, id, mustDiffer).some((v) => settleRoll(s.dice, id, v, s.players) !== null);
}

/** One roll of a die owned by `owner`: a Cursed owner's 6 is rolled again. */
export function rollOnce(d: Draft, owner: Seat): number {
  for (;;) {
    const r = randomInt(d.rng, MAX_PIPS);
    d.rng = r.rng;
    const v = r.value + 1;
    if (v === MAX_PIPS && hasOngoing(d, owner, "cursed")) continue;
    return v;
  }
}

/**
 * Reroll die `id` (call canReroll first): rolled again while it shows its old face (`mustDiffer`),
 * ties, or cannot be set; an over-10 bid is set as the rules say. Queues Blessed's offer when the
 * die was rolled (not set) to a 1. Returns the new value.
 */
export function reroll(d: Draft, id: number, mustDiffer: boolean): number {
  const die = d.dice[id];
  const old = die.value;
  for (;;) {
    const v = rollOnce(d, die.owner);
    if (mustDiffer && v === old) continue;
    const out = settleRoll(d.dice, id, v, d.players);
    if (!out) continue;
    die.value = out.value;
    if (!out.set) offerBlessed(d, [id]);
    return out.value;
  }
}

/** Blessed: the owner of each die now showing 1 (just rolled) may reroll it (queued last, or next with `first`). */
export function offerBlessed(d: Draft, ids: readonly number[], first = false): void {
  const offers = ids
    .filter((id) => d.dice[id].value === 1 && hasOngoing(d, d.dice[id].owner, "blessed"))
    .map((id) => ({ kind: "blessed" as const, seat: d.dice[id].owner, die: id }));
  if (first) d.pending.unshift(...offers);
  else d.pending.push(...offers);
}

/** Are all of `seat`'s unplayed dice showing the same face (the start-of-round triple rule)? */
function allSame(d: Draft, seat: Seat): boolean {
  const v = diceOf(seat).map((id) => d.dice[id].value);
  return v.every((x) => x === v[0]);
}

/** If all of `seat`'s dice show the same face, reroll one (`id`, default the last) until it differs. */
export function fixTriple(d: Draft, seat: Seat, id?: number): void {
  const ids = diceOf(seat);
  if (ids.length < 2) return;
  const which = id ?? ids[ids.length - 1];
  while (allSame(d, seat)) d.dice[which].value = rollOnce(d, seat);
}

/** Roll all of `seat`'s dice (start of a round, or Fresh Start), then the triple rule. */
export function rollAll(d: Draft, seat: Seat): void {
  for (const id of diceOf(seat)) d.dice[id] = { owner: seat, value: rollOnce(d, seat), at: "supply" };
  fixTriple(d, seat);
}
