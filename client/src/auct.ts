/**
 * The Aucteraden table (a solitaire). Rendered from the server's view and legal actions only:
 * the client holds no rules. Which cells a market card may go to, which suits may pay for it,
 * whether it is buyable and whether the market must be discarded all come from the view's
 * `market` offers and `pending`, and every move sent is one of `legal`. The score, each suit's
 * chain (with its cells, for highlighting) and the penalties are the view's `score`.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { auctLogSentence } from "./auct-log.js";
import { loadBoard } from "./daily.js";
import { cardChip, cardFace, cardLabel, cardOf, rankMark, SUITS, suitIcon, type Suit } from "./decktet.js";
import type { Store } from "./store.js";
import { cardChips, checkYourself, logPanel, refocusAfterMove, seatClock, seedCheck, seatName } from "./table-common.js";
import type { GameTable } from "./games.js";
import { rematchPanel } from "./rematch.js";
import type { LegalAction, RoomView } from "./types.js";
import { ordinal, scoreText } from "./words.js";
import { scrollTable } from "./scroll-table.js";

/** The engine's own view types (type-only import: no server code enters the bundle). */
export type AuctView = import("../../src/games/aucteraden/index.js").AucteradenView;
type Offer = import("../../src/games/aucteraden/index.js").Offer;
type Chain = import("../../src/games/aucteraden/index.js").Chain;
type ScoreBreakdown = import("../../src/games/aucteraden/index.js").ScoreBreakdown;
type ScoringRules = import("../../src/games/aucteraden/index.js").ScoringRules;
interface Cell {
  row: number;
  col: number;
}

const STARTING_CHIPS = 4;
const signed = (n: number) => (n > 0 ? `+${n}` : scoreText(n));
const chipsWord = (n: number) => `${n} chip${n === 1 ? "" : "s"}`;
const cellKey = (c: Cell) => `${c.row},${c.col}`;
const POSITION_WORD: Record<string, string> = { left: "Left", middle: "Middle", right: "Right" };

/** The card being bought and the cell chosen for it (reset whenever the room moves on). */
const sel = { key: "", card: null as string | null, cell: null as Cell | null, preview: null as string | null, discardAsked: false };
/** The suit whose chain is highlighted on the tableau: hovered/focused, or pinned by a click. */
const hl = { room: "", hover: null as Suit | null, pinned: null as Suit | null };

function resetSelection(room: RoomView): void {
  const key = `${room.roomId}:${room.version}`;
  if (sel.key !== key) {
    sel.key = key;
    sel.card = null;
    sel.cell = null;
    sel.preview = null;
    sel.discardAsked = false;
  }
  if (hl.room !== room.roomId) {
    hl.room = room.roomId;
    hl.hover = null;
    hl.pinned = null;
  }
}

function optionsOf(l: LegalAction, param: string): Array<string | number> {
  const spec = l.params?.[param];
  return spec && spec.kind === "choice" ? spec.options : [];
}

/** Every legal buy, as card -> "row,col" -> the payments legal there (in the offer's order). */
function legalBuys(room: RoomView): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const l of room.legal) {
    if (l.type !== "buy") continue;
    for (const card of optionsOf(l, "card")) {
      for (const row of optionsOf(l, "row")) {
        for (const col of optionsOf(l, "col")) {
          for (const pay of optionsOf(l, "pay")) {
            const byCell = out.get(String(card)) ?? new Map<string, string[]>();
            const key = `${row},${col}`;
            byCell.set(key, [...(byCell.get(key) ?? []), String(pay)]);
            out.set(String(card), byCell);
          }
        }
      }
    }
  }
  return out;
}

function offerOf(v: AuctView, card: string | null): Offer | undefined {
  return card === null ? undefined : v.market.find((o) => o.card === card);
}

/** One line that says what happens now (also read out by the live region). */
export function auctStatus(room: RoomView): string {
  const v = room.view as AuctView;
  if (room.status === "finished" || v.phase === "over") return `The game is over: ${scoreText(v.score.total)} VP.`;
  const mine = room.legal.length > 0;
  const who = seatName(room, 0);
  if (v.pending === "discard") {
    return mine ? "No market card can be bought and placed: you must discard the market (−3 VP)." : `No market card can be bought and placed: ${who} must discard the market.`;
  }
  return mine ? "Your turn: choose a market card, then a lit cell of the tableau." : `${who} is choosing a card to buy.`;
}

