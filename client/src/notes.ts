/**
 * Private notes on players in the browser (docs/protocol.md, "Notes on players"): on another
 * player's profile an account keeps a note only it sees (GET /api/notes, read once per account and
 * page load; POST /api/note to save, an empty text deletes it).
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api, refusal } from "./api.js";
import { isAccount } from "./account.js";
import { NOTE_MAX } from "../../src/protocol/wire.js";

interface Note {
  id: string;
  name: string;
  text: string;
  at: number;
}

const state = { token: "", notes: new Map<string, Note>(), loaded: false, loading: false, busy: false, status: "", error: "", draftFor: "", draft: "" };

function ensure(s: Store): void {
  const token = isAccount(s) ? s.identity!.token : "";
  if (token !== state.token) {
    state.token = token;
    state.notes = new Map();
    state.loaded = false;
  }
  if (!token || state.loaded || state.loading) return;
  state.loading = true;
  void api(s, "GET", "/api/notes").then((r) => {
    state.loading = false;
    if (state.token !== token) return;
    state.loaded = true;
    if (r.ok) state.notes = new Map((r.notes as Note[]).map((n) => [n.id, n]));
    s.changed();
  });
}

async function save(s: Store, playerId: string, text: string): Promise<void> {
  state.busy = true;
  state.error = "";
  state.status = "";
  s.changed();
  const r = await api(s, "POST", "/api/note", { player: playerId, text });
  state.busy = false;
  if (!r.ok) state.error = refusal(r);
  else {
    const note = r.note as Note | null;
    if (note) state.notes.set(playerId, note);
    else state.notes.delete(playerId);
    state.status = note ? "Saved." : "Note deleted.";
  }
  s.changed();
}

/** The account's note on `player` (another player's profile); nothing for a guest or one's own profile. */
export function noteSection(s: Store, player: { id: string; name: string }): TemplateResult | typeof nothing {
  if (!isAccount(s) || s.me?.id === player.id) return nothing;
  ensure(s);
  if (!state.loaded) return nothing;
  if (state.draftFor !== player.id) {
    state.draftFor = player.id;
    state.draft = state.notes.get(player.id)?.text ?? "";
    state.status = "";
    state.error = "";
  }
  const saved = state.notes.get(player.id);
  return html`<form class="panel note-form" data-testid="note" @submit=${(e: Event) => {
    e.preventDefault();
    void save(s, player.id, state.draft);
  }}>
    <label for="note-text" class="panel-title">Your note on ${player.name} <span class="muted small">(only you see it; they are not told)</span></label>
    <textarea id="note-text" rows="2" maxlength=${NOTE_MAX} .value=${state.draft} placeholder="How they play, what you agreed…"
      @input=${(e: Event) => {
        state.draft = (e.target as HTMLTextAreaElement).value;
        state.status = "";
      }}></textarea>
    <div class="row">
      <button class="btn small" data-testid="note-save" ?disabled=${state.busy}>Save note</button>
      ${saved ? html`<button type="button" class="btn small ghost" data-testid="note-delete" ?disabled=${state.busy} @click=${() => {
        state.draft = "";
        void save(s, player.id, "");
      }}>Delete</button>` : nothing}
      <span class="muted small" role="status" data-testid="note-status">${state.status}</span>
    </div>
    ${state.error ? html`<p class="form-error" role="alert">${state.error}</p>` : nothing}
  </form>`;
}
