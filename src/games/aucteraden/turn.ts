/**
 * One turn, in the printed order: buy a card (or discard the whole market), play it to the
 * tableau, refill the market, check for the end (tableau full or market empty).
 * The callers (apply.ts) have checked that the move is legal. Each part returns the new state and
 * the events it caused (a Step); a turn is its parts chained (andThen), their events in order.
 */
import type { GameEvent, Step } from "../types.js";
import { FREE, marketCards, packRight, price, refillMarket, type Payment, type Slot } from "./market.js";
import { score, SCORING_RULES } from "./scoring.js";
import { TABLEAU_CELLS, type AucteradenState } from "./state.js";
import type { Cell } from "./tableau.js";

/** `state` with `event` (a step that changed the state and caused one event). */
const stepOf = (state: AucteradenState, event: GameEvent): Step<AucteradenState> => ({ state, events: [event] });

/** Apply each of `next` to the step's state in turn; the events of all, in order. */
export function andThen(step: Step<AucteradenState>, ...next: Array<(s: AucteradenState) => Step<AucteradenState>>): Step<AucteradenState> {
  let { state } = step;
  const events = [...step.events];
  for (const f of next) {
    const r = f(state);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

/** End the game if the tableau is full or the market is empty. */
export function checkEnd(state: AucteradenState): Step<AucteradenState> {
  const ended =
    state.tableau.length >= TABLEAU_CELLS ? "tableau-full" : state.market.every((c) => c === null) ? "market-empty" : null;
  if (ended === null) return { state, events: [] };
  const s = score(state.tableau, state.chips, state.marketDiscards, SCORING_RULES);
  return stepOf(
    { ...state, phase: "over", turn: null, ended, scoring: SCORING_RULES },
    { type: "game-over", reason: ended, score: s.total, verdict: s.verdict },
  );
}

export function buy(state: AucteradenState, id: string, slot: Slot, cell: Cell, pay: Payment): Step<AucteradenState> {
  const cost = price(id, slot);
  const chips = pay === FREE ? state.chips : { ...state.chips, [pay]: state.chips[pay] - cost };
  const bought: AucteradenState = {
    ...state,
    market: packRight(marketCards(state.market).filter((c) => c !== id)),
    chips,
    tableau: [...state.tableau, { row: cell.row, col: cell.col, card: id }],
  };
  return andThen(stepOf(bought, { type: "buy", card: id, slot, cost, pay, row: cell.row, col: cell.col }), refillMarket, checkEnd);
}

/** Discard every market card (3 VP penalty), then refill. `forced`: no card could be bought and placed. */
export function discardMarket(state: AucteradenState, forced: boolean): Step<AucteradenState> {
  const cards = marketCards(state.market);
  const discarded: AucteradenState = {
    ...state,
    market: [null, null, null],
    marketDiscards: state.marketDiscards + 1,
    discard: [...state.discard, ...cards],
  };
  return andThen(stepOf(discarded, { type: "market-discard", cards, forced }), refillMarket, checkEnd);
}
