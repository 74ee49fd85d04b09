/**
 * Browser notifications ("Notify me": your turn, an invitation) while the page is hidden. Shown
 * through the page's service worker (client/public/notify-sw.js) once it is running, since a
 * phone's browser shows none otherwise (Android's Chrome refuses `new Notification` in a page);
 * until then, or where there is no service worker, by the page itself. The worker is registered
 * only once a player turns notifications on; it handles notifications' clicks and nothing else.
 */

const WORKER = "/notify-sw.js";
const OPEN = "goblin-bazaar:open";

let registration: ServiceWorkerRegistration | null = null;
let started = false;

/** A same-site path (what a notification may open). */
function sitePath(path: unknown): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}

/** Registers the worker (once) and opens `path` in this page when one of its notifications is clicked. */
export function startNotifier(open: (path: string) => void): void {
  if (started || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  started = true;
  navigator.serviceWorker.addEventListener("message", (e: MessageEvent) => {
    const d = e.data as { type?: unknown; path?: unknown } | null;
    if (d?.type === OPEN && sitePath(d.path)) open(d.path);
  });
  // No worker (a private window, an old browser): the page shows notifications itself.
  navigator.serviceWorker.register(WORKER).catch(() => {});
  // Ready once a worker is active (at once when one was registered before): asked here, first,
  // so anything waiting on `ready` after this finds the registration taken.
  void navigator.serviceWorker.ready.then((r) => {
    registration = r;
  });
}

/**
 * The page's service worker, registered if it was not (notifications to closed pages need it even
 * where "Notify me" is off), once it is active. Rejects where there is none.
 */
export async function notifierWorker(): Promise<ServiceWorkerRegistration> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) throw new Error("no service worker");
  await navigator.serviceWorker.register(WORKER);
  return navigator.serviceWorker.ready;
}

/** The worker's registration if one is registered already (nothing is registered by asking). */
export async function existingWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration(WORKER).catch(() => undefined)) ?? null;
}

/** Shows a notification that opens `path` when clicked. False: the browser showed none. */
export function showNotification(title: string, body: string, tag: string, path: string, open: (path: string) => void): boolean {
  if (registration) {
    void registration.showNotification(title, { body, tag, data: { path } }).catch(() => {});
    return true;
  }
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      open(path);
      n.close();
    };
    return true;
  } catch {
    return false;
  }
}
