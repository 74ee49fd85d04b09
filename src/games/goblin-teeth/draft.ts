/**
 * Rules functions change a private working copy (a draft) of the state, made once per apply():
 * the input state is never touched, and the draft is returned as the new state. Functions that
 * only read (legal actions, views, checks) take a state and never change it.
 */
import type { Seat } from "../types.js";
import type { GoblinTeethState } from "./state.js";

/** A working copy owned by the rules function that made it. */
export type Draft = GoblinTeethState;

/** A deep copy to change freely (log entries are never changed, so the log array is copied shallowly). */
export function draft(s: GoblinTeethState): Draft {
  return {
    ...s,
    log: s.log.slice(),
    rng: [...s.rng],
    itemDeck: [...s.itemDeck],
    cheatDeck: [...s.cheatDeck],
    discard: [...s.discard],
    hands: s.hands.map((h) => [...h]),
    ongoing: s.ongoing.map((o) => [...o]),
    offerings: [...s.offerings],
    seatOfferings: s.seatOfferings ? s.seatOfferings.map((o) => [...o]) : null,
    pot: s.pot.map((p) => ({ ...p })),
    dice: s.dice.map((d) => ({ ...d })),
    knowledge: Object.fromEntries(Object.entries(s.knowledge).map(([k, v]) => [k, [...v]])),
    shown: [...s.shown],
    turnState: { ...s.turnState },
    inPlay: s.inPlay.map((c) => ({ ...c })),
    pending: s.pending.map((p) => ("cards" in p ? { ...p, cards: [...p.cards] } : { ...p })),
    lastAwards: s.lastAwards ? s.lastAwards.map((a) => ({ ...a })) : null,
    result: s.result ? structuredClone(s.result) : null,
  };
}

/** Append a log entry (public unless `to` is given), numbering it. */
export function log(d: Draft, entry: { type: string; to?: Seat[]; [field: string]: unknown }): void {
  d.log.push({ ...entry, n: d.log.length + 1 });
}

/** Seats in turn order starting at `from` (clockwise: seat + 1). */
export function clockwise(players: number, from: Seat): Seat[] {
  return Array.from({ length: players }, (_, i) => (from + i) % players);
}

/** The player on `seat`'s left: the next seat clockwise. */
export function leftOf(players: number, seat: Seat): Seat {
  return (seat + 1) % players;
}
