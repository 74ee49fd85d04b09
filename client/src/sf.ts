/**
 * The Sorcerous Futures table. Rendered from the server's view and legal actions only: the
 * client holds no rules. What a seat may know (its own hand and valuations, the face-down cards
 * it has seen, the unaccounted cards) is decided by the engine's view function; bid bounds,
 * exchange, reveal, confirm and pick options all come from `legal`.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { cardChip, cardFace, cardLabel, cardOf, listWords, SUITS, suitIcon, type Suit } from "./decktet.js";
import { sfLogSentence } from "./sf-log.js";
import type { Store } from "./store.js";
import type { LegalAction, RoomView } from "./types.js";
import { bidForm, cardChips, decisionLayout, endScreen, isAway, logPanel, seatClock, seatName } from "./table-common.js";
import type { GameTable } from "./games.js";
import { cardsWord, initials } from "./words.js";
import { scrollTable } from "./scroll-table.js";

/** The engine's own view type (type-only import: no server code enters the bundle). */
export type SFView = ReturnType<typeof import("../../src/games/sorcerous-futures/view.js").view>;
type SeatView = SFView["seats"][number];
type GameResult = SFView["results"][number];

const dollars = (n: number) => `$${n}`;

/** The bid being typed, per room and auction turn (reset when the legal range changes). */
const draft = { key: "", value: 0 };
/** The hand card chosen to give away in an exchange, per room. */
const giving = new Map<string, string>();

function legalOf(room: RoomView, type: string): LegalAction | undefined {
  return room.legal.find((l) => l.type === type);
}

function choiceOptions(l: LegalAction | undefined, param: string): Array<string | number> {
  const spec = l?.params?.[param];
  return spec && spec.kind === "choice" ? spec.options : [];
}

function nameOrYou(room: RoomView, seat: number): string {
  return room.seat === seat ? "you" : seatName(room, seat);
}

/** One line that says who must act (also read out by the live region). */
export function sfStatus(room: RoomView): string {
  const v = room.view as SFView;
  if (room.status === "finished" || v.phase === "over") return "The game is over.";
  const mine = room.legal.length > 0;
  switch (v.pending) {
    case "setup": {
      const waiting = room.active.filter((seat) => seat !== room.seat).map((seat) => seatName(room, seat));
      if (mine) return "Choose your valuations: exchange hand cards with face-down cards, then keep your hand.";
      if (room.seat !== null && v.seats[room.seat]?.confirmed) return `You kept your valuations. Waiting for ${listWords(waiting) || "the others"}.`;
      return `Players are choosing their valuations: waiting for ${listWords(waiting) || "the others"}.`;
    }
    case "pick":
      return mine ? "You hold the Excuse: pick a market card to auction." : `${seatName(room, v.turn ?? 0)} holds the Excuse and is picking a card to auction.`;
    case "bid": {
      const a = v.auction!;
      const final = a.finalChance ? " (final chance)" : "";
      if (mine) {
        if (!legalOf(room, "bid")) return `Your turn${final}: pass.`;
        return a.highBid !== null ? `Your turn${final}: bid at least ${dollars(a.minBid)} or pass.` : "Your turn: open the bidding or pass.";
      }
      return `${seatName(room, a.turn)} is deciding${final}: bid or pass.`;
    }
    default:
      return "";
  }
}

export function sfTable(s: Store, room: RoomView): TemplateResult {
  const v = room.view as SFView;
  const finished = room.status === "finished";
  return html`
    ${finished ? endScreen(s, room, endExtra(v), v.matchGames > 1 ? `Match over (${v.matchGames} games)` : "Game over") : nothing}
    ${finished && v.results.length ? resultsPanel(room, v, true) : nothing}
    <div class="table-grid sf-table ${finished ? "is-finished" : ""}" data-phase=${v.phase} data-game=${v.matchGame}>
      <div class="col-main">
        ${finished ? nothing : statusBar(room, v)}
        ${v.phase === "setup" ? html`${privatePanel(s, room, v)}${setupProgress(room, v)}` : nothing}
        ${v.auction ? auctionPanel(room, v) : nothing}
        ${v.auction && room.legal.length && !finished ? bidPanel(s, room, v) : nothing}
        ${v.phase === "pick" && room.legal.length ? marketPanel(s, room, v) : nothing}
        ${v.phase !== "setup" ? privatePanel(s, room, v) : nothing}
        ${v.phase === "bidding" || (v.phase === "pick" && !room.legal.length) ? marketPanel(s, room, v) : nothing}
        ${seatsPanel(s, room, v)}
        ${!finished && v.results.length ? resultsPanel(room, v, false) : nothing}
      </div>
      <aside class="col-side" aria-label="Table information">
        ${unaccountedPanel(room, v)}
        ${logPanel(room, (e) => sfLogSentence(e, (i) => seatName(room, i)))}
        ${pilesPanel(v)}
      </aside>
    </div>`;
}

