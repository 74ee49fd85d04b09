/**
 * One turn, in the printed order: buy a card (or discard the whole market), play it to the
 * tableau, refill the market, check for the end (tableau full or market empty).
 * The callers (apply.ts) have checked that the move is legal.
 */
import { appendLog } from "../log.js";
import { FREE, marketCards, packRight, price, refillMarket, type Payment, type Slot } from "./market.js";
import { score, SCORING_RULES } from "./scoring.js";
import { TABLEAU_CELLS, type AucteradenState } from "./state.js";
import type { Cell } from "./tableau.js";

/** End the game if the tableau is full or the market is empty. */
export function checkEnd(state: AucteradenState): AucteradenState {
  const ended =
    state.tableau.length >= TABLEAU_CELLS ? "tableau-full" : state.market.every((c) => c === null) ? "market-empty" : null;
  if (ended === null) return state;
  const s = score(state.tableau, state.chips, state.marketDiscards, SCORING_RULES);
  return {
    ...state,
    phase: "over",
    turn: null,
    ended,
    scoring: SCORING_RULES,
    log: appendLog(state.log, { type: "game-over", reason: ended, score: s.total, verdict: s.verdict }),
  };
}

export function buy(state: AucteradenState, id: string, slot: Slot, cell: Cell, pay: Payment): AucteradenState {
  const cost = price(id, slot);
  const chips = pay === FREE ? state.chips : { ...state.chips, [pay]: state.chips[pay] - cost };
  const bought: AucteradenState = {
    ...state,
    market: packRight(marketCards(state.market).filter((c) => c !== id)),
    chips,
    tableau: [...state.tableau, { row: cell.row, col: cell.col, card: id }],
    log: appendLog(state.log, { type: "buy", card: id, slot, cost, pay, row: cell.row, col: cell.col }),
  };
  return checkEnd(refillMarket(bought));
}

/** Discard every market card (3 VP penalty), then refill. `forced`: no card could be bought and placed. */
export function discardMarket(state: AucteradenState, forced: boolean): AucteradenState {
  const cards = marketCards(state.market);
  const discarded: AucteradenState = {
    ...state,
    market: [null, null, null],
    marketDiscards: state.marketDiscards + 1,
    discard: [...state.discard, ...cards],
    log: appendLog(state.log, { type: "market-discard", cards, forced }),
  };
  return checkEnd(refillMarket(discarded));
}
