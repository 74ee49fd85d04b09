/**
 * Leaving ranked games, in the lobby (docs/protocol.md, "Leaving ranked games"): an account that
 * left a ranked game in the last week is told so, and while its ranked play is paused, for how much
 * longer. Read from GET /api/me (`leaves`) when the lobby shows, at most once a minute; the server
 * refuses ranked play itself (RANKED_PAUSED), with its own words.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { serverNow } from "./clock.js";
import { spellWait } from "../../src/protocol/durations.js";

interface LeaveStatus {
  recent: number;
  pausedUntil: number | null;
}

const state = { token: "", at: 0, status: null as LeaveStatus | null, loading: false };
const REFRESH_MS = 60_000;

function refresh(s: Store): void {
  const account = (s.identity?.player as { account?: boolean } | undefined)?.account === true;
  const token = account ? s.identity!.token : "";
  if (token !== state.token) {
    state.token = token;
    state.status = null;
    state.at = 0;
  }
  if (!token || state.loading || Date.now() - state.at < REFRESH_MS) return;
  state.loading = true;
  state.at = Date.now();
  void fetch("/api/me", { headers: { authorization: `Bearer ${token}` } })
    .then((r) => r.json() as Promise<{ ok: boolean; leaves?: LeaveStatus | null }>)
    .then((r) => {
      if (state.token === token && r.ok) state.status = r.leaves ?? null;
    })
    .catch(() => {})
    .finally(() => {
      state.loading = false;
      s.changed();
    });
}

/** "14 min (until 16:42)": the wait, by the server's clock, the end in local time. */
function wait(s: Store, until: number): string {
  return `${spellWait(until - serverNow(s))} (until ${new Date(until).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })})`;
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
