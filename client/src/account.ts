/**
 * Accounts in the browser (docs/protocol.md, "Accounts and sessions"): register (a guest keeps
 * their id, games and ratings), log in, log out, log out everywhere, change password, rename,
 * recover a forgotten password with the recovery code, make a new code, close the account; the
 * devices logged in are sessions.ts, vacations from turn-based games vacation.ts.
 * The token lives where the guest token lived (Store.identity, localStorage); every refusal is
 * shown with the server's own message.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import type { Player } from "./types.js";
import { blockedList } from "./blocks.js";
import { showRecoveryCode } from "./recovery.js";
import { sessionsSection } from "./sessions.js";
import { twoFactorSection } from "./two-factor.js";
import { accountSwitches } from "./account-switches.js";
import { vacationSection } from "./vacation.js";
import { followsList } from "./follows.js";
import { api, refusal, type ApiReply } from "./api.js";

/** A player as the server describes them: `account` only for a logged-in account. */
export type AccountPlayer = Player & { account?: boolean };

interface Reply extends ApiReply {
  token?: string;
  player?: AccountPlayer;
  revoked?: number;
}

export function isAccount(s: Store): boolean {
  return (s.identity?.player as AccountPlayer | undefined)?.account === true;
}

const send = (s: Store, method: "GET" | "POST", path: string, body?: unknown) => api<Reply>(s, method, path, body);
const message = refusal;

/** Register; with a guest identity in this browser, that guest becomes the account. Null or the error. */
export async function register(s: Store, name: string, password: string): Promise<string | null> {
  const guestToken = s.identity && !isAccount(s) ? s.identity.token : undefined;
  const r = await send(s, "POST", "/api/register", { name: name.trim(), password, ...(guestToken ? { token: guestToken } : {}) });
  if (!r.ok || !r.token || !r.player) return message(r);
  s.adoptIdentity(r.token, r.player, guestToken ? `Your account “${r.player.name}” keeps this guest's games and ratings.` : `Welcome, ${r.player.name}.`);
  if (typeof r.recoveryCode === "string") showRecoveryCode(r.recoveryCode, "Your account is ready.");
  return null;
}

/** A forgotten password: name, recovery code, new password; logged in, and the new code shown. */
export async function recover(s: Store, name: string, code: string, password: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/recover", { name: name.trim(), code, password });
  if (!r.ok || !r.token || !r.player) return message(r);
  s.adoptIdentity(r.token, r.player, `Your password is changed, ${r.player.name}; every other device was logged out.`);
  s.socket.disconnect().connect();
  if (typeof r.recoveryCode === "string") showRecoveryCode(r.recoveryCode, "The code you used is spent; this is your new one.");
  return null;
}

/** A new recovery code (the password again); the old one stops working. */
export async function newRecoveryCode(s: Store, password: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/recovery-code", { password });
  if (!r.ok || typeof r.recoveryCode !== "string") return message(r);
  showRecoveryCode(r.recoveryCode, "Your old recovery code no longer works.");
  return null;
}

/** Logs in; with two-step login on, the code too (TOTP_REQUIRED asks the form for it). Null or the refusal. */
export async function login(s: Store, name: string, password: string, code?: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/login", { name: name.trim(), password, ...(code ? { code } : {}) });
  if (r.error?.code === "TOTP_REQUIRED") forms.needCode = true;
  if (!r.ok || !r.token || !r.player) return message(r);
  forms.needCode = false;
  s.adoptIdentity(r.token, r.player, `Logged in as ${r.player.name}.`);
  return null;
}

/** Ends this browser's session (or, `everywhere`, every session of the account). */
export async function logout(s: Store, everywhere = false): Promise<string | null> {
  const r = await send(s, "POST", everywhere ? "/api/logout-all" : "/api/logout", {});
  // A token the server no longer knows is logged out already.
  if (!r.ok && r.error?.code !== "BAD_TOKEN") return message(r);
  s.forgetIdentity(everywhere ? "You are logged out on every device." : "You are logged out. Log in again, or continue as a guest.");
  s.socket.disconnect().connect();
  return null;
}

