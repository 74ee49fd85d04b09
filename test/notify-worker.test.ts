/**
 * The web client's service worker (client/public/notify-sw.js), run in a sandbox with the parts
 * of a worker it uses: a click on a notification focuses an open page of the site and asks it to
 * open the notification's path, or opens a new page there; a path that is not this site's opens
 * the lobby instead. It takes over at once and handles no fetch (so it caches nothing).
 */
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const SOURCE = readFileSync(new URL("../client/public/notify-sw.js", import.meta.url), "utf8");
const ORIGIN = "https://bazaar.example";

interface FakePage {
  url: string;
  messages: unknown[];
  focused: number;
  postMessage(m: unknown): void;
  focus(): Promise<void>;
}

function page(url: string): FakePage {
  return {
    url,
    messages: [],
    focused: 0,
    postMessage(m) {
      this.messages.push(m);
    },
    async focus() {
      this.focused++;
    },
  };
}

function worker(pages: FakePage[]) {
  const listeners = new Map<string, (e: unknown) => void>();
  const opened: string[] = [];
  let skipped = 0;
  const shown: Array<{ title: string; options: unknown }> = [];
  const self = {
    registration: { showNotification: async (title: string, options: unknown) => void shown.push({ title, options }) },
    location: new URL(`${ORIGIN}/notify-sw.js`),
    addEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, fn),
    skipWaiting: () => void skipped++,
    clients: {
      claim: async () => {},
      matchAll: async (opts: unknown) => {
        expect(opts).toEqual({ type: "window", includeUncontrolled: true });
        return pages;
      },
      openWindow: async (path: string) => void opened.push(path),
    },
  };
  runInNewContext(SOURCE, { self, URL });
  const click = async (data: unknown) => {
    let closed = 0;
    let done: Promise<unknown> = Promise.resolve();
    listeners.get("notificationclick")!({ notification: { data, close: () => void closed++ }, waitUntil: (p: Promise<unknown>) => (done = p) });
    await done;
    return closed;
  };
  const push = async (data: { json: () => unknown } | null) => {
    let done: Promise<unknown> = Promise.resolve();
    listeners.get("push")!({ data, waitUntil: (p: Promise<unknown>) => (done = p) });
    await done;
  };
  return { listeners, opened, click, push, shown, skipped: () => skipped };
}

describe("the notifications' service worker", () => {
  it("takes over at once and listens to nothing but install, activate, notification clicks and pushes", () => {
    const w = worker([]);
    expect([...w.listeners.keys()].sort()).toEqual(["activate", "install", "notificationclick", "push"]);
    w.listeners.get("install")!({});
    expect(w.skipped()).toBe(1);
  });

  it("a click asks the site's open page to open the path and focuses it; other sites' pages are passed over", async () => {
    const other = page("https://elsewhere.example/");
    const ours = page(`${ORIGIN}/leaderboards`);
    const w = worker([other, ours]);
    expect(await w.click({ path: "/room/abc" })).toBe(1);
    expect(ours.messages).toEqual([{ type: "goblin-bazaar:open", path: "/room/abc" }]);
    expect(ours.focused).toBe(1);
    expect(other.messages).toEqual([]);
    expect(w.opened).toEqual([]);
  });

  it("with no page of the site open, a click opens a new one at the path", async () => {
    const w = worker([]);
    await w.click({ path: "/room/abc" });
    expect(w.opened).toEqual(["/room/abc"]);
  });

  it("a path that is not this site's opens the lobby", async () => {
    for (const data of [{ path: "//evil.example/x" }, { path: "https://evil.example/" }, { path: 42 }, null, undefined]) {
      const w = worker([]);
      await w.click(data);
      expect(w.opened, JSON.stringify(data)).toEqual(["/"]);
    }
  });

  it("a push message shows its notification, whose click opens its path; a push it cannot read still shows one", async () => {
    const w = worker([]);
    await w.push({ json: () => ({ title: "Your turn — Goblin Market", body: "Your turn against Bea.", path: "/room/abc", tag: "turn-abc" }) });
    expect(w.shown).toEqual([{ title: "Your turn — Goblin Market", options: { body: "Your turn against Bea.", data: { path: "/room/abc" }, tag: "turn-abc" } }]);
    await w.push({ json: () => { throw new SyntaxError("not JSON"); } });
    await w.push(null);
    expect(w.shown.slice(1)).toEqual([
      { title: "Goblin Bazaar", options: { body: "", data: { path: "/" } } },
      { title: "Goblin Bazaar", options: { body: "", data: { path: "/" } } },
    ]);
  });
});
