/**
 * The lobby's notices about the account, read from GET /api/me when the lobby shows, at most once
 * a minute:
 * - leaving ranked games (docs/protocol.md, "Leaving ranked games"; `leaves`): an account that
 *   left a ranked game in the last week is told so, and while its ranked play is paused, for how
 *   much longer; the server refuses ranked play itself (RANKED_PAUSED), with its own words;
 * - rating given back (docs/protocol.md, "Reports and closed accounts"; `refunds`): points lost
 *   to an account the operators closed for breaking the rules, until the player dismisses the
 *   notice (this browser remembers the newest refund dismissed);
 * - silenced (`silenced`): the operators silenced the account in table chats, until when and why;
 * - on vacation from turn-based games (docs/protocol.md, "Vacations"; `vacation`): until when, with
 *   a way to end it. The vacation itself is kept in vacation.ts, which the account menu's
 *   "Vacation…" changes, so this notice follows it at once.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { serverNow } from "./clock.js";
import { dateTimeWords, shortWhen, timeWords } from "./dates.js";
import { spellWait } from "../../src/protocol/durations.js";
import type { LeaveStatus, RefundReceived as Refund } from "../../src/protocol/wire.js";
import { api } from "./api.js";
import { currentVacation, endVacation, noteVacation, vacationMark, type VacationInfo } from "./vacation.js";

const state = { token: "", at: 0, status: null as LeaveStatus | null, refunds: [] as Refund[], silenced: null as Silenced | null, loading: false };

interface Silenced {
  until: number;
  reason: string | null;
}
const REFRESH_MS = 60_000;
/** The newest refund this browser's player dismissed (epoch ms). */
const REFUNDS_SEEN_KEY = "goblin-bazaar.refunds-seen";

function refresh(s: Store): void {
  const account = (s.identity?.player as { account?: boolean } | undefined)?.account === true;
  const token = account ? s.identity!.token : "";
  if (token !== state.token) {
    state.token = token;
    state.status = null;
    state.refunds = [];
    state.silenced = null;
    state.at = 0;
  }
  if (!token || state.loading || Date.now() - state.at < REFRESH_MS) return;
  state.loading = true;
  state.at = Date.now();
  const mark = vacationMark(s);
  void api<{ ok: boolean; leaves?: LeaveStatus | null; refunds?: Refund[]; silenced?: Silenced | null; vacation?: VacationInfo | null }>(s, "GET", "/api/me")
    .then((r) => {
      if (state.token !== token || !r.ok) return;
      state.status = r.leaves ?? null;
      state.refunds = Array.isArray(r.refunds) ? r.refunds : [];
      state.silenced = r.silenced ?? null;
      noteVacation(s, r.vacation, mark);
    })
    .catch(() => {})
    .finally(() => {
      state.loading = false;
      s.changed();
    });
}

/** While your ranked play is paused for leaving ranked games: "14 min (until 16:42)"; else null. */
export function rankedPausedFor(s: Store): string | null {
  refresh(s);
  const until = state.status?.pausedUntil ?? null;
  return until !== null && until > serverNow(s) ? wait(s, until) : null;
}

/** "14 min (until 16:42)": the wait, by the server's clock, the end in local time. */
function wait(s: Store, until: number): string {
  return `${spellWait(until - serverNow(s))} (until ${timeWords(until)})`;
}

/** The lobby's notice that the operators silenced the account in table chats, while they have. */
export function silencedNotice(s: Store): TemplateResult | typeof nothing {
  refresh(s);
  const sil = state.silenced;
  if (!sil || sil.until <= serverNow(s)) return nothing;
  return html`<p class="notice leaves-notice" role="status" data-testid="silenced-notice">
    <strong>You cannot write in table chats for ${wait(s, sil.until)}</strong>: the operators silenced you${sil.reason ? html` (“${sil.reason}”)` : nothing}.
    You can still play, and read the chats.</p>`;
}

/** The lobby's notice about the account's leaves, if it has any in the last week. */
export function leavesNotice(s: Store): TemplateResult | typeof nothing {
  refresh(s);
  const st = state.status;
  if (!st || st.recent === 0) return nothing;
  const games = st.recent === 1 ? "a ranked game" : `${st.recent} ranked games`;
  if (st.pausedUntil !== null && st.pausedUntil > serverNow(s)) {
    return html`<p class="notice leaves-notice" role="status" data-testid="leaves-notice" data-paused="true">
      <strong>Ranked play is paused for ${wait(s, st.pausedUntil)}</strong>: you left ${games} in the last 7 days (you ran out of time
      without coming back, or never made a first move). Casual games are open to you meanwhile.</p>`;
  }
  return html`<p class="notice leaves-notice" role="status" data-testid="leaves-notice" data-paused="false">
    You left ${games} in the last 7 days. Leaving ranked games pauses your ranked play (15 minutes at first, longer each time);
    if you must go, resign: a bot finishes your seat at once and nobody waits on your clock.</p>`;
}

function refundsSeen(): number {
  try {
    return Number(localStorage.getItem(REFUNDS_SEEN_KEY)) || 0;
  } catch {
    return 0;
  }
}

function dismissRefunds(s: Store, newest: number): void {
  try {
    localStorage.setItem(REFUNDS_SEEN_KEY, String(newest));
  } catch {
    // Storage refused (private mode): the notice goes for this page only.
  }
  state.refunds = [];
  s.changed();
}

/** The lobby's notice of rating given back, until dismissed. */
export function refundsNotice(s: Store): TemplateResult | typeof nothing {
  refresh(s);
  const seen = refundsSeen();
  const fresh = state.refunds.filter((r) => r.at > seen && r.points > 0);
  if (fresh.length === 0) return nothing;
  const newest = Math.max(...fresh.map((r) => r.at));
  const parts = fresh.map((r) => `${r.points} in ${s.gameName(r.game)} (${r.games === 1 ? "1 game" : `${r.games} games`})`);
  return html`<p class="notice refunds-notice" role="status" data-testid="refunds-notice">
    <strong>Rating given back: ${parts.join(", ")}.</strong> A player you lost to in ranked games was closed by the operators for
    breaking the rules, so what those games cost you is yours again.
    <button type="button" class="linklike" data-testid="refunds-dismiss" @click=${() => dismissRefunds(s, newest)}>Dismiss</button></p>`;
}

const ending = { busy: false, error: "" };

/** The lobby's notice that the account is on vacation from turn-based games, while it is, with a way to end it. */
export function vacationNotice(s: Store): TemplateResult | typeof nothing {
  refresh(s);
  const v = currentVacation(s);
  if (!v) return nothing;
  const end = async () => {
    ending.busy = true;
    ending.error = "";
    s.changed();
    ending.error = (await endVacation(s)) ?? "";
    ending.busy = false;
    s.changed();
  };
  return html`<p class="notice vacation-notice" role="status" data-testid="vacation-notice" title=${dateTimeWords(v.until)}>
      <strong>You are on vacation from turn-based games until ${shortWhen(v.until)}</strong>: your clocks there are stopped.
      <button type="button" class="linklike" data-testid="vacation-notice-end" ?disabled=${ending.busy} @click=${() => void end()}>End vacation</button></p>
    ${ending.error ? html`<p class="form-error" role="alert" data-testid="vacation-notice-error">${ending.error}</p>` : nothing}`;
}
