/**
 * Blocked players in the browser (docs/protocol.md, "Blocking"): the list (GET /api/blocks) for
 * the logged-in account, Block/Unblock on profiles and in the account menu, and the chat hiding
 * the blocked players' messages. The server keeps the two apart at tables (quick play, room:join);
 * this module only shows and changes the list.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api } from "./api.js";
import { followEnded } from "./follows.js";

interface Blocked {
  id: string;
  name: string;
  since: number;
}

const state = { token: "", list: [] as Blocked[], ids: new Set<string>(), loading: false, error: "", busy: "" };

function set(list: Blocked[]): void {
  state.list = list;
  state.ids = new Set(list.map((b) => b.id));
}

/**
 * The blocked list for this browser's account, loaded once per login (an account switch or a
 * logout forgets it). Called as pages draw: cheap when loaded.
 */
export function ensureBlocks(s: Store): void {
  const account = (s.identity?.player as { account?: boolean } | undefined)?.account === true;
  const token = account ? s.identity!.token : "";
  if (token === state.token) return;
  state.token = token;
  set([]);
  if (!token) return;
  state.loading = true;
  void api(s, "GET", "/api/blocks").then((r) => {
    state.loading = false;
    if (state.token !== token) return;
    if (r.ok) set(r.blocked as Blocked[]);
    else state.error = r.error?.message ?? "";
    s.changed();
  });
}

/** Whether this account blocks that player. */
export function isBlocked(s: Store, playerId: string): boolean {
  ensureBlocks(s);
  return state.ids.has(playerId);
}

/** Whether the list has come (or could not be read): until then, who is blocked is not known. */
export function blocksKnown(s: Store): boolean {
  ensureBlocks(s);
  return !state.loading;
}

async function change(s: Store, verb: "block" | "unblock", name: string, shown: string): Promise<void> {
  state.busy = name;
  state.error = "";
  s.changed();
  const r = await api(s, "POST", `/api/${verb}`, { name });
  state.busy = "";
  if (!r.ok) {
    state.error = r.error?.message ?? "That did not work; please try again.";
    s.toast(state.error, "error");
  } else {
    // The reply says who: the list changes here, newest first as the server keeps it.
    if (verb === "block") {
      set([r.blocked as Blocked, ...state.list.filter((b) => b.id !== (r.blocked as Blocked).id)].sort((a, b) => b.since - a.since));
      // The block ended following between the two (docs/protocol.md, "Blocking"): the list is read again.
      followEnded(s, (r.blocked as Blocked).id);
    } else set(state.list.filter((b) => b.id !== r.id));
    s.toast(verb === "block" ? `You block ${shown}: you will not be seated together, their chat messages are hidden, and neither of you follows the other.` : `You no longer block ${shown}.`, "info");
    // Whether you may sit at a table depends on who you block: asked again.
    s.forgetSeatRefusals();
  }
  s.changed();
}

/** Block / Unblock for an account's profile (`name`: their name or id:<player id>). */
export function blockButton(s: Store, target: { id: string; name: string }): TemplateResult {
  const blocked = isBlocked(s, target.id);
  const key = `id:${target.id}`;
  return html`<button type="button" class="btn small ghost" data-testid=${blocked ? "unblock" : "block"} ?disabled=${state.busy === key}
    aria-label=${`${blocked ? "Unblock" : "Block"} ${target.name}`}
    @click=${() => {
      if (!blocked && !confirm(`Block ${target.name}? You will not be seated together (quick play or joining a table), their chat messages are hidden from you, and neither of you follows the other any more. They are not told.`)) return;
      void change(s, blocked ? "unblock" : "block", key, target.name);
    }}>${blocked ? "Unblock" : "Block"}</button>`;
}

/** The account menu's list of blocked players, each with Unblock. */
export function blockedList(s: Store): TemplateResult {
  ensureBlocks(s);
  return html`<details class="account-blocked" data-testid="blocked-list">
    <summary>Blocked players${state.list.length ? ` (${state.list.length})` : ""}</summary>
    ${state.list.length === 0
      ? html`<p class="muted small">${state.loading ? "Loading…" : "Nobody. Block a player from their profile: you are never seated together, and their chat is hidden."}</p>`
      : html`<ul class="blocked-players">${state.list.map((b) => html`<li>
          <a href=${`/player/id:${b.id}`} data-nav>${b.name}</a>
          <button type="button" class="btn small ghost" aria-label=${`Unblock ${b.name}`} ?disabled=${state.busy === `id:${b.id}`}
            @click=${() => void change(s, "unblock", `id:${b.id}`, b.name)}>Unblock</button></li>`)}</ul>`}
    ${state.error ? html`<p class="form-error" role="alert">${state.error}</p>` : nothing}
  </details>`;
}
