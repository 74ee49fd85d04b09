/**
 * Browser-test support: build the web client when needed, start a real server that serves it,
 * drive Debian's chromium with playwright-core, and play Goblin Market through the UI only.
 * Used by test/browser/*.test.ts and by `npm run screenshots`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../src/db/client.js";
import type { Config } from "../../src/config.js";
import type { Player } from "../../src/platform/identity.js";
import { createLogger } from "../../src/logger.js";
import { startServer, type RunningServer } from "../../src/server.js";
import { openTestDatabase, testConfig, until } from "../support/harness.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLIENT_DIR = join(ROOT, "client");
export const CLIENT_DIST = join(CLIENT_DIR, "dist");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Build client/dist with Vite's JS API unless it is newer than every client source (src/protocol's shared code included). */
export async function ensureClientBuilt(): Promise<void> {
  const index = join(CLIENT_DIST, "index.html");
  const sources = [join(CLIENT_DIR, "src"), join(CLIENT_DIR, "public"), join(CLIENT_DIR, "index.html"), join(CLIENT_DIR, "vite.config.ts"), join(ROOT, "src/protocol"), join(ROOT, "src/games/decktet/decktet.json"), join(ROOT, "src/games/goblin-teeth/goblin-teeth.json")];
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > Math.max(...sources.map(newestMtime))) return;
  const { build } = await import("vite");
  await build({ configFile: join(CLIENT_DIR, "vite.config.ts"), logLevel: "warn" });
}

export interface Bazaar {
  server: RunningServer;
  db: Database;
  close(): Promise<void>;
}

/**
 * A real server (in-process rooms, embedded PGlite) serving the built client. `now`: the server's
 * clock (clocks, timers); `manualTimers`: nothing fires by itself, the test moves `now` and calls
 * `server.timers.tick()` (bots included: move the clock by botDelayMs and tick).
 */
