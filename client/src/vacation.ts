/**
 * Vacations from turn-based games (docs/protocol.md, "Vacations"), as chess.com's daily games have
 * them: "Vacation…" in an account's menu, read from GET /api/me when it opens, takes whole days
 * from the account's allowance starting now (POST /api/vacation) or ends the vacation under way
 * early (POST /api/vacation/end). While it lasts the account's clocks in its turn-based games do
 * not run (the seats show it: clock.ts).
 *
 * The account's vacation is kept here once, as last read (here, or by the lobby's notices in
 * account-notices.ts) or as a change answered, so the lobby's notice follows the menu at once.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { api, refusal, type ApiReply } from "./api.js";
import { serverNow } from "./clock.js";
import { dateTimeWords, shortWhen } from "./dates.js";
import type { Store } from "./store.js";

/** An account's vacations, as GET /api/me and the vacation routes give them (null for a guest). */
export interface VacationInfo {
  /** The vacation under way (epoch ms), or null. */
  current: { from: number; until: number } | null;
  /** Whole days left to take in the last 365 days (the one under way counts all its planned days). */
  daysLeft: number;
  /** Days an account may take in any 365. */
  allowanceDays: number;
}

interface Reply extends ApiReply {
  vacation?: VacationInfo | null;
}

const state = {
  /** The account the rest is about (its token); "" for none. */
  token: "",
  /** As last read or answered; null before. */
  info: null as VacationInfo | null,
  /** Counts the answers taken: a read begun before one is stale. */
  mark: 0,
  /** What the days field holds, as typed (null: the default, a week or the days left if fewer). */
  days: null as string | null,
  busy: false,
  error: "",
};

function accountToken(s: Store): string {
  return (s.identity?.player as { account?: boolean } | undefined)?.account === true ? s.identity!.token : "";
}

/** Forgets what was known of another account (logged out, or in as someone else). */
function sync(s: Store): void {
  const token = accountToken(s);
  if (token === state.token) return;
  Object.assign(state, { token, info: null, mark: state.mark + 1, days: null, busy: false, error: "" });
}

/** For a read begun now: pass it back to noteVacation with the answer. */
export function vacationMark(s: Store): number {
  sync(s);
  return state.mark;
}

/**
 * The account's vacations as GET /api/me just said (account-notices.ts, this menu), unless an
 * answer newer than the read (`mark`: vacationMark when it began) was taken meanwhile.
 */
export function noteVacation(s: Store, info: VacationInfo | null | undefined, mark: number): void {
  sync(s);
  if (mark !== state.mark) return;
  state.info = info ?? null;
}

/** The vacation under way now, as last known, or null. */
export function currentVacation(s: Store): { from: number; until: number } | null {
  sync(s);
  const c = state.info?.current;
  return c && c.until > serverNow(s) ? c : null;
}

async function read(s: Store): Promise<void> {
  const mark = vacationMark(s);
  const r = await api<Reply>(s, "GET", "/api/me");
  if (r.ok) noteVacation(s, r.vacation, mark);
  s.changed();
}

/** A change (start, end) and its answer taken; the refusal's words, or null. After a refusal, reads again (the state may have moved). */
async function change(s: Store, path: string, body?: unknown): Promise<string | null> {
  sync(s);
  const r = await api<Reply>(s, "POST", path, body);
  if (r.ok) {
    state.mark++;
    state.info = r.vacation ?? null;
    state.days = null;
    s.changed();
    return null;
  }
  await read(s);
  return refusal(r);
}

/** Ends the vacation under way (POST /api/vacation/end): null, or the refusal's words. For the menu and the lobby's notice. */
export function endVacation(s: Store): Promise<string | null> {
  return change(s, "/api/vacation/end");
}

async function act(s: Store, run: () => Promise<string | null>): Promise<void> {
  state.busy = true;
  state.error = "";
  s.changed();
  state.error = (await run()) ?? "";
  state.busy = false;
  s.changed();
}

function body(s: Store, v: VacationInfo): TemplateResult {
  const now = serverNow(s);
  const current = v.current && v.current.until > now ? v.current : null;
  const error = state.error ? html`<p class="form-error" role="alert" data-testid="vacation-error">${state.error}</p>` : nothing;
  if (current) {
    return html`<p class="small" data-testid="vacation-status" title=${dateTimeWords(current.until)}><strong>On vacation until ${shortWhen(current.until)}</strong></p>
      <p class="muted small">Your clocks in your turn-based games are stopped; you may still move there. ${v.daysLeft} of ${v.allowanceDays} vacation days left
        besides this one.</p>
      <button type="button" class="btn small" data-testid="vacation-end" aria-describedby="vacation-end-note" ?disabled=${state.busy}
        @click=${() => void act(s, () => endVacation(s))}>End vacation now</button>
      <p class="muted small" id="vacation-end-note">The days begun are counted (at least one); the rest come back to you.</p>
      ${error}`;
  }
  const intro = html`<p class="small">Going away? Your clocks in your turn-based games stop until you are back: a turn under way goes on
    afterwards with the time it had, and the other players see that you are on vacation. You cannot start or join turn-based games
    meanwhile. Games played in one sitting are not affected.</p>`;
  if (v.allowanceDays === 0) return html`${intro}<p class="muted small" data-testid="vacation-status">This server offers no vacations.</p>${error}`;
  const left = v.daysLeft;
  const days = state.days ?? String(Math.max(1, Math.min(7, left)));
  const submit = (e: Event) => {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem("vacation-days") as HTMLInputElement;
    const n = Number(input.value);
    void act(s, () => change(s, "/api/vacation", { days: n }));
  };
  return html`${intro}
    <p class="small" data-testid="vacation-status">${left} of ${v.allowanceDays} vacation days left in the last 365 days</p>
    <form class="account-form" @submit=${submit}>
      <label for="vacation-days">Days away, from now (1 to ${Math.max(1, left)})</label>
      <input id="vacation-days" name="vacation-days" type="number" inputmode="numeric" min="1" max=${Math.max(1, left)} step="1" required
        data-testid="vacation-days" .value=${days} ?disabled=${left === 0 || state.busy}
        @input=${(e: Event) => { state.days = (e.target as HTMLInputElement).value; }} />
      <button class="btn small" data-testid="vacation-start" ?disabled=${left === 0 || state.busy}
        aria-describedby=${left === 0 ? "vacation-none" : nothing}>Go on vacation</button>
      ${left === 0
        ? html`<p class="muted small" id="vacation-none">You have no vacation days left: each comes back 365 days after the vacation that used it began.</p>`
        : nothing}
    </form>
    ${error}`;
}

/** "Vacation…" in an account's menu (account.ts puts it there, for accounts only). */
export function vacationSection(s: Store): TemplateResult {
  sync(s);
  return html`<details class="account-switch account-vacation" data-testid="vacation-setting"
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) { state.error = ""; void read(s); } }}>
    <summary>Vacation…</summary>
    ${state.info === null ? html`<p class="muted small">Reading…</p>` : body(s, state.info)}
  </details>`;
}
