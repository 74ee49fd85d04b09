/**
 * Dealing: a game's deal (setup phase), the end of setup (valuations fixed, extras, the Excuse,
 * the first market), the flow from auction to auction and market to market, and the sale that
 * ends a game (then either the next game of a match or the end).
 */
import { BASIC_DECK, COURTS, PAWNS } from "../decktet/cards.js";
import { knows, learn, type Knowledge } from "../knowledge.js";
import { randomInt, shuffle } from "../rng.js";
import type { GameEvent, Seat } from "../types.js";
import { placesByMoney, sellItems, suitValues, type GameResult } from "./sale.js";
import type { Extended, SorcerousFuturesState } from "./state.js";

/** Every card used by a game: the basic deck, plus the Pawns or Courts (5 players). */
export function gameDeck(extended: Extended | null): string[] {
  return [...BASIC_DECK, ...(extended === "pawns" ? PAWNS : extended === "courts" ? COURTS : [])];
}

/**
 * Report an event of the step under way, tagged with the game of the match it belongs to.
 * `events` is the array the current `setup` or `apply` call created (never shared across calls).
 */
export function emit(events: GameEvent[], s: SorcerousFuturesState, event: GameEvent): void {
  events.push({ ...event, game: s.matchGame });
}

/**
 * Deal game `state.matchGame`: shuffle the whole deck, four cards to each seat (two in hand,
 * seen by their owner; two face down, unseen). Money and results are kept; the rest of the
 * game's fields start afresh. `firstExcuse` is kept (the previous game's, or null).
 */
export function dealGame(state: SorcerousFuturesState, events: GameEvent[]): SorcerousFuturesState {
  const n = state.players;
  const sh = shuffle(state.rng, gameDeck(state.extended));
  let deck = sh.value;
  const valuations: string[][] = [];
  const faceDown: string[][] = [];
  let knowledge: Knowledge = {};
  for (let seat = 0; seat < n; seat++) {
    valuations.push(deck.slice(0, 2));
    faceDown.push(deck.slice(2, 4));
    deck = deck.slice(4);
    for (const id of valuations[seat]) knowledge = learn(knowledge, id, [seat]);
  }
  const s: SorcerousFuturesState = {
    ...state,
    rng: sh.rng,
    phase: "setup",
    turn: null,
    deck,
    valuations,
    faceDown,
    extraValuations: [],
    extraSetAside: [],
    knowledge,
    paid: Array(n).fill(0),
    confirmed: Array(n).fill(false),
    revealed: [],
    excuse: null,
    market: [],
    marketNumber: 0,
    auction: null,
    auctions: 0,
    holdings: Array.from({ length: n }, () => []),
    discard: [],
  };
  emit(events, s, {
    type: "game-start",
    matchGame: s.matchGame,
    matchGames: s.matchGames,
    players: n,
    extended: s.extended,
    money: [...s.money],
  });
  for (let seat = 0; seat < n; seat++) {
    emit(events, s, { type: "dealt", to: [seat], seat, hand: [...valuations[seat]] });
  }
  return s;
}

/** Everyone has confirmed: fix the valuations, add the 3-player extras, give out the Excuse, deal. */
export function finishSetup(state: SorcerousFuturesState, events: GameEvent[]): SorcerousFuturesState {
  const n = state.players;
  let { rng, deck } = state;
  let extraValuations: string[] = [];
  let extraSetAside: string[] = [];
  if (n === 3) {
    extraValuations = deck.slice(0, 2);
    extraSetAside = deck.slice(2, 4);
    deck = deck.slice(4);
  }
  let first: Seat;
  if (state.firstExcuse === null) {
    const r = randomInt(rng, n);
    rng = r.rng;
    first = r.value;
  } else {
    first = (state.firstExcuse + 1) % n;
  }
  const s: SorcerousFuturesState = {
    ...state,
    rng,
    deck,
    extraValuations,
    extraSetAside,
    excuse: first,
    firstExcuse: first,
  };
  emit(events, s, { type: "setup-done", paid: [...s.paid] });
  if (n === 3) emit(events, s, { type: "extras", valuations: 2, setAside: 2 });
  emit(events, s, { type: "excuse", seat: first, first: true });
  return nextPick(s, events);
}

/**
 * The Excuse holder's next pick: deal a new market if the last is used up (or sell when the
 * deck is exhausted); a market's last card is picked automatically.
 */
export function nextPick(state: SorcerousFuturesState, events: GameEvent[]): SorcerousFuturesState {
  let s = state;
  if (s.market.length === 0) {
    if (s.deck.length === 0) return sell(s, events);
    const market = s.deck.slice(0, s.marketSize);
    s = { ...s, deck: s.deck.slice(market.length), market, marketNumber: s.marketNumber + 1 };
    emit(events, s, { type: "market-dealt", number: s.marketNumber, cards: [...market] });
  }
  if (s.market.length === 1) return startAuction(s, s.market[0], true, events);
  return { ...s, phase: "pick", turn: s.excuse };
}

/** Take `cardId` out of the market and open its auction with the Excuse holder to act. */
export function startAuction(state: SorcerousFuturesState, cardId: string, auto: boolean, events: GameEvent[]): SorcerousFuturesState {
  const excuse = state.excuse!;
  const number = state.auctions + 1;
  const s: SorcerousFuturesState = {
    ...state,
    phase: "bidding",
    turn: excuse,
    market: state.market.filter((c) => c !== cardId),
    auctions: number,
    auction: { number, card: cardId, excuse, moves: [], auto },
  };
  emit(events, s, { type: "pick", seat: excuse, card: cardId, auction: number, auto });
  return s;
}

/** Sell every seat's items, record the game's result, then deal the next game or end the match. */
export function sell(state: SorcerousFuturesState, events: GameEvent[]): SorcerousFuturesState {
  const allValuations = [...state.valuations.flat(), ...state.extraValuations];
  const values = suitValues(allValuations);
  const sales = state.holdings.map((items, seat) => sellItems(seat, items, values));
  const moneyAfter = state.money.map((m, seat) => m + sales[seat].total);
  const result: GameResult = {
    game: state.matchGame,
    valuations: state.valuations.map((v) => [...v]),
    faceDown: state.faceDown.map((f) => [...f]),
    faceDownSeen: state.faceDown.map((f, seat) => f.map((id) => knows(state.knowledge, id, { kind: "seat", seat }))),
    extraValuations: [...state.extraValuations],
    extraSetAside: [...state.extraSetAside],
    suitValues: values,
    sales,
    paid: [...state.paid],
    moneyBefore: [...state.money],
    moneyAfter,
  };
  const s: SorcerousFuturesState = {
    ...state,
    money: moneyAfter,
    results: [...state.results, result],
    phase: "over",
    turn: null,
    excuse: null,
    auction: null,
  };
  // The valuations only: set-aside cards are not revealed ("Other players may not look at them");
  // view.ts shows them in the results once the match is over.
  emit(events, s, {
    type: "valuations",
    valuations: result.valuations,
    extraValuations: result.extraValuations,
    suitValues: values.map((v) => ({ suit: v.suit, value: v.value })),
  });
  for (const sale of sales) {
    emit(events, s, { type: "sale", seat: sale.seat, faceValue: sale.faceValue, suitTotal: sale.suitTotal, total: sale.total });
  }
  const last = s.matchGame >= s.matchGames;
  emit(events, s, { type: "game-end", money: [...moneyAfter], places: placesByMoney(moneyAfter), final: last });
  if (last) return s;
  return dealGame({ ...s, matchGame: s.matchGame + 1 }, events);
}