export async function startBazaar(opts: { botDelayMs?: number; now?: () => number; manualTimers?: boolean; adminToken?: string; config?: Partial<Config> } = {}): Promise<Bazaar> {
  await ensureClientBuilt();
  const { db, dispose } = await openTestDatabase(false);
  const config = testConfig({ clientDir: CLIENT_DIST, botDelayMs: opts.botDelayMs ?? 20, ...(opts.adminToken ? { adminToken: opts.adminToken } : {}), ...opts.config });
  const server = await startServer(config, { db, logger: createLogger(config.logLevel, "browser"), sweepEveryMs: 300, ...(opts.now ? { now: opts.now } : {}), ...(opts.manualTimers ? { manualTimers: true } : {}) });
  return {
    server,
    db,
    async close() {
      await server.close();
      await dispose();
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Evaluated in a page: scroll to the top and drop focus (for clean screenshots). */
export const RESET_VIEW = "window.scrollTo(0, 0); document.activeElement && document.activeElement.blur && document.activeElement.blur()";

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(browser: Browser, size = DESKTOP, opts: { colorScheme?: "light" | "dark" } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, isMobile: size.width < 500, hasTouch: size.width < 500, reducedMotion: "reduce", colorScheme: opts.colorScheme ?? "light" });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Open the site and choose a display name on the entry screen. */
export async function enterName(page: Page, baseUrl: string, name: string, path = "/"): Promise<void> {
  await page.goto(baseUrl + path);
  await page.getByLabel("Your display name").fill(name);
  await page.getByRole("button", { name: "Enter the bazaar" }).click();
  // The page was connected (as a watcher) before the name: wait for the identity itself, then for
  // the socket it reconnects with.
  await page.locator('[data-testid="me"]').waitFor({ state: "attached" });
  await page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
}

/**
 * Open the site and enter as an account (ranked rooms and the rated daily attempt need one),
 * through the entry screen's account forms: register `name` (password "password of <name>"), or
 * log in when an earlier test of this server registered it.
 */
export async function enterAccount(page: Page, baseUrl: string, name: string, path = "/"): Promise<void> {
  const password = `password of ${name}`;
  await page.goto(baseUrl + path);
  await page.getByTestId("account-entry").locator("summary").click();
  await page.getByTestId("acc-tab-register").click();
  await page.getByLabel("Choose a name (unique)").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByTestId("acc-submit").click();
  const outcome = await Promise.race([
    page.locator('[data-testid="account-status"]').waitFor({ state: "attached" }).then(() => "in"),
    page.getByTestId("acc-error").waitFor().then(() => "error"),
  ]);
  if (outcome === "in") {
    // A new account is shown its recovery code once, in a dialog the player closes.
    await page.getByTestId("recovery-dialog").waitFor();
    await page.getByTestId("recovery-done").click();
  }
  if (outcome === "error") {
    const text = (await page.getByTestId("acc-error").textContent()) ?? "";
    if (!text.includes("belongs to an account")) throw new Error(`could not register ${name}: ${text}`);
    await page.getByTestId("acc-tab-login").click();
    await page.getByLabel("Account name").fill(name);
    await page.getByLabel("Password").fill(password);
    await page.getByTestId("acc-submit").click();
    await Promise.race([
      page.locator('[data-testid="account-status"]').waitFor({ state: "attached" }),
      page.getByTestId("acc-error").waitFor().then(async () => {
        throw new Error(`could not log in as ${name}: ${await page.getByTestId("acc-error").textContent()}`);
      }),
    ]);
  }
  await page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
}

/**
 * Fill in the lobby's create-room form; returns the new room id (from the URL). `game` is the
 * game id to choose in the form (default: the form's first game, Goblin Market).
 */
export async function createRoom(page: Page, opts: { seats: number; ranked: boolean; bots?: number; game?: string }): Promise<string> {
  await page.getByRole("heading", { name: "New room" }).waitFor();
  await page.locator("#c-game option").first().waitFor({ state: "attached" });
  if (opts.game) await page.selectOption("#c-game", opts.game);
  await page.selectOption("#c-seats", String(opts.seats));
  await page.getByLabel(opts.ranked ? "Ranked" : "Casual", { exact: true }).check();
  if (!opts.ranked && opts.bots) await page.selectOption("#c-bots", String(opts.bots));
  await page.getByRole("button", { name: "Create room" }).click();
  await page.waitForURL(/\/room\/[^/]+$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

/**
 * The words inside `selector`'s elements that the page breaks across two lines ("Auctio" / "n 5",
 * "Jea" / "nie"), each as `what breaks "word"`: a layout that squeezes text into too narrow a box.
 */
export async function splitWords(page: Page, selector: string, what: string): Promise<string[]> {
  // A string, evaluated in the page (this project's tests are typed without the DOM's types).
  return page.evaluate(`(([sel, label]) => {
    const out = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const words = /\\S+/g;
        for (let m = words.exec(n.data); m; m = words.exec(n.data)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          if (new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1) out.push(label + ' breaks "' + m[0] + '" across lines');
        }
      }
    }
    return out;
  })(${JSON.stringify([selector, what])})`) as Promise<string[]>;
}

/** For each element matching `selector`, how many lines its text takes (a button whose label wraps takes two). */
export async function textLines(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => {
    const r = document.createRange();
    const tops = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.data.trim()) continue;
      r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0) tops.add(Math.round(b.top));
    }
    return tops.size;
  })`) as Promise<number[]>;
}

let axeSource: string | undefined;

/**
 * The accessibility defects axe-core (every rule it runs by default: WCAG 2.0-2.2 A and AA, and its
 * best practices) finds in the page as it is drawn now, each as `rule: element: what is wrong`.
 * One exception, stated: "label-content-name-mismatch" on a card button. A card button's visible
 * text is the card's printed face (rank, name, suit abbreviations) and its verb; its name says the
 * verb and the card in words ("Auction The Lunatic: 6 of Moons and Wyrms"), which a screen reader
 * needs and axe's word-by-word comparison cannot match. Every other control's name must contain
 * its visible text.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
  // govern (an injected <script> element would be refused, as it should be).
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.evaluate(axeSource);
  return page.evaluate(`axe.run(document, { resultTypes: ["violations"], elementRef: true }).then((r) => r.violations.flatMap((v) =>
    v.nodes
      .filter((n) => !(v.id === "label-content-name-mismatch" && n.element && n.element.matches(".card-btn")))
      .map((n) => v.id + ": " + n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ").trim()))
  )`) as Promise<string[]>;
}

/**
 * Waits until `expression`, evaluated in the page, is truthy. Not Playwright's waitForFunction:
 * that evaluates a string with eval inside the page, which the page's Content-Security-Policy
 * (rightly) refuses; page.evaluate goes through the DevTools protocol instead.
 */
export async function pageTrue(page: Page, expression: string, what: string, timeoutMs = 20_000): Promise<void> {
  await until(async () => Boolean(await page.evaluate(expression)), what, timeoutMs);
}

/** The identity the page keeps (localStorage "goblin-bazaar.identity"): its token and player; null before a name is chosen. */
export async function storedIdentity(page: Page): Promise<{ token: string; player: Player } | null> {
  const raw = (await page.evaluate(`localStorage.getItem("goblin-bazaar.identity")`)) as string | null;
  return raw ? (JSON.parse(raw) as { token: string; player: Player }) : null;
}

/** The page's room version as rendered (data-version on the room element). */
export async function renderedVersion(page: Page): Promise<number> {
  const v = await page.locator(".room[data-version]").getAttribute("data-version").catch(() => null);
  return v ? Number(v) : -1;
}

/** Every card id drawn on the page (each card face and chip carries data-card). */
export async function cardsOnPage(page: Page): Promise<string[]> {
  return page.$$eval("[data-card]", (els) => els.map((e) => e.getAttribute("data-card") ?? ""));
}

/**
 * Make one legal move on a page whose controls are showing, reading only the UI: bid the
 * minimum to open an auction (sometimes stepping it up with "+"), sometimes raise once,
 * otherwise pass; take all or take one; choose the first card.
 */
export async function playOneMove(page: Page, step: number): Promise<string> {
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor();
  const pending = await panel.getAttribute("data-pending");
  const auction = page.locator(".auction[data-auction]");
  const auctionNo = Number(await auction.getAttribute("data-auction"));
  const bids = Number(await auction.getAttribute("data-bids"));
  if (pending === "bid") {
    const bidButton = page.getByTestId("bid");
    const canBid = (await bidButton.count()) > 0 && (await bidButton.isEnabled());
    const raise = bids === 1 && auctionNo % 3 === 0;
    if (canBid && (bids === 0 || raise)) {
      const input = page.locator("#bid-amount");
      const min = Number(await input.getAttribute("min"));
      const max = Number(await input.getAttribute("max"));
      if (bids === 0 && step % 4 === 1 && min < max) {
        await page.getByRole("button", { name: "One coin more" }).click();
      } else if (step % 5 === 2) {
        await input.fill(String(min));
      }
      const label = (await bidButton.textContent())?.trim() ?? "Bid";
      await bidButton.click();
      return label;
    }
    await page.getByTestId("pass").click();
    return "Pass";
  }
  if (pending === "take") {
    // The choice says what a take-one leaves to the others: each next bidder's card and price, or a discard (rule D).
    // (A plain check: this helper also runs outside the tests, in npm run screenshots.)
    const hint = (await page.getByTestId("take-hint").textContent()) ?? "";
    if (!/^You won with \d+ coins?\. Take all [23] cards, or take one: then (.+ \(bid \d+\) takes one and pays \d+ coins?|the last card is discarded|the other 2 are discarded)(; then .+)?\.$/.test(hint)) {
      throw new Error(`the take-one choice does not say what it leaves to the others: "${hint}"`);
    }
    if (auctionNo % 2 === 0) {
      await page.getByTestId("take-all").click();
      return "Take all";
    }
    const card = page.getByTestId("card-choice").first();
    const id = await card.getAttribute("data-choice");
    await card.click();
    return `Take one ${id}`;
  }
  const card = page.getByTestId("card-choice").first();
  const id = await card.getAttribute("data-choice");
  await card.click();
  return `Choose ${id}`;
}

/**
 * Goblin Teeth: finish a move being composed (a Cheat card, Poisoner, Share the Load, Quick
 * Fingers) reading only the UI: one of the offered values per step (`pick(n)` chooses), then
 * confirm.
 */
export async function finishGoblinTeethComposer(page: Page, pick: (n: number) => number): Promise<void> {
  const composer = page.getByTestId("gt-composer");
  for (let i = 0; i < 8; i++) {
    await composer.waitFor();
    const step = await composer.getAttribute("data-step");
    if (step === "confirm") {
      await page.getByTestId("gt-confirm").click();
      return;
    }
    const options = composer.locator(`[data-testid="gt-option"][data-param="${step}"]`);
    const n = await options.count();
    if (n < 2) throw new Error(`the ${step} step offers ${n} option(s); single values are filled in`);
    await options.nth(pick(n)).click();
    await pageTrue(page, `document.querySelector('[data-testid="gt-composer"]')?.getAttribute("data-step") !== ${JSON.stringify(step)}`, "the next step");
  }
  throw new Error("the composer never reached its confirm step");
}

/**
 * One Goblin Teeth move on a page whose controls are showing, reading only the UI and choosing
 * at random (`random()` in [0, 1)) among what it offers: a Cheat card when one can be played
 * (with probability `cheat`), Poisoner sometimes, otherwise one of your dice and one of its
 * places; every decision from its buttons. Returns what was done ("cheat <card>", "place", ...).
 */
export async function playGoblinTeethMove(page: Page, random: () => number, cheat = 0.75): Promise<string> {
  const pick = (n: number) => Math.floor(random() * n);
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor();
  const pending = (await panel.getAttribute("data-pending"))!;
  const plays = page.getByTestId("gt-play");
  const nPlays = await plays.count();
  if (nPlays > 0 && (pending === "preview" || random() < cheat)) {
    const card = plays.nth(pick(nPlays));
    const id = await card.getAttribute("data-choice");
    await card.click();
    await finishGoblinTeethComposer(page, pick);
    return `cheat ${id}`;
  }
  const decisions = panel.getByTestId("gt-decision");
  switch (pending) {
    case "turn": {
      const poison = page.getByTestId("gt-poison");
      if ((await poison.count()) > 0 && random() < 0.4) {
        await poison.click();
        await finishGoblinTeethComposer(page, pick);
        return "poison";
      }
      const end = panel.locator('[data-testid="gt-decision"][data-type="end-turn"]');
      if ((await end.count()) > 0 && random() < 0.5) {
        await end.click();
        return "end-turn";
      }
      const dice = page.getByTestId("gt-die-choice");
      await dice.nth(pick(await dice.count())).click();
      const dests = page.getByTestId("gt-dest");
      await dests.first().waitFor();
      const dest = dests.nth(pick(await dests.count()));
      const type = await dest.getAttribute("data-type");
      await dest.click();
      return type!;
    }
    case "share":
      await page.getByTestId("gt-share").click();
      await finishGoblinTeethComposer(page, pick);
      return "share";
    case "quick-fingers": {
      const qf = page.getByTestId("gt-qf");
      if ((await qf.count()) > 0 && random() < 0.4) {
        await qf.click();
        await finishGoblinTeethComposer(page, pick);
        return "quick-fingers";
      }
      await decisions.first().click();
      return "stop quick-fingers";
    }
    case "clumsy": {
      const options = panel.getByTestId("gt-option");
      const n = await options.count();
      if (n > 0 && random() < 0.5) {
        await options.nth(pick(n)).click();
        return "clumsy";
      }
      await decisions.first().click();
      return "decline clumsy";
    }
    default: {
      const b = decisions.nth(pick(await decisions.count()));
      const type = await b.getAttribute("data-type");
      await b.click();
      return `${pending}: ${type}`;
    }
  }
}

/**
 * A server and a chromium shared by one describe block's tests, started before them and closed
 * after: `const t = useBrowserBazaar();` then `t.bazaar`, `t.browser` inside the tests.
 */
export function useBrowserBazaar(opts: Parameters<typeof startBazaar>[0] = {}): { readonly bazaar: Bazaar; readonly browser: Browser } {
  let bazaar: Bazaar | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar(opts), launchChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });
  return {
    get bazaar() {
      return bazaar!;
    },
    get browser() {
      return browser!;
    },
  };
}