export async function changePassword(s: Store, old: string, next: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/password", { old, new: next });
  if (!r.ok) return message(r);
  s.toast(r.revoked ? `Password changed; ${r.revoked} other session${r.revoked === 1 ? " was" : "s were"} logged out.` : "Password changed.", "info");
  return null;
}

/** Closes this account for good (the password again): its games in play are resigned, it is logged out everywhere. */
export async function closeAccount(s: Store, password: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/account/close", { password });
  if (!r.ok) return message(r);
  const resigned = (r.resigned as string[] | undefined)?.length ?? 0;
  s.forgetIdentity(`Your account is closed${resigned ? `; ${resigned === 1 ? "its game in play was" : `its ${resigned} games in play were`} resigned` : ""}. Its name stays reserved. You can go on as a guest.`);
  s.socket.disconnect().connect();
  return null;
}

/** An account's new display name (shown at every table where it sits). */
export async function renameAccount(s: Store, name: string): Promise<string | null> {
  const r = await send(s, "POST", "/api/rename", { name: name.trim() });
  if (!r.ok || !r.player || !s.identity) return message(r);
  // The account:renamed push may have come first and said it already: one toast, not two.
  const told = s.identity.player.name === r.player.name;
  s.adoptIdentity(s.identity.token, r.player, told ? undefined : `You are now “${r.player.name}”.`);
  return null;
}

// ---- templates --------------------------------------------------------------------------------

type Mode = "login" | "register" | "recover";
const forms = { mode: "login" as Mode, needCode: false, error: "", busy: false, pwError: "", pwBusy: false, outError: "", closeError: "", closeBusy: false, closeUnderstood: false, codeError: "", codeBusy: false };

function field(id: string, label: string, type: string, autocomplete: string, extra: { min?: number; value?: string } = {}): TemplateResult {
  return html`<label for=${id}>${label}</label>
    <input id=${id} name=${id} type=${type} required autocomplete=${autocomplete} .value=${extra.value ?? ""}
      maxlength=${type === "password" ? 200 : 24} minlength=${extra.min ?? nothing} />`;
}

/**
 * The "it cannot be undone" box of a form that closes or deletes for good, ticked before its button
 * may be pressed: the confirmation is asked in the form, not by a popup after pressing, so the
 * password (or name) is checked in the same step as the deed and a mistyped one is refused at once,
 * with nothing asked first. `testId` is the box's test id and element id.
 */
export function understoodBox(testId: string, words: string, checked: boolean, set: (on: boolean) => void): TemplateResult {
  return html`<label class="understood small" for=${testId}><input type="checkbox" id=${testId} data-testid=${testId} .checked=${checked}
    @change=${(e: Event) => set((e.target as HTMLInputElement).checked)} /> <span>${words}</span></label>`;
}

/**
 * Log in / register, for the name screen and the guest's menu. `asGuest`: a guest identity is
 * in this browser (registering upgrades it).
 */
