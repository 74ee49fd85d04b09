/**
 * The recovery code dialog (docs/protocol.md, "Recovery codes"): shown once, after registering,
 * after a recovery (the used code is spent and a new one replaces it) and when the player makes
 * a new one from the account menu. A modal the player closes by saying they have kept the code;
 * Copy puts it on the clipboard.
 */
import { html, nothing, render } from "lit-html";
import { dialogHost } from "./dialog-host.js";

const state = { code: "", why: "", copied: false };

const ensureHost = dialogHost("recovery-host");
const dialogEl = () => document.querySelector<HTMLDialogElement>("dialog.recovery-dialog");

async function copy(): Promise<void> {
  try {
    await navigator.clipboard.writeText(state.code);
    state.copied = true;
  } catch {
    // No clipboard (an old browser, or permission refused): the code is selectable text.
    const el = dialogEl()?.querySelector(".recovery-code");
    if (el) getSelection()?.selectAllChildren(el);
  }
  draw();
}

function draw(): void {
  render(
    html`<dialog class="recovery-dialog" aria-labelledby="recovery-title" aria-describedby="recovery-why" data-testid="recovery-dialog"
      @keydown=${(e: KeyboardEvent) => e.stopPropagation()}
      @cancel=${(e: Event) => e.preventDefault()}>
      <header class="report-head"><h2 id="recovery-title">Keep your recovery code</h2></header>
      <div class="report-body">
        <p id="recovery-why">${state.why} If you forget your password, this code (with your account's name) lets you set a new one.
          It is shown only now: write it down or keep it in a password manager. It works once; using it gives you a new one.</p>
        <p class="recovery-code" data-testid="recovery-code" aria-label="Recovery code">${state.code}</p>
        <div class="report-actions">
          <button type="button" class="btn small" data-testid="recovery-copy" @click=${() => void copy()}>${state.copied ? "Copied" : "Copy"}</button>
          <button type="button" class="btn small primary" data-testid="recovery-done" @click=${() => closeRecovery()}>I have kept it</button>
        </div>
        ${state.copied ? html`<p class="muted small" role="status">Copied to the clipboard.</p>` : nothing}
      </div>
    </dialog>`,
    ensureHost(),
  );
}

/** Shows a recovery code; `why` opens the explanation ("Your account is ready."). */
export function showRecoveryCode(code: string, why: string): void {
  Object.assign(state, { code, why, copied: false });
  draw();
  const d = dialogEl()!;
  if (!d.open) d.showModal();
  d.querySelector<HTMLElement>("[data-testid=recovery-copy]")?.focus();
}

export function closeRecovery(): void {
  const d = dialogEl();
  if (d?.open) d.close();
  state.code = "";
  // Nothing of it stays in the page.
  render(nothing, ensureHost());
}
