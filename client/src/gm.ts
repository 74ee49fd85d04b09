/**
 * The Goblin Market table. Rendered from the server's view and legal actions only: the
 * client knows no rules (bid bounds, take/choose options all come from `legal`).
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { keyed } from "lit-html/directives/keyed.js";
import { cardChip, cardFace, cardLabel, cardOf, listWords, rankWord, sortCards, SUIT_ABBR, SUITS, suitIcon, type Suit } from "./decktet.js";
import { logSentence } from "./gm-log.js";
import { lastPayouts } from "./gm-payouts.js";
import { highBid } from "../../src/games/goblin-market/bids.js";
import type { Payouts } from "../../src/games/goblin-market/state.js";
import type { Store } from "./store.js";
import type { LegalAction, RoomView } from "./types.js";
import { bidForm, cardChips, coinIcon, decisionLayout, endScreen, isAway, logPanel, seatClock, seatName } from "./table-common.js";
import type { GameTable } from "./games.js";
import { cardsWord, coinsWord, initials, ordinal } from "./words.js";

/** The engine's own view type (type-only import: no server code enters the bundle). */
export type GMView = ReturnType<typeof import("../../src/games/goblin-market/view.js").view>;

/**
 * What the view leaves to the room (it says each fact once): whose turn it is (`active`) and what
 * that seat must decide (from the phase); the high bid is the engine's `highBid` (the last bid).
 */
const turnOf = (room: RoomView): number | null => (room.status === "playing" ? (room.active[0] ?? null) : null);
type Pending = "bid" | "take" | "choose" | null;
const pendingOf = (v: GMView): Pending => (v.phase === "bidding" ? "bid" : v.phase === "taking" ? "take" : v.phase === "choosing" ? "choose" : null);
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** The bid being typed, per room and turn (reset when the legal range changes). */
const draft = { key: "", value: 0 };

function sizeText(sizeCard: string): string {
  const r = cardOf(sizeCard).rank;
  return r === "Ace" ? "an Ace: 1 card on offer" : r === "Crown" ? "a Crown: 3 cards on offer" : `${r === 8 ? "an" : "a"} ${rankWord(cardOf(sizeCard))}: 2 cards on offer`;
}

/** One line that says whose move it is (also read out by the live region). */
export function gmStatus(room: RoomView): string {
  const v = room.view as GMView;
  if (room.status === "finished" || v.phase === "over") return "The game is over.";
  const turn = turnOf(room);
  if (turn === null) return "";
  const mine = room.seat !== null && turn === room.seat && room.legal.length > 0;
  const who = seatName(room, turn);
  const a = v.auction;
  const high = a ? highBid(a) : null;
  switch (pendingOf(v)) {
    case "bid":
      // Only Pass offered (not enough coins to outbid): say so, not "bid more".
      if (mine && !room.legal.some((l) => l.type === "bid")) return high ? `Your turn: you cannot bid more than ${high.amount}, so pass.` : "Your turn: pass.";
      if (mine) return high ? `Your turn: bid more than ${high.amount} or pass.` : "Your turn: open the bidding or pass.";
      return `${who} is deciding: bid or pass.`;
    case "take":
      return mine ? `You won the auction: take all or take one card.` : `${who} won the auction and is taking cards.`;
    case "choose":
      return mine ? "Your turn: choose one of the cards left." : `${who} (second place) is choosing a card.`;
    default:
      return "";
  }
}

export function gmTable(s: Store, room: RoomView): TemplateResult {
  const v = room.view as GMView;
  const finished = room.status === "finished";
  const mine = room.legal.length > 0;
  // Read from the log once: the seats' payout tags and the Last auction panel both show it.
  const payouts = lastPayouts(room.log, v.players);
  return html`
    ${finished ? endScreen(s, room, gmResultsExtra(room)) : nothing}
    <div class="table-grid ${finished ? "is-finished" : ""}">
      <div class="col-main">
        ${finished ? nothing : statusBar(room, v, mine)}
        ${v.auction ? auctionPanel(room, v) : nothing}
        ${mine && !finished ? actionPanel(s, room, v) : nothing}
        ${seatsPanel(s, room, v, payouts)}
      </div>
      <aside class="col-side" aria-label="Table information">
        ${payoutsPanel(room, payouts)}
        ${logPanel(room, (e) => logSentence(e, (i) => seatName(room, i)))}
        ${decksPanel(v)}
      </aside>
    </div>`;
}