export function accountForms(s: Store, asGuest: boolean): TemplateResult {
  const m = forms.mode;
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const name = (f.elements.namedItem("acc-name") as HTMLInputElement).value;
    const password = (f.elements.namedItem("acc-password") as HTMLInputElement).value;
    const code = (f.elements.namedItem("acc-code") as HTMLInputElement | null)?.value ?? "";
    const totp = (f.elements.namedItem("acc-totp") as HTMLInputElement | null)?.value ?? "";
    forms.busy = true;
    forms.error = "";
    s.changed();
    forms.error = (await (m === "login" ? login(s, name, password, totp || undefined) : m === "recover" ? recover(s, name, code, password) : register(s, name, password))) ?? "";
    // Done: the next time the form shows (after a log out, say), it offers logging in.
    if (!forms.error) forms.mode = "login";
    forms.busy = false;
    if (!forms.error) (f.closest("details") as HTMLDetailsElement | null)?.removeAttribute("open");
    s.changed();
  };
  return html`<div class="account-forms" data-testid="account-forms">
    <div class="seg" role="tablist" aria-label="Account">
      <button type="button" role="tab" class="seg-opt ${m !== "register" ? "on" : ""}" aria-selected=${m !== "register"} data-testid="acc-tab-login"
        @click=${() => { forms.mode = "login"; forms.error = ""; s.changed(); }}>Log in</button>
      <button type="button" role="tab" class="seg-opt ${m === "register" ? "on" : ""}" aria-selected=${m === "register"} data-testid="acc-tab-register"
        @click=${() => { forms.mode = "register"; forms.error = ""; s.changed(); }}>Create an account</button>
    </div>
    <form class="account-form" @submit=${submit} data-testid=${`acc-form-${m}`}>
      ${field("acc-name", m === "register" ? "Choose a name (unique)" : "Account name", "text", "username", { value: m === "register" && asGuest ? (s.me?.name ?? "") : "" })}
      ${m === "recover"
        ? html`<label for="acc-code">Recovery code</label>
            <input id="acc-code" name="acc-code" required autocomplete="off" spellcheck="false" maxlength="40" placeholder="XXXXX-XXXXX-XXXXX-XXXXX" />`
        : nothing}
      ${field("acc-password", m === "recover" ? "New password" : "Password", "password", m === "login" ? "current-password" : "new-password", m !== "login" ? { min: 8 } : {})}
      ${m === "login" && forms.needCode
        ? html`<label for="acc-totp">Code from your authenticator app</label>
            <input id="acc-totp" name="acc-totp" required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" aria-describedby="acc-totp-lost" />
            <p class="muted small" id="acc-totp-lost" data-testid="acc-totp-lost">No phone at hand? Your recovery code gets you in: “Forgot your password?” below sets a new password and turns two-step login off.</p>`
        : nothing}
      ${forms.error ? html`<p class="form-error" role="alert" data-testid="acc-error">${forms.error}</p>` : nothing}
      <button class="btn small primary" data-testid="acc-submit" ?disabled=${forms.busy}>${m === "login" ? "Log in" : m === "recover" ? "Set the new password" : "Create account"}</button>
      <p class="muted small">${m === "register"
        ? asGuest
          ? "A password of 8 to 200 characters, not a common one. You keep this guest's games and ratings, and can play ranked games and the rated daily challenge, from any device. You will be shown a recovery code: keep it."
          : "A password of 8 to 200 characters, not a common one. An account plays ranked games and the rated daily challenge, from any device. You will be shown a recovery code: keep it."
        : m === "recover"
          ? "The recovery code you were shown when you made the account (or your latest one). Every other device is logged out, two-step login is turned off (turn it on again from your menu), and you get a new code."
          : "Log in on any device with your account name and password."}</p>
      ${m === "login"
        ? html`<button type="button" class="linklike small" data-testid="acc-forgot" @click=${() => { forms.mode = "recover"; forms.error = ""; s.changed(); }}>Forgot your password?</button>`
        : m === "recover"
          ? html`<button type="button" class="linklike small" @click=${() => { forms.mode = "login"; forms.error = ""; s.changed(); }}>Back to log in</button>`
          : nothing}
    </form>
  </div>`;
}

