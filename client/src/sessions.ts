/**
 * "Where you're logged in…" in an account's menu (docs/protocol.md, "Accounts and sessions"): every
 * live session of the account (GET /api/me's `sessions`), each named by its device
 * (src/protocol/devices.ts) with when it logged in and was last used, "This browser" marked; any
 * other one can be logged out on its own (POST /api/sessions/end), which refuses its token and
 * drops its connection at once.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api, refusal } from "./api.js";
import { timeWords } from "./dates.js";
import { deviceName } from "../../src/protocol/devices.js";

interface SessionRow {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  userAgent: string | null;
  current: boolean;
}

const state: { list: SessionRow[] | null; error: string; busy: string | null } = { list: null, error: "", busy: null };

/** The server marks a session used at most every 5 minutes: within that, it is in use now. */
const NOW_MS = 5 * 60_000;

async function load(s: Store): Promise<void> {
  const r = await api(s, "GET", "/api/me");
  if (r.ok) {
    state.list = r.sessions as SessionRow[];
    state.error = "";
  } else state.error = r.error?.message || "Could not read your sessions.";
  s.changed();
}

async function end(s: Store, id: string): Promise<void> {
  state.busy = id;
  state.error = "";
  s.changed();
  const r = await api(s, "POST", "/api/sessions/end", { session: id });
  state.busy = null;
  if (!r.ok) state.error = refusal(r);
  else s.toast("That device is logged out.", "info");
  await load(s);
}

/** "2 Dec, 19:00" this year, "2 Dec 2025, 19:00" before (clock.ts's forms). */
function when(ms: number, now: number): string {
  const d = new Date(ms);
  const day = d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: d.getFullYear() === new Date(now).getFullYear() ? undefined : "numeric" });
  return `${day}, ${timeWords(ms)}`;
}

function lastUsed(ms: number, now: number): string {
  const ago = now - ms;
  if (ago < NOW_MS) return "in use now";
  if (ago < 60 * 60_000) return `last used ${Math.round(ago / 60_000)} min ago`;
  if (ago < 24 * 60 * 60_000) return `last used ${Math.round(ago / 3_600_000)} h ago`;
  return `last used ${when(ms, now)}`;
}

/** The menu section; its list is read each time it is opened. */
export function sessionsSection(s: Store): TemplateResult {
  const now = Date.now() + s.serverOffset;
  const rows = state.list;
  return html`<details class="account-sessions" data-testid="sessions"
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) void load(s); }}>
    <summary>Where you're logged in…</summary>
    ${rows === null
      ? html`<p class="muted small">Reading your sessions…</p>`
      : html`<ul class="session-list">
          ${rows.map((r) => html`<li data-testid="session" data-current=${r.current ? "true" : "false"}>
            <span><b>${deviceName(r.userAgent)}</b>${r.current ? html` <span class="session-here">(this browser)</span>` : nothing}
              <br /><span class="muted small">Logged in ${when(r.createdAt, now)}; ${r.current ? "in use now" : lastUsed(r.lastSeenAt, now)}</span></span>
            ${r.current
              ? nothing
              : html`<button class="btn small ghost" data-testid="session-end" ?disabled=${state.busy === r.id}
                  aria-label=${`Log out ${deviceName(r.userAgent)}, logged in ${when(r.createdAt, now)}`}
                  @click=${() => void end(s, r.id)}>Log out</button>`}
          </li>`)}
        </ul>
        <p class="muted small">Don't recognise one? Log it out and change your password.</p>`}
    ${state.error ? html`<p class="form-error" role="alert">${state.error}</p>` : nothing}
  </details>`;
}
