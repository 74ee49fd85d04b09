/**
 * "Your data" in the identity menu (docs/protocol.md, "Your data"), for a guest and an account:
 * download everything the server stores about you (GET /api/me/data, saved as a JSON file), and
 * delete your account and data (POST /api/me/erase: an account's password again, a guest's name
 * typed, and a box ticked to say it cannot be undone, as Close account asks), after which this
 * browser forgets the identity.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api, refusal } from "./api.js";
import { isAccount, understoodBox } from "./account.js";

const state = { downloadError: "", downloading: false, eraseError: "", erasing: false, understood: false };

/** Saves everything the server stores about this player as a JSON file. Null or the refusal. */
export async function downloadYourData(s: Store): Promise<string | null> {
  const r = await api(s, "GET", "/api/me/data");
  if (!r.ok || !r.data) return refusal(r);
  const data = r.data as { exportedAt: string };
  const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `goblin-bazaar-data-${data.exportedAt.slice(0, 10)}.json`;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}

/** Deletes this player's account and data; this browser forgets the identity. Null or the refusal. */
export async function eraseYourData(s: Store, confirmation: { password?: string; name?: string }): Promise<string | null> {
  const r = await api(s, "POST", "/api/me/erase", confirmation);
  if (!r.ok) return refusal(r);
  const resigned = (r.resigned as string[] | undefined)?.length ?? 0;
  const what = isAccount(s) ? "Your account and your data are deleted" : "This guest's data is deleted";
  const games = resigned === 0 ? "" : resigned === 1 ? " (your game in play was resigned)" : ` (your ${resigned} games in play were resigned)`;
  s.forgetIdentity(`${what}${games}. Your finished games stay in the other players' histories, with your seat anonymous.`);
  s.socket.disconnect().connect();
  return null;
}

/** The menu section: download, and delete with its confirmation (in the form: account.ts, understoodBox). */
export function yourDataSection(s: Store): TemplateResult {
  const account = isAccount(s);
  const download = async () => {
    state.downloading = true;
    state.downloadError = "";
    s.changed();
    state.downloadError = (await downloadYourData(s)) ?? "";
    state.downloading = false;
    s.changed();
  };
  const erase = async (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const value = (f.elements.namedItem("erase-confirm") as HTMLInputElement).value;
    if (!state.understood) return;
    state.erasing = true;
    state.eraseError = "";
    s.changed();
    state.eraseError = (await eraseYourData(s, account ? { password: value } : { name: value })) ?? "";
    state.erasing = false;
    if (!state.eraseError) state.understood = false;
    s.changed();
  };
  return html`<details class="account-data" data-testid="your-data">
    <summary>Your data…</summary>
    <div class="account-form">
      <p class="small">Everything we store about you: ${account ? "your account, sessions, " : ""}ratings, every finished game you
        played, your messages in their chats, reports you made, blocks and more, as a JSON file.</p>
      <button type="button" class="btn small" data-testid="data-download" ?disabled=${state.downloading} @click=${() => void download()}>Download your data</button>
      ${state.downloadError ? html`<p class="form-error" role="alert">${state.downloadError}</p>` : nothing}
    </div>
    <form class="account-form account-erase" @submit=${erase}>
      <p class="menu-title">Delete ${account ? "your account and data" : "this guest's data"}</p>
      <p class="small">Every game you are playing is resigned (a bot finishes your seat) and you leave the quick play queue.
        ${account ? "Your account, its sessions and ratings" : "Your ratings"}, daily attempts, reports and blocks are deleted${account ? ", and your name becomes free for anyone" : ""}.
        Your finished games stay in the other players' histories, with your seat shown as “Deleted player” and your chat
        messages emptied. It cannot be undone.</p>
      <label for="erase-confirm">${account ? "Your password, to delete your account" : `Type your name, ${s.me?.name ?? ""}, to delete its data`}</label>
      <input id="erase-confirm" name="erase-confirm" type=${account ? "password" : "text"} required
        autocomplete=${account ? "current-password" : "off"} maxlength=${account ? 200 : 24} />
      ${understoodBox("erase-understood", `I understand that this deletes ${account ? "my account and data" : "this guest's data"} for good: it cannot be undone.`, state.understood, (on) => {
        state.understood = on;
        s.changed();
      })}
      ${state.eraseError ? html`<p class="form-error" role="alert">${state.eraseError}</p>` : nothing}
      <button class="btn small danger" data-testid="data-erase" ?disabled=${state.erasing || !state.understood}>Delete ${account ? "my account and data" : "my data"}</button>
    </form>
  </details>`;
}
