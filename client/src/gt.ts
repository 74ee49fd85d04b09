/**
 * The Goblin Teeth table. Rendered from the server's view and legal actions only: the client
 * holds no rules. Every control is built from the `legal` templates (each instance legal): a die
 * is placed by choosing one of your dice, then one of the places the templates list for it; a
 * Cheat card (and Poisoner, Share the Load's and Quick Fingers' choices) by choosing its values
 * one step at a time, each step offering only the values some template still allows after the
 * earlier ones, so whatever is chosen is legal. What a seat may know (its hand, the face-down
 * Item it has seen, cards it knows in other hands) is the engine's view. A place or a card the
 * templates leave out is said to be unavailable, with the reason read from that view (gt-reasons.ts).
 */
import { html, nothing, type TemplateResult } from "lit-html";
import {
  cardBack,
  cardChip,
  cardFace,
  cardInfo,
  cardWords,
  dieFace,
  faceChip,
  faceDownCard,
  faceWords,
  itemFaceCard,
  needChip,
  teethWord,
  type ItemFace,
  type Need,
} from "./gt-cards.js";
import { gtLogSentence, offeringWords, potHistory } from "./gt-log.js";
import { bidBlockedReason, cardBlockedReason, playMode } from "./gt-reasons.js";
import type { Store } from "./store.js";
import { cardChips, decisionLayout, endScreen, forfeitOf, isAway, logPanel, refocusAfterMove, resultSeat, seatClock, seatName } from "./table-common.js";
import { winnersSentence } from "../../src/protocol/words.js";
import type { GameTable } from "./games.js";
import type { LegalAction, LogEntry, RoomView } from "./types.js";
import { cardsWord, initials, ordinal } from "./words.js";

/** The engine's own view type (type-only import: no server code enters the bundle). */
export type GTView = ReturnType<typeof import("../../src/games/goblin-teeth/view.js").view>;
type SeatView = GTView["seats"][number];
type PotView = GTView["pot"][number];
type DieView = GTView["dice"][number];
type HandCard = NonNullable<GTView["mine"]>["hand"][number];
type Pending = NonNullable<GTView["pending"]>;
type OfferingView = GTView["offerings"][number];
type Val = string | number;

const PLACE_TYPES = ["place", "altar", "altar-draw", "altar-clear"];

// ---------------------------------------------------------------------------------------------
// Selection: the die being placed, or the action being composed (reset whenever the room moves on).

interface Pick {
  type: string;
  /** The Cheat card being played (type "cheat"). */
  card: string | null;
  chosen: Record<string, Val>;
  /** Parameters filled in because only one value was possible. */
  auto: Set<string>;
}

const sel = { key: "", die: null as number | null, pick: null as Pick | null };
let escapeStore: Store | null = null;

function resetSelection(room: RoomView): void {
  const key = `${room.roomId}:${room.version}`;
  if (sel.key !== key) {
    sel.key = key;
    sel.die = null;
    sel.pick = null;
  }
}

function cancel(s: Store): boolean {
  if (!sel.pick && sel.die === null) return false;
  sel.pick = null;
  sel.die = null;
  s.changed();
  return true;
}

function installEscape(s: Store): void {
  if (escapeStore) {
    escapeStore = s;
    return;
  }
  escapeStore = s;
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !escapeStore || !document.querySelector(".gt-table")) return;
    if (cancel(escapeStore)) {
      e.preventDefault();
      focusSoon('[data-testid="gt-die-choice"]:not([disabled]), [data-testid="gt-play"]:not([disabled]), [data-testid="gt-decision"]:not([disabled])');
    }
  });
}

/** Move focus to the first control matching `selector` once the next render is on screen. */
function focusSoon(selector: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}

function act(s: Store, room: RoomView, action: Record<string, unknown> & { type: string }, keyboard = false): void {
  sel.die = null;
  sel.pick = null;
  // The controls just used go away: once the move lands, put focus on the next controls (if this
  // seat still has some), unless focus went somewhere on purpose meanwhile.
  if (keyboard) refocusAfterMove(s, room.roomId, room.version, '[data-testid="act-panel"] button:not([disabled])');
  void s.act(room.roomId, action);
}

// ---------------------------------------------------------------------------------------------
// Legal templates

function optionsOf(l: LegalAction, param: string): Val[] {
  const spec = l.params?.[param];
  return spec && spec.kind === "choice" ? spec.options : [];
}