function statusBar(room: RoomView, v: SFView): TemplateResult {
  const mine = room.legal.length > 0;
  const meta = [
    v.matchGames > 1 ? `Game ${v.matchGame} of ${v.matchGames}` : "",
    v.marketNumber > 0 ? `Market ${v.marketNumber} of ${v.markets}` : "",
    v.auction ? `Auction ${v.auction.number}` : "",
  ].filter(Boolean);
  return html`<div class="status-bar ${mine ? "my-turn" : ""}" data-testid="status">
    ${mine ? html`<span class="pulse" aria-hidden="true"></span>` : nothing}<span>${sfStatus(room)}</span>
    ${meta.length ? html`<span class="status-meta">${meta.join(" · ")}</span>` : nothing}
  </div>`;
}

function excuseToken(): TemplateResult {
  return html`<span class="sf-excuse" title="The Excuse: picks the next card to auction and has the final chance to bid"
    ><svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M10 1.5 12.4 7.6 18.5 10 12.4 12.4 10 18.5 7.6 12.4 1.5 10 7.6 7.6z" /></svg>Excuse</span>`;
}

function cardBack(label: string, size: "md" | "chip" = "md"): TemplateResult {
  if (size === "chip") return html`<span class="sf-back-chip" role="img" aria-label=${label} title=${label}></span>`;
  return html`<div class="card card-md sf-back" role="img" aria-label=${label} title=${label}><span aria-hidden="true">?</span></div>`;
}

/** Who has paid what for exchanges and who has confirmed (setup is simultaneous). */
function setupProgress(room: RoomView, v: SFView): TemplateResult {
  const done = v.seats.filter((st) => st.confirmed).length;
  return html`<section class="panel sf-setup" data-testid="sf-setup-progress" aria-labelledby="sf-setup-h">
    <header class="panel-head">
      <h2 id="sf-setup-h">Choosing valuations</h2>
      <span class="muted">${done} of ${v.players} confirmed · everyone chooses at the same time</span>
    </header>
    <ul class="sf-setup-list">
      ${v.seats.map((st) => html`<li class="sf-setup-row ${st.confirmed ? "done" : ""}" data-seat=${st.seat}>
        <span class="sf-setup-name">${seatName(room, st.seat)}${room.seat === st.seat ? html` <span class="tag you-tag">you</span>` : nothing}</span>
        <span class="sf-paid" data-testid="sf-paid">${st.paid > 0 ? `paid ${dollars(st.paid)} for exchanges` : "no exchanges yet"}</span>
        <span class="sf-setup-state" data-testid="sf-confirmed" data-confirmed=${st.confirmed ? "yes" : "no"}>${st.confirmed ? "✓ confirmed" : "choosing…"}</span>
      </li>`)}
    </ul>
  </section>`;
}