/** An account's own settings in the identity menu: change password, log out here or everywhere. */
export function accountSettings(s: Store): TemplateResult {
  const pw = async (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const old = (f.elements.namedItem("pw-old") as HTMLInputElement).value;
    const next = (f.elements.namedItem("pw-new") as HTMLInputElement).value;
    forms.pwBusy = true;
    s.changed();
    forms.pwError = (await changePassword(s, old, next)) ?? "";
    forms.pwBusy = false;
    if (!forms.pwError) f.reset();
    s.changed();
  };
  const out = async (everywhere: boolean) => {
    if (everywhere && !confirm("Log out on every device, this one included?")) return;
    forms.outError = (await logout(s, everywhere)) ?? "";
    s.changed();
  };
  const code = async (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const password = (f.elements.namedItem("code-password") as HTMLInputElement).value;
    forms.codeBusy = true;
    forms.codeError = "";
    s.changed();
    forms.codeError = (await newRecoveryCode(s, password)) ?? "";
    forms.codeBusy = false;
    if (!forms.codeError) f.reset();
    s.changed();
  };
  const close = async (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const password = (f.elements.namedItem("close-password") as HTMLInputElement).value;
    if (!forms.closeUnderstood) return;
    forms.closeBusy = true;
    forms.closeError = "";
    s.changed();
    forms.closeError = (await closeAccount(s, password)) ?? "";
    forms.closeBusy = false;
    if (!forms.closeError) forms.closeUnderstood = false;
    s.changed();
  };
  return html`<div class="account-settings" data-testid="account-settings">
    <form class="account-form" @submit=${pw}>
      <p class="menu-title">Change password</p>
      ${field("pw-old", "Current password", "password", "current-password")}
      ${field("pw-new", "New password (8 to 200 characters)", "password", "new-password", { min: 8 })}
      ${forms.pwError ? html`<p class="form-error" role="alert">${forms.pwError}</p>` : nothing}
      <button class="btn small" ?disabled=${forms.pwBusy}>Change password</button>
      <p class="muted small">Your other devices are logged out; this one stays.</p>
    </form>
    <div class="account-out">
      <button class="btn small" data-testid="logout" @click=${() => void out(false)}>Log out</button>
      <button class="btn small ghost" data-testid="logout-all" @click=${() => void out(true)}>Log out everywhere</button>
    </div>
    ${forms.outError ? html`<p class="form-error" role="alert">${forms.outError}</p>` : nothing}
    ${sessionsSection(s)}
    ${twoFactorSection(s)}
    ${accountSwitches(s)}
    ${vacationSection(s)}
    <details class="account-recovery" data-testid="account-recovery">
      <summary>Recovery code…</summary>
      <form class="account-form" @submit=${code}>
        <p class="small">If you forget your password, your recovery code sets a new one. Lost it, or never had one? Make a new
          code: the old one stops working.</p>
        ${field("code-password", "Your password (for a new code)", "password", "current-password")}
        ${forms.codeError ? html`<p class="form-error" role="alert">${forms.codeError}</p>` : nothing}
        <button class="btn small" data-testid="recovery-new" ?disabled=${forms.codeBusy}>Make a new code</button>
      </form>
    </details>
    ${followsList(s)}
    ${blockedList(s)}
    <details class="account-close" data-testid="account-close">
      <summary>Close your account…</summary>
      <form class="account-form" @submit=${close}>
        <p class="small">Closing is for good: you are logged out everywhere, every game you are playing is resigned (a bot
          finishes your seat; in a ranked game you are placed last), and you leave the quick play queue. Your name stays
          reserved and your finished games stay in other players' histories; you leave the leaderboards. Only the
          operators can open the account again.</p>
        ${field("close-password", "Your password, to confirm", "password", "current-password")}
        ${understoodBox("account-close-understood", "I understand that closing is for good: only the operators can open my account again.", forms.closeUnderstood, (on) => {
          forms.closeUnderstood = on;
          s.changed();
        })}
        ${forms.closeError ? html`<p class="form-error" role="alert">${forms.closeError}</p>` : nothing}
        <button class="btn small danger" data-testid="account-close-submit" ?disabled=${forms.closeBusy || !forms.closeUnderstood}>Close my account</button>
      </form>
    </details>
  </div>`;
}

/** Where ranked play is offered to a guest: why they cannot, and the way to an account. */
export function rankedNeedsAccount(s: Store): TemplateResult {
  return html`<p class="account-hint small" data-testid="ranked-needs-account">
    <button type="button" class="linklike" @click=${() => openAccountMenu(s, "register")}>Create an account to play ranked</button>
    (ratings and the daily board are for accounts; your games so far come with you).</p>`;
}

/** Opens the identity menu on the account forms. */
export function openAccountMenu(s: Store, mode: Mode): void {
  forms.mode = mode;
  forms.error = "";
  s.changed();
  queueMicrotask(() => {
    const menu = document.querySelector<HTMLDetailsElement>("details[data-testid=me]");
    if (menu) {
      menu.open = true;
      menu.querySelector<HTMLInputElement>("#acc-name")?.focus();
    }
  });
}