function act(s: Store, room: RoomView, action: Record<string, unknown> & { type: string }, keyboard = false): void {
  sel.card = null;
  sel.cell = null;
  // A move made by keyboard: its controls are gone, so put focus on the next move's controls.
  if (keyboard) refocusAfterMove(s, room.roomId, room.version, '[data-testid="market-card"]:not([disabled]), [data-testid="discard-market"]:not([disabled])');
  void s.act(room.roomId, action);
}

/** Move focus to the first control matching `selector` once the next render is on screen (keyboard use). */
function focusSoon(selector: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}

export function auctTable(s: Store, room: RoomView): TemplateResult {
  const v = room.view as AuctView;
  resetSelection(room);
  const finished = room.status === "finished" || v.phase === "over";
  const mine = !finished && room.legal.length > 0;
  const buys = mine ? legalBuys(room) : new Map<string, Map<string, string[]>>();
  if (sel.card && !buys.has(sel.card)) {
    sel.card = null;
    sel.cell = null;
  }
  if (mine) bringDecisionIntoView(`${room.roomId}:${room.version}`);
  else if (finished) bringEndIntoView(room.roomId);
  return html`
    ${finished ? auctEnd(s, room, v) : nothing}
    <div class="table-grid auct-table ${finished ? "is-finished" : ""}" data-testid="auct-table"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === "Escape" && sel.card) {
          sel.card = null;
          sel.cell = null;
          s.changed();
        }
      }}>
      <div class="col-main">
        ${finished ? nothing : statusBar(s, room, v, mine)}
        ${finished ? nothing : marketPanel(s, room, v, mine, buys)}
        ${tableauPanel(s, room, v, mine, buys)}
      </div>
      <aside class="col-side" aria-label="Score and table information">
        ${finished ? nothing : scorePanel(s, v.score, v, false)}
        ${deckPanel(v)}
        ${logPanel(room, (e) => auctLogSentence(e, seatName(room, 0)))}
      </aside>
    </div>`;
}

/** The decision last brought into view (room and version). */
let decisionShown = "";

/**
 * On a narrow screen the room's header leaves too little height for the market beside the
 * tableau: when a new decision comes, scroll the table's status bar to the top of the screen (under
 * the top bar, its scroll-margin) so the market cards and the tableau's cells are in view together
 * (issue 25). Once per decision: reading elsewhere meanwhile is left alone.
 */
function bringDecisionIntoView(key: string): void {
  if (decisionShown === key) return;
  decisionShown = key;
  if (!matchMedia("(max-width: 1100px)").matches) return;
  requestAnimationFrame(() => document.querySelector<HTMLElement>('.auct-table [data-testid="status"]')?.scrollIntoView({ block: "start" }));
}

/**
 * The game ends in front of a player whose decisions were scrolled up (bringDecisionIntoView): the
 * end screen, drawn above the table, would sit above the screen's top (under the top bar), so it is
 * scrolled down to instead, once. A finished game opened afresh is left at the page's top.
 */
function bringEndIntoView(roomId: string): void {
  if (!decisionShown.startsWith(`${roomId}:`) || decisionShown === `${roomId}:end`) return;
  decisionShown = `${roomId}:end`;
  if (!matchMedia("(max-width: 1100px)").matches) return;
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="end-screen"].auct-end')?.scrollIntoView({ block: "start" }));
}

function statusBar(s: Store, room: RoomView, v: AuctView, mine: boolean): TemplateResult {
  return html`<div class="status-bar ${mine ? "my-turn" : ""} ${v.pending === "discard" ? "auct-must-discard" : ""}" data-testid="status">
    ${mine ? html`<span class="pulse" aria-hidden="true"></span>` : nothing}<span>${auctStatus(room)}</span>
    <span class="status-meta">${room.daily ? `Daily ${room.daily} · ${room.ranked ? "ranked" : "unrated"} · ` : ""}${v.tableau.length} of 16 cards placed</span>
    ${seatClock(s, room, 0)}
  </div>`;
}

// ---------------------------------------------------------------------------------------------
// Market

function priceText(o: Offer): string {
  if (o.card === null || o.cost === null) return "";
  const pc = ["Pawn", "Court"].includes(String(cardOf(o.card).rank));
  const base = o.cost === 0 ? "free" : chipsWord(o.cost);
  return pc ? `${base} (Pawn/Court +1)` : base;
}