function legalOf(room: RoomView, type: string): LegalAction[] {
  return room.legal.filter((l) => l.type === type);
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/** The templates of a pick (a cheat's: only those for its card). */
function templatesOf(room: RoomView, pick: Pick): LegalAction[] {
  return legalOf(room, pick.type).filter((l) => pick.card === null || optionsOf(l, "card").includes(pick.card));
}

/** The pick's parameters in the templates' order (a cheat's card is chosen first, apart). */
function paramOrder(ts: LegalAction[]): string[] {
  return ts[0] ? Object.keys(ts[0].params ?? {}).filter((k) => k !== "card") : [];
}

/** Templates that allow every value chosen so far. */
function consistent(ts: LegalAction[], chosen: Record<string, Val>): LegalAction[] {
  return ts.filter((l) => Object.entries(chosen).every(([k, v]) => optionsOf(l, k).includes(v)));
}

/** The next parameter to choose and its values; values with a single possibility are filled in. */
function nextStep(room: RoomView, pick: Pick): { param: string; options: Val[] } | null {
  const ts = templatesOf(room, pick);
  const order = paramOrder(ts);
  for (;;) {
    const param = order.find((p) => !(p in pick.chosen));
    if (param === undefined) return null;
    const options = uniq(consistent(ts, pick.chosen).flatMap((l) => optionsOf(l, param)));
    if (options.length === 1) {
      pick.chosen[param] = options[0]!;
      pick.auto.add(param);
      continue;
    }
    return { param, options };
  }
}

/** Cheat cards some `cheat` template lets you play now. */
function playableCards(room: RoomView): string[] {
  return uniq(legalOf(room, "cheat").flatMap((l) => optionsOf(l, "card").map(String)));
}

function startPick(s: Store, type: string, card: string | null, keyboard: boolean): void {
  sel.pick = { type, card, chosen: {}, auto: new Set() };
  sel.die = null;
  s.changed();
  if (keyboard) focusSoon('[data-testid="gt-composer"] [data-testid="gt-option"], [data-testid="gt-composer"] [data-testid="gt-confirm"]');
  else setTimeout(() => document.querySelector('[data-testid="act-panel"]')?.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0);
}

// ---------------------------------------------------------------------------------------------
// Words

function you(room: RoomView, seat: number): string {
  return room.seat === seat ? "you" : seatName(room, seat);
}

function possessive(room: RoomView, seat: number): string {
  return room.seat === seat ? "your" : `${seatName(room, seat)}'s`;
}

/** The Pot slot in words: "the face-down Item", "the Goblin Tooth (2 teeth)" (numbered if two look alike). */
function slotName(v: GTView, slot: number): string {
  const p = v.pot[slot];
  if (!p) return `Item ${slot + 1}`;
  if (p.faceDown) return p.item ? `the face-down Item (${faceWords(p.item)})` : "the face-down Item";
  const same = v.pot.filter((q) => !q.faceDown && q.item && p.item && faceWords(q.item) === faceWords(p.item)).length;
  return `the ${p.item ? faceWords(p.item) : "Item"}${same > 1 ? ` (Pot slot ${slot + 1})` : ""}`;
}

function whereWords(v: GTView, d: DieView): string {
  if (d.at === "supply") return "unplayed";
  if (d.at === "altar") return "on the Altar";
  return `on ${slotName(v, d.at)}`;
}

function dieWords(room: RoomView, v: GTView, id: number): string {
  const d = v.dice[id];
  if (!d) return `die ${id}`;
  return `${possessive(room, d.owner)} ${d.value}, ${whereWords(v, d)}`;
}

/** A die on the table (one per die: in a tray, the Altar or a Pot slot). */
function boardDie(room: RoomView, d: DieView): TemplateResult {
  const label = `${possessive(room, d.owner).replace(/^your/, "Your")} die showing ${d.value}`;
  return html`<span class="gt-die" data-testid="gt-die" data-die=${d.id} data-value=${d.value} data-at=${String(d.at)} role="img" aria-label=${label} title=${label}>${dieFace(d.value, d.owner)}</span>`;
}

const PENDING_NAME: Record<string, string> = {
  "fresh-start": "Fresh Start",
  blessed: "Blessed",
  clumsy: "Clumsy",
  "help-draw": "Let Me Help",
  share: "Share the Load",
  "quick-fingers": "Quick Fingers",
  preview: "Sneak Preview",
  patient: "Patient",
};

/** One line that says who must act and what (also read out by the live region). */
export function gtStatus(room: RoomView): string {
  const v = room.view as GTView;
  if (room.status === "finished" || v.phase === "over") return "The game is over.";
  const me = room.seat;
  const p = v.pending;
  if (p) {
    const mine = p.seat === me;
    const name = seatName(room, p.seat);
    switch (p.kind) {
      case "fresh-start":
        return mine ? "Fresh Start: reroll all three of your dice, or keep this roll?" : `Waiting for ${name} to decide whether to reroll with Fresh Start.`;
      case "blessed":
        return mine ? `Blessed: your die shows 1 (${whereWords(v, v.dice[p.die ?? 0]!)}). Reroll it, or keep it?` : `Waiting for ${name}: Blessed lets them reroll a 1.`;
      case "clumsy":
        return mine ? `Clumsy: you may reroll another die on ${slotName(v, p.slot ?? 0)}.` : `Waiting for ${name} to decide on a Clumsy reroll.`;
      case "help-draw":
        return mine ? "Your die was moved with Let Me Help: you may draw a Cheat card." : `Waiting for ${name} to decide whether to draw a Cheat card (Let Me Help).`;
      case "share":
        return mine
          ? `Share the Load: choose the card to put back on top of the Cheat deck and the card to give to ${seatName(room, (p.seat + 1) % v.players)}${(v.mine?.pending?.cards.length ?? 3) > 2 ? "; you keep the third" : " (only two were drawn: you keep none)"}.`
          : `Waiting for ${name} to share out the cards drawn with Share the Load.`;
      case "quick-fingers":
        return mine ? "Quick Fingers: discard a card to raise one die by 1 and reduce one die by 1, as often as you like; then stop." : `Waiting for ${name}, who is discarding cards with Quick Fingers.`;
      case "preview":
        return mine ? "Sneak Preview: play an Action card from your hand; it comes back to your hand afterwards." : `Waiting for ${name} to play an Action card through Sneak Preview.`;
      case "patient":
        return mine ? "All dice are placed. Patient: you may play one Cheat card before the Items are awarded." : `All dice are placed: waiting for ${name}, who may play a card with Patient.`;
    }
  }
  if (v.phase === "turn" && v.turn !== null) {
    if (v.turn === me) {
      return v.turnState.passed
        ? "Your turn: you played Pass, so you may end your turn without placing a die (or play more cards, or place one)."
        : "Your turn: play Cheat cards if you like, then place one die on an Item or on the Altar.";
    }
    return `${seatName(room, v.turn)}'s turn: playing Cheat cards and placing a die.`;
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// The table

export function gtTable(s: Store, room: RoomView): TemplateResult {
  const v = room.view as GTView;
  resetSelection(room);
  installEscape(s);
  const finished = room.status === "finished" || v.phase === "over";
  const mine = !finished && room.legal.length > 0;
  if (!mine) {
    sel.pick = null;
    sel.die = null;
  }
  const log = room.log.filter((e) => !(e.type === "move" && (e.reason === "bid" || e.reason === "altar")));
  const pots = potHistory(room.log);
  const logCtx = { name: (seat: number) => seatName(room, seat), you: room.seat, owner: (die: number) => v.dice[die]?.owner ?? Math.floor(die / 3), away: (seat: number) => forfeitOf(room, seat) };
  return html`
    ${finished ? endScreen(s, room, endExtra(v), "Game over", false) : nothing}
    ${finished ? revealPanel(room, v) : nothing}
    <div class="table-grid gt-table ${finished ? "is-finished" : ""}" data-testid="gt-table" data-phase=${v.phase} data-round=${v.round}>
      <div class="col-main">
        ${finished ? nothing : statusBar(room, v, mine)}
        ${mine ? actPanel(s, room, v) : nothing}
        ${finished ? nothing : potPanel(room, v)}
        ${finished ? nothing : handPanel(s, room, v, mine)}
        ${seatsPanel(s, room, v, finished)}
      </div>
      <aside class="col-side" aria-label="Table information">
        ${offeringsPanel(room, v, finished)}
        ${finished ? nothing : awardsPanel(room, v)}
        ${logPanel({ ...room, log }, (e: LogEntry) => gtLogSentence(e, logCtx, pots))}
        ${pilesPanel(v)}
      </aside>
    </div>`;
}

function statusBar(room: RoomView, v: GTView, mine: boolean): TemplateResult {
  const waiting = v.pending ? v.pending.seat : v.turn;
  return html`<div class="status-bar ${mine ? "my-turn" : ""}" data-testid="status" data-waiting=${waiting ?? nothing}>
    ${mine ? html`<span class="pulse" aria-hidden="true"></span>` : nothing}<span>${gtStatus(room)}</span>
    <span class="status-meta">Round ${v.round} · first player ${seatName(room, v.firstPlayer)}</span>
  </div>`;
}

// ---------------------------------------------------------------------------------------------
// Controls

function decisionButton(s: Store, room: RoomView, l: LegalAction, text: string, primary = false): TemplateResult {
  return html`<button type="button" class="btn ${primary ? "primary" : ""}" data-testid="gt-decision" data-type=${l.type} ?disabled=${s.busy}
    @click=${(e: MouseEvent) => act(s, room, { type: l.type }, e.detail === 0)}>${text}</button>`;
}

function actPanel(s: Store, room: RoomView, v: GTView): TemplateResult {
  const p = v.pending && v.pending.seat === room.seat ? v.pending : null;
  const kind = p ? p.kind : "turn";
  const busy = s.busy;
  let body: TemplateResult;
  if (sel.pick) body = composer(s, room, v, sel.pick, p);
  else if (!p) body = turnControls(s, room, v);
  else body = decisionControls(s, room, v, p);
  return html`<section class="panel act gt-act" data-testid="act-panel" data-pending=${kind} aria-busy=${busy ? "true" : "false"} aria-labelledby="gt-act-h">
    <h2 id="gt-act-h">${p ? PENDING_NAME[p.kind] ?? "Your decision" : "Your turn"}</h2>
    ${decisionLayout(handSummary(room, v), body)}
    ${s.actError ? html`<p class="act-error" role="alert">${s.actError}</p>` : nothing}
    ${busy ? html`<p class="muted sending" role="status">Sending…</p>` : nothing}
  </section>`;
}

/**
 * Beside the controls: your hand as chips and how far it goes towards each Offering (the full
 * cards are in Your hand, the needs in Offerings; both further down or aside).
 */
function handSummary(room: RoomView, v: GTView): TemplateResult {
  const m = v.mine;
  if (room.seat === null || !m) return html``;
  const progress = myProgress(v);
  const own = v.seats[room.seat]?.offerings ?? [];
  const items = m.hand.filter((c) => c.kind === "item");
  const cheats = m.hand.filter((c) => c.kind === "cheat");
  return html`<div class="decide-hand" data-testid="decide-hand"><span class="decide-label">Your hand</span>
      <span class="chips">${m.hand.length ? [...items, ...cheats].map((c) => cardChip(c.card)) : html`<span class="muted">no cards</span>`}</span></div>
    <div class="decide-offerings"><span class="decide-label" id="decide-off-l">Offerings</span>
    <ul class="decide-progress-list" aria-labelledby="decide-off-l">
      ${[...v.offerings, ...own].map((o) => {
        const met = progress?.find((p) => p.offering === o.id) ?? null;
        const text = met ? (met.complete ? "complete ✓" : `${met.covered.filter(Boolean).length} of ${met.covered.length}`) : "";
        return html`<li class="decide-progress ${met?.complete ? "done" : ""}" data-testid="decide-progress" data-progress=${text}>
          <span>${o.group === "six" ? "6-Item" : `Offering ${o.id}`}</span> <b>${text || "—"}</b></li>`;
      })}
    </ul></div>`;
}

function turnControls(s: Store, room: RoomView, v: GTView): TemplateResult {
  const busy = s.busy;
  const places = room.legal.filter((l) => PLACE_TYPES.includes(l.type));
  const dice = uniq(places.flatMap((l) => optionsOf(l, "die").map(Number)));
  if (sel.die !== null && !dice.includes(sel.die)) sel.die = null;
  const chosen = sel.die;
  const cheats = playableCards(room);
  const poison = legalOf(room, "poison")[0];
  const endTurn = legalOf(room, "end-turn")[0];
  return html`
    <div class="gt-step">
      <p class="gt-prompt" id="gt-die-prompt">${chosen === null ? "Place a die: choose one of your dice." : html`Place your <b>${v.dice[chosen]?.value}</b>: choose where.`}</p>
      <div class="gt-options gt-dice-choices" role="group" aria-labelledby="gt-die-prompt">
        ${dice.map((id) => {
          const d = v.dice[id]!;
          const on = chosen === id;
          return html`<button type="button" class="gt-die-btn ${on ? "on" : ""}" data-testid="gt-die-choice" data-die=${id} aria-pressed=${on ? "true" : "false"} ?disabled=${busy}
            aria-label=${`Your die showing ${d.value}${on ? " (chosen)" : ""}`}
            @click=${(e: MouseEvent) => {
              sel.die = on ? null : id;
              s.changed();
              if (!on && e.detail === 0) focusSoon('[data-testid="gt-dest"]');
            }}>${dieFace(d.value, d.owner)}<span class="gt-die-num" aria-hidden="true">${d.value}</span></button>`;
        })}
      </div>
      ${chosen !== null ? destinations(s, room, v, places, chosen) : nothing}
    </div>
    ${cheats.length || poison || endTurn
      ? html`<div class="gt-step gt-extra">
          ${cheats.length ? html`<p class="hint gt-cheat-hint">Or first play a Cheat card: ${cheats.length === 1 ? "one card in your hand can be played now" : `${cheats.length} cards in your hand can be played now`} (choose it under <a href="#gt-hand-h">Your hand</a>).</p>` : nothing}
          ${poison
            ? html`<button type="button" class="btn small" data-testid="gt-poison" ?disabled=${busy} @click=${(e: MouseEvent) => startPick(s, "poison", null, e.detail === 0)}>Poisoner: give a card, reduce a die by 2</button>`
            : nothing}
          ${endTurn ? decisionButton(s, room, endTurn, "End your turn without placing a die") : nothing}
        </div>`
      : nothing}`;
}

/** Every place the chosen die may go, as the templates list them. */
function destinations(s: Store, room: RoomView, v: GTView, places: LegalAction[], die: number): TemplateResult {
  const busy = s.busy;
  const value = v.dice[die]?.value ?? 0;
  const me = room.seat ?? 0;
  const buttons: TemplateResult[] = [];
  for (const l of places) {
    if (!optionsOf(l, "die").includes(die)) continue;
    if (l.type === "place") {
      for (const slot of optionsOf(l, "slot").map(Number)) {
        const now = v.pot[slot]?.bids[me] ?? 0;
        buttons.push(html`<button type="button" class="btn gt-dest" data-testid="gt-dest" data-type="place" data-slot=${slot} ?disabled=${busy}
          @click=${(e: MouseEvent) => act(s, room, { type: "place", die, slot }, e.detail === 0)}>
          Bid on ${slotName(v, slot)} <span class="gt-dest-note">your bid ${now > 0 ? `${now} → ` : ""}${now + value}</span></button>`);
      }
    } else if (l.type === "altar") {
      buttons.push(html`<button type="button" class="btn gt-dest" data-testid="gt-dest" data-type="altar" ?disabled=${busy}
        @click=${(e: MouseEvent) => act(s, room, { type: "altar", die }, e.detail === 0)}>Altar <span class="gt-dest-note">no Altar action</span></button>`);
    } else if (l.type === "altar-draw") {
      buttons.push(html`<button type="button" class="btn gt-dest" data-testid="gt-dest" data-type="altar-draw" ?disabled=${busy}
        @click=${(e: MouseEvent) => act(s, room, { type: "altar-draw", die }, e.detail === 0)}>Altar <span class="gt-dest-note">and draw a Cheat card</span></button>`);
    } else if (l.type === "altar-clear") {
      for (const target of optionsOf(l, "target").map(Number)) {
        const cards = v.seats[target]?.ongoing ?? [];
        buttons.push(html`<button type="button" class="btn gt-dest" data-testid="gt-dest" data-type="altar-clear" data-target=${target} ?disabled=${busy}
          @click=${(e: MouseEvent) => act(s, room, { type: "altar-clear", die, target }, e.detail === 0)}>Altar <span class="gt-dest-note">and discard ${possessive(room, target)} Ongoing cards (${cards.map((c) => cardInfo(c).name).join(", ")})</span></button>`);
      }
    }
  }
  const blocked = blockedSlots(room, v, die);
  return html`<div class="gt-options gt-dests" role="group" aria-label=${`Where to place your ${value}`}>${buttons}
    <button type="button" class="btn ghost small" data-testid="gt-cancel" @click=${() => cancel(s)}>Cancel <span class="muted small">(Esc)</span></button></div>
    ${blocked.size
      ? html`<p class="hint gt-dests-blocked">${[...blocked].map(([slot, why]) => html`<span data-testid="gt-dest-blocked" data-slot=${slot}>Your ${value} can't bid on ${slotName(v, slot)}: ${why}.</span> `)}</p>`
      : nothing}`;
}

/**
 * The Pot slots the chosen die may not bid on (the templates list none for it), each with why in
 * words ("it would tie Grub's 5").
 */
function blockedSlots(room: RoomView, v: GTView, die: number): Map<number, string> {
  const open = new Set<number>();
  for (const l of legalOf(room, "place")) if (optionsOf(l, "die").includes(die)) optionsOf(l, "slot").forEach((x) => open.add(Number(x)));
  const out = new Map<number, string>();
  for (const p of v.pot) {
    if (open.has(p.slot)) continue;
    out.set(p.slot, bidBlockedReason(v, room.seat ?? 0, die, p.slot, (seat) => seatName(room, seat)) ?? "not allowed now");
  }
  return out;
}

function decisionControls(s: Store, room: RoomView, v: GTView, p: Pending): TemplateResult {
  const busy = s.busy;
  const find = (type: string) => legalOf(room, type)[0];
  const decline = find("decline");
  switch (p.kind) {
    case "fresh-start": {
      const mineDice = v.dice.filter((d) => d.owner === room.seat);
      return html`<p class="gt-prompt">Fresh Start: your roll is ${mineDice.map((d) => html`<span class="gt-inline-die">${dieFace(d.value, d.owner)}</span>`)} (${mineDice.map((d) => d.value).join(", ")}). Reroll all three once, or keep them?</p>
        <div class="gt-options">${find("reroll") ? decisionButton(s, room, find("reroll")!, "Reroll all three", true) : nothing}${decline ? decisionButton(s, room, decline, "Keep this roll") : nothing}</div>`;
    }
    case "blessed":
      return html`<p class="gt-prompt">Blessed: your die ${p.die !== undefined && v.dice[p.die] ? html`<span class="gt-inline-die">${dieFace(1, v.dice[p.die]!.owner)}</span> (${whereWords(v, v.dice[p.die]!)})` : ""} shows 1. Reroll it?</p>
        <div class="gt-options">${find("reroll") ? decisionButton(s, room, find("reroll")!, "Reroll the 1", true) : nothing}${decline ? decisionButton(s, room, decline, "Keep the 1") : nothing}</div>`;
    case "clumsy": {
      const l = find("clumsy");
      return html`<p class="gt-prompt" id="gt-clumsy-prompt">Clumsy: a 1 or 2 of yours landed on ${slotName(v, p.slot ?? 0)}. You may reroll another die there:</p>
        <div class="gt-options" role="group" aria-labelledby="gt-clumsy-prompt">
          ${l ? optionsOf(l, "die").map((id) => optionButton(s, room, v, "die", id, () => act(s, room, { type: "clumsy", die: Number(id) }), "reroll")) : nothing}
          ${decline ? decisionButton(s, room, decline, "Don't reroll") : nothing}
        </div>`;
    }
    case "help-draw":
      return html`<p class="gt-prompt">One of your unplayed dice was moved onto an Item with Let Me Help. You may draw a Cheat card.</p>
        <div class="gt-options">${find("draw") ? decisionButton(s, room, find("draw")!, "Draw a Cheat card", true) : nothing}${decline ? decisionButton(s, room, decline, "Don't draw") : nothing}</div>`;
    case "share":
      return html`${(v.mine?.pending?.cards ?? []).length
          ? html`<p class="gt-prompt">You drew: <span class="chips">${(v.mine?.pending?.cards ?? []).map((c) => cardChip(c))}</span></p>`
          : nothing}
        <button type="button" class="btn primary" data-testid="gt-share" ?disabled=${busy} @click=${(e: MouseEvent) => startPick(s, "share", null, e.detail === 0)}>Choose what to return and what to give</button>`;
    case "quick-fingers": {
      const qf = find("quick-fingers");
      return html`<p class="gt-prompt">Quick Fingers: each card you discard raises one die by 1 pip, then reduces one die by 1 pip. Discarded Items are shuffled into the Item deck unseen.</p>
        <div class="gt-options">
          ${qf ? html`<button type="button" class="btn primary" data-testid="gt-qf" ?disabled=${busy} @click=${(e: MouseEvent) => startPick(s, "quick-fingers", null, e.detail === 0)}>Discard a card…</button>` : nothing}
          ${decline ? decisionButton(s, room, decline, "Stop discarding") : nothing}
        </div>`;
    }
    case "preview":
    case "patient": {
      const cheats = playableCards(room);
      return html`<p class="gt-prompt">${p.kind === "preview"
          ? "Sneak Preview: choose an Action card in your hand to play now; it returns to your hand afterwards."
          : "Patient: all dice are placed. You may play one Cheat card now, before the Items are awarded."}</p>
        <p class="hint">${cheats.length ? html`Playable now: ${cheats.map((c) => cardChip(c))}. Choose the card under <a href="#gt-hand-h">Your hand</a>.` : "No card can be played."}</p>
        ${decline ? html`<div class="gt-options">${decisionButton(s, room, decline, "Don't play a card")}</div>` : nothing}`;
    }
  }
  return html``;
}

// ---- composing an action with choices -------------------------------------------------------

const PROMPTS: Record<string, Record<string, string>> = {
  borrow: { raise: "Choose any die to raise by 1 pip.", reduce: "Then choose any die to reduce by 1 pip." },
  distraction: { die: "Choose another player's die to reroll until it shows a different number." },
  "second-chance": { die: "Choose one of your dice to reroll until it shows a different number." },
  exchange: { item: "Choose an Item from your hand to give up: it is shuffled into the Item deck and you draw the top Item." },
  switcheroo: { item: "Choose an Item from your hand to put face down in the Pot; you take the face-down Item." },
  "let-me-help": { die: "Choose another player's unplayed die.", slot: "Choose the Item to move it onto." },
  reposition: { die: "Choose a die on an Item.", slot: "Choose the Item to move it to." },
  "sleight-of-hand": { die: "Choose a die on the Altar.", slot: "Choose the Item to move it to." },
  pilfer: { take: "You draw a Cheat card. Choose an Ongoing card to take from in front of another player, or none." },
  refresh: { slot: "Choose an Item without dice to replace with the top of the Item deck." },
  revivify: { top: "Choose the card to put on top of the Cheat deck.", give: "Choose the card to give to the player on your left (you keep the third)." },
  "sneaky-sneaky": { die: "You peek at the face-down Item. Choose an unplayed die to set.", value: "Set it to 3 or 4." },
  swap: { die: "Choose an unplayed die.", other: "Choose another unplayed die to exchange values with." },
  "trade-places": { die: "Choose one of your played dice.", other: "Choose another player's played die to trade places with." },
  transposition: { die: "Choose one of your played dice.", other: "Choose another of your played dice to trade places with." },
  ongoing: { target: "Choose the player to put this card in front of (you may choose yourself)." },
  share: { top: "Choose the card to put back on top of the Cheat deck.", give: "Choose the card to give to the player on your left (you keep the third)." },
  "quick-fingers": { discard: "Choose a card from your hand to discard.", raise: "Choose a die to raise by 1 pip.", reduce: "Choose a die to reduce by 1 pip." },
  poison: { give: "Choose a card from your hand to give away face down.", die: "Choose another player's die to reduce by 2 pips (that player gets the card)." },
};

/**
 * Prompts where the card can't do all of its text now (said from the view's public counts; which
 * choices are legal is still the templates' business).
 */
const SHORT_PROMPTS: Record<string, (v: GTView) => Record<string, string> | null> = {
  exchange: (v) =>
    v.itemDeckCount === 0
      ? { item: "Choose an Item from your hand to discard. The Item deck is empty: you draw nothing (the Item goes into the Item deck, unseen)." }
      : null,
  refresh: (v) =>
    v.itemDeckCount === 0
      ? { slot: "Choose an Item without dice to discard. The Item deck is empty: nothing replaces it, and it leaves the Pot." }
      : null,
  "sneaky-sneaky": (v) => (v.pot.some((p) => p.faceDown) ? null : { die: "There is no face-down Item to peek at. Choose an unplayed die to set." }),
};

function stepPrompt(v: GTView, key: string, param: string): string {
  return SHORT_PROMPTS[key]?.(v)?.[param] ?? PROMPTS[key]?.[param] ?? `Choose ${PARAM_NAMES[param]?.toLowerCase() ?? param}.`;
}

const PARAM_NAMES: Record<string, string> = {
  die: "Die",
  other: "Other die",
  raise: "Raise",
  reduce: "Reduce",
  slot: "Item",
  target: "Player",
  item: "Item",
  take: "Take",
  top: "On the deck",
  give: "Give",
  discard: "Discard",
  value: "Value",
};

function pickKey(pick: Pick): string {
  if (pick.type !== "cheat" || !pick.card) return pick.type;
  const c = cardInfo(pick.card);
  return c.kind === "cheat" ? (c.type === "ongoing" ? "ongoing" : c.cheat) : pick.type;
}

/** A value of a parameter in words, with a picture. */
function valueView(room: RoomView, v: GTView, param: string, value: Val): { label: TemplateResult; words: string } {
  // "none": a step of the card that can't be done now (the only choice then).
  if (value === "none") {
    const words =
      param === "take" ? "nothing" : param === "give" ? "nobody: no card left to give" : param === "die" ? "no die: none is unplayed" : param === "value" ? "no value to set" : "none";
    return { label: html`<span>${param === "take" ? "Take nothing" : words[0]!.toUpperCase() + words.slice(1)}</span>`, words };
  }
  if (["die", "other", "raise", "reduce"].includes(param)) {
    const d = v.dice[Number(value)];
    if (!d) return { label: html`die ${value}`, words: `die ${value}` };
    const words = dieWords(room, v, d.id);
    return { label: html`<span class="gt-inline-die">${dieFace(d.value, d.owner)}</span><span>${words}</span>`, words };
  }
  if (param === "slot") {
    const words = slotName(v, Number(value));
    const p = v.pot[Number(value)];
    return { label: html`${p?.item && !p.faceDown ? faceChip(p.item) : html`<span>${words}</span>`}`, words };
  }
  if (param === "target") return { label: html`<span>${you(room, Number(value))}</span>`, words: you(room, Number(value)) };
  if (param === "value") return { label: html`<b>${value}</b>`, words: String(value) };
  const id = String(value);
  const owner = param === "take" ? v.seats.find((st) => st.ongoing.includes(id))?.seat : undefined;
  const words = `${cardWords(id)}${owner !== undefined ? ` from ${you(room, owner)}` : ""}`;
  return { label: html`${cardChip(id)}${owner !== undefined ? html`<span class="muted small">from ${you(room, owner)}</span>` : nothing}`, words };
}

function optionButton(s: Store, room: RoomView, v: GTView, param: string, value: Val, onPick: (keyboard: boolean) => void, verb = ""): TemplateResult {
  const view = valueView(room, v, param, value);
  return html`<button type="button" class="btn gt-option" data-testid="gt-option" data-param=${param} data-value=${String(value)} ?disabled=${s.busy}
    aria-label=${`${verb ? `${verb} ` : ""}${view.words}`} @click=${(e: MouseEvent) => onPick(e.detail === 0)}>${view.label}</button>`;
}

function composer(s: Store, room: RoomView, v: GTView, pick: Pick, p: Pending | null): TemplateResult {
  const ts = templatesOf(room, pick);
  if (ts.length === 0) {
    sel.pick = null;
    return p ? decisionControls(s, room, v, p) : turnControls(s, room, v);
  }
  const step = nextStep(room, pick);
  const key = pickKey(pick);
  const order = paramOrder(ts);
  const card = pick.card ? cardInfo(pick.card) : null;
  const title =
    pick.type === "cheat" && card
      ? html`Playing ${cardChip(pick.card!)}${p?.kind === "preview" ? " through Sneak Preview" : ""}: <span class="gt-composer-text">${card.kind === "cheat" ? card.text : ""}</span>`
      : pick.type === "poison"
        ? html`Poisoner: give another player a card from your hand, and reduce one of their dice by 2 pips.`
        : pick.type === "share"
          ? html`Share the Load: one card back on top of the Cheat deck, one to ${seatName(room, ((room.seat ?? 0) + 1) % v.players)}${(v.mine?.pending?.cards.length ?? 3) > 2 ? ", and you keep the third" : " (only two were drawn: you keep none)"}.`
          : html`Quick Fingers: discard one card, raise a die by 1, reduce a die by 1.`;
  const verb =
    pick.type === "cheat" && card ? `Play ${card.name}` : pick.type === "poison" ? "Give the card and reduce the die" : pick.type === "share" ? "Share the cards" : "Discard, raise and reduce";
  const summary = order.filter((k) => k in pick.chosen);
  const back = [...summary].reverse().find((k) => !pick.auto.has(k));
  const choose = (param: string, value: Val) => (keyboard: boolean) => {
    pick.chosen[param] = value;
    s.changed();
    if (keyboard) focusSoon('[data-testid="gt-composer"] [data-testid="gt-option"], [data-testid="gt-composer"] [data-testid="gt-confirm"]');
  };
  const prompt = step ? stepPrompt(v, key, step.param) : "";
  return html`<div class="gt-composer" data-testid="gt-composer" data-type=${pick.type} data-step=${step?.param ?? "confirm"}>
    <p class="gt-composer-head">${title}</p>
    ${summary.length
      ? html`<ul class="gt-chosen" aria-label="Chosen so far">${summary.map((k) => html`<li><span class="gt-chosen-name">${PARAM_NAMES[k] ?? k}:</span> ${valueView(room, v, k, pick.chosen[k]!).label}${pick.auto.has(k) ? html` <span class="muted small">(the only choice)</span>` : nothing}</li>`)}</ul>`
      : nothing}
    ${step
      ? html`<p class="gt-prompt" id="gt-step-prompt">${prompt}</p>
          <div class="gt-options" role="group" aria-labelledby="gt-step-prompt">${step.options.map((o) => optionButton(s, room, v, step.param, o, choose(step.param, o)))}</div>`
      : html`<div class="gt-options"><button type="button" class="btn primary" data-testid="gt-confirm" ?disabled=${s.busy}
          @click=${(e: MouseEvent) => act(s, room, { type: pick.type, ...(pick.card ? { card: pick.card } : {}), ...pick.chosen }, e.detail === 0)}>${verb}</button></div>`}
    <div class="gt-options gt-composer-nav">
      ${back
        ? html`<button type="button" class="btn ghost small" data-testid="gt-back" @click=${() => {
            const i = order.indexOf(back);
            for (const k of order.slice(i)) {
              delete pick.chosen[k];
              pick.auto.delete(k);
            }
            s.changed();
          }}>Back</button>`
        : nothing}
      <button type="button" class="btn ghost small" data-testid="gt-cancel" @click=${() => cancel(s)}>Cancel <span class="muted small">(Esc)</span></button>
    </div>
  </div>`;
}

// ---------------------------------------------------------------------------------------------
// The Pot and the Altar

function potPanel(room: RoomView, v: GTView): TemplateResult {
  const chosen = sel.die;
  // With a die chosen, each slot is lit (it may bid there) or says why not.
  const blocked = chosen !== null ? blockedSlots(room, v, chosen) : new Map<number, string>();
  const lit = new Set(chosen !== null ? v.pot.map((p) => p.slot).filter((slot) => !blocked.has(slot)) : []);
  const blockedNote = (slot: number) => {
    const why = blocked.get(slot);
    return why && chosen !== null ? `Your ${v.dice[chosen]?.value} can't bid here: ${why}.` : null;
  };
  const altarDice = v.dice.filter((d) => d.at === "altar");
  return html`<section class="panel gt-pot" aria-labelledby="gt-pot-h">
    <header class="panel-head">
      <h2 id="gt-pot-h">The Pot</h2>
      <span class="muted small">Round ${v.round}: each Item goes to its highest bid when the last die is placed. A bid (the sum of one player's dice on an Item) may not go over 10 or tie another player's.</span>
    </header>
    <ol class="gt-slots">
      ${v.pot.map((p) => slotView(room, v, p, lit.has(p.slot), blockedNote(p.slot)))}
    </ol>
    <div class="gt-altar" data-testid="gt-altar">
      <div class="gt-altar-head"><b>The Altar</b> <span class="muted small">A die here may draw a Cheat card or discard all Ongoing cards in front of a player. Every die comes back next round.</span></div>
      <div class="gt-altar-dice">${altarDice.length
        ? uniq(altarDice.map((d) => d.owner)).map((owner) => html`<span class="gt-altar-owner"><span class="small">${seatName(room, owner)}</span>
            <span class="gt-tray" data-at="altar">${altarDice.filter((d) => d.owner === owner).map((d) => boardDie(room, d))}</span></span>`)
        : html`<span class="muted small">No dice on the Altar.</span>`}</div>
    </div>
  </section>`;
}

/** A Pot slot; `blocked`: why the chosen die can't bid on it (said on the slot), or null. */
function slotView(room: RoomView, v: GTView, p: PotView, lit: boolean, blocked: string | null): TemplateResult {
  const known = p.faceDown && !!p.item;
  const card = p.faceDown
    ? known
      ? itemFaceCard(p.item!, { note: "face down: you know it", extraClass: "gt-known-facedown" })
      : faceDownCard("The face-down Item (its taker also gets the first player token)")
    : itemFaceCard(p.item!);
  const bidders = p.bids.map((total, seat) => ({ total, seat })).filter((b) => b.total > 0);
  return html`<li class="gt-slot ${lit ? "lit" : ""} ${blocked ? "blocked" : ""} ${p.faceDown ? "face-down" : ""}" data-testid="gt-slot" data-slot=${p.slot} data-face-down=${p.faceDown ? "yes" : "no"} data-known=${known ? "yes" : "no"}>
    <div class="gt-slot-card">${card}</div>
    <div class="gt-slot-info">
      <p class="gt-slot-name">${p.faceDown ? html`<b>Face-down Item</b> <span class="muted small">${known ? `(${faceWords(p.item!)}, known to you) · ` : ""}its taker goes first next round</span>` : html`<b>${faceWords(p.item!)}</b>${v.pot.filter((q) => !q.faceDown && q.item && faceWords(q.item) === faceWords(p.item!)).length > 1 ? html` <span class="muted small">(Pot slot ${p.slot + 1})</span>` : nothing}`}</p>
      ${blocked ? html`<p class="gt-slot-blocked" data-testid="gt-slot-blocked">${blocked}</p>` : nothing}
      ${bidders.length
        ? html`<ul class="gt-bids">${bidders.map((b) => {
            const dice = v.dice.filter((d) => d.at === p.slot && d.owner === b.seat);
            const high = p.high === b.seat;
            return html`<li class="gt-bid ${high ? "high" : ""} ${room.seat === b.seat ? "you" : ""}" data-testid="gt-bid" data-seat=${b.seat} data-total=${b.total} data-high=${high ? "yes" : "no"}>
              <span class="gt-bid-name">${seatName(room, b.seat)}</span>
              <span class="gt-tray" data-at=${p.slot}>${dice.map((d) => boardDie(room, d))}</span>
              <b class="gt-bid-total">${b.total}</b>${high ? html`<span class="gt-high-tag">high</span>` : nothing}</li>`;
          })}</ul>`
        : html`<p class="muted small gt-nobids">No bids yet.</p>`}
    </div>
  </li>`;
}

// ---------------------------------------------------------------------------------------------
// Your hand

function handPanel(s: Store, room: RoomView, v: GTView, mine: boolean): unknown {
  const m = v.mine;
  if (room.seat === null || !m) return nothing;
  const playable = mine ? new Set(playableCards(room)) : new Set<string>();
  const me = room.seat;
  const mode = mine ? playMode(v, me) : null;
  const picking = sel.pick?.type === "cheat" ? sel.pick.card : null;
  const items = m.hand.filter((c) => c.kind === "item");
  const cheats = m.hand.filter((c) => c.kind === "cheat");
  const cardView = (c: HandCard) => {
    if (!playable.has(c.card)) {
      const why = mode ? cardBlockedReason(v, me, c.card, mode) : null;
      if (!why) return html`<div role="listitem" class="gt-hand-card">${cardFace(c.card)}</div>`;
      return html`<div role="listitem" class="gt-hand-card gt-not-now" data-testid="gt-not-playable" data-choice=${c.card}>${cardFace(c.card)}
        <span class="gt-hand-why"><b>Can't play now:</b> ${why}.</span></div>`;
    }
    const on = picking === c.card;
    return html`<div role="listitem" class="gt-hand-card"><button type="button" class="card-btn gt-play ${on ? "on" : ""}" data-testid="gt-play" data-choice=${c.card}
      aria-pressed=${on ? "true" : "false"} ?disabled=${s.busy} aria-label=${`Play ${c.name}: ${c.kind === "cheat" ? c.text : ""}`}
      @click=${(e: MouseEvent) => (on ? cancel(s) : startPick(s, "cheat", c.card, e.detail === 0))}>${cardFace(c.card)}<span class="card-btn-verb" aria-hidden="true">${on ? "✓ Playing" : "Play"}</span></button></div>`;
  };
  return html`<section class="panel gt-hand" data-testid="gt-hand" aria-labelledby="gt-hand-h">
    <header class="panel-head">
      <h2 id="gt-hand-h" tabindex="-1">Your hand</h2>
      <span class="gt-secret-badge"><svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><rect x="4" y="9" width="12" height="9" rx="2" /><path class="shackle" d="M7 9V6.5a3 3 0 0 1 6 0V9" /></svg>Only you can see these</span>
      <span class="muted small">${cardsWord(m.hand.length)}: ${items.length} Item${items.length === 1 ? "" : "s"}, ${cheats.length} Cheat card${cheats.length === 1 ? "" : "s"} (the others see only how many)</span>
    </header>
    ${m.hand.length
      ? html`<div class="gt-hand-cards" role="list" aria-label="Your cards" data-testid="gt-hand-cards">${[...items, ...cheats].map(cardView)}</div>`
      : html`<p class="gt-hand-cards muted" data-testid="gt-hand-cards">No cards in hand.</p>`}
    ${playable.size ? html`<p class="hint">Cards marked Play can be played now: choose one, then its choices step by step (Escape cancels).</p>` : nothing}
    ${m.deckTop.length
      ? html`<p class="small gt-decktop">You know the top of the Cheat deck: ${m.deckTop.map((t) => html`${cardChip(t.card)} <span class="muted">(${t.fromTop === 0 ? "on top" : `${t.fromTop + 1} from the top`})</span> `)}</p>`
      : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Players

function seatsPanel(s: Store, room: RoomView, v: GTView, finished: boolean): TemplateResult {
  return html`<section class="panel seats gt-seats" aria-labelledby="gt-seats-h">
    <h2 id="gt-seats-h" class="panel-title">Players</h2>
    <div class="seat-grid">${v.seats.map((st) => seatCard(s, room, v, st, finished))}</div>
  </section>`;
}

function seatCard(s: Store, room: RoomView, v: GTView, st: SeatView, finished: boolean): TemplateResult {
  const info = room.seats[st.seat];
  const isYou = room.seat === st.seat;
  const pendingHere = v.pending?.seat === st.seat ? v.pending : null;
  const acting = !finished && (pendingHere !== null || (v.pending === null && v.turn === st.seat));
  const away = isAway(s, room, st.seat);
  const first = v.firstPlayer === st.seat;
  const name = seatName(room, st.seat);
  const supply = v.dice.filter((d) => d.owner === st.seat && d.at === "supply");
  return html`<article class="seat gt-seat ${isYou ? "you" : ""} ${acting ? "acting" : ""} ${away ? "away" : ""}" data-seat=${st.seat}
    aria-label=${`${name}${isYou ? " (you)" : ""}: ${cardsWord(st.handCount)} in hand, ${st.unplayed} unplayed ${st.unplayed === 1 ? "die" : "dice"}${first ? ", first player" : ""}${acting ? ", to act" : ""}${away ? ", away" : ""}`}>
    <header class="seat-head">
      <span class="avatar gt-avatar gt-seat-${st.seat % 5}" aria-hidden="true">${initials(name)}</span>
      <span class="seat-name">${name}</span>
      ${isYou ? html`<span class="tag you-tag">you</span>` : nothing}
      ${info?.bot ? html`<span class="tag">bot</span>` : nothing}
      ${away ? html`<span class="tag away-tag" data-testid="away">away</span>` : nothing}
      ${first && !finished ? html`<span class="gt-token" title="First player token">1st</span>` : nothing}
      ${acting ? html`<span class="tag turn-tag">${pendingHere ? `deciding: ${PENDING_NAME[pendingHere.kind] ?? pendingHere.kind}` : "to play"}</span>` : nothing}
      ${seatClock(s, room, st.seat)}
    </header>
    <div class="seat-stats gt-seat-stats">
      <span class="gt-handcount" data-testid="gt-hand-count" data-count=${st.handCount} title=${`${cardsWord(st.handCount)} in hand`}>
        <span class="gt-backs" aria-hidden="true">${Array.from({ length: Math.min(st.handCount, 8) }, () => cardBack(""))}</span>
        <b>${st.handCount}</b> ${st.handCount === 1 ? "card" : "cards"} in hand</span>
      ${finished
        ? nothing
        : html`<span class="gt-supply"><span class="muted small">Unplayed:</span> <span class="gt-tray" data-at="supply">${supply.length ? supply.map((d) => boardDie(room, d)) : html`<span class="muted small">none</span>`}</span></span>`}
    </div>
    ${st.known.length && !finished
      ? html`<div class="small gt-known" data-testid="gt-known">You know ${isYou ? "you hold" : "they hold"}: <span class="chips">${st.known.map((c) => cardChip(c))}</span></div>`
      : nothing}
    <div class="gt-ongoing" data-testid="gt-ongoing">
      ${st.ongoing.length
        ? html`<span class="muted small">In front of ${isYou ? "you" : "them"}:</span>
            <ul class="gt-ongoing-list">${st.ongoing.map((c) => {
              const ci = cardInfo(c);
              return html`<li>${cardChip(c)} <span class="small gt-ongoing-text">${ci.kind === "cheat" ? ci.text : ""}</span></li>`;
            })}</ul>`
        : html`<span class="muted small">No Ongoing cards in front of ${isYou ? "you" : "them"}.</span>`}
    </div>
    ${st.offerings
      ? html`<div class="small gt-seat-offerings">Own Offerings: ${st.offerings.map((o) => html`<span class="gt-off-tag">${o.group} · ${o.id}</span> `)}</div>`
      : nothing}
  </article>`;
}

// ---------------------------------------------------------------------------------------------
// Offerings

type Progress = NonNullable<GTView["mine"]>["progress"];

/** Your progress as the server reports it (the engine decides what your hand covers). */
function myProgress(v: GTView): Progress | null {
  return v.mine ? v.mine.progress : null;
}

function offeringView(o: OfferingView, progress: Progress | null, owner: string | null): TemplateResult {
  const mine = progress?.find((p) => p.offering === o.id) ?? null;
  const met = mine ? mine.covered : null;
  const n = met ? met.filter(Boolean).length : 0;
  const done = mine?.complete ?? false;
  return html`<li class="gt-offering gt-off-${o.group}" data-testid="gt-offering" data-offering=${o.id}>
    <div class="gt-off-head"><b>${o.group === "six" ? "6-Item Offering" : `Offering ${o.id}`}</b>
      <span class="muted small">${o.group === "six" ? "beats A and B" : o.group === "A" ? "beats B" : ""}${owner ? ` · ${owner}` : ""}</span>
      ${met ? html`<span class="gt-progress ${done ? "done" : ""}" data-testid="gt-progress">${done ? "complete ✓" : `${n} of ${met.length}`}</span>` : nothing}</div>
    <ul class="gt-needs">${(o.needs as Need[]).map((need, i) => needChip(need, met ? met[i]! : null))}</ul>
  </li>`;
}

function offeringsPanel(room: RoomView, v: GTView, finished: boolean): TemplateResult {
  const items = finished ? null : myProgress(v);
  const own = room.seat !== null ? v.seats[room.seat]?.offerings ?? null : null;
  return html`<section class="panel gt-offerings" aria-labelledby="gt-off-h">
    <h2 id="gt-off-h" class="panel-title">Offerings</h2>
    <p class="muted small">Hold every Item of one Offering at the end of a round to win. ? is any Item; ?? is two Items of one type; teeth count each tooth on a Goblin Tooth card.${items ? " Marks: the needs the Items in your hand cover." : ""}</p>
    <ul class="gt-off-list">
      ${v.offerings.map((o) => offeringView(o, items, v.advanced ? "everyone" : null))}
      ${own ? own.map((o) => offeringView(o, items, "yours")) : nothing}
    </ul>
    ${v.advanced
      ? html`<p class="muted small">Advanced play: each player may also complete their own A and B Offering (listed with each player).</p>
          ${v.seats.filter((st) => st.seat !== room.seat && st.offerings).map((st) => html`<details class="gt-other-off"><summary>${seatName(room, st.seat)}'s Offerings</summary>
            <ul class="gt-off-list">${(st.offerings ?? []).map((o) => offeringView(o, null, seatName(room, st.seat)))}</ul></details>`)}`
      : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Side panels

/** The last round's awards, named from the log's award entries (the view's lastAwards by slot). */
function awardsPanel(room: RoomView, v: GTView): unknown {
  const awards = v.lastAwards;
  if (!awards || awards.length === 0) return nothing;
  const faces = new Map<number, ItemFace | null>();
  for (let i = room.log.length - 1; i >= 0; i--) {
    const e = room.log[i]!;
    if (e.type === "all-dice-placed") break;
    if ((e.type === "award" || e.type === "no-bids") && typeof e.slot === "number" && !faces.has(e.slot)) faces.set(e.slot, (e.item as ItemFace | null) ?? null);
  }
  return html`<section class="panel gt-awards" data-testid="gt-awards" aria-labelledby="gt-awards-h">
    <h2 id="gt-awards-h" class="panel-title">Last round</h2>
    <ul class="gt-award-list">${awards.map((a) => {
      const f = faces.get(a.slot);
      const what = a.faceDown ? html`The face-down Item` : f ? faceChip(f) : html`Item ${a.slot + 1}`;
      return html`<li>${what} ${a.seat === null ? html`<span class="muted">: no bids, back into the deck</span>` : html`→ <b>${seatName(room, a.seat)}</b> <span class="muted">(bid ${a.bid})</span>`}</li>`;
    })}</ul>
  </section>`;
}

function pilesPanel(v: GTView): TemplateResult {
  const top = [...v.discard].reverse();
  return html`<section class="panel decks gt-piles" aria-labelledby="gt-piles-h">
    <h2 id="gt-piles-h" class="panel-title">Decks and discards</h2>
    <dl class="deck-counts">
      <div><dt>Cheat deck</dt><dd data-testid="gt-cheat-deck">${cardsWord(v.cheatDeckCount)}</dd></div>
      <div><dt>Item deck</dt><dd data-testid="gt-item-deck">${cardsWord(v.itemDeckCount)}</dd></div>
      <div><dt>Discarded</dt><dd>${cardsWord(v.discard.length)}</dd></div>
    </dl>
    ${v.inPlay.length ? html`<h3 class="mini-title">Being played</h3><div class="chips">${v.inPlay.map((c) => cardChip(c.card))}</div>` : nothing}
    ${top.length ? html`<h3 class="mini-title">Cheat discard pile (top first)</h3><div class="chips" data-testid="gt-discard">${top.map((c) => cardChip(c))}</div>` : nothing}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// The end

function endExtra(v: GTView): (seat: number) => TemplateResult {
  return (seat) => {
    const r = v.result;
    if (!r) return html``;
    const done = r.completed[seat];
    return html`<span class="muted small" data-testid="gt-end-detail">${done ? `completed ${offeringWords(done)}` : "no Offering completed"} · ${teethWord(r.teeth[seat] ?? 0)}</span>`;
  };
}

function revealPanel(room: RoomView, v: GTView): unknown {
  const r = v.result;
  const rv = v.reveal;
  if (!r || !rv) return nothing;
  return html`<section class="panel gt-reveal" data-testid="gt-reveal" aria-labelledby="gt-reveal-h">
    <h2 id="gt-reveal-h" class="panel-title">Everything revealed</h2>
    <p>${r.reason === "items-exhausted"
      ? "The Item deck ran out before anyone completed an Offering: places go by Goblin Teeth."
      : `After round ${r.round}, ${winnersSentence(r.winners.map((w) => ({ ...resultSeat(room, w), you: false })), { shared: "share the win", end: "." })} A completed 6-Item Offering beats an A, which beats a B; then the most Goblin Teeth.`}
      <span class="muted small">Score = 100 × (3 for the 6-Item Offering, 2 for an A, 1 for a B) + teeth.</span></p>
    <div class="gt-reveal-grid">
      ${rv.hands.map((hand, seat) => html`<article class="gt-reveal-seat ${room.seat === seat ? "you" : ""}" data-testid="gt-reveal-seat" data-seat=${seat}>
        <header><b>${seatName(room, seat)}</b> <span class="medal medal-${r.places[seat]}">${ordinal(r.places[seat] ?? 0)}</span>
          <span class="small">${r.completed[seat] ? html`completed <b>${offeringWords(r.completed[seat]!)}</b>` : "no Offering"} · ${teethWord(r.teeth[seat] ?? 0)}</span></header>
        <div class="chips gt-reveal-hand" data-testid="gt-reveal-hand">${hand.length ? hand.map((c) => cardChip(c.card)) : html`<span class="muted small">empty hand</span>`}</div>
      </article>`)}
    </div>
    <details class="gt-decks-revealed"><summary>The decks</summary>
      <p class="small"><b>Item deck</b> (top first, ${cardsWord(rv.itemDeck.length)}): <span class="chips">${rv.itemDeck.map((c) => cardChip(c))}</span></p>
      <p class="small"><b>Cheat deck</b> (top first, ${cardsWord(rv.cheatDeck.length)}): <span class="chips">${rv.cheatDeck.map((c) => cardChip(c))}</span></p>
    </details>
  </section>`;
}


/** Goblin Teeth's table code for the registry (games.ts): this module is its own chunk. */
export const goblinTeethTable: GameTable = {
  table: gtTable,
  status: gtStatus,
  logSentence: (e, ctx) => {
    const view = ctx.view as { dice?: Array<{ owner: number }> } | undefined;
    return gtLogSentence(e, { name: ctx.name, you: ctx.you, owner: (die) => view?.dice?.[die]?.owner ?? Math.floor(die / 3), away: ctx.away }, potHistory(ctx.log));
  },
  hiddenRows: (h, name) => {
    const x = h as { hands: string[][]; itemDeck: string[]; cheatDeck: string[] };
    return html`${x.hands.map((hand, seat) => html`<dt>${name(seat)}'s hand</dt><dd>${cardChips(hand, cardChip)}</dd>`)}
      <dt>Item deck, top first</dt><dd>${cardChips(x.itemDeck, cardChip)}</dd>
      <dt>Cheat deck, top first</dt><dd>${cardChips(x.cheatDeck, cardChip)}</dd>`;
  },
};
