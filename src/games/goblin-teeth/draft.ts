/**
 * Rules functions change a private working copy (a draft) of the state, made once per apply() (and
 * by setup), with the events the step causes collected beside it in order (`emit`): the input state
 * is never touched, and `finish` hands back the new state and those events. On a refusal no draft
 * is made (apply checks first), so nothing is returned but the error. Functions that only read
 * (legal actions, views, checks) take a state and never change it.
 */
import type { GameEvent, Seat, Step } from "../types.js";
import type { GoblinTeethState } from "./state.js";

/** A working copy owned by the rules function that made it, and the events its step caused so far. */
export type Draft = GoblinTeethState & { events: GameEvent[] };

/** A deep copy to change freely, with no events yet. */
export function draft(s: GoblinTeethState): Draft {
  return {
    ...s,
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
    events: [],
  };
}

/** Report that something happened (public unless `to` is given): the step's next event. */
export function emit(d: Draft, event: GameEvent): void {
  d.events.push(event);
}

/** The step is done: the new state (the draft without its events) and the events, in order. */
export function finish(d: Draft): Step<GoblinTeethState> {
  const { events, ...state } = d;
  return { state, events };
}

/** Seats in turn order starting at `from` (clockwise: seat + 1). */
export function clockwise(players: number, from: Seat): Seat[] {
  return Array.from({ length: players }, (_, i) => (from + i) % players);
}

/** The player on `seat`'s left: the next seat clockwise. */
export function leftOf(players: number, seat: Seat): Seat {
  return (seat + 1) % players;
}