function payNote(o: Offer, v: AuctView): TemplateResult {
  if (o.card === null || o.cost === null) return html``;
  const suits = cardOf(o.card).suits;
  if (o.pay.length === 0) {
    return html`<p class="auct-note bad">Can't afford: needs ${chipsWord(o.cost)} of ${suits.join(" or ")}.</p>`;
  }
  if (o.cells.length === 0) return html`<p class="auct-note bad">No cell of the tableau can take it.</p>`;
  if (o.pay.length === 1 && o.pay[0] === "none") return html`<p class="auct-note">Free to take.</p>`;
  return html`<p class="auct-note">Pay with ${o.pay.map((p, i) => html`${i > 0 ? " or " : ""}<span class="nowrap">${suitIcon(p as Suit)} ${p} <span class="muted">(${v.chips[p as Suit]} left)</span></span>`)}</p>`;
}

/**
 * What discarding the market does: every card in it leaves the game (three while the deck lasts,
 * one to three once it is empty). Then the market is dealt again; with the deck empty it stays
 * empty and the game ends (rulings 7 and 8).
 */
function discardHint(v: AuctView, forced: boolean): string {
  const n = v.market.filter((o) => o.card !== null).length;
  const leave = n === 1 ? "the one card leaves" : n === 2 ? "both cards leave" : "all three cards leave";
  if (v.deckCount === 0) {
    const end = "with the deck empty no market is dealt: the game ends";
    return forced ? `The only move: ${leave} the game, and ${end}.` : `Instead of buying: ${leave} the game, it costs 3 VP, and ${end}.`;
  }
  return forced ? `The only move: ${leave} the game and the market is dealt again.` : `Instead of buying: ${leave} the game, the market is dealt again, and it costs 3 VP.`;
}