function statusBar(room: RoomView, v: GMView, mine: boolean): TemplateResult {
  const text = gmStatus(room);
  return html`<div class="status-bar ${mine ? "my-turn" : ""}" data-testid="status">
    ${mine ? html`<span class="pulse" aria-hidden="true"></span>` : nothing}<span>${text}</span>
    ${v.auction ? html`<span class="status-meta">Auction ${v.auction.number}${v.auction.final ? " (final)" : ""}</span>` : nothing}
  </div>`;
}

/** Seats in bidding order, starting with the first bidder. */
function biddingOrder(v: GMView): number[] {
  const first = v.firstBidder ?? 0;
  return Array.from({ length: v.players }, (_, i) => (first + i) % v.players);
}

function auctionPanel(room: RoomView, v: GMView): TemplateResult {
  const a = v.auction!;
  const bidsBy = new Map<number, number>();
  for (const b of a.bids) bidsBy.set(b.seat, Math.max(bidsBy.get(b.seat) ?? 0, b.amount));
  const placeOf = new Map(a.places.map((p, i) => [p.seat, i + 1]));
  const turn = turnOf(room);
  const pending = pendingOf(v);
  const top = highBid(a);
  return html`<section class="panel auction" aria-labelledby="auction-h" data-auction=${a.number} data-bids=${a.bids.length}>
    <header class="panel-head">
      <h2 id="auction-h">${a.final ? "Final auction" : `Auction ${a.number}`}</h2>
      <span class="muted">${a.final ? "the last cards, no size card" : a.sizeCard ? `size card is ${sizeText(a.sizeCard)}` : ""}</span>
    </header>
    <div class="auction-cards">
      ${a.sizeCard
        ? html`<figure class="size-card">
            ${cardFace(a.sizeCard, { size: "md", extraClass: "is-size", note: "size card, not for sale" })}
            <figcaption>Size card<br /><span class="muted">not for sale</span></figcaption>
          </figure>`
        : nothing}
      <div class="offer" role="group" aria-label="Cards on offer">
        ${a.offer.length
          ? a.offer.map((id) => cardFace(id, { size: "lg" }))
          : html`<p class="muted offer-empty">All cards handed out.</p>`}
      </div>
    </div>
    <div class="bidders" role="list" aria-label="Bids in this auction">
      ${biddingOrder(v).map((seat) => {
        const passed = a.passed.includes(seat);
        const bid = bidsBy.get(seat);
        const acting = turn === seat && v.phase !== "over";
        const high = top?.seat === seat;
        const place = placeOf.get(seat);
        const state = acting
          ? pending === "bid" ? (bid !== undefined ? `deciding… (bid ${bid})` : "deciding…") : pending === "take" ? "taking…" : "choosing…"
          : passed && bid === undefined ? "passed" : passed ? `passed (bid ${bid})` : bid !== undefined ? `bid ${bid}` : "waiting";
        return html`<div role="listitem" class="bidder ${acting ? "acting" : ""} ${passed ? "passed" : ""} ${high ? "high" : ""}" data-seat=${seat}>
          <span class="bidder-name">${seatName(room, seat)}${room.seat === seat ? html` <span class="you-tag">you</span>` : nothing}</span>
          <span class="bidder-state">${state}${place && v.phase !== "bidding" ? html` · ${place === 1 ? "winner" : `${ordinal(place)} place`}` : nothing}</span>
        </div>`;
      })}
    </div>
    <p class="high-bid">${top
      ? html`High bid: <b class="coin-amount">${coinIcon()}${top.amount}</b> by <b>${seatName(room, top.seat)}</b>`
      : html`<span class="muted">No bids yet.</span>`}</p>
  </section>`;
}

function legalOf(room: RoomView, type: string): LegalAction | undefined {
  return room.legal.find((l) => l.type === type);
}

