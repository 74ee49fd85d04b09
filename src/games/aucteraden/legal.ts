/**
 * Who acts (seat 0 until the end) and the legal actions: every buy as a concrete action (card,
 * cell, payment), plus discard-market. `offers` gives the same per market slot, for views.
 */
import { card } from "../decktet/cards.js";
import type { LegalAction, Seat } from "../types.js";
import { payments, price, SLOT_NAMES, type Payment, type Slot, type SlotName } from "./market.js";
import { legalCells, type Cell } from "./tableau.js";
import type { AucteradenState } from "./state.js";

/** One market slot and what buying its card would take. */
export interface Offer {
  slot: Slot;
  position: SlotName;
  card: string | null;
  /** Chips it costs (Pawns and Courts one more); null for an empty slot. */
  cost: number | null;
  /** The values `pay` may take: suits of the card with enough chips, or ["none"] when free. */
  pay: Payment[];
  /** Cells where the card may go (whether or not it can be paid for), in reading order. */
  cells: Cell[];
  /** pay and cells both non-empty. */
  buyable: boolean;
}

export function offers(state: AucteradenState): Offer[] {
  return state.market.map((id, i) => {
    const slot = i as Slot;
    if (id === null || state.phase === "over") {
      return { slot, position: SLOT_NAMES[slot], card: id, cost: id === null ? null : price(id, slot), pay: [], cells: [], buyable: false };
    }
    const pay = payments(id, slot, state.chips);
    const cells = legalCells(state.tableau, id);
    return { slot, position: SLOT_NAMES[slot], card: id, cost: price(id, slot), pay, cells, buyable: pay.length > 0 && cells.length > 0 };
  });
}

/** True when no market card can be bought and placed: the market must be discarded. */
export function mustDiscard(state: AucteradenState): boolean {
  return state.phase === "play" && offers(state).every((o) => !o.buyable);
}

export function activeSeats(state: AucteradenState): Seat[] {
  return state.phase === "over" ? [] : [0];
}

const one = (v: string | number) => ({ kind: "choice" as const, options: [v] });

export function legalActions(state: AucteradenState, seat: Seat): LegalAction[] {
  if (state.phase === "over" || seat !== 0) return [];
  const out: LegalAction[] = [];
  for (const o of offers(state)) {
    if (!o.buyable || o.card === null) continue;
    const name = card(o.card).name;
    for (const cell of o.cells) {
      for (const pay of o.pay) {
        const paid = pay === "none" ? "free" : `${o.cost} ${pay} chip${o.cost === 1 ? "" : "s"}`;
        out.push({
          type: "buy",
          params: { card: one(o.card), row: one(cell.row), col: one(cell.col), pay: one(pay) },
          label: `Buy ${name} (${o.position}, ${paid}) to row ${cell.row}, col ${cell.col}`,
        });
      }
    }
  }
  out.push({
    type: "discard-market",
    label: out.length === 0 ? "Discard the market (no card can be bought and placed; -3 VP)" : "Discard the market (-3 VP)",
  });
  return out;
}