function marketPanel(s: Store, room: RoomView, v: AuctView, mine: boolean, buys: Map<string, Map<string, string[]>>): TemplateResult {
  const busy = s.busy;
  const discard = room.legal.find((l) => l.type === "discard-market");
  const forced = v.pending === "discard";
  return html`<section class="panel auct-market" aria-labelledby="market-h" data-testid=${mine ? "act-panel" : "market"}
    data-pending=${forced ? "discard" : sel.cell ? "pay" : sel.card ? "cell" : "buy"} aria-busy=${busy ? "true" : "false"}>
    <header class="panel-head">
      <h2 id="market-h">Market</h2>
      <span class="muted small">Left costs 2 chips, middle 1, right is free${v.extended ? "; a Pawn or Court costs 1 more" : ""}. Pay the whole price in one suit of the card.</span>
    </header>
    ${forced
      ? html`<p class="auct-forced" role="status" data-testid="must-discard">No market card can be both paid for and placed, so ${mine ? "you must" : `${seatName(room, 0)} must`} discard the market (−3 VP).</p>`
      : nothing}
    <ol class="auct-slots">
      ${v.market.map((o) => {
        const chosen = o.card !== null && sel.card === o.card;
        const canBuy = mine && o.card !== null && buys.has(o.card);
        return html`<li class="auct-slot ${chosen ? "chosen" : ""} ${o.card === null ? "empty" : ""}" data-slot=${o.slot} data-testid="market-slot">
          <div class="auct-slot-head"><span class="auct-pos">${POSITION_WORD[o.position] ?? o.position}</span>
            ${o.card !== null ? html`<span class="auct-price" data-testid="price">${priceText(o)}</span>` : nothing}</div>
          ${o.card === null
            ? html`<div class="auct-empty-slot">empty</div>`
            : mine
              ? html`<button type="button" class="card-btn auct-offer" data-testid="market-card" data-choice=${o.card} data-pays=${o.pay.join(" ")} aria-pressed=${chosen ? "true" : "false"}
                  ?disabled=${busy || !canBuy}
                  aria-label=${`${chosen ? "Chosen: " : "Choose "}${cardLabel(o.card)}, ${o.position} slot, ${priceText(o)}${canBuy ? "" : " (cannot be bought now)"}`}
                  @mouseenter=${() => { sel.preview = o.card; s.changed(); }}
                  @mouseleave=${() => { sel.preview = null; s.changed(); }}
                  @click=${(e: MouseEvent) => {
                    sel.card = chosen ? null : o.card;
                    sel.cell = null;
                    sel.discardAsked = false;
                    s.changed();
                    if (!chosen) {
                      if (e.detail === 0) focusSoon('[data-testid="cell"]');
                      else setTimeout(() => document.querySelector(".auct-tableau")?.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0);
                    }
                  }}>${cardFace(o.card, { size: "lg" })}<span class="card-btn-verb" aria-hidden="true">${chosen ? "Chosen" : canBuy ? "Choose" : "Can't buy"}</span></button>`
              : cardFace(o.card, { size: "lg" })}
          ${payNote(o, v)}
        </li>`;
      })}
    </ol>
    ${mine && discard
      ? forced || !sel.discardAsked
        ? html`<div class="auct-discard">
            <button type="button" class="btn ${forced ? "primary" : ""}" data-testid="discard-market" ?disabled=${busy}
              @click=${(e: MouseEvent) => {
                // The only move is made at once; a discard by choice costs 3 VP and cannot be taken back, so it is asked first.
                if (forced) return act(s, room, { type: "discard-market" }, e.detail === 0);
                sel.discardAsked = true;
                sel.card = null;
                sel.cell = null;
                s.changed();
                focusSoon('[data-testid="discard-confirm"]');
              }}>Discard the market (−3 VP)</button>
            <span class="hint">${discardHint(v, forced)}</span>
          </div>`
        : html`<div class="auct-discard asked" role="group" aria-labelledby="discard-q">
            <p id="discard-q"><b>Discard the market for −3 VP?</b> ${discardHint(v, forced)} It cannot be taken back.</p>
            <button type="button" class="btn primary" data-testid="discard-confirm" ?disabled=${busy}
              @click=${(e: MouseEvent) => act(s, room, { type: "discard-market" }, e.detail === 0)}>Yes, discard it</button>
            <button type="button" class="btn ghost" data-testid="discard-cancel" ?disabled=${busy}
              @click=${(e: MouseEvent) => {
                sel.discardAsked = false;
                s.changed();
                if (e.detail === 0) focusSoon('[data-testid="discard-market"]');
              }}>Keep the market</button>
          </div>`
      : nothing}
    ${s.actError && mine ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}
    ${busy && mine ? html`<p class="muted sending" role="status">Sending…</p>` : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Tableau

/** Words for a cell's neighbours, e.g. "below The Sailor, right of the Ace of Moons". */
function neighbourWords(v: AuctView, r: number, c: number): string {
  const at = (rr: number, cc: number) => v.board.cards[rr]?.[cc] ?? null;
  const parts: string[] = [];
  const up = at(r - 1, c);
  const down = at(r + 1, c);
  const left = at(r, c - 1);
  const right = at(r, c + 1);
  if (up) parts.push(`below ${cardOf(up).name}`);
  if (down) parts.push(`above ${cardOf(down).name}`);
  if (left) parts.push(`right of ${cardOf(left).name}`);
  if (right) parts.push(`left of ${cardOf(right).name}`);
  return parts.join(", ");
}

function highlighted(): Suit | null {
  return hl.hover ?? hl.pinned;
}

function tableauPanel(s: Store, room: RoomView, v: AuctView, mine: boolean, buys: Map<string, Map<string, string[]>>): TemplateResult {
  const b = v.board;
  const chosen = sel.card;
  const legalCells = chosen ? buys.get(chosen) ?? new Map<string, string[]>() : new Map<string, string[]>();
  const previewOffer = !chosen && sel.preview ? offerOf(v, sel.preview) : undefined;
  const preview = new Set((previewOffer?.cells ?? []).map(cellKey));
  const suit = highlighted();
  const chain = suit ? v.score.chains.find((c) => c.suit === suit) : undefined;
  // A one-card chain is a chain too (a lone Ace or Crown earns its bonus): it is outlined as well.
  const step = new Map((chain ? chain.cells : []).map((c, i) => [cellKey(c), i + 1]));
  const busy = s.busy;
  const cells: TemplateResult[] = [];
  for (let r = 0; r < b.rows; r++) {
    for (let c = 0; c < b.cols; c++) {
      const row = b.top + r;
      const col = b.left + c;
      const key = cellKey({ row, col });
      const id = b.cards[r]?.[c] ?? null;
      const pos = `row ${r + 1}, column ${c + 1}`;
      if (id) {
        const n = step.get(key);
        cells.push(html`<div class="auct-cell has-card ${n ? `in-chain chain-${suit!.toLowerCase()}` : ""}" data-row=${row} data-col=${col} data-testid="tableau-card">
          <span class="sr-only">${pos}${n ? `, card ${n} of the ${suit} chain` : ""}:</span>${cardFace(id, { size: "md", extraClass: "auct-card" })}
          ${n ? html`<span class="auct-step" aria-hidden="true">${n}</span>` : nothing}</div>`);
      } else if (mine && chosen && legalCells.has(key)) {
        const pays = legalCells.get(key)!;
        const picked = sel.cell && cellKey(sel.cell) === key;
        const near = neighbourWords(v, r, c);
        cells.push(html`<button type="button" class="auct-cell legal ${picked ? "picked" : ""}" data-testid="cell" data-row=${row} data-col=${col} ?disabled=${busy}
          aria-pressed=${picked ? "true" : "false"}
          aria-label=${`Place here: ${cardOf(chosen).name} at ${pos}${near ? `, ${near}` : ""}`}
          @click=${(e: MouseEvent) => {
            if (pays.length === 1) {
              act(s, room, { type: "buy", card: chosen, row, col, pay: pays[0] }, e.detail === 0);
              return;
            }
            sel.cell = { row, col };
            s.changed();
            if (e.detail === 0) focusSoon('[data-testid="pay-choice"]');
          }}><span class="auct-plus" aria-hidden="true">+</span><span class="auct-cell-hint" aria-hidden="true">Place here</span></button>`);
      } else {
        cells.push(html`<div class="auct-cell empty ${preview.has(key) ? "preview" : ""}" data-row=${row} data-col=${col} aria-hidden="true"></div>`);
      }
    }
  }
  const offer = offerOf(v, chosen);
  const pays = chosen && sel.cell ? legalCells.get(cellKey(sel.cell)) ?? [] : [];
  return html`<section class="panel auct-tableau" aria-labelledby="tableau-h">
    <header class="panel-head">
      <h2 id="tableau-h">Tableau</h2>
      <span class="muted small">${v.tableau.length} of 16 cards · never more than 4 wide or 4 tall · Aces and Crowns never side by side${v.extended ? ", nor Pawns and Courts" : ""}</span>
    </header>
    ${mine && chosen && offer
      ? html`<div class="auct-placing" role="group" aria-label="Placing a card" data-testid="placing">
          ${cardChip(chosen)}
          ${sel.cell && pays.length > 1
            ? html`<span>Pay ${chipsWord(offer.cost ?? 0)} of one suit:</span>
                ${pays.map((p) => html`<button type="button" class="btn small primary" data-testid="pay-choice" data-pay=${p} ?disabled=${busy}
                  @click=${(e: MouseEvent) => act(s, room, { type: "buy", card: chosen, row: sel.cell!.row, col: sel.cell!.col, pay: p }, e.detail === 0)}>
                  ${suitIcon(p as Suit)} ${chipsWord(offer.cost ?? 0)} of ${p} <span class="btn-sub">(${v.chips[p as Suit]} left)</span></button>`)}`
            : html`<span>${legalCells.size === 1 ? "Choose the lit cell to place it." : `Choose one of the ${legalCells.size} lit cells to place it.`}</span>`}
          <button type="button" class="btn small ghost" data-testid="cancel-choice" @click=${() => {
            sel.card = null;
            sel.cell = null;
            s.changed();
          }}>Cancel</button>
        </div>`
      : nothing}
    <div class="auct-grid ${step.size ? "highlighting" : ""} ${chosen && mine ? "choosing" : ""}" style=${`--rows:${b.rows};--cols:${b.cols}`}
      role="group" aria-label=${`Tableau, ${b.rows} rows by ${b.cols} columns`} data-testid="tableau" data-rows=${b.rows} data-cols=${b.cols}>
      ${cells}
    </div>
    ${chain
      ? html`<p class="auct-chain-caption" data-testid="chain-caption">${suitIcon(chain.suit)} <b>${chain.suit}</b>: ${chainWords(chain, rulesOf(v.score))}</p>`
      : html`<p class="muted small auct-chain-caption">Tap, hover over or focus a suit in the score to see its chain here.</p>`}
  </section>`;
}

/** The scoring rules of a breakdown: 2 (as printed) names itself; a breakdown without them is from a game scored by rules 1. */
const rulesOf = (sc: ScoreBreakdown): ScoringRules => sc.scoring ?? 1;
const rankOf = (id: string | undefined) => (id === undefined ? undefined : cardOf(id).rank);

/**
 * Whose bonus a chain earned, or null: "Ace +1", "Crown +2", "Ace and Crown +4"; in full, an Ace
 * behind a Pawn or Court is "Ace after the Pawn". The Ace bonus is the Ace's: the first card, or
 * the second right after a Pawn or Court. Under rules 1 (games scored before the change) a Pawn
 * or Court first earned it without an Ace: "Pawn first +1".
 */
function bonusWords(c: Chain, full: boolean): string | null {
  if (!c.ace && !c.crown) return null;
  const first = rankOf(c.cards[0]);
  const ace = first === "Ace" ? "Ace" : rankOf(c.cards[1]) === "Ace" ? (full ? `Ace after the ${first}` : "Ace") : `${first} first`;
  return c.ace && c.crown ? `${ace}${full ? " and " : "+"}Crown +4` : c.crown ? "Crown +2" : `${ace} +1`;
}

function chainWords(c: Chain, rules: ScoringRules): string {
  if (c.length === 0) return "no card of this suit on the tableau (−5 VP).";
  const names = c.cards.map((id) => cardOf(id).name).join(" → ");
  const bonus = bonusWords(c, true);
  const first = rankOf(c.cards[0]);
  const head = c.length === 1 ? `${names} alone: a one-card chain` : `${names}: ${c.length} cards`;
  let note = "";
  if (rules === 1) {
    if (c.length === 1 && (first === "Ace" || first === "Crown")) note = " (Scored before a lone Ace or Crown earned its bonus.)";
    else if (c.ace && rankOf(c.cards[1]) !== "Ace" && first !== "Ace") note = ` (Scored before a ${first} needed an Ace after it for the Ace bonus.)`;
  } else if ((first === "Pawn" || first === "Court") && !c.ace) {
    note = ` No Ace bonus: a ${first} earns none without an Ace right after it.`;
  }
  return `${head}, ${signed(c.base)}${bonus ? `, ${bonus}` : ""} = ${signed(c.vp)} VP.${note}`;
}

// ---------------------------------------------------------------------------------------------
// Score

function pips(left: number): TemplateResult {
  return html`<span class="auct-pips" aria-hidden="true">${Array.from({ length: STARTING_CHIPS }, (_, i) => html`<span class="pip ${i < left ? "on" : ""}"></span>`)}</span>`;
}

function chainMarks(c: Chain): TemplateResult {
  if (c.length === 0) return html`<span class="muted">none</span>`;
  const marks = c.cards.map((id) => rankMark(cardOf(id))).join("→");
  const bonus = bonusWords(c, false);
  return html`<span class="auct-chain-marks">${marks}</span>${c.length === 1 ? html` <span class="muted small">(1 card)</span>` : nothing}
    ${bonus ? html`<span class="auct-bonus" data-testid="chain-bonus">${bonus}</span>` : nothing}`;
}

function suitButton(s: Store, su: Suit): TemplateResult {
  const on = highlighted() === su;
  return html`<button type="button" class="auct-suit-btn ${on ? "on" : ""}" aria-pressed=${hl.pinned === su ? "true" : "false"}
    aria-label=${`${su}: show its chain on the tableau`}
    @mouseenter=${() => { hl.hover = su; s.changed(); }}
    @mouseleave=${() => { hl.hover = null; s.changed(); }}
    @focus=${() => { hl.hover = su; s.changed(); }}
    @blur=${() => { hl.hover = null; s.changed(); }}
    @click=${() => { hl.pinned = hl.pinned === su ? null : su; s.changed(); }}>${suitIcon(su)}<span>${su}</span></button>`;
}

/** The per-suit table (chips, best chain, VP) and the penalties; live during play, final at the end. */
function scorePanel(s: Store, sc: ScoreBreakdown, v: AuctView, final: boolean): TemplateResult {
  const penaltyOf = new Map(sc.chipPenalties.map((p) => [p.suit, p]));
  const toWin = 40 - sc.total;
  return html`<section class="panel auct-score" aria-labelledby=${final ? "final-score-h" : "score-h"} data-testid=${final ? "final-breakdown" : "score-panel"}>
    <header class="panel-head">
      <h2 id=${final ? "final-score-h" : "score-h"}>${final ? "Score breakdown" : "Live score"}</h2>
      <span class="auct-total ${sc.total < 0 ? "neg" : ""}" data-testid=${final ? "final-total" : "live-total"}>${scoreText(sc.total)} VP</span>
      ${sc.verdict
        ? html`<span class="badge auct-verdict ${sc.verdict === "commanding win" ? "commanding" : "win"}">${sc.verdict === "commanding win" ? "Commanding win" : "Win"}</span>`
        : final ? nothing : html`<span class="muted small">${toWin} more to win</span>`}
    </header>
    ${final ? nothing : html`<p class="muted small auct-score-hint">40 VP wins, 50 is a commanding win. Empty spaces count −5 each until filled. A chain's Ace earns +1 (first, or right after a Pawn or Court), a Crown at its end +2, both +4, even a chain of one card. Hover, focus or tap a suit to see its chain.</p>`}
    ${rulesOf(sc) === 1
      ? html`<p class="muted small" data-testid="old-scoring">Scored by the rules in force when this game ended, before 24 November 2026: a chain starting with a Pawn or Court took the Ace bonus without an Ace, and a one-card chain took no bonus. The score stays as recorded.</p>`
      : nothing}
    ${scrollTable("Score by suit", html`<table class="auct-suits">
      <thead><tr><th scope="col">Suit</th><th scope="col">Chips</th><th scope="col">Best chain</th><th scope="col" class="num">VP</th></tr></thead>
      <tbody>
        ${SUITS.map((su) => {
          const c = sc.chains.find((x) => x.suit === su)!;
          const left = v.chips[su];
          const used = v.chipsUsed[su];
          const pen = penaltyOf.get(su);
          return html`<tr data-testid="suit-row" data-suit=${su} class=${highlighted() === su ? "on" : ""}>
            <th scope="row">${suitButton(s, su)}</th>
            <td class="auct-chips-cell" data-testid="chips" data-left=${left} data-used=${used}>${pips(left)}
              <span class="auct-chip-words">${left} left · ${used} used</span>
              ${pen ? html`<span class="auct-pen" title=${pen.reason === "out" ? "No chips of this suit left" : "None of this suit's chips used"}>${pen.reason === "out" ? "none left" : "none used"} ${signed(pen.vp)}</span>` : nothing}</td>
            <td>${chainMarks(c)}</td>
            <td class="num"><b>${signed(c.vp)}</b>${c.bonus ? html`<span class="muted small"> (${scoreText(c.base)}${signed(c.bonus)})</span>` : nothing}</td>
          </tr>`;
        })}
      </tbody>
      <tfoot>
        <tr><th scope="row" colspan="3">Chains</th><td class="num">${signed(sc.chainVp)}</td></tr>
        <tr><th scope="row" colspan="3">Chips: suits with none left or none used, −5 each${sc.chipPenalties.length ? ` (${sc.chipPenalties.map((p) => p.suit).join(", ")})` : ""}</th><td class="num">${signed(sc.chipVp)}</td></tr>
        <tr><th scope="row" colspan="3">Empty spaces: ${sc.emptySpaces} × −5</th><td class="num">${signed(sc.emptyVp)}</td></tr>
        <tr><th scope="row" colspan="3">Market discards: ${sc.marketDiscards} × −3</th><td class="num">${signed(sc.discardVp)}</td></tr>
        <tr class="auct-total-row"><th scope="row" colspan="3">Total</th><td class="num"><b>${scoreText(sc.total)}</b></td></tr>
      </tfoot>
    </table>`)}
  </section>`;
}

function deckPanel(v: AuctView): TemplateResult {
  return html`<section class="panel decks auct-decks" aria-labelledby="auct-decks-h">
    <h2 id="auct-decks-h" class="panel-title">Deck</h2>
    <dl class="deck-counts">
      <div><dt>Deck</dt><dd data-testid="deck-count">${v.deckCount} card${v.deckCount === 1 ? "" : "s"}</dd></div>
      <div><dt>Out of the game</dt><dd>${v.discard.length} card${v.discard.length === 1 ? "" : "s"}</dd></div>
      <div><dt>Market discards</dt><dd data-testid="market-discards">${v.marketDiscards} (${signed(-3 * v.marketDiscards)} VP)</dd></div>
    </dl>
    ${v.discard.length
      ? html`<details class="auct-out"><summary class="mini-title">Cards out of the game</summary><div class="chips">${v.discard.map((id) => cardChip(id))}</div></details>`
      : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// End

interface PlaceInfo {
  state: "loading" | "done" | "missing" | "error";
  place?: number;
  of?: number;
  tries: number;
}
const places = new Map<string, PlaceInfo>();

function fetchPlace(s: Store, room: RoomView, day: string, p: PlaceInfo): void {
  p.tries++;
  loadBoard(s, room.game, day, 1000)
    .then((entries) => {
      const found = entries.find((e) => e.roomId === room.roomId);
      if (found) {
        p.state = "done";
        p.place = found.place;
        p.of = entries.length;
      } else if (p.tries < 6) {
        setTimeout(() => fetchPlace(s, room, day, p), 1000);
      } else {
        p.state = "missing";
      }
    })
    .catch(() => (p.state = "error"))
    .finally(() => s.changed());
}

/** The attempt's place on its day's board, once the server has recorded it (ratingChanges set). */
function boardPlace(s: Store, room: RoomView): PlaceInfo | null {
  if (!room.daily || !room.ranked || room.ratingChanges === null) return null;
  let p = places.get(room.roomId);
  if (!p) {
    p = { state: "loading", tries: 0 };
    places.set(room.roomId, p);
    fetchPlace(s, room, room.daily, p);
  }
  return p;
}

function placeLine(s: Store, room: RoomView): TemplateResult {
  if (!room.daily || !room.ranked) {
    return room.daily ? html`<p class="muted">An unrated game of the ${room.daily} deal: it does not count on the boards.</p>` : html``;
  }
  const who = room.seat === 0 ? "You" : seatName(room, 0);
  const p = boardPlace(s, room);
  if (!p || p.state === "loading") {
    return html`<p class="muted" data-testid="daily-place" data-state="loading" aria-busy="true">Recording the attempt on the ${room.daily} board…</p>`;
  }
  if (p.state === "done") {
    return html`<p class="auct-place" data-testid="daily-place" data-state="done" data-place=${p.place}>${who} placed <b>${ordinal(p.place!)}</b> of ${p.of} on the daily board of ${room.daily}.
      <a href="/" data-nav>See the board</a></p>`;
  }
  return html`<p class="muted" data-testid="daily-place" data-state=${p.state}>The daily board could not be loaded here; see it in the lobby.</p>`;
}

function auctEnd(s: Store, room: RoomView, v: AuctView): TemplateResult {
  const sc = v.score;
  const mine = room.seat === 0;
  const who = mine ? "You" : seatName(room, 0);
  const headline =
    sc.verdict === "commanding win" ? `${mine ? "A commanding win" : `${who}: a commanding win`}!` : sc.verdict === "win" ? `${mine ? "You win" : `${who} wins`}!` : "Not a win this time";
  const reason = v.ended === "tableau-full" ? "The tableau is full." : v.ended === "market-empty" ? "The market ran out of cards." : "";
  const seedOpen = !!room.seed;
  return html`<section class="panel end auct-end" data-testid="end-screen" aria-labelledby="end-h">
    <div class="end-head">
      <h2 id="end-h">Game over · ${headline}</h2>
      <p class="end-you">${reason} ${mine ? "Your" : `${who}'s`} final score: <b class="big-score" data-testid="final-score">${scoreText(sc.total)}</b> VP
        <span class="muted">(40 wins, 50 is a commanding win)</span></p>
      ${placeLine(s, room)}
    </div>
    ${scorePanel(s, sc, v, true)}
    <details class="fair" ?open=${seedOpen}>
      <summary>Fair dealing${room.daily && !seedOpen ? ": the seed is revealed when the day is over" : ": the revealed seed"}</summary>
      <dl>
        <dt>Seed</dt><dd>${seedOpen
          ? html`<code data-testid="seed">${room.seed}</code>`
          : html`<span class="muted" data-testid="seed-hidden">Secret until the ${room.daily} deal closes at 00:00 UTC: others still have to play it.</span>`}</dd>
        <dt>Commitment (SHA-256 of the seed, sent at the start${room.daily ? ", the same for everyone's game of the day" : ""})</dt><dd><code>${room.commitment}</code></dd>
      </dl>
      ${seedOpen ? seedCheck(s, room) : nothing}
      ${seedOpen ? checkYourself(room) : nothing}
    </details>
    ${s.route.page !== "replay" ? rematchPanel(s, room) : nothing}
    <p><a class="btn primary" href="/" data-nav>Back to the lobby</a>
      ${seedOpen && s.route.page !== "replay" ? html`<a class="btn" href=${`/game/${room.roomId}`} data-nav data-testid="replay-link">Replay</a>` : nothing}</p>
  </section>`;
}

/** Aucteraden's table code for the registry (games.ts): this module is its own chunk. */
export const aucteradenTable: GameTable = {
  table: auctTable,
  status: auctStatus,
  logSentence: (e, ctx) => auctLogSentence(e, ctx.name(0)),
  hiddenRows: (h) => html`<dt>Deck, top first</dt><dd>${cardChips((h as { deck: string[] }).deck, cardChip)}</dd>`,
};