function actionPanel(s: Store, room: RoomView, v: GMView): TemplateResult {
  const busy = s.busy;
  const bid = legalOf(room, "bid");
  const pass = legalOf(room, "pass");
  const takeAll = legalOf(room, "take-all");
  const takeOne = legalOf(room, "take-one");
  const choose = legalOf(room, "choose");
  const me = v.seats[room.seat!];
  const a = v.auction!;
  const highAmount = highBid(a)?.amount ?? 0;
  const act = (action: Record<string, unknown> & { type: string }) => void s.act(room.roomId, action);
  let body: TemplateResult;
  let pending = "bid";

  if (bid || pass) {
    const spec = bid?.params?.amount;
    const min = spec && spec.kind === "int" ? spec.min : 0;
    const max = spec && spec.kind === "int" ? spec.max : 0;
    body = html`
      ${bid
        ? html`${bidForm({
            s,
            draft,
            key: `${room.roomId}:${a.number}:${min}:${max}`,
            min,
            max,
            busy,
            money: { unit: "coin", short: (n) => `${n}`, long: coinsWord },
            steps: [1, 2],
            passButton: html`<button type="button" class="btn" data-testid="pass" ?disabled=${busy || !pass} @click=${() => act({ type: "pass" })}>Pass</button>`,
            onBid: (amount) => act({ type: "bid", amount }),
          })}
          <p class="hint bid-hint" id="bid-hint">You can bid ${min === max ? coinsWord(min) : `${min} to ${max} coins`}; you have ${coinsWord(me.coins)}. A pass is final for this auction.</p>`
        : html`<p class="hint">You can't outbid ${coinsWord(highAmount)}: you have ${coinsWord(me.coins)}.</p>
          <div class="bid-form"><button type="button" class="btn primary" data-testid="pass" ?disabled=${busy} @click=${() => act({ type: "pass" })}>Pass</button></div>`}
    `;
  } else if (takeAll || takeOne) {
    pending = "take";
    const spec = takeOne?.params?.card;
    const options = spec && spec.kind === "choice" ? (spec.options as string[]) : [];
    const price = highAmount;
    // Rule D: after a take-one, the next bidders by place each take a card and pay their own bid;
    // with nobody else bidding, the rest are discarded.
    const after = a.places.slice(1, a.offer.length).map((p) => `${seatName(room, p.seat)} (bid ${p.amount}) takes one and pays ${coinsWord(p.amount)}`);
    const left = a.offer.length - 1 - after.length;
    const rest = [...after, ...(left > 0 ? [`${left === 1 ? "the last card is" : `the other ${left} are`} discarded`] : [])];
    body = html`
      <p class="hint" data-testid="take-hint">You won with ${coinsWord(price)}. Take all ${a.offer.length} cards, or take one: then ${rest.join("; then ")}.</p>
      ${takeAll ? html`<button type="button" class="btn primary" data-testid="take-all" ?disabled=${busy} @click=${() => act({ type: "take-all" })}>${takeAll.label ?? "Take all"}</button>` : nothing}
      ${options.length
        ? html`<p class="hint">Or take one card (${coinsWord(price)}):</p>
          <div class="card-choices">${options.map((id) => cardButton(id, "Take", busy, () => act({ type: "take-one", card: id })))}</div>`
        : nothing}`;
  } else if (choose) {
    pending = "choose";
    const spec = choose.params?.card;
    const options = spec && spec.kind === "choice" ? (spec.options as string[]) : [];
    const mine = a.places.find((p) => p.seat === room.seat);
    body = html`<p class="hint">Second place: choose one of the cards left${mine ? ` (you pay your bid of ${coinsWord(mine.amount)})` : ""}. Third place, if any, gets the other.</p>
      <div class="card-choices">${options.map((id) => cardButton(id, "Choose", busy, () => act({ type: "choose", card: id })))}</div>`;
  } else {
    body = html`<p class="hint">${room.legal.map((l) => l.label ?? l.type).join(", ")}</p>`;
  }
  return html`<section class="panel act" data-testid="act-panel" data-pending=${pending} aria-labelledby="act-h" aria-busy=${busy ? "true" : "false"}>
    <h2 id="act-h">${pending === "bid" ? "Your bid" : pending === "take" ? "You won: take your cards" : "Choose your card"}</h2>
    ${pending === "bid" ? decisionLayout(bidSummary(room, v), body) : body}
    ${s.actError ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}
    ${busy ? html`<p class="muted sending" role="status">Sending…</p>` : nothing}
  </section>`;
}

/**
 * Beside the bid controls: the lot and every player's coins, score and move in this auction, in
 * bidding order (the Players panel below has the full seats).
 */
function bidSummary(room: RoomView, v: GMView): TemplateResult {
  const a = v.auction!;
  const bidsBy = new Map<number, number>();
  for (const b of a.bids) bidsBy.set(b.seat, Math.max(bidsBy.get(b.seat) ?? 0, b.amount));
  const turn = turnOf(room);
  return html`<div class="decide-lot" data-testid="decide-lot"><span class="decide-label">On offer</span>
      <span class="chips">${a.offer.map((id) => cardChip(id))}</span></div>
    <ul class="decide-seats" aria-label="Coins and scores">
      ${biddingOrder(v).map((seat) => {
        const st = v.seats[seat]!;
        const bid = bidsBy.get(seat);
        const passed = a.passed.includes(seat);
        const move = turn === seat ? (bid !== undefined ? `deciding (bid ${bid})` : "deciding") : passed ? "passed" : bid !== undefined ? `bid ${bid}` : "";
        return html`<li class="decide-seat ${room.seat === seat ? "you" : ""}" data-testid="decide-seat" data-seat=${seat}>
          <span class="decide-name">${seatName(room, seat)}${room.seat === seat ? html` <span class="tag you-tag">you</span>` : nothing}</span>
          <span class="coins" data-testid="decide-coins" data-coins=${st.coins}>${coinIcon()}<b>${st.coins}</b><span class="sr-only"> coins</span></span>
          <span class="decide-score" data-testid="decide-score" data-score=${st.score.score}>score <b>${signed(st.score.score)}</b></span>
          ${move ? html`<span class="decide-move muted">${move}</span>` : nothing}
        </li>`;
      })}
    </ul>`;
}

