/**
 * "Online status…" in an account's menu: whether the players who follow it see when it is online
 * and in which game (Account.showOnline; POST /api/me/online; docs/protocol.md, "Following"), as
 * chess.com's "show when I'm online". Off, everyone who follows it sees it offline.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { api, refusal } from "./api.js";
import type { Store } from "./store.js";

const setting: { on: boolean | null; busy: boolean; error: string } = { on: null, busy: false, error: "" };

async function read(s: Store): Promise<void> {
  const r = await api(s, "GET", "/api/me");
  if (r.ok) setting.on = r.showOnline !== false;
  s.changed();
}

async function change(s: Store, on: boolean): Promise<void> {
  setting.busy = true;
  setting.error = "";
  s.changed();
  const r = await api(s, "POST", "/api/me/online", { on });
  setting.busy = false;
  if (r.ok) setting.on = r.showOnline === true;
  else setting.error = refusal(r);
  s.changed();
}

export function onlineStatusSetting(s: Store): TemplateResult {
  return html`<details class="account-online" data-testid="online-setting"
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) void read(s); }}>
    <summary>Online status…</summary>
    ${setting.on === null
      ? html`<p class="muted small">Reading…</p>`
      : html`<label class="notify-toggle small"><input type="checkbox" data-testid="online-on" .checked=${setting.on} ?disabled=${setting.busy}
            @change=${(e: Event) => void change(s, (e.target as HTMLInputElement).checked)} />
          Show the players who follow me when I am online</label>
        <p class="muted small">Off, they see you offline and not in any game. The players at your table still see whether you are there.</p>
        ${setting.error ? html`<p class="form-error" role="alert">${setting.error}</p>` : nothing}`}
  </details>`;
}
