/**
 * The account menu's on/off settings, each read from GET /api/me when its section opens and
 * changed by its own route: "Invitations…" (whether other players may invite you to their tables:
 * POST /api/me/invitations, "Invitations" in docs/protocol.md) and "Online status…" (whether the
 * players who follow you see when you are online and in which game, as chess.com's "show when I'm
 * online": POST /api/me/online, "Following").
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { api, refusal } from "./api.js";
import type { Store } from "./store.js";

interface SwitchSpec {
  /** Its field in GET /api/me and in the route's answer. */
  field: string;
  route: string;
  /** data-testid of the section and of its checkbox. */
  testId: string;
  boxTestId: string;
  summary: string;
  label: string;
  note: string;
}

const states = new Map<string, { on: boolean | null; busy: boolean; error: string }>();
const stateOf = (spec: SwitchSpec) => {
  let st = states.get(spec.field);
  if (!st) states.set(spec.field, (st = { on: null, busy: false, error: "" }));
  return st;
};

async function read(s: Store, spec: SwitchSpec): Promise<void> {
  const r = await api(s, "GET", "/api/me");
  if (r.ok) stateOf(spec).on = r[spec.field] === true;
  s.changed();
}

async function change(s: Store, spec: SwitchSpec, on: boolean): Promise<void> {
  const st = stateOf(spec);
  st.busy = true;
  st.error = "";
  s.changed();
  const r = await api(s, "POST", spec.route, { on });
  st.busy = false;
  if (r.ok) st.on = r[spec.field] === true;
  else st.error = refusal(r);
  s.changed();
}

function accountSwitch(s: Store, spec: SwitchSpec): TemplateResult {
  const st = stateOf(spec);
  return html`<details class="account-switch" data-testid=${spec.testId}
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) void read(s, spec); }}>
    <summary>${spec.summary}</summary>
    ${st.on === null
      ? html`<p class="muted small">Reading…</p>`
      : html`<label class="notify-toggle small"><input type="checkbox" data-testid=${spec.boxTestId} .checked=${st.on} ?disabled=${st.busy}
            @change=${(e: Event) => void change(s, spec, (e.target as HTMLInputElement).checked)} />
          ${spec.label}</label>
        <p class="muted small">${spec.note}</p>
        ${st.error ? html`<p class="form-error" role="alert">${st.error}</p>` : nothing}`}
  </details>`;
}

const INVITATIONS: SwitchSpec = {
  field: "invitations",
  route: "/api/me/invitations",
  testId: "invitations-setting",
  boxTestId: "invitations-on",
  summary: "Invitations…",
  label: "Let other players invite me to their tables",
  note: "An invitation shows on whatever page you have open here. Players you block, and players who block you, cannot invite you either way.",
};

const ONLINE_STATUS: SwitchSpec = {
  field: "showOnline",
  route: "/api/me/online",
  testId: "online-setting",
  boxTestId: "online-on",
  summary: "Online status…",
  label: "Show the players who follow me when I am online",
  note: "Off, they see you offline and not in any game. The players at your table still see whether you are there.",
};

/** The account menu's switches, in order. */
export function accountSwitches(s: Store): TemplateResult {
  return html`${accountSwitch(s, INVITATIONS)}${accountSwitch(s, ONLINE_STATUS)}`;
}
