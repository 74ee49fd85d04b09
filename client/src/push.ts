/**
 * Notifications to closed pages (Web Push; docs/protocol.md, "Notifications to closed pages"): an
 * account turns them on for this browser in the identity menu. The browser subscribes through the
 * page's service worker (client/public/notify-sw.js, which shows each push) with the server's key
 * (GET /api/push), and the subscription is given to the server (POST /api/push/subscribe); the
 * server then sends a turn-based game's "your turn" while none of the account's pages is open.
 * Off: the subscription is dropped on both sides.
 */
import { api, type ApiReply } from "./api.js";
import { existingWorker, notifierWorker } from "./notifications.js";
import type { Store } from "./store.js";

/** This browser's state: "on" (subscribed here), "off", "unsupported" (no push here), "server-off" (the server sends none), null until read. */
export type PushState = "on" | "off" | "unsupported" | "server-off";
let state: PushState | null = null;
let busy = false;
/** The account this browser's subscription was given to (a browser shared by two accounts notifies the last one that turned it on). */
const FOR_KEY = "goblin-bazaar.push-for";
let readFor: string | null = null;

/** This browser's state for the player logged in now (null: not read yet; reading starts). */
export function pushState(s: Store): PushState | null {
  const me = s.me?.id ?? null;
  if (me !== readFor) {
    readFor = me;
    state = null;
    if (me) void readPushState(s).catch(() => {});
  }
  return state;
}

export function pushBusy(): boolean {
  return busy;
}

function supported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof PushManager !== "undefined" && typeof Notification !== "undefined";
}

/** Reads whether this browser is subscribed (once per page, or again after a change of account). */
async function readPushState(s: Store): Promise<void> {
  if (!supported()) {
    state = "unsupported";
    return s.changed();
  }
  const key = await api<ApiReply & { publicKey?: string | null }>(s, "GET", "/api/push");
  if (key.ok && !key.publicKey) {
    state = "server-off";
    return s.changed();
  }
  const reg = await existingWorker();
  const sub = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  state = sub && Notification.permission === "granted" && localStorage.getItem(FOR_KEY) === s.me?.id ? "on" : "off";
  s.changed();
}

/** Turns notifications to closed pages on or off for this browser and the account logged in. */
export async function setPush(s: Store, on: boolean): Promise<void> {
  if (busy) return;
  busy = true;
  s.changed();
  try {
    if (on) await subscribe(s);
    else await unsubscribe(s);
  } finally {
    busy = false;
    s.changed();
  }
}

async function subscribe(s: Store): Promise<void> {
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") {
    state = "off";
    return s.toast("Notifications are blocked for this site; allow them in the browser's site settings to use this.");
  }
  const key = await api<ApiReply & { publicKey?: string | null }>(s, "GET", "/api/push");
  if (!key.ok) return s.toast(key.error?.message ?? "Could not reach the server.");
  if (!key.publicKey) {
    state = "server-off";
    return s.toast("This server sends no notifications to closed pages.");
  }
  let sub: PushSubscription;
  try {
    const reg = await notifierWorker();
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(key.publicKey) });
  } catch {
    state = "off";
    return s.toast("This browser could not subscribe to notifications (its push service did not answer); notifications while a page is open still work.");
  }
  const r = await api(s, "POST", "/api/push/subscribe", sub.toJSON());
  if (!r.ok) {
    await sub.unsubscribe().catch(() => false);
    state = "off";
    return s.toast(r.error?.message ?? "Could not turn notifications on.");
  }
  state = "on";
  if (s.me) localStorage.setItem(FOR_KEY, s.me.id);
  s.toast("This device will be told when it is your turn in a turn-based game, even with every page of ours closed.", "info");
}

async function unsubscribe(s: Store): Promise<void> {
  const reg = await existingWorker();
  const sub = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  if (sub) {
    await api(s, "POST", "/api/push/unsubscribe", { endpoint: sub.endpoint });
    await sub.unsubscribe().catch(() => false);
  }
  localStorage.removeItem(FOR_KEY);
  state = "off";
}

function base64urlBytes(v: string): Uint8Array<ArrayBuffer> {
  const b64 = v.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((v.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
