/**
 * What happens next after any action: skip decisions with no choice left, finish the cards in
 * play whose text is done (discarded, or back to hand after Sneak Preview), then the next turn,
 * the end of the round (Patient first) or the next round.
 */
import type { Seat } from "../types.js";
import { discardCheat, previewBackToHand } from "./cards.js";
import { decisionVoid } from "./decisions.js";
import { unplayed } from "./dice.js";
import { emit, type Draft } from "./draft.js";
import { holders } from "./ongoing.js";
import { endRound } from "./round.js";
import type { GoblinTeethState, InPlay } from "./state.js";

export function beginTurn(d: Draft, seat: Seat): void {
  d.phase = "turn";
  d.turn = seat;
  d.turnState = { cheats: 0, passed: false, placed: false, poisoned: false, ended: false };
  emit(d, { type: "turn", seat });
}

/** The next seat clockwise after `from` (or `from` itself last) that still has an unplayed die. */
export function nextWithDice(s: GoblinTeethState, from: Seat): Seat | null {
  for (let i = 1; i <= s.players; i++) {
    const seat = (from + i) % s.players;
    if (unplayed(s, seat).length > 0) return seat;
  }
  return null;
}

function finishCard(d: Draft, c: InPlay): void {
  if (c.preview) {
    // Sneak Preview: everyone saw the card go back into this hand.
    previewBackToHand(d, c.seat, c.card);
    emit(d, { type: "back-to-hand", seat: c.seat, card: c.card });
  } else {
    discardCheat(d, c.card);
    emit(d, { type: "discarded", seat: c.seat, card: c.card });
  }
}

export function settle(d: Draft): void {
  for (;;) {
    while (d.pending.length > 0 && decisionVoid(d, d.pending[0])) {
      const dec = d.pending.shift()!;
      emit(d, { type: "skip", seat: dec.seat, decision: dec.kind });
    }
    while (d.inPlay.length > 0) {
      const top = d.inPlay[d.inPlay.length - 1];
      if (d.pending.some((p) => "card" in p && p.card === top.card)) break;
      d.inPlay.pop();
      finishCard(d, top);
    }
    if (d.pending.length > 0) return;
    switch (d.phase) {
      case "over":
        return;
      case "start":
        beginTurn(d, d.firstPlayer);
        return;
      case "turn": {
        if (!d.turnState.placed && !d.turnState.ended) return;
        const next = nextWithDice(d, d.turn!);
        if (next !== null) {
          beginTurn(d, next);
          return;
        }
        d.phase = "end";
        d.turn = null;
        emit(d, { type: "all-dice-placed", round: d.round });
        if (!d.patientDone) {
          d.patientDone = true;
          for (const seat of holders(d, "patient")) d.pending.push({ kind: "patient", seat });
        }
        continue;
      }
      case "end":
        endRound(d);
        continue;
    }
  }
}