/** Your own cards: hand and exchanges in setup, then your valuations. Only for a seat. */
function privatePanel(s: Store, room: RoomView, v: SFView): unknown {
  const m = v.mine;
  if (room.seat === null || !m) return nothing;
  const inSetup = v.phase === "setup";
  const acting = inSetup && room.legal.length > 0;
  const busy = s.busy;
  const exchange = legalOf(room, "exchange");
  const reveal = legalOf(room, "reveal");
  const confirm = legalOf(room, "confirm");
  const handOptions = choiceOptions(exchange, "hand").map(String);
  const slotOptions = choiceOptions(exchange, "slot").map(Number);
  let give = giving.get(room.roomId);
  // First choice: a Pawn or Court in hand (it may not be kept, so it is the card to give away).
  const mustGo = choiceOptions(reveal, "card").map(String);
  if (!give || !handOptions.includes(give)) give = handOptions.find((id) => mustGo.includes(id)) ?? handOptions[0];
  const act = (action: Record<string, unknown> & { type: string }) => void s.act(room.roomId, action);
  const choose = (id: string) => {
    giving.set(room.roomId, id);
    s.changed();
  };

  const hand = html`<div class="sf-cards" role="list" aria-label=${inSetup ? "Your hand" : "Your valuations"} data-testid="sf-valuations">
    ${m.valuations.map((id) => {
      if (!exchange || !handOptions.includes(id)) return html`<div role="listitem">${cardFace(id, { size: "lg" })}</div>`;
      const on = id === give;
      return html`<div role="listitem"><button type="button" class="card-btn sf-give ${on ? "on" : ""}" data-testid="give" data-choice=${id}
        aria-pressed=${on ? "true" : "false"} ?disabled=${busy} @click=${() => choose(id)} aria-label=${`Give away ${cardLabel(id)} in the next exchange`}>
        ${cardFace(id, { size: "lg" })}<span class="card-btn-verb" aria-hidden="true">${on ? "✓ to exchange" : "Choose"}</span></button></div>`;
    })}
  </div>`;

  const slots = html`<div class="sf-cards" role="list" aria-label=${inSetup ? "Your face-down cards" : "Your set-aside cards"} data-testid="sf-facedown">
    ${m.faceDown.map((id, slot) => html`<div role="listitem" class="sf-slot" data-slot=${slot}>
      ${id ? cardFace(id, { size: "md", note: inSetup ? `face down in slot ${slot + 1}; you know this card` : "set aside; you know this card" }) : cardBack(`Face-down card ${slot + 1}, not seen by you`)}
      ${exchange && slotOptions.includes(slot) && give
        ? html`<button type="button" class="btn small primary" data-testid="exchange" data-slot=${slot} ?disabled=${busy}
            aria-label=${`Exchange ${cardLabel(give)} with face-down card ${slot + 1}`}
            @click=${() => act({ type: "exchange", hand: give, slot })}>Exchange</button>`
        : nothing}
    </div>`)}
  </div>`;

  const controls = acting
    ? html`<div class="sf-setup-controls">
        ${exchange ? html`<p class="hint">${exchange.label ?? "Exchange a hand card with a face-down card"}: choose the hand card to give, then the face-down card to take. You have ${dollars(v.seats[room.seat]!.money)} and have paid ${dollars(m.paid)} so far.</p>` : html`<p class="hint">No exchange is possible now (you have ${dollars(v.seats[room.seat]!.money)}).</p>`}
        ${choiceOptions(reveal, "card").map((id) => html`<button type="button" class="btn sf-reveal" data-testid="reveal" data-choice=${id} ?disabled=${busy}
          @click=${() => act({ type: "reveal", card: id })}>Reveal ${cardChip(String(id))} and draw a replacement</button>`)}
        ${reveal && !confirm ? html`<p class="hint">A Pawn or Court can't be kept as a valuation: reveal it and draw a replacement, or exchange it face down.</p>` : nothing}
        ${confirm
          ? html`<button type="button" class="btn primary" data-testid="confirm" ?disabled=${busy} @click=${() => act({ type: "confirm" })}>${confirm.label ?? "Keep these two cards"}</button>`
          : nothing}
      </div>`
    : nothing;

  const title = inSetup ? (m.confirmed ? "Your valuations (kept)" : "Your hand") : "Your valuations";
  const body = html`
    <div class="sf-private-grid">
      <div>
        <h3 class="mini-title">${inSetup ? "In hand: these become your valuations" : "Valuations: they set the suit values at the sale"}</h3>
        ${hand}
      </div>
      <div>
        <h3 class="mini-title">${inSetup ? "Face down" : "Set aside (out of the game)"}</h3>
        ${slots}
      </div>
    </div>
    ${controls}
    ${inSetup && m.confirmed ? html`<p class="hint">You have confirmed; the auctions start when everyone has.</p>` : nothing}
    ${acting && s.actError ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}
    ${acting && busy ? html`<p class="muted sending" role="status">Sending…</p>` : nothing}`;

  return html`<section class="panel sf-private ${acting ? "act" : ""}" data-testid="sf-private" aria-labelledby="sf-private-h">
    <header class="panel-head">
      <h2 id="sf-private-h">${title}</h2>
      <span class="sf-secret-badge"><svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><rect x="4" y="9" width="12" height="9" rx="2" /><path class="shackle" d="M7 9V6.5a3 3 0 0 1 6 0V9" /></svg>Only you can see these</span>
    </header>
    ${acting
      ? html`<div data-testid="act-panel" data-pending="setup" aria-busy=${busy ? "true" : "false"}>${body}</div>`
      : body}
  </section>`;
}

function auctionPanel(room: RoomView, v: SFView): TemplateResult {
  const a = v.auction!;
  return html`<section class="panel auction sf-auction" aria-labelledby="auction-h" data-auction=${a.number} data-moves=${a.moves.length}>
    <header class="panel-head">
      <h2 id="auction-h">Auction ${a.number}</h2>
      <span class="muted">${a.auto ? "the market's last card, auctioned automatically" : `${nameOrYou(room, a.excuse)} picked this card`}</span>
    </header>
    <div class="auction-cards">
      <figure class="sf-lot" data-testid="sf-lot">${cardFace(a.card, { size: "lg", note: "being auctioned" })}<figcaption class="muted small">up for auction</figcaption></figure>
      <ol class="sf-moves" aria-label="Bids and passes in this auction">
        ${a.moves.map((mv) => html`<li class="sf-move ${mv.bid === null ? "passed" : ""} ${a.highBidder === mv.seat && mv.bid === a.highBid ? "high" : ""}" data-seat=${mv.seat}>
          <span class="bidder-name">${seatName(room, mv.seat)}${room.seat === mv.seat ? html` <span class="you-tag tag">you</span>` : nothing}</span>
          <span class="bidder-state">${mv.bid === null ? "passed" : `bid ${dollars(mv.bid)}`}</span></li>`)}
        <li class="sf-move acting" data-seat=${a.turn}>
          <span class="bidder-name">${seatName(room, a.turn)}${room.seat === a.turn ? html` <span class="you-tag tag">you</span>` : nothing}</span>
          <span class="bidder-state">${a.finalChance ? "final chance…" : "deciding…"}</span></li>
      </ol>
    </div>
    <p class="high-bid" data-testid="sf-high">${a.highBid !== null
      ? html`High bid: <b class="coin-amount">${dollars(a.highBid)}</b> by <b>${seatName(room, a.highBidder!)}</b>`
      : html`<span class="muted">No bids yet.</span>`}</p>
    <p class="muted small sf-rule-hint">Each player bids or passes once, in turn; then ${nameOrYou(room, a.excuse)} (holding the Excuse) ${room.seat === a.excuse ? "have" : "has"} the final chance.</p>
  </section>`;
}

function bidPanel(s: Store, room: RoomView, v: SFView): TemplateResult {
  const busy = s.busy;
  const bid = legalOf(room, "bid");
  const pass = legalOf(room, "pass");
  const a = v.auction!;
  const me = v.seats[room.seat!]!;
  const act = (action: Record<string, unknown> & { type: string }) => void s.act(room.roomId, action);
  const spec = bid?.params?.amount;
  const min = spec && spec.kind === "int" ? spec.min : 0;
  const max = spec && spec.kind === "int" ? spec.max : 0;
  const passButton = (primary: boolean) => html`<button type="button" class="btn ${primary ? "primary" : ""}" data-testid="pass" ?disabled=${busy || !pass}
    @click=${() => act({ type: "pass" })}>${pass?.label ?? "Pass"}</button>`;
  return html`<section class="panel act sf-act" data-testid="act-panel" data-pending="bid" aria-labelledby="act-h" aria-busy=${busy ? "true" : "false"}>
    <h2 id="act-h">Your ${a.finalChance ? "final chance" : "bid"}: ${cardLabel(a.card)}</h2>
    ${decisionLayout(bidSummary(room, v), bid
      ? html`${bidForm({
          s,
          draft,
          key: `${room.roomId}:${a.number}:${a.moves.length}:${min}:${max}`,
          min,
          max,
          busy,
          money: { unit: "dollar", short: dollars, long: dollars },
          steps: [1, 5, 10],
          passButton: passButton(false),
          onBid: (amount) => act({ type: "bid", amount }),
        })}
        <p class="hint bid-hint" id="bid-hint">You can bid ${min === max ? dollars(min) : `${dollars(min)} to ${dollars(max)}`}; you have ${dollars(me.money)}.${a.highBid !== null ? ` The high bid is ${dollars(a.highBid)}.` : ""}</p>`
      : html`<p class="hint">${a.highBidder === room.seat ? `Your bid of ${dollars(a.highBid ?? 0)} is the highest.` : `You can't bid now: you have ${dollars(me.money)}.`}</p>
        <div class="bid-form">${passButton(true)}</div>`)}
    ${s.actError ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}
    ${busy ? html`<p class="muted sending" role="status">Sending…</p>` : nothing}
  </section>`;
}

/**
 * Beside the bid box: the item on offer, your valuations (they set what each suit is worth at the
 * sale) and your money; the full cards are in the Your valuations panel below.
 */
function bidSummary(room: RoomView, v: SFView): TemplateResult {
  const a = v.auction!;
  const me = v.seats[room.seat!]!;
  return html`<div class="decide-lot" data-testid="decide-lot"><span class="decide-label">On offer</span> ${cardChip(a.card)}</div>
    <div class="decide-valuations" data-testid="decide-valuations"><span class="decide-label">Your valuations</span>
      <span class="chips">${(v.mine?.valuations ?? []).map((id) => cardChip(id))}</span></div>
    <div class="decide-money"><span class="decide-label">You have</span> <b>${dollars(me.money)}</b>${a.highBid !== null ? html` · high bid <b>${dollars(a.highBid)}</b>` : nothing}</div>`;
}

/** The market (and, when you hold the Excuse and must pick, your choice of card). */
function marketPanel(s: Store, room: RoomView, v: SFView): TemplateResult {
  const pick = legalOf(room, "pick");
  const options = choiceOptions(pick, "card").map(String);
  const picking = !!pick && room.status === "playing";
  const busy = s.busy;
  const holder = v.excuse;
  const marketCards = html`<div class="offer sf-market-cards" role=${picking ? "group" : "list"} aria-label="Cards in the market">
    ${v.market.length
      ? v.market.map((id) =>
          picking && options.includes(id)
            ? html`<button type="button" class="card-btn" data-testid="card-choice" data-choice=${id} ?disabled=${busy}
                @click=${() => void s.act(room.roomId, { type: "pick", card: id })} aria-label=${`Auction ${cardLabel(id)}`}>
                ${cardFace(id, { size: "md" })}<span class="card-btn-verb" aria-hidden="true">Auction</span></button>`
            : html`<div role="listitem">${cardFace(id, { size: "md" })}</div>`,
        )
      : html`<p class="muted offer-empty">${v.marketNumber < v.markets ? "Empty: the next market is dealt after this auction." : "Empty: this is the last market."}</p>`}
  </div>`;
  const body = html`
    <header class="panel-head">
      <h2 id="sf-market-h">Market ${v.marketNumber} of ${v.markets}</h2>
      <span class="muted">${cardsWord(v.deckCount)} left in the deck</span>
    </header>
    <p class="sf-excuse-line" data-testid="sf-excuse-holder" data-seat=${holder ?? nothing}>${holder !== null
      ? html`${excuseToken()} <b>${seatName(room, holder)}</b>${room.seat === holder ? html` <span class="tag you-tag">you</span>` : nothing}
          ${v.phase === "pick" ? "holds the Excuse and picks the next card to auction." : "holds the Excuse."}`
      : nothing}</p>
    ${marketCards}
    ${picking ? html`<p class="hint">You hold the Excuse: choose a card to put up for auction. You open the bidding and have the final chance.</p>` : nothing}
    ${picking && s.actError ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}`;
  return picking
    ? html`<section class="panel act sf-market" data-testid="act-panel" data-pending="pick" aria-busy=${busy ? "true" : "false"} aria-labelledby="sf-market-h">${body}</section>`
    : html`<section class="panel sf-market" data-testid="sf-market" aria-labelledby="sf-market-h">${body}</section>`;
}

function seatsPanel(s: Store, room: RoomView, v: SFView): TemplateResult {
  const finished = room.status === "finished";
  return html`<section class="panel seats" aria-labelledby="seats-h">
    <h2 id="seats-h" class="panel-title">Players</h2>
    <div class="seat-grid">${v.seats.map((st) => seatCard(s, room, v, st, finished))}</div>
  </section>`;
}

function seatCard(s: Store, room: RoomView, v: SFView, st: SeatView, finished: boolean): TemplateResult {
  const seatInfo = room.seats[st.seat];
  const you = room.seat === st.seat;
  const acting = room.status === "playing" && room.active.includes(st.seat);
  const away = isAway(s, room, st.seat);
  const excuse = v.excuse === st.seat;
  const moves = v.auction ? v.auction.moves.filter((m) => m.seat === st.seat) : [];
  const name = seatName(room, st.seat);
  const movesText = moves.map((m) => (m.bid === null ? "passed" : `bid ${dollars(m.bid)}`)).join(", then ");
  return html`<article class="seat ${you ? "you" : ""} ${acting ? "acting" : ""} ${away ? "away" : ""}" data-seat=${st.seat}
    aria-label=${`${name}${you ? " (you)" : ""}: ${dollars(st.money)}, ${st.holdings.length} item${st.holdings.length === 1 ? "" : "s"}${excuse ? ", holds the Excuse" : ""}${acting ? ", to act" : ""}${away ? ", away" : ""}`}>
    <header class="seat-head">
      <span class="avatar" aria-hidden="true">${initials(name)}</span>
      <span class="seat-name">${name}</span>
      ${you ? html`<span class="tag you-tag">you</span>` : nothing}
      ${seatInfo?.bot ? html`<span class="tag">bot</span>` : nothing}
      ${away ? html`<span class="tag away-tag" data-testid="away">away</span>` : nothing}
      ${acting ? html`<span class="tag turn-tag">${v.phase === "setup" ? "choosing" : "to act"}</span>` : nothing}
      ${excuse ? excuseToken() : nothing}
      ${seatClock(s, room, st.seat)}
    </header>
    <div class="seat-stats">
      <span class="coins sf-money" data-testid="sf-money" title="Money"><b>${dollars(st.money)}</b></span>
      ${st.paid > 0 ? html`<span class="muted small">paid ${dollars(st.paid)} in setup</span>` : nothing}
      ${v.phase === "setup" && st.confirmed ? html`<span class="small up">✓ confirmed</span>` : nothing}
      ${movesText ? html`<span class="small sf-seat-move">this auction: ${movesText}</span>` : nothing}
    </div>
    ${!finished && st.valuationCount > 0
      ? html`<div class="sf-secret-row small muted">${Array.from({ length: st.valuationCount }, () => cardBack("secret valuation card", "chip"))}
          <span>${you ? `${st.valuationCount} valuations (yours, shown above)` : `${st.valuationCount} secret valuation${st.valuationCount === 1 ? "" : "s"}`}</span></div>`
      : nothing}
    ${st.holdings.length
      ? html`<div class="hand" role="list" aria-label=${`Items bought by ${name}`} data-testid="sf-holdings">
          ${st.holdings.map((id) => html`<span role="listitem">${cardChip(id)}</span>`)}
        </div>`
      : html`<p class="hand muted small" data-testid="sf-holdings">No items yet</p>`}
  </article>`;
}

/** For each suit, the cards the viewer cannot place (the view's `unaccounted`, as sent). */
function unaccountedPanel(room: RoomView, v: SFView): unknown {
  const total = SUITS.reduce((t, su) => t + (v.unaccounted[su]?.length ?? 0), 0);
  if (v.phase === "over" || total === 0) return nothing;
  return html`<section class="panel sf-unaccounted" data-testid="sf-unaccounted" aria-labelledby="sf-unacc-h">
    <h2 id="sf-unacc-h" class="panel-title">Unaccounted for</h2>
    <p class="muted small">${room.seat === null
      ? "Cards not seen so far (not in the market, the auction, the items or the discard)"
      : "Cards you have not seen (not in the market, the auction, the items, the discard or your own cards)"}:
      each is among someone's valuations or set-aside cards, or still in the deck.</p>
    <ul class="sf-unacc-list">
      ${SUITS.map((su) => {
        const ids = [...(v.unaccounted[su] ?? [])].sort((x, y) => (cardOf(x).value ?? 0) - (cardOf(y).value ?? 0));
        return html`<li class="sf-unacc-suit" data-suit=${su}>
          <span class="sf-unacc-head">${suitIcon(su)}<b>${su}</b> <span class="count">${ids.length}</span></span>
          <span class="chips">${ids.length ? ids.map((id) => cardChip(id)) : html`<span class="muted small">all seen</span>`}</span>
        </li>`;
      })}
    </ul>
  </section>`;
}

function pilesPanel(v: SFView): TemplateResult {
  return html`<section class="panel decks" aria-labelledby="sf-piles-h">
    <h2 id="sf-piles-h" class="panel-title">Deck and discards</h2>
    <dl class="deck-counts">
      <div><dt>Deck</dt><dd data-testid="sf-deck-count">${cardsWord(v.deckCount)}</dd></div>
      <div><dt>Markets</dt><dd>${v.marketNumber} of ${v.markets}</dd></div>
      <div><dt>Discarded</dt><dd>${cardsWord(v.discard.length)}</dd></div>
    </dl>
    ${v.extras
      ? html`<p class="small muted">${v.phase === "setup"
          ? "Three players: when everyone has confirmed, 2 random cards join the valuations and 2 more are set aside, unseen by anyone."
          : `Three players: ${cardsWord(v.extras.valuationCount)} joined the valuations at random (revealed at the end) and ${cardsWord(v.extras.setAsideCount)} were set aside, unseen by anyone.`}</p>`
      : nothing}
    ${v.revealed.length ? html`<h3 class="mini-title">Revealed in setup (shuffled back)</h3><div class="chips">${v.revealed.map((id) => cardChip(id))}</div>` : nothing}
    ${v.discard.length ? html`<h3 class="mini-title">Discard pile</h3><div class="chips">${v.discard.map((id) => cardChip(id))}</div>` : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Results: every valuation revealed, suit values and each seat's sale.

function chipList(ids: readonly string[]): TemplateResult {
  return ids.length ? html`<span class="chips">${ids.map((id) => cardChip(id))}</span>` : html`<span class="muted">none</span>`;
}

/** Set-aside cards as shown in a result: those the viewer may see, and how many are hidden (null) until the match is over. */
function setAsideList(ids: ReadonlyArray<string | null>): TemplateResult {
  const known = ids.filter((id): id is string => id !== null);
  const hidden = ids.length - known.length;
  if (!hidden) return chipList(known);
  return html`${known.length ? html`${chipList(known)} ` : nothing}<span class="muted small" data-testid="sf-set-aside-hidden" title="Set-aside cards stay hidden until the match is over">${hidden} hidden until the match ends</span>`;
}

function rankText(id: string): string {
  const c = cardOf(id);
  return c.rank === "Ace" ? "Ace 1" : c.rank === "Crown" ? "Crown 10" : String(c.value ?? 0);
}

function suitValueText(cards: readonly string[], value: number): string {
  if (cards.length === 0) return `no valuation card: ${dollars(0)}`;
  if (cards.length === 1) return `one card (${rankText(cards[0]!)}): ${dollars(value)}`;
  const ranks = [...cards].sort((x, y) => (cardOf(x).value ?? 0) - (cardOf(y).value ?? 0)).map(rankText);
  return `median of ${ranks.join(", ")}: ${dollars(value)}`;
}

function suitAmounts(suits: Partial<Record<Suit, number>>): TemplateResult {
  const entries = SUITS.filter((su) => suits[su] !== undefined);
  if (!entries.length) return html`<span class="muted">—</span>`;
  return html`${entries.map((su, i) => html`${i > 0 ? " + " : ""}<span class="nowrap">${suitIcon(su, true)} ${dollars(suits[su]!)}</span>`)}`;
}

function gameResult(room: RoomView, v: SFView, r: GameResult): TemplateResult {
  const seats = r.valuations.map((_, seat) => seat);
  return html`<div class="sf-result" data-testid="sf-result" data-game=${r.game}>
    <h3 class="sf-result-title">${v.matchGames > 1 ? `Game ${r.game} of ${v.matchGames}` : "The sale"}</h3>

    <h4 class="mini-title">Valuations revealed</h4>
    ${scrollTable("Valuations revealed", html`<table class="results sf-vals">
      <thead><tr><th scope="col">Player</th><th scope="col">Valuations</th><th scope="col">Set aside</th><th scope="col">Paid in setup</th></tr></thead>
      <tbody>
        ${seats.map((seat) => html`<tr class=${room.seat === seat ? "you" : ""} data-seat=${seat}>
          <th scope="row">${seatName(room, seat)}</th>
          <td data-testid="sf-revealed-valuations">${chipList(r.valuations[seat] ?? [])}</td>
          <td>${setAsideList(r.faceDown[seat] ?? [])}</td>
          <td>${dollars(r.paid[seat] ?? 0)}</td>
        </tr>`)}
        ${r.extraValuations.length || r.extraSetAside.length
          ? html`<tr><th scope="row">Extra cards</th><td data-testid="sf-revealed-valuations">${chipList(r.extraValuations)}</td><td>${setAsideList(r.extraSetAside)}</td><td></td></tr>`
          : nothing}
      </tbody>
    </table>`)}

    <h4 class="mini-title">Suit values</h4>
    <ul class="sf-suit-values" data-testid="sf-suit-values">
      ${r.suitValues.map((sv) => html`<li data-suit=${sv.suit}>
        <span class="sf-sv-head">${suitIcon(sv.suit)}<b>${sv.suit}</b> <b class="sf-sv-value">${dollars(sv.value)}</b></span>
        <span class="chips">${sv.cards.map((id) => cardChip(id))}</span>
        <span class="muted small">${suitValueText(sv.cards, sv.value)}</span>
      </li>`)}
    </ul>

    <h4 class="mini-title">Sales</h4>
    <div class="sf-sales">
      ${r.sales.map((sale) => {
        const before = r.moneyBefore[sale.seat] ?? 0;
        const after = r.moneyAfter[sale.seat] ?? 0;
        const paying = sale.suits.filter((x) => x.multiplier > 0);
        return html`<article class="sf-sale ${room.seat === sale.seat ? "you" : ""}" data-testid="sf-sale" data-seat=${sale.seat}>
          <header class="sf-sale-head"><b>${seatName(room, sale.seat)}</b>
            <span>sells for <b data-testid="sf-sale-total">${dollars(sale.total)}</b>: ${dollars(before)} → <b>${dollars(after)}</b></span></header>
          ${sale.perItem.length
            ? scrollTable(`What ${seatName(room, sale.seat)}'s items sold for`, html`<table class="results sf-items">
                <thead><tr><th scope="col">Item</th><th scope="col">Face value</th><th scope="col">Suits</th><th scope="col">Total</th></tr></thead>
                <tbody>${sale.perItem.map((it) => html`<tr><td>${cardChip(it.card)}</td><td>${dollars(it.face)}</td><td>${suitAmounts(it.suits)}</td><td><b>${dollars(it.total)}</b></td></tr>`)}</tbody>
              </table>`)
            : html`<p class="muted small">Bought nothing.</p>`}
          <p class="small sf-sale-sum">Face value <b>${dollars(sale.faceValue)}</b> + suits ${paying.length
            ? html`${paying.map((x, i) => html`${i > 0 ? " + " : ""}<span class="nowrap">${suitIcon(x.suit, true)} ${x.multiplier} × ${dollars(x.value)} = ${dollars(x.amount)}</span>`)}`
            : dollars(0)} = <b>${dollars(sale.suitTotal)}</b>; total <b>${dollars(sale.total)}</b>.</p>
        </article>`;
      })}
    </div>
  </div>`;
}

/** Per-game bankrolls of a match: the money each game ended with is carried into the next. */
function bankrolls(room: RoomView, v: SFView): TemplateResult {
  const seats = v.seats.map((st) => st.seat);
  return html`<div class="sf-bankrolls" data-testid="sf-bankrolls">
    <h3 class="sf-result-title">Bankrolls over the match</h3>
    <p class="muted small">Each game starts with the money the previous game ended with.</p>
    ${scrollTable("Bankrolls over the match", html`<table class="results">
      <thead><tr><th scope="col">Player</th>${v.results.map((r) => html`<th scope="col">After game ${r.game}</th>`)}</tr></thead>
      <tbody>${seats.map((seat) => html`<tr class=${room.seat === seat ? "you" : ""}>
        <th scope="row">${seatName(room, seat)}</th>
        ${v.results.map((r) => html`<td><b>${dollars(r.moneyAfter[seat] ?? 0)}</b> <span class="muted small">(sale +${dollars(r.sales[seat]?.total ?? 0)})</span></td>`)}
      </tr>`)}</tbody>
    </table>`)}
  </div>`;
}

function resultsPanel(room: RoomView, v: SFView, final: boolean): TemplateResult {
  const ordered = final ? v.results : [...v.results].reverse();
  return html`<section class="panel sf-results" data-testid="sf-results" aria-labelledby="sf-results-h">
    <h2 id="sf-results-h" class="panel-title">${final ? (v.matchGames > 1 ? "The match: every game revealed" : "Everything revealed") : "Finished games of this match"}</h2>
    ${v.matchGames > 1 ? bankrolls(room, v) : nothing}
    ${ordered.map((r, i) =>
      final || v.results.length === 1
        ? gameResult(room, v, r)
        : html`<details class="sf-past" ?open=${i === 0}><summary>Game ${r.game} results</summary>${gameResult(room, v, r)}</details>`,
    )}
  </section>`;
}

/** Under each score on the end screen: what the last sale brought (and the match's course). */
function endExtra(v: SFView): (seat: number) => TemplateResult {
  return (seat) => {
    const last = v.results[v.results.length - 1];
    const sale = last?.sales[seat];
    if (!sale) return html``;
    return html`<div class="muted small">
      ${v.results.length > 1 ? html`<span class="nowrap">${v.results.map((r) => `G${r.game} ${dollars(r.moneyAfter[seat] ?? 0)}`).join(" → ")}</span><br />` : nothing}
      ${v.results.length > 1 ? "last sale" : "sale"} ${dollars(sale.total)} (face value ${dollars(sale.faceValue)} + suits ${dollars(sale.suitTotal)})
    </div>`;
  };
}

/** Sorcerous Futures' table code for the registry (games.ts): this module is its own chunk. */
export const sorcerousFuturesTable: GameTable = {
  table: sfTable,
  status: sfStatus,
  logSentence: (e, ctx) => sfLogSentence(e, ctx.name),
  hiddenRows: (h, name) => {
    const x = h as { seats: Array<{ seat: number; valuations: string[]; faceDown: string[]; inHand?: boolean }>; extras: { valuations: string[]; setAside: string[] } | null; deck: string[] };
    return html`${x.seats.map((st) => html`<dt>${name(st.seat)}'s ${st.inHand ? "hand (their valuations once kept)" : "valuations"}</dt><dd>${cardChips(st.valuations, cardChip)}</dd>
        <dt>${name(st.seat)}'s face-down cards</dt><dd>${cardChips(st.faceDown, cardChip)}</dd>`)}
      ${x.extras ? html`<dt>Extra valuations (three players)</dt><dd>${cardChips(x.extras.valuations, cardChip)}</dd><dt>Set aside (three players)</dt><dd>${cardChips(x.extras.setAside, cardChip)}</dd>` : nothing}
      <dt>Deck, top first</dt><dd>${cardChips(x.deck, cardChip)}</dd>`;
  },
};
