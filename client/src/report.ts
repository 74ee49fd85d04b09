/**
 * Report a player to the operators (POST /api/reports; docs/protocol.md, "Reports and closed
 * accounts"): a modal dialog opened from a profile's Report button or a chat message's. The
 * reporter picks a reason, says what happened and, from a table, the game is named for them.
 * Only accounts report, and only accounts are reported (a guest's messages are muted instead).
 * Nothing about a report is ever shown to the player reported.
 */
import { html, nothing, render, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api, refusal } from "./api.js";
import { dialogHost } from "./dialog-host.js";

export const REASONS: ReadonlyArray<{ id: string; label: string; hint: string }> = [
  { id: "cheating", label: "Cheating", hint: "help from a program or another person, several accounts at one table" },
  { id: "abuse", label: "Abuse", hint: "insults, harassment or hate in the chat or a name" },
  { id: "stalling", label: "Stalling", hint: "letting the clock run out on purpose, leaving games" },
  { id: "other", label: "Something else", hint: "" },
];
const TEXT_MAX = 1000;

interface Target {
  /** The account: its name, or id:<player id>. */
  name: string;
  /** How to name them, when `name` is an id. */
  label?: string;
  /** The room (game) it happened in, when reported from a table or a game of the profile. */
  room?: string;
  roomLabel?: string;
}

const who = (t: Target) => t.label ?? t.name;

const state = { target: null as Target | null, reason: "", text: "", busy: false, error: "", done: false };
let opener: HTMLElement | null = null;
let store: Store | null = null;

const ensureHost = dialogHost("report-host");
const dialogEl = () => document.querySelector<HTMLDialogElement>("dialog.report-dialog");

async function submit(e: Event): Promise<void> {
  e.preventDefault();
  const s = store;
  const t = state.target;
  if (!s?.identity || !t) return;
  if (!state.reason) {
    state.error = "Choose what the report is about.";
    return draw();
  }
  state.busy = true;
  state.error = "";
  draw();
  const body = await api(s, "POST", "/api/reports", { name: t.name, reason: state.reason, text: state.text, ...(t.room ? { room: t.room } : {}) });
  state.busy = false;
  if (body.ok) state.done = true;
  else state.error = refusal(body);
  draw();
  dialogEl()?.querySelector<HTMLElement>(state.done ? "[data-testid=report-close]" : ".form-error")?.focus();
}

function form(t: Target): TemplateResult {
  const left = TEXT_MAX - state.text.length;
  return html`<form class="report-form" @submit=${(e: Event) => void submit(e)} novalidate>
    <fieldset class="report-reasons">
      <legend>What is it about?</legend>
      ${REASONS.map((r) => html`<label class="report-reason">
        <input type="radio" name="report-reason" value=${r.id} .checked=${state.reason === r.id}
          @change=${() => { state.reason = r.id; state.error = ""; draw(); }} />
        <span><b>${r.label}</b>${r.hint ? html`<span class="muted small"> (${r.hint})</span>` : nothing}</span>
      </label>`)}
    </fieldset>
    <label for="report-text">What happened?</label>
    <textarea id="report-text" data-testid="report-text" rows="5" maxlength=${TEXT_MAX} required aria-describedby="report-left"
      .value=${state.text} @input=${(e: Event) => { state.text = (e.target as HTMLTextAreaElement).value; draw(); }}></textarea>
    <p id="report-left" class="muted small">${left} characters left. Say what you saw and when; the operators read the game's record and its chat.</p>
    ${t.room ? html`<p class="small">About the game ${t.roomLabel ?? html`<a href=${`/room/${t.room}`} data-nav>${t.room}</a>`}.</p>` : nothing}
    ${state.error ? html`<p class="form-error" role="alert" tabindex="-1" data-testid="report-error">${state.error}</p>` : nothing}
    <div class="report-actions">
      <button type="button" class="btn small ghost" @click=${() => closeReport()}>Cancel</button>
      <button class="btn small primary" data-testid="report-send" ?disabled=${state.busy || state.text.trim() === ""}>${state.busy ? "Sending…" : "Send report"}</button>
    </div>
  </form>`;
}

function draw(): void {
  const t = state.target;
  if (!t) return;
  render(
    html`<dialog class="report-dialog" aria-labelledby="report-title" data-testid="report-dialog"
      @keydown=${(e: KeyboardEvent) => { e.stopPropagation(); if (e.key === "Escape") { e.preventDefault(); closeReport(); } }}
      @cancel=${(e: Event) => { e.preventDefault(); closeReport(); }}>
      <header class="report-head"><h2 id="report-title">Report ${who(t)}</h2></header>
      <div class="report-body">
        ${state.done
          ? html`<p role="status" data-testid="report-done">Thank you: the operators will look into it. ${who(t)} is not told who reported them.</p>
              <div class="report-actions"><button type="button" class="btn small primary" data-testid="report-close" @click=${() => closeReport()}>Close</button></div>`
          : html`<p class="muted small">Reports go to the operators only. For one unpleasant message, Mute in the chat hides that player's messages at once.</p>
              ${form(t)}`}
      </div>
    </dialog>`,
    ensureHost(),
  );
}

/** Opens the report dialog for an account; `from` gets the focus back when it closes. */
export function openReport(s: Store, target: Target, from: HTMLElement | null): void {
  store = s;
  opener = from;
  if (state.target?.name !== target.name || state.done) Object.assign(state, { reason: "", text: "", error: "", done: false });
  state.target = target;
  draw();
  const d = dialogEl()!;
  if (!d.open) d.showModal();
  d.querySelector<HTMLElement>("input[name=report-reason]")?.focus();
}

export function closeReport(): void {
  const d = dialogEl();
  if (!d?.open) return;
  d.close();
  if (state.done) Object.assign(state, { target: null, reason: "", text: "", done: false });
  opener?.focus();
  opener = null;
}

/** A "Report" button for an account's name, for a logged-in account other than them. */
export function reportButton(s: Store, target: Target, className = ""): TemplateResult {
  return html`<button type="button" class=${`btn small ghost report-open ${className}`} data-testid="report-open" aria-haspopup="dialog" aria-label=${`Report ${who(target)}`}
    @click=${(e: Event) => openReport(s, target, e.currentTarget as HTMLElement)}>Report</button>`;
}
