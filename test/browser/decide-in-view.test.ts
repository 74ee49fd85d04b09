/**
 * "Decide without scrolling" (issue 25): at 1280x800 and at 390x844, when a decision is offered
 * to the player, its controls and the information it needs are in the viewport together, each box
 * whole (top >= 0, bottom <= innerHeight, left >= 0, right <= innerWidth), not clipped by a
 * scrolling panel and not covered by another box (a sticky bar, say):
 * - Goblin Market: the bid/pass controls with every player's coins and score and the lot;
 * - Sorcerous Futures: the bid box with your valuations and the item on offer;
 * - Goblin Teeth: the dice/decision controls with your hand and your Offering progress;
 * - Aucteraden: the market cards to choose from with the tableau, then the lit cells to place
 *   into with the market.
 * The test never scrolls: moves are made with DOM click events (a real mouse click's, detail 1),
 * which, unlike Playwright's clicks, do not scroll the element into view first; whatever scroll
 * the page has when a decision comes is the page's own doing. Each game is checked at two
 * decision points (the first and a later one). Casual rooms with bots. At each, no word of the
 * turn banner may be broken across two lines ("Auctio" / "n 5" on a phone, once).
 */
import { describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, createRoom, enterName, newPage, pageTrue, splitWords, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

const SIZES = [
  { name: "desktop 1280x800", width: 1280, height: 800 },
  { name: "phone 390x844", width: 390, height: 844 },
] as const;

/**
 * What must be in view: a name for the report and one or more selectors, each a way the page may
 * show it (a compact summary next to the controls, or the full panel). One way must have every
 * match wholly in view (and one match at least).
 */
type Want = [what: string, ...selectors: string[]];

/**
 * Evaluated in the page: for each want none of whose ways is wholly in view, the boxes that are
 * not (outside the window, clipped by a scrolling/overflow ancestor, or covered at their centre
 * by something else) in each way, or "none on the page".
 */
const OUT_OF_VIEW = `(wants) => {
  const W = window.innerWidth, H = window.innerHeight;
  const r1 = (n) => Math.round(n);
  const problems = (what, selector) => {
    const out = [];
    const els = [...document.querySelectorAll(selector)].filter((e) => e.getClientRects().length > 0);
    if (els.length === 0) return [what + ": none on the page (" + selector + ")"];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const where = what + " (" + selector + ") [" + r1(r.left) + "," + r1(r.top) + " " + r1(r.width) + "x" + r1(r.height) + "]";
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > H + 0.5 || r.right > W + 0.5) { out.push(where + " outside the " + W + "x" + H + " viewport (scrollY " + r1(scrollY) + ")"); continue; }
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
        const ar = a.getBoundingClientRect();
        if (r.top < ar.top - 0.5 || r.bottom > ar.bottom + 0.5 || r.left < ar.left - 0.5 || r.right > ar.right + 0.5) { clipped = true; break; }
      }
      if (clipped) { out.push(where + " clipped by a scrolling panel"); continue; }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit && !el.contains(hit) && !hit.contains(el)) out.push(where + " covered by " + hit.tagName.toLowerCase() + "." + String(hit.className?.baseVal ?? hit.className).trim().replace(/\\s+/g, "."));
    }
    return out;
  };
  const out = [];
  for (const [what, ...selectors] of wants) {
    const ways = selectors.map((sel) => problems(what, sel));
    if (ways.some((w) => w.length === 0)) continue;
    out.push(...ways.flat());
  }
  return out;
}`;

/** What is not wholly in view of `wants`; any word the turn banner breaks across lines; its dot alone on a line. */
async function outOfView(page: Page, wants: Want[]): Promise<string[]> {
  // Once the page has settled (two frames: the render and anything it scrolls into view).
  await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
  const hidden = (await page.evaluate(`(${OUT_OF_VIEW})(${JSON.stringify(wants)})`)) as string[];
  // The turn dot sits beside the banner's sentence, not alone on a line above it.
  const lonely = (await page.evaluate(`[...document.querySelectorAll(".status-bar > .pulse")].filter((dot) => {
    const text = dot.nextElementSibling;
    if (!text) return true;
    const d = dot.getBoundingClientRect(), t = text.getBoundingClientRect();
    const middle = d.top + d.height / 2;
    return middle < t.top || middle > t.bottom;
  }).length`)) as number;
  return [...hidden, ...(await splitWords(page, ".status-bar", "the turn banner")), ...(lonely ? ["the turn banner's dot sits on a line of its own"] : [])];
}

/** A mouse click (detail 1) as a DOM event: no scrolling into view first. */
async function tap(page: Page, selector: string): Promise<void> {
  const done = (await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el || el.disabled) return false;
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, detail: 1, view: window }));
    return true;
  })()`)) as boolean;
  if (!done) throw new Error(`nothing enabled to click at ${selector}`);
}

/** The decision panel once it is ready, and what it asks for. */
async function nextDecision(page: Page): Promise<string> {
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor({ timeout: 30_000 });
  return (await panel.getAttribute("data-pending")) ?? "";
}

/** Wait until the decision panel that was showing is gone or busy (the move was sent). */
async function moved(page: Page, version: string | null): Promise<void> {
  await pageTrue(page, `document.querySelector(".room[data-version]")?.getAttribute("data-version") !== ${JSON.stringify(version)}`, "the move to be sent", 30_000);
}

const version = (page: Page) => page.locator(".room[data-version]").getAttribute("data-version");

async function openTable(browser: Browser, url: string, size: { width: number; height: number }, name: string, room: Parameters<typeof createRoom>[1], table: string): Promise<Page> {
  const { page } = await newPage(browser, size);
  await enterName(page, url, name);
  const roomId = await createRoom(page, room);
  // Open the room afresh (as from its link): the lobby's scrolling stays behind.
  await page.goto(`${url}/room/${roomId}`);
  await page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
  const start = page.getByTestId("start");
  // A DOM click: the page is not scrolled to the button (the table opens at the top).
  await Promise.race([start.waitFor().then(() => page.evaluate(`document.querySelector('[data-testid="start"]').click()`)), page.locator(table).waitFor()]);
  await page.locator(table).waitFor();
  return page;
}

describe.skipIf(!available)("decide without scrolling", () => {
  const t = useBrowserBazaar({ botDelayMs: 20 });

  for (const size of SIZES) {
    it(`Goblin Market at ${size.name}: bid controls with every player's coins and score and the lot`, async () => {
      const page = await openTable(t.browser, t.bazaar.server.url, size, "Gwen", { game: "goblin-market", seats: 3, ranked: false, bots: 2 }, ".table-grid");
      const failures: string[] = [];
      let checked = 0;
      for (let moves = 0; checked < 2 && moves < 40; moves++) {
        const pending = await nextDecision(page);
        const v = await version(page);
        if (pending === "bid") {
          const wants: Want[] = [
            ["pass button", '[data-testid="act-panel"] [data-testid="pass"]'],
            ["bid box", '[data-testid="act-panel"] #bid-amount'],
            ["bid button", '[data-testid="act-panel"] [data-testid="bid"]'],
            ["the lot", '[data-testid="decide-lot"] [data-card]', ".auction .offer [data-card]"],
            ["a player's coins", '[data-testid="decide-seat"] [data-testid="decide-coins"]', ".seats .seat .coins"],
            ["a player's score", '[data-testid="decide-seat"] [data-testid="decide-score"]', ".seats .seat .score"],
          ];
          // The bid box may be missing when you cannot outbid; then the pass button alone.
          const canBid = (await page.locator("#bid-amount").count()) > 0;
          failures.push(...(await outOfView(page, canBid ? wants : wants.filter(([w]) => !w.startsWith("bid")))).map((f) => `decision ${checked + 1}: ${f}`));
          // A summary next to the controls says what the Players panel and the auction say.
          const summary = await page.$$eval('[data-testid="decide-seat"]', (els) => els.map((e) => `${e.getAttribute("data-seat")}:${e.querySelector('[data-testid="decide-coins"]')?.getAttribute("data-coins")}:${e.querySelector('[data-testid="decide-score"]')?.getAttribute("data-score")}`));
          const seats = await page.$$eval(".seats .seat[data-seat]", (els) => els.map((e) => `${e.getAttribute("data-seat")}:${e.querySelector(".coins b")?.textContent?.trim()}:${e.querySelector(".score b")?.textContent?.trim().replace("−", "-").replace("+", "")}`));
          if (summary.length) {
            expect(summary.sort(), "the summary's coins and scores are the Players panel's").toEqual(seats.sort());
            expect(await page.$$eval('[data-testid="decide-lot"] [data-card]', (els) => els.map((e) => e.getAttribute("data-card")))).toEqual(await page.$$eval(".auction .offer [data-card]", (els) => els.map((e) => e.getAttribute("data-card"))));
          }
          checked++;
          await tap(page, checked === 1 && canBid ? '[data-testid="bid"]' : '[data-testid="pass"]');
        } else if (pending === "take") {
          await tap(page, '[data-testid="take-all"]');
        } else {
          await tap(page, '[data-testid="card-choice"]');
        }
        await moved(page, v);
      }
      expect(checked, "two bid decisions were checked").toBe(2);
      expect(failures).toEqual([]);
      await page.context().close();
    }, 180_000);

    it(`Sorcerous Futures at ${size.name}: the bid box with your valuations and the item on offer`, async () => {
      const page = await openTable(t.browser, t.bazaar.server.url, size, "Sage", { game: "sorcerous-futures", seats: 3, ranked: false, bots: 2 }, ".sf-table");
      const failures: string[] = [];
      let checked = 0;
      for (let moves = 0; checked < 2 && moves < 60; moves++) {
        const pending = await nextDecision(page);
        const v = await version(page);
        if (pending === "setup") {
          const confirm = await page.locator('[data-testid="confirm"]').count();
          await tap(page, confirm ? '[data-testid="confirm"]' : '[data-testid="reveal"]');
        } else if (pending === "pick") {
          await tap(page, '[data-testid="act-panel"] [data-testid="card-choice"]');
        } else {
          const canBid = (await page.locator("#bid-amount").count()) > 0;
          const wants: Want[] = [
            ["pass button", '[data-testid="act-panel"] [data-testid="pass"]'],
            ...(canBid ? ([["bid box", '[data-testid="act-panel"] #bid-amount'], ["bid button", '[data-testid="act-panel"] [data-testid="bid"]']] as Want[]) : []),
            ["the item on offer", '[data-testid="decide-lot"] [data-card]', '[data-testid="sf-lot"] [data-card]'],
            ["a valuation", '[data-testid="decide-valuations"] [data-card]', '[data-testid="sf-valuations"] [data-card]'],
          ];
          failures.push(...(await outOfView(page, wants)).map((f) => `decision ${checked + 1}: ${f}`));
          const cardsOf = (sel: string) => page.$$eval(sel, (els) => els.map((e) => e.getAttribute("data-card")).sort());
          if (await page.locator('[data-testid="decide-valuations"]').count()) {
            expect(await cardsOf('[data-testid="decide-valuations"] [data-card]'), "the summary shows your valuations").toEqual(await cardsOf('[data-testid="sf-valuations"] [data-card]'));
            expect(await cardsOf('[data-testid="decide-lot"] [data-card]')).toEqual(await cardsOf('[data-testid="sf-lot"] [data-card]'));
          }
          checked++;
          await tap(page, '[data-testid="pass"]');
        }
        await moved(page, v);
      }
      expect(checked, "two bid decisions were checked").toBe(2);
      expect(failures).toEqual([]);
      await page.context().close();
    }, 180_000);

    it(`Goblin Teeth at ${size.name}: the dice and decision controls with your hand and Offering progress`, async () => {
      const page = await openTable(t.browser, t.bazaar.server.url, size, "Tess", { game: "goblin-teeth", seats: 3, ranked: false, bots: 2 }, '[data-testid="gt-table"]');
      const failures: string[] = [];
      let checked = 0;
      for (let moves = 0; checked < 2 && moves < 60; moves++) {
        const pending = await nextDecision(page);
        const v = await version(page);
        const wants: Want[] = [
          ["a control", '[data-testid="act-panel"] button'],
          ["a hand card", '[data-testid="decide-hand"] [data-card]', '[data-testid="gt-hand-cards"] [data-card]'],
          ["an Offering's progress", '[data-testid="decide-progress"]', '.gt-offerings [data-testid="gt-progress"]'],
        ];
        if (pending === "turn" && (await page.locator('[data-testid="gt-die-choice"]').count()) > 0) {
          failures.push(...(await outOfView(page, wants)).map((f) => `decision ${checked + 1}: ${f}`));
          const cardsOf = (sel: string) => page.$$eval(sel, (els) => els.map((e) => e.getAttribute("data-card")).sort());
          if (await page.locator('[data-testid="decide-hand"]').count()) {
            expect(await cardsOf('[data-testid="decide-hand"] [data-card]'), "the summary shows your hand").toEqual(await cardsOf('[data-testid="gt-hand-cards"] [data-card]'));
            expect(await page.$$eval('[data-testid="decide-progress"]', (els) => els.map((e) => e.getAttribute("data-progress"))), "and your progress").toEqual(
              await page.$$eval('.gt-offerings [data-testid="gt-offering"]', (els) => els.map((e) => e.querySelector('[data-testid="gt-progress"]')?.textContent?.trim() ?? "")),
            );
          }
          checked++;
          // One die to its first place.
          await tap(page, '[data-testid="gt-die-choice"]');
          await page.locator('[data-testid="gt-dest"]').first().waitFor();
          await tap(page, '[data-testid="gt-dest"]');
        } else {
          // Any other decision: its first offered answer (or a composer's first options).
          const composer = page.getByTestId("gt-composer");
          if ((await composer.count()) > 0) {
            const step = await composer.getAttribute("data-step");
            await tap(page, step === "confirm" ? '[data-testid="gt-confirm"]' : '[data-testid="gt-composer"] [data-testid="gt-option"]');
            continue;
          }
          const first = (await page.locator('[data-testid="act-panel"] [data-testid="gt-decision"]').count()) > 0 ? '[data-testid="act-panel"] [data-testid="gt-decision"]' : '[data-testid="act-panel"] [data-testid="gt-die-choice"]';
          await tap(page, first);
          if (first.endsWith('"gt-die-choice"]')) {
            await page.locator('[data-testid="gt-dest"]').first().waitFor();
            await tap(page, '[data-testid="gt-dest"]');
          }
        }
        await moved(page, v);
      }
      expect(checked, "two turns were checked").toBe(2);
      expect(failures).toEqual([]);
      await page.context().close();
    }, 180_000);

    it(`Aucteraden at ${size.name}: the market beside the tableau, then the lit cells with the market`, async () => {
      const page = await openTable(t.browser, t.bazaar.server.url, size, "Ada", { game: "aucteraden", seats: 1, ranked: false }, '[data-testid="auct-table"]');
      const failures: string[] = [];
      let checked = 0;
      for (let moves = 0; checked < 4 && moves < 16; moves++) {
        const pending = await nextDecision(page);
        const v = await version(page);
        if (pending === "discard") {
          await tap(page, '[data-testid="discard-market"]');
          await moved(page, v);
          continue;
        }
        // The first move and the sixth (a larger tableau) are checked.
        const check = moves === 0 || moves === 5;
        if (check) {
          failures.push(...(await outOfView(page, [["a market card", '[data-testid="market-card"]'], ["the tableau", '[data-testid="tableau"]']])).map((f) => `move ${moves + 1}, choosing: ${f}`));
          checked++;
        }
        await tap(page, '[data-testid="market-card"]:not([disabled])');
        await page.locator('[data-testid="cell"]').first().waitFor();
        if (check) {
          failures.push(
            ...(await outOfView(page, [["a market card", '[data-testid="market-card"]'], ["a lit cell", '[data-testid="cell"]'], ["the placing bar", '[data-testid="placing"]']])).map((f) => `move ${moves + 1}, placing: ${f}`),
          );
          checked++;
        }
        await tap(page, '[data-testid="cell"]');
        // A cell payable in two suits asks which; otherwise the move is sent.
        await pageTrue(page, `document.querySelector('[data-testid="pay-choice"]') || document.querySelector(".room[data-version]")?.getAttribute("data-version") !== ${JSON.stringify(v)}`, "a payment choice or the move");
        if ((await page.locator('[data-testid="pay-choice"]').count()) > 0) await tap(page, '[data-testid="pay-choice"]');
        await moved(page, v);
      }
      expect(checked, "two moves were checked, before and after choosing").toBe(4);
      expect(failures).toEqual([]);
      await page.context().close();
    }, 180_000);
  }
});