function cardButton(id: string, verb: string, busy: boolean, onClick: () => void): TemplateResult {
  return html`<button type="button" class="card-btn" data-testid="card-choice" data-choice=${id} ?disabled=${busy} @click=${onClick}
    aria-label=${`${verb} ${cardLabel(id)}`}>${cardFace(id, { size: "lg" })}<span class="card-btn-verb" aria-hidden="true">${verb}</span></button>`;
}

/** How many of a seat's cards carry each suit (the view gives the cards, not the tally). */
function suitCounts(cards: readonly string[]): Record<Suit, number> {
  const counts = Object.fromEntries(SUITS.map((su) => [su, 0])) as Record<Suit, number>;
  for (const id of cards) for (const su of cardOf(id).suits) counts[su] += 1;
  return counts;
}

function suitBar(score: GMView["seats"][number]["score"], cards: readonly string[]): TemplateResult {
  const counts = suitCounts(cards);
  return html`<ul class="suitbar" aria-label=${`Suits: ${SUITS.map((su) => `${su} ${counts[su]}${score.positiveSuits.includes(su) ? " counts plus" : " counts minus"}`).join(", ")}`}>
    ${SUITS.map((su) => {
      const pos = score.positiveSuits.includes(su);
      const n = counts[su];
      return html`<li class="suitcell ${pos ? "pos" : "neg"} ${n === 0 ? "zero" : ""}" title=${`${su}: ${n} (${pos ? "one of your three largest suits: +" : "−"}${n})`} aria-hidden="true">
        ${suitIcon(su)}<span class="suit-abbr">${SUIT_ABBR[su]}</span><span class="suit-n">${n === 0 ? "0" : pos ? `+${n}` : `−${n}`}</span>
      </li>`;
    })}
  </ul>`;
}

function seatsPanel(s: Store, room: RoomView, v: GMView, lp: Payouts | null): TemplateResult {
  const turn = turnOf(room);
  return html`<section class="panel seats" aria-labelledby="seats-h">
    <h2 id="seats-h" class="panel-title">Players</h2>
    <div class="seat-grid">
      ${v.seats.map((st) => {
        const seatInfo = room.seats[st.seat];
        const you = room.seat === st.seat;
        const acting = turn === st.seat;
        const away = isAway(s, room, st.seat);
        const sc = st.score;
        const sis = lp?.sisterhood[st.seat] ?? 0;
        const gob = lp?.goblin[st.seat] ?? 0;
        return html`<article class="seat ${you ? "you" : ""} ${acting ? "acting" : ""} ${away ? "away" : ""}" data-seat=${st.seat}
          aria-label=${`${seatName(room, st.seat)}${you ? " (you)" : ""}: ${coinsWord(st.coins)}, score ${sc.score}${acting ? ", to act" : ""}${away ? ", away" : ""}`}>
          <header class="seat-head">
            <span class="avatar" aria-hidden="true">${initials(seatName(room, st.seat))}</span>
            <span class="seat-name">${seatName(room, st.seat)}</span>
            ${you ? html`<span class="tag you-tag">you</span>` : nothing}
            ${seatInfo?.bot ? html`<span class="tag">bot</span>` : nothing}
            ${away ? html`<span class="tag away-tag" data-testid="away">away</span>` : nothing}
            ${acting ? html`<span class="tag turn-tag">to act</span>` : nothing}
            ${seatClock(s, room, st.seat)}
          </header>
          <div class="seat-stats">
            <span class="coins" title="Coins">${coinIcon()}<b>${st.coins}</b><span class="sr-only"> coins</span></span>
            <span class="score" title="Score: cards in your three largest suits minus the other three">Score <b>${signed(sc.score)}</b>
              <span class="muted">(${sc.positive} − ${sc.negative})</span></span>
            ${lp && (sis || gob)
              ? keyed(`${lp.auction}`, html`<span class="payout-flash" title="Money from the last auction">
                  ${sis ? html`<span class="pay sis">+${sis} sisterhood</span>` : nothing}${gob ? html`<span class="pay gob">+${gob} goblin</span>` : nothing}</span>`)
              : nothing}
          </div>
          ${suitBar(sc, st.cards)}
          ${st.cards.length
            ? html`<div class="hand" role="list" aria-label=${`Cards of ${seatName(room, st.seat)}`}>
                ${sortCards(st.cards).map((id) => html`<span role="listitem">${cardChip(id)}</span>`)}
              </div>`
            : html`<p class="hand muted">No cards yet</p>`}
        </article>`;
      })}
    </div>
  </section>`;
}

