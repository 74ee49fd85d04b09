/**
 * "Two-step login…" in an account's menu (docs/protocol.md, "Two-step login"): set it up (the
 * password, then a QR code and the secret as text for an authenticator app, then a code from the
 * app turns it on), or turn it off (the password and a code). The login form's code step is in
 * account.ts. The QR code is drawn here as SVG from the `otpauth://` URI the server gives.
 */
import { html, nothing, svg, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api, refusal } from "./api.js";

/** A QR code's modules as one SVG path, and its size in modules. */
interface QrPath {
  size: number;
  d: string;
}

const state: {
  on: boolean | null;
  setup: { secret: string; uri: string; qr: QrPath } | null;
  error: string;
  busy: boolean;
} = { on: null, setup: null, error: "", busy: false };

async function refresh(s: Store): Promise<void> {
  const r = await api(s, "GET", "/api/me");
  if (r.ok) state.on = r.twoFactor === true;
  s.changed();
}

/** The QR code of `text` (the encoder is its own chunk, fetched when a set-up first needs it). */
async function qrPath(text: string): Promise<QrPath> {
  const { encode } = await import("uqr");
  const qr = encode(text, { ecc: "M", border: 2 });
  let d = "";
  qr.data.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x} ${y}h1v1h-1z`; }));
  return { size: qr.size, d };
}

/** A QR code as an SVG image named by `label`. */
function qrCode(qr: QrPath, label: string): TemplateResult {
  const d = qr.d;
  return html`<svg class="qr" role="img" aria-label=${label} viewBox="0 0 ${qr.size} ${qr.size}" shape-rendering="crispEdges" data-testid="totp-qr">
    ${svg`<rect width=${qr.size} height=${qr.size} fill="#fff"></rect><path d=${d} fill="#000"></path>`}
  </svg>`;
}

/** "ABCD EFGH ..." for reading and typing by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(" ");

function field(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement).value;
}

async function submit(s: Store, e: Event, run: (form: HTMLFormElement) => Promise<string | null>): Promise<void> {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  state.busy = true;
  state.error = "";
  s.changed();
  state.error = (await run(form)) ?? "";
  state.busy = false;
  if (!state.error) form.reset();
  s.changed();
}

const codeInput = (id: string, label: string) => html`<label for=${id}>${label}</label>
  <input id=${id} name=${id} required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" />`;

/** The menu section. */
export function twoFactorSection(s: Store): TemplateResult {
  const setUp = (e: Event) => submit(s, e, async (f) => {
    const r = await api(s, "POST", "/api/two-factor/setup", { password: field(f, "tf-password") });
    if (!r.ok) return refusal(r);
    state.setup = { secret: r.secret as string, uri: r.uri as string, qr: await qrPath(r.uri as string) };
    return null;
  });
  const turnOn = (e: Event) => submit(s, e, async (f) => {
    const r = await api(s, "POST", "/api/two-factor/enable", { code: field(f, "tf-code") });
    if (!r.ok) return refusal(r);
    state.setup = null;
    state.on = true;
    s.toast("Two-step login is on: from now on logging in asks for a code from your app.", "info");
    return null;
  });
  const turnOff = (e: Event) => submit(s, e, async (f) => {
    const r = await api(s, "POST", "/api/two-factor/disable", { password: field(f, "tf-off-password"), code: field(f, "tf-off-code") });
    if (!r.ok) return refusal(r);
    state.on = false;
    s.toast("Two-step login is off.", "info");
    return null;
  });
  const error = state.error ? html`<p class="form-error" role="alert">${state.error}</p>` : nothing;
  let body: TemplateResult;
  if (state.on === null) body = html`<p class="muted small">Reading…</p>`;
  else if (state.on) {
    body = html`<p class="small" data-testid="totp-status">On: logging in asks for a code from your authenticator app.</p>
      <form class="account-form" @submit=${turnOff}>
        <label for="tf-off-password">Your password, to turn it off</label>
        <input id="tf-off-password" name="tf-off-password" type="password" required autocomplete="current-password" maxlength="200" />
        ${codeInput("tf-off-code", "A code from your app")}
        ${error}
        <button class="btn small" data-testid="totp-off" ?disabled=${state.busy}>Turn off</button>
      </form>`;
  } else if (state.setup) {
    body = html`<div class="account-form">
        <p class="small">Scan this with an authenticator app (Aegis, Google Authenticator, 1Password, …), or type the key in it.</p>
        ${qrCode(state.setup.qr, "QR code of your two-step login key, for an authenticator app")}
        <p class="small">Key: <code class="totp-secret" data-testid="totp-secret">${grouped(state.setup.secret)}</code></p>
      </div>
      <form class="account-form" @submit=${turnOn}>
        ${codeInput("tf-code", "The six-digit code your app shows")}
        ${error}
        <button class="btn small primary" data-testid="totp-on" ?disabled=${state.busy}>Turn on</button>
        <p class="muted small">If you lose your phone, your recovery code still gets you in (and turns this off).</p>
      </form>`;
  } else {
    body = html`<p class="small" data-testid="totp-status">Off. With it on, logging in also asks for a six-digit code from an app on your phone, so your password alone is not enough.</p>
      <form class="account-form" @submit=${setUp}>
        <label for="tf-password">Your password, to set it up</label>
        <input id="tf-password" name="tf-password" type="password" required autocomplete="current-password" maxlength="200" />
        ${error}
        <button class="btn small" data-testid="totp-setup" ?disabled=${state.busy}>Set up</button>
      </form>`;
  }
  return html`<details class="account-two-factor" data-testid="two-factor"
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) void refresh(s); }}>
    <summary>Two-step login…</summary>
    ${body}
  </details>`;
}
