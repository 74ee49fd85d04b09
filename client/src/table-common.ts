/** Pieces every game's table shares: names, presence, the event log, the end screen. */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import type { LogEntry, RatingChange, RoomView } from "./types.js";
import { deltaText, displayedChange } from "../../src/protocol/rating-display.js";
import { rematchPanel } from "./rematch.js";
import { ordinal } from "./words.js";
import { forfeitWords, winnersSentence, type ResultSeat } from "../../src/protocol/words.js";
import type { SeatAway } from "../../src/protocol/wire.js";
import { scrollTable } from "./scroll-table.js";

export { seatClock } from "./clock.js";

type RoomNotice = RoomView["notices"][number];

/** Card chips in a row, or "none": the replay's lists of hidden cards (`chip`: how one card is drawn). */
export function cardChips(ids: readonly string[], chip: (id: string) => TemplateResult): TemplateResult {
  return ids.length ? html`<span class="chips">${ids.map((id) => chip(id))}</span>` : html`<span class="muted">none</span>`;
}

export function seatName(room: RoomView, seat: number): string {
  return room.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

/** A seat's name, linked to its player's profile (a bot's is not). */
export function profileLinked(room: RoomView, seat: number): TemplateResult | string {
  const info = room.seats[seat];
  if (!info?.playerId || info.bot) return seatName(room, seat);
  return html`<a href=${`/player/id:${encodeURIComponent(info.playerId)}`} data-nav>${seatName(room, seat)}</a>`;
}

/** A seated human with no socket watching the room. */
export function isAway(s: Store, room: RoomView, seat: number): boolean {
  const info = room.seats[seat];
  if (!info || info.bot || !info.playerId) return false;
  const here = s.presence.get(room.roomId);
  if (!here) return false;
  return !here.has(info.playerId);
}

export function coinIcon(): TemplateResult {
  return html`<svg class="coin" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="8.5" /><circle class="coin-inner" cx="10" cy="10" r="5.5" /></svg>`;
}

/** A notice (time-out, return, resignation, call-off) as a log line, at its place among the moves. */
function noticeItem(n: RoomNotice): TemplateResult {
  return html`<li class="log-notice notice-${n.kind}" data-testid="notice" data-kind=${n.kind} data-seat=${n.seat ?? nothing} data-log-at=${n.logAt}>${n.text}</li>`;
}

/**
 * An open room's notices (an invitation declined, a rematch's seat given up...), on its waiting
 * page, which has no event log yet: everyone watching sees them, oldest first (the game's log keeps
 * them at its start).
 */
export function waitingNotices(room: RoomView): TemplateResult | typeof nothing {
  const notices = room.notices ?? [];
  if (notices.length === 0) return nothing;
  return html`<ul class="wait-notices" aria-label="At this table">${notices.map((n) =>
    html`<li class="notice-${n.kind}" data-testid="notice" data-kind=${n.kind} data-seat=${n.seat ?? nothing}>${n.text}</li>`)}</ul>`;
}

/** Entries and notices in order: a notice goes after entry number `logAt` (before any later one). */
function withNotices(room: RoomView, sentence: (e: LogEntry) => TemplateResult): TemplateResult[] {
  const notices = [...(room.notices ?? [])].sort((a, b) => a.logAt - b.logAt || a.at - b.at);
  const out: TemplateResult[] = [];
  let i = 0;
  for (const e of room.log) {
    while (i < notices.length && notices[i]!.logAt < e.n) out.push(noticeItem(notices[i++]!));
    out.push(html`<li class="log-${e.type}" data-n=${e.n}>${sentence(e)}</li>`);
  }
  while (i < notices.length) out.push(noticeItem(notices[i++]!));
  return out;
}

export function logPanel(room: RoomView, sentence: (e: LogEntry) => TemplateResult): TemplateResult {
  const count = room.log.length + (room.notices?.length ?? 0);
  return html`<section class="panel log" aria-labelledby="log-h">
    <h2 id="log-h" class="panel-title">Event log</h2>
    <ol class="log-list" data-count=${count} tabindex="0" aria-label="Event log, oldest first"
      @scroll=${(e: Event) => {
        const el = e.target as HTMLElement;
        el.dataset.autoscroll = el.scrollHeight - el.scrollTop - el.clientHeight < 40 ? "on" : "off";
      }}>
      ${withNotices(room, sentence)}
    </ol>
  </section>`;
}

let hadControls = false;

/** Keep the log scrolled to the newest entry unless the reader scrolled up; focus new controls. */
export function afterRender(): void {
  // When your turn comes and focus is nowhere in particular (it was on controls that went away),
  // put it on the new controls so keyboard players can act at once. Not on touch screens, where
  // focusing the bid box would pop up the keyboard.
  const panel = document.querySelector<HTMLElement>('[data-testid="act-panel"]');
  if (panel && !hadControls && (document.activeElement === document.body || document.activeElement === null) && matchMedia("(pointer: fine)").matches) {
    panel.querySelector<HTMLElement>("#bid-amount, button:not([disabled])")?.focus({ preventScroll: true });
  }
  hadControls = !!panel;
  for (const el of document.querySelectorAll<HTMLElement>(".log-list")) {
    if (el.dataset.autoscroll === "off") continue;
    if (el.dataset.seen !== el.dataset.count) {
      el.dataset.seen = el.dataset.count;
      el.scrollTop = el.scrollHeight;
    }
  }
}

const verified = new Map<string, "yes" | "no" | "unavailable" | "pending">();

async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function verification(s: Store, room: RoomView): TemplateResult {
  if (!room.seed || !room.commitment) return html``;
  const key = `${room.roomId}:${room.seed}`;
  const state = verified.get(key);
  if (!state) {
    verified.set(key, "pending");
    void sha256Hex(room.seed).then((h) => {
      verified.set(key, h === null ? "unavailable" : h === room.commitment ? "yes" : "no");
      s.changed();
    });
  }
  if (state === "yes") return html`<p class="verify ok" data-testid="seed-verified">✓ Checked in your browser: SHA-256 of the seed equals the commitment you were shown at the start.</p>`;
  if (state === "no") return html`<p class="verify bad">✗ The seed does NOT hash to the commitment.</p>`;
  if (state === "unavailable") return html`<p class="verify muted">Your browser cannot hash here (not a secure context); the replay below checks it.</p>`;
  return html`<p class="verify muted">Checking the seed…</p>`;
}

/**
 * Why a bot played a player's seat (they resigned, or ran out of time), or null: not a bot's own
 * seat, nor one its player plays (or played out). At the end: a seat a bot finished for its player.
 */
export function forfeitOf(room: RoomView, seat: number): SeatAway | null {
  const info = room.seats[seat];
  return info && !info.bot ? (info.away ?? null) : null;
}

/** A seat as a result names it (src/protocol/words.ts): its name, its forfeit, whether it is the viewer's. */
export function resultSeat(room: RoomView, seat: number): ResultSeat {
  return { name: seatName(room, seat), forfeit: forfeitOf(room, seat), you: room.seat === seat };
}

/** On the end screen: a seat a bot finished for its player, and what that means for the rating. */
function forfeitNote(room: RoomView, seat: number): TemplateResult | typeof nothing {
  const forfeit = forfeitOf(room, seat);
  if (!forfeit) return nothing;
  return html`<div class="small forfeit-note" data-testid="forfeit">${forfeitWords(forfeit)}; a bot finished the game${room.ranked ? html`<br /><span class="muted">placed last in the rating update</span>` : ""}</div>`;
}

/**
 * A rating change as players read it (src/protocol/rating-display.ts): "1512 → 1540 (+28)", a "?"
 * on a provisional rating, the OpenSkill numbers in the tooltip.
 */
function ratingChangeCell(rc: RatingChange): TemplateResult {
  const c = displayedChange(rc.before, rc.after);
  const q = (p: boolean) => (p ? html`<span class="provisional-mark" aria-label="provisional">?</span>` : nothing);
  return html`<span data-testid="rating-change" class="rating-change nowrap" data-before=${c.before} data-after=${c.after} data-delta=${c.delta}
      title=${`OpenSkill μ ${rc.before.mu.toFixed(1)} → ${rc.after.mu.toFixed(1)}, σ ${rc.before.sigma.toFixed(2)} → ${rc.after.sigma.toFixed(2)}`}>${c.before}${q(c.beforeProvisional)} → <b>${c.after}</b>${q(c.afterProvisional)}</span>
    <span class="${c.delta >= 0 ? "up" : "down"}">(${deltaText(c.delta)})</span>`;
}

/**
 * The end screen of a finished room; `over` names what ended ("Game over", "Match over");
 * `scored`: the outcome's scores are points to show (false: a game without points, whose scores
 * only order the places, as Goblin Teeth's: the column says what each player achieved, `extra`).
 */
export function endScreen(s: Store, room: RoomView, extra?: (seat: number) => TemplateResult, over = "Game over", scored = true): TemplateResult {
  const out = room.outcome;
  if (!out) return html``;
  const order = out.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
  const youPlace = room.seat !== null ? out.places[room.seat] : null;
  // Seats a bot finished for a player who resigned or ran out of time (a ranked game places them last).
  const left = room.seats.flatMap((_, seat) => (forfeitOf(room, seat) ? [seat] : []));
  const youLeft = room.seat !== null ? forfeitOf(room, room.seat) : null;
  // Such a seat wins as a seat, played by a bot, not as its player: "Bram's seat wins (played by a bot after Bram resigned)".
  const headline = winnersSentence(order.filter((o) => o.place === 1).map((o) => resultSeat(room, o.seat)));
  return html`<section class="panel end" data-testid="end-screen" aria-labelledby="end-h">
    <div class="end-head">
      <h2 id="end-h">${over} · ${headline}</h2>
      ${youPlace === null
        ? nothing
        : youLeft
          ? html`<p class="end-you">You ${youLeft === "resigned" ? "resigned" : "ran out of time"}, and a bot finished your seat <b>${ordinal(youPlace)}</b> of ${out.places.length}.${room.ranked ? " In the rating update you count as last." : ""}</p>`
          : html`<p class="end-you">You finished <b>${ordinal(youPlace)}</b> of ${out.places.length}.</p>`}
      ${room.ranked && left.length > 0 && left.some((seat) => seat !== room.seat)
        ? html`<p class="small muted" data-testid="left-last-note">${left.length === 1 ? `${seatName(room, left[0]!)} left the game and counts` : `${left.map((seat) => seatName(room, seat)).join(" and ")} left the game and count`} as last in the rating update; the others are rated in the order they finished.</p>`
        : nothing}
    </div>
    ${scrollTable("Results", html`<table class="results">
      <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">${scored ? "Score" : "Result"}</th><th scope="col">Rating</th></tr></thead>
      <tbody>
        ${order.map(({ place, seat }) => {
          const rc = room.ratingChanges?.find((r) => r.seat === seat);
          return html`<tr class="place-${place} ${room.seat === seat ? "you" : ""}" data-testid="result-row">
            <td><span class="medal medal-${place}">${ordinal(place)}</span></td>
            <th scope="row">${profileLinked(room, seat)}${room.seat === seat ? html` <span class="tag you-tag">you</span>` : nothing}${forfeitNote(room, seat)}</th>
            <td>${scored ? html`<b class="big-score">${out.scores[seat]}</b> ` : nothing}${extra ? html`<div>${extra(seat)}</div>` : nothing}</td>
            <td>${!room.ranked
              ? html`<span class="muted">casual game</span>`
              : rc
                ? ratingChangeCell(rc)
                : room.seats[seat]?.bot ? html`<span class="muted">bot</span>` : html`<span class="muted">recording…</span>`}</td>
          </tr>`;
        })}
      </tbody>
    </table>`)}
    ${room.ratingChanges?.some((rc) => displayedChange(rc.before, rc.after).afterProvisional)
      ? html`<p class="muted small" data-testid="provisional-note"><span class="provisional-mark" aria-hidden="true">?</span> provisional: a few more rated games settle it.</p>`
      : nothing}
    <details class="fair" open>
      <summary>Fair dealing: the revealed seed</summary>
      <dl>
        <dt>Seed (secret until now)</dt><dd><code data-testid="seed">${room.seed}</code></dd>
        <dt>Commitment (SHA-256 of the seed, sent to everyone at the start)</dt><dd><code>${room.commitment}</code></dd>
      </dl>
      ${verification(s, room)}
      ${checkYourself(room)}
    </details>
    ${s.route.page !== "replay" ? rematchPanel(s, room) : nothing}
    <p><a class="btn primary" href="/" data-nav>Back to the lobby</a>
      ${s.route.page !== "replay" ? html`<a class="btn" href=${`/game/${room.roomId}`} data-nav data-testid="replay-link">Replay</a>` : nothing}</p>
  </section>`;
}

/**
 * How a player checks a finished game beyond the seed's hash: the replay page (the server re-runs
 * every move from the seed with the game's rules), or, without trusting us, the saved record
 * replayed by a copy of the code.
 */
export function checkYourself(room: RoomView): TemplateResult {
  return html`<p class="small" data-testid="check-yourself">The <a href=${`/game/${room.roomId}`} data-nav>replay</a> re-runs every move from this seed
    with the game's own rules and shows every card that was hidden. To check it without trusting us, save the game's record,
    <a href=${`/api/finished/${room.roomId}`} download=${`game-${room.roomId}.json`}>game-${room.roomId}.json</a>, and replay it with a copy of
    Goblin Bazaar's code: <code>npm run replay -- --file game-${room.roomId}.json</code>.</p>`;
}

/** The browser-side check that the revealed seed hashes to the commitment (for tables with their own end screen). */
export function seedCheck(s: Store, room: RoomView): TemplateResult {
  return verification(s, room);
}

/** How an auction game names its money in the bid form. */
export interface BidMoney {
  /** "coin", "dollar": for "One coin less" and "a whole number of coins". */
  unit: string;
  /** An amount on the quick buttons ("3", "$3"). */
  short: (n: number) => string;
  /** An amount on the bid button ("3 coins", "$3"). */
  long: (n: number) => string;
}

/**
 * The bid form of the auction games: a stepper held to the legal range [min, max] (from the
 * view's `bid` template), quick amounts, a bid and a pass button. `draft` keeps the amount being
 * typed between renders; a new `key` (a new auction step) resets it to the minimum.
 */
export function bidForm(o: {
  s: Store;
  draft: { key: string; value: number };
  key: string;
  min: number;
  max: number;
  busy: boolean;
  money: BidMoney;
  /** Amounts offered as quick buttons besides min and max, as offsets from min. */
  steps: number[];
  passButton: TemplateResult;
  onBid: (amount: number) => void;
}): TemplateResult {
  const { s, draft, min, max, busy, money } = o;
  if (draft.key !== o.key) {
    draft.key = o.key;
    draft.value = min;
  }
  const value = draft.value;
  const valid = Number.isInteger(value) && value >= min && value <= max;
  const set = (n: number) => {
    draft.value = Math.max(min, Math.min(max, n));
    s.changed();
  };
  const quick = [...new Set([min, ...o.steps.map((d) => min + d), max])].filter((n) => n >= min && n <= max).sort((x, y) => x - y);
  return html`<form class="bid-form" @submit=${(e: Event) => {
      e.preventDefault();
      if (valid) o.onBid(value);
    }}>
      <div class="stepper">
        <button type="button" class="step" aria-label=${`One ${money.unit} less`} ?disabled=${busy || value <= min} @click=${() => set(value - 1)}>−</button>
        <label class="sr-only" for="bid-amount">Your bid in ${money.unit}s, ${min} to ${max}</label>
        <input id="bid-amount" type="number" inputmode="numeric" min=${min} max=${max} step="1" .value=${String(value)} ?disabled=${busy}
          aria-describedby="bid-hint"
          @input=${(e: Event) => {
            draft.value = Number((e.target as HTMLInputElement).value);
            s.changed();
          }} />
        <button type="button" class="step" aria-label=${`One ${money.unit} more`} ?disabled=${busy || value >= max} @click=${() => set(value + 1)}>+</button>
      </div>
      <button type="submit" class="btn primary" data-testid="bid" ?disabled=${busy || !valid}>Bid ${valid ? money.long(value) : ""}</button>
      ${o.passButton}
    </form>
    <div class="quick" role="group" aria-label="Quick bids">
      ${quick.map((n) => {
        const label = n === max && n !== min ? `All in · ${money.short(n)}` : n === min ? `Min · ${money.short(n)}` : money.short(n);
        // The name holds the visible label, so a voice user can say what they see (WCAG 2.5.3).
        return html`<button type="button" class="btn small ghost" ?disabled=${busy} @click=${() => set(n)} aria-label=${`Set bid to ${label}`}>${label}</button>`;
      })}
    </div>
    ${valid ? nothing : html`<p class="warn" role="alert">Enter a whole number of ${money.unit}s from ${min} to ${max}.</p>`}`;
}

/**
 * The controls of a decision with a compact summary of what it needs (issue 25, "decide without
 * scrolling"): the numbers and cards the full panels show further down (coins and scores, your
 * valuations, your hand), repeated beside the controls so both are in view together at any
 * screen size. The summary comes first in reading order; on a wide screen it sits to the right
 * of the controls, on a phone above them in the action bar pinned to the bottom of the screen.
 */
export function decisionLayout(summary: TemplateResult, controls: TemplateResult): TemplateResult {
  return html`<div class="decide">
    <div class="decide-info" data-testid="decide-info" role="group" aria-label="What this decision needs">${summary}</div>
    <div class="decide-controls">${controls}</div>
  </div>`;
}

/**
 * After a move made by keyboard, whose controls go away: once the room's next version is on screen
 * and the move's answer is in (the controls stay disabled until then, and the new version may be
 * drawn before the answer comes), focus the first control matching `selector`, unless focus went
 * somewhere on purpose meanwhile (anywhere but the page's body, a control gone, or the control
 * used, disabled). Tried every 100 ms for up to 10 s (a loaded machine or network may take that
 * long); nothing if this seat has no next move by then.
 */
export function refocusAfterMove(s: Store, roomId: string, version: number, selector: string): void {
  const used = document.activeElement;
  const lost = (el: Element | null) => !el || el === document.body || !el.isConnected || (el === used && (el as HTMLButtonElement).disabled === true);
  const attempt = (left: number) =>
    setTimeout(() => {
      const active = document.activeElement;
      const shown = Number(document.querySelector(`.room[data-room="${roomId}"]`)?.getAttribute("data-version") ?? 0);
      const landed = shown > version && !s.busy;
      if (!lost(active) && (active !== used || landed)) return; // focus is somewhere on purpose (or stayed on a live control)
      const target = landed ? document.querySelector<HTMLElement>(selector) : null;
      if (target) target.focus();
      else if (left > 0) attempt(left - 1);
    }, 100);
  attempt(100);
}