function payoutsPanel(room: RoomView, lp: Payouts | null): unknown {
  if (!lp) return nothing;
  const names = (arr: number[]) =>
    arr.map((c, i) => ({ c, i })).filter((x) => x.c > 0).map((x) => `${seatName(room, x.i)} +${x.c}`);
  const sis = names(lp.sisterhood);
  const gob = names(lp.goblin);
  return keyed(`${room.roomId}:${lp.auction}`, html`<section class="panel payouts fresh" aria-labelledby="payouts-h">
    <h2 id="payouts-h" class="panel-title">Last auction (${lp.auction})</h2>
    ${lp.winner === null
      ? html`<p>Everyone passed: the cards were discarded and no money moved.</p>`
      : html`
        <p><b>${seatName(room, lp.winner)}</b> won with ${coinsWord(lp.winningBid ?? 0)}.</p>
        <div class="payout-row"><span class="pay sis">Sisterhood money</span> ${sis.length ? listWords(sis) : html`<span class="muted">nobody</span>`}</div>
        <div class="payout-row goblin-row">
          ${lp.goblinCard ? cardFace(lp.goblinCard, { size: "md", extraClass: "is-goblin", note: "goblin card" }) : nothing}
          <div><span class="pay gob">Goblin money</span> ${gob.length ? listWords(gob) : html`<span class="muted">nobody</span>`}
          <p class="muted small">One coin per suit of the goblin card that a player owns none of.</p></div>
        </div>`}
  </section>`);
}

function decksPanel(v: GMView): TemplateResult {
  return html`<section class="panel decks" aria-labelledby="decks-h">
    <h2 id="decks-h" class="panel-title">Decks</h2>
    <dl class="deck-counts">
      <div><dt>Auction deck</dt><dd data-testid="auction-deck-count">${cardsWord(v.auctionDeckCount)}</dd></div>
      <div><dt>Goblin deck</dt><dd>${cardsWord(v.goblinDeckCount)}</dd></div>
      <div><dt>Discarded</dt><dd>${cardsWord(v.discard.length)}</dd></div>
    </dl>
    ${v.goblinFlipped.length ? html`<h3 class="mini-title">Goblin cards seen</h3><div class="chips">${v.goblinFlipped.map((id) => cardChip(id))}</div>` : nothing}
    ${v.sizeCards.length ? html`<h3 class="mini-title">Size cards so far</h3><div class="chips">${v.sizeCards.map((id) => cardChip(id))}</div>` : nothing}
    ${v.discard.length ? html`<h3 class="mini-title">Discard pile</h3><div class="chips">${v.discard.map((id) => cardChip(id))}</div>` : nothing}
  </section>`;
}

/** Extra columns for the end screen: positive/negative points and final cards. */
function gmResultsExtra(room: RoomView): (seat: number) => TemplateResult {
  const v = room.view as GMView;
  return (seat) => {
    const sc = v.seats[seat]?.score;
    if (!sc) return html``;
    return html`<div class="muted small score-split"><span class="nowrap">+${sc.positive} in ${sc.positiveSuits.map((su) => suitIcon(su, true))}</span>
      <span class="nowrap">−${sc.negative} in ${SUITS.filter((su) => !sc.positiveSuits.includes(su)).map((su) => suitIcon(su, true))}</span></div>`;
  };
}

/** Goblin Market's table code for the registry (games.ts): this module is its own chunk. */
export const goblinMarketTable: GameTable = {
  table: gmTable,
  status: gmStatus,
  logSentence: (e, ctx) => logSentence(e, ctx.name),
  hiddenRows: (h) => {
    const x = h as { auctionDeck: string[]; goblinDeck: string[] };
    return html`<dt>Auction deck, top first</dt><dd>${cardChips(x.auctionDeck, cardChip)}</dd><dt>Goblin deck, top first</dt><dd>${cardChips(x.goblinDeck, cardChip)}</dd>`;
  },
};
