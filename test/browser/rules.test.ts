/**
 * The Rules panel (issue 25 item 1) in a real browser (playwright-core driving Debian's chromium).
 *
 * For every game a player opens a casual table with bots and opens Rules from the table's header:
 * a modal dialog (role, aria-modal, labelled by its title) with the sections players look for (how
 * to play, a turn, end and scoring, the card reference, our rulings). The card reference is checked
 * against the games' own data, as the engine loads it: every Goblin Teeth Cheat card (names and
 * count), Item type and Offering; the six Decktet suits and every rank with its cards. Escape and
 * Close shut it, focus goes back to the Rules button, and the game is exactly as it was (same
 * version, same table; at Goblin Teeth a die chosen for a half-made move is still chosen: the
 * table's own Escape must not fire). On a 390x844 phone the panel fits the screen's width and
 * scrolls inside itself. "How to play" opens the same panel from the lobby and from the New room
 * form.
 *
 * The server's timers are manual and nothing moves the clock but the test, so bots move only when
 * the test lets them: the table cannot change by itself while the panel is open.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ALL_CARDS, SUITS } from "../../src/games/decktet/cards.js";
import { CHEATS, ITEM_TYPES, OFFERINGS } from "../../src/games/goblin-teeth/data.js";
import { CHROMIUM, chromiumAvailable, createRoom, enterName, newPage, PHONE, renderedVersion, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

const DESK = { width: 1280, height: 800 };
const BOT_DELAY_MS = 20;

interface GameCase {
  id: string;
  name: string;
  seats: number;
  bots: number;
  decktet: boolean;
}

const GAMES: GameCase[] = [
  { id: "goblin-market", name: "Goblin Market", seats: 3, bots: 2, decktet: true },
  { id: "sorcerous-futures", name: "Sorcerous Futures", seats: 3, bots: 2, decktet: true },
  { id: "aucteraden", name: "Aucteraden", seats: 1, bots: 0, decktet: true },
  { id: "goblin-teeth", name: "Goblin Teeth", seats: 2, bots: 1, decktet: false },
];

/** The Decktet's ranks as the reference labels them, in data order of first appearance, low to high. */
const RANK_LABELS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "Crown", "Pawn", "Court", "Excuse"];
const rankLabel = (r: string | number | null) => (r === null ? "Excuse" : String(r));

/** The room as drawn, minus the running clocks (they tick with time) and the table chat: neither is the game. */
const TABLE_SNAPSHOT = `(() => {
  const room = document.querySelector(".room[data-version]");
  if (!room) return null;
  const copy = room.cloneNode(true);
  for (const el of copy.querySelectorAll('[data-testid="clock"], [data-testid="clock-bar"], [data-testid="chat"]')) el.remove();
  return copy.innerHTML;
})()`;

const dialog = (page: Page) => page.getByTestId("rules-dialog");

async function isOpen(page: Page): Promise<boolean> {
  return (await page.evaluate(`!!document.querySelector('[data-testid="rules-dialog"]')?.open`)) as boolean;
}

/** Where the dialog is on screen, and the viewport. */
const DIALOG_RECT = `(() => {
  const r = document.querySelector('[data-testid="rules-dialog"]').getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: innerWidth, h: innerHeight };
})()`;

/** After a section button: the dialog itself has not scrolled, Close is on screen, the section heads the text. */
const JUMP_STATE = `(() => {
  const d = document.querySelector('[data-testid="rules-dialog"]');
  const body = d.querySelector('[data-testid="rules-body"]').getBoundingClientRect();
  const close = d.querySelector('[data-testid="rules-close"]').getBoundingClientRect();
  const h = d.querySelector('[data-section="cards"] h3').getBoundingClientRect();
  const box = d.getBoundingClientRect();
  return { dialogScrolled: d.scrollTop !== 0, closeInView: close.top >= box.top && close.bottom <= body.top, sectionAtTop: Math.abs(h.top - body.top) < 40 };
})()`;

/**
 * At phone size: the page's and the dialog's widths, anything sticking out of the dialog (inside
 * a box that scrolls sideways by itself aside: the VP table, the row of section buttons), and
 * whether the text scrolls inside the dialog, not the page.
 */
const PHONE_FIT = `(() => {
  const d = document.querySelector('[data-testid="rules-dialog"]');
  const body = d.querySelector('[data-testid="rules-body"]');
  const r = d.getBoundingClientRect();
  const wider = [...d.querySelectorAll("*")].filter((el) => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && (b.right > r.right + 0.5 || b.left < r.left - 0.5) && !el.parentElement.closest(".rules-table-wrap, .rules-toc");
  });
  const scrollYBefore = scrollY;
  body.scrollTop = body.scrollHeight;
  return {
    docClient: document.documentElement.clientWidth,
    docScroll: document.documentElement.scrollWidth,
    left: r.left,
    right: r.right,
    vw: innerWidth,
    dialogClient: d.clientWidth,
    dialogScroll: d.scrollWidth,
    bodyClient: body.clientWidth,
    bodyScroll: body.scrollWidth,
    scrolls: body.scrollHeight > body.clientHeight,
    scrolled: body.scrollTop > 0,
    pageMoved: scrollY !== scrollYBefore,
    wider: wider.slice(0, 5).map((el) => el.tagName + "." + el.className),
  };
})()`;

/** Open the panel with `button`, wait for its text, and check it is a labelled modal dialog named for the game. */
async function openPanel(page: Page, button: ReturnType<Page["getByTestId"]>, game: GameCase): Promise<void> {
  await button.click();
  await page.locator('[data-testid="rules-dialog"][data-ready="1"]').waitFor();
  expect(await isOpen(page)).toBe(true);
  const d = dialog(page);
  expect(await d.getAttribute("role")).toBe("dialog");
  expect(await d.getAttribute("aria-modal")).toBe("true");
  const labelledBy = await d.getAttribute("aria-labelledby");
  expect(await page.locator(`#${labelledBy}`).textContent()).toBe(`${game.name}: rules`);
  await expect.poll(() => page.getByRole("dialog", { name: `${game.name}: rules` }).count()).toBe(1);
  // Focus is in the dialog (on Close), and the keyboard keeps it there.
  expect(await page.evaluate(`document.activeElement?.getAttribute("data-testid")`)).toBe("rules-close");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(`!!document.activeElement?.closest('[data-testid="rules-dialog"]')`)).toBe(true);
  await page.keyboard.press("Shift+Tab");
  expect(await page.evaluate(`document.activeElement?.getAttribute("data-testid")`)).toBe("rules-close");
}

/** The sections, and the card reference against the game's own data. */
async function checkContent(page: Page, game: GameCase): Promise<void> {
  const d = dialog(page);
  for (const [key, heading] of [
    ["how-to-play", /^How to play$/],
    ["setup", /Setup/],
    ["turn", /turn|auction/i],
    ["end", /End/],
    ["cards", /^Card reference$/],
    ["rulings", /^Our rulings$/],
  ] as const) {
    const section = d.locator(`[data-section="${key}"]`);
    expect(await section.count(), `section ${key}`).toBe(1);
    expect(await section.locator("h3").textContent()).toMatch(heading);
    expect(((await section.textContent()) ?? "").length, `section ${key} has text`).toBeGreaterThan(80);
  }
  // The first-timer's summary: five or six lines, the goal first, the end last.
  const lines = await d.locator('[data-section="how-to-play"] li').allTextContents();
  expect(lines.length).toBeGreaterThanOrEqual(5);
  expect(lines.length).toBeLessThanOrEqual(6);
  expect(lines[0]).toMatch(/^Goal:/);
  expect(lines.at(-1)).toMatch(/end|most money/i);
  // Our rulings: several, each saying what was open and what we chose.
  const rulings = d.getByTestId("rules-ruling");
  expect(await rulings.count()).toBeGreaterThanOrEqual(5);
  for (const text of await rulings.allTextContents()) expect(text).toMatch(/Open[\s\S]+Ours/);
  expect(await d.locator('[data-section="rulings"]').textContent()).toContain(`docs/rules/${game.id}.md`);

  if (game.decktet) {
    expect(await d.locator("[data-testid=rules-suits] [data-suit]").evaluateAll((els) => els.map((e) => e.getAttribute("data-suit")))).toEqual([...SUITS]);
    expect(await d.locator("[data-testid=rules-suits]").textContent()).toContain("Knots");
    const ranks = await d.locator("[data-testid=rules-ranks] [data-rank]").evaluateAll((els) => els.map((e) => e.getAttribute("data-rank")));
    expect(ranks).toEqual(RANK_LABELS);
    // Every card of the deck, under its rank, named.
    for (const label of RANK_LABELS) {
      const row = d.locator(`[data-rank="${label}"]`);
      const want = ALL_CARDS.filter((c) => rankLabel(c.rank) === label);
      expect(await row.locator("[data-card-ref]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card-ref")))).toEqual(want.map((c) => c.id));
      const text = (await row.textContent()) ?? "";
      for (const c of want) expect(text).toContain(c.name.replace(/^The /, ""));
    }
  } else {
    // Every Cheat card in the data, by name, with the copies counted.
    const kinds = [...new Set(CHEATS.map((c) => c.kind))];
    const cheats = d.locator("[data-testid=rules-cheats] [data-cheat]");
    expect(await cheats.count()).toBe(kinds.length);
    expect((await cheats.evaluateAll((els) => els.map((e) => e.getAttribute("data-cheat")))).sort()).toEqual([...kinds].sort());
    const names = await d.locator("[data-testid=rules-cheats] .rules-cheat-name").allTextContents();
    expect(names.sort()).toEqual([...new Set(CHEATS.map((c) => c.name))].sort());
    expect(Number(await d.getByTestId("rules-cheats").getAttribute("data-total"))).toBe(CHEATS.length);
    expect(CHEATS.length).toBe(30);
    for (const c of CHEATS) expect(await d.locator(`[data-cheat="${c.kind}"]`).textContent()).toContain(c.text);
    const ongoing = CHEATS.filter((c) => c.type === "ongoing").length;
    expect(await d.locator('[data-section="cards"] h4').first().textContent()).toBe(`Cheat cards: ${CHEATS.length} (${CHEATS.length - ongoing} Action, ${ongoing} Ongoing)`);
    expect(await d.locator("[data-testid=rules-items] [data-item-type]").evaluateAll((els) => els.map((e) => e.getAttribute("data-item-type")))).toEqual([...ITEM_TYPES]);
    expect(await d.locator("[data-testid=rules-offerings] [data-offering-ref]").evaluateAll((els) => els.map((e) => e.getAttribute("data-offering-ref")))).toEqual(OFFERINGS.map((o) => o.id));
  }
}

async function closeWith(page: Page, how: "Escape" | "Close"): Promise<void> {
  if (how === "Escape") await page.keyboard.press("Escape");
  else await page.getByTestId("rules-close").click();
  await expect.poll(() => isOpen(page)).toBe(false);
}

/** Focus is back on the button that opened the panel. */
async function focusedKey(page: Page): Promise<string | null> {
  return page.evaluate(`document.activeElement?.getAttribute("data-rules-key") ?? null`);
}

describe.skipIf(!available)("the Rules panel", () => {
  let now = Date.now();
  const t = useBrowserBazaar({ now: () => now, manualTimers: true, botDelayMs: BOT_DELAY_MS });

  for (const game of GAMES) {
    it(`opens over the ${game.name} table and leaves the game as it was`, async () => {
      const url = t.bazaar.server.url;
      const { context, page } = await newPage(t.browser, DESK);
      const phone = await newPage(t.browser, PHONE);
      try {
        await enterName(page, url, `Reader ${GAMES.indexOf(game) + 1}`);
        const roomId = await createRoom(page, { game: game.id, seats: game.seats, ranked: false, bots: game.bots });
        if (game.seats > 1) {
          const start = page.getByTestId("start");
          await expect.poll(() => start.isEnabled()).toBe(true);
          await start.click();
        }
        await page.locator('.room[data-status="playing"]').waitFor();
        const serverVersion = async () => (await t.bazaar.server.store.get(roomId))!.version;

        // Goblin Teeth: let the bot move until it is our turn, then choose a die (a half-made move).
        if (game.id === "goblin-teeth") {
          for (let i = 0; i < 40 && (await page.getByTestId("gt-die-choice").count()) === 0; i++) {
            now += BOT_DELAY_MS;
            await t.bazaar.server.timers.tick();
            await expect.poll(async () => (await renderedVersion(page)) === (await serverVersion())).toBe(true);
          }
          await page.getByTestId("gt-die-choice").first().click();
          await page.getByTestId("gt-dest").first().waitFor();
        }
        await expect.poll(async () => (await renderedVersion(page)) === (await serverVersion())).toBe(true);
        // The game's table code has arrived (it is fetched the first time a page shows that game).
        await expect.poll(() => page.getByTestId("table-loading").count()).toBe(0);
        const version = await serverVersion();
        const before = await page.evaluate(TABLE_SNAPSHOT);
        expect(before).not.toBeNull();

        const rulesButton = page.locator(".room-head").getByTestId("rules-open");
        expect(await rulesButton.getAttribute("aria-label")).toBe(`Rules of ${game.name}`);
        expect(await rulesButton.textContent()).toContain("Rules");

        // Opened from the table: the sections and the card reference; closed with Escape.
        await openPanel(page, rulesButton, game);
        await checkContent(page, game);
        // Readable at 1280x800: the whole dialog is on screen, its text scrolls inside it.
        const desk = (await page.evaluate(DIALOG_RECT)) as { left: number; right: number; top: number; bottom: number; w: number; h: number };
        expect(desk.left).toBeGreaterThanOrEqual(0);
        expect(desk.right).toBeLessThanOrEqual(desk.w);
        expect(desk.top).toBeGreaterThanOrEqual(0);
        expect(desk.bottom).toBeLessThanOrEqual(desk.h);
        await closeWith(page, "Escape");
        expect(await focusedKey(page)).toBe("table");
        expect(await page.evaluate(TABLE_SNAPSHOT)).toBe(before);
        expect(await serverVersion()).toBe(version);
        expect(await renderedVersion(page)).toBe(version);

        // Again, closed with its Close button; a section button jumps to the card reference.
        await openPanel(page, rulesButton, game);
        await dialog(page).getByRole("navigation", { name: "Sections" }).getByRole("button", { name: "Card reference" }).click();
        await expect.poll(() => page.evaluate(`document.activeElement?.textContent`)).toBe("Card reference");
        // Only the text scrolled: the header with Close is where it was, the section at the top of the text.
        await expect.poll(() => page.evaluate(JUMP_STATE)).toEqual({ dialogScrolled: false, closeInView: true, sectionAtTop: true });
        await closeWith(page, "Close");
        expect(await focusedKey(page)).toBe("table");
        expect(await page.evaluate(TABLE_SNAPSHOT)).toBe(before);
        expect(await serverVersion()).toBe(version);
        if (game.id === "goblin-teeth") {
          // The table's own Escape (drop the half-made move) did not fire: the die is still chosen.
          expect(await page.locator('[data-testid="gt-die-choice"][aria-pressed="true"]').count()).toBe(1);
          expect(await page.getByTestId("gt-dest").count()).toBeGreaterThan(0);
        }

        // On a phone (a spectator of the same table): the panel fits the width and scrolls inside itself.
        await enterName(phone.page, url, `Phone ${GAMES.indexOf(game) + 1}`, `/room/${roomId}`);
        if ((await phone.page.getByTestId("watch-started").count()) > 0) await phone.page.getByTestId("watch-started").click();
        await phone.page.locator('.room[data-status="playing"]').waitFor();
        await openPanel(phone.page, phone.page.locator(".room-head").getByTestId("rules-open"), game);
        const fit = (await phone.page.evaluate(PHONE_FIT)) as {
          docClient: number; docScroll: number; left: number; right: number; vw: number; dialogClient: number; dialogScroll: number;
          bodyClient: number; bodyScroll: number; scrolls: boolean; scrolled: boolean; pageMoved: boolean; wider: string[];
        };
        expect(fit.docScroll, "the page does not scroll sideways").toBeLessThanOrEqual(fit.docClient);
        expect(fit.left).toBeGreaterThanOrEqual(0);
        expect(fit.right).toBeLessThanOrEqual(fit.vw);
        expect(fit.dialogScroll).toBeLessThanOrEqual(fit.dialogClient);
        expect(fit.bodyScroll, "the text wraps inside the panel").toBeLessThanOrEqual(fit.bodyClient);
        expect(fit.wider, "nothing sticks out of the panel").toEqual([]);
        expect(fit.scrolls && fit.scrolled && !fit.pageMoved).toBe(true);
        await closeWith(phone.page, "Escape");
        expect(await focusedKey(phone.page)).toBe("table");
        expect(await serverVersion()).toBe(version);
      } finally {
        await phone.context.close();
        await context.close();
      }
    }, 120_000);
  }

  it("opens as How to play from the lobby and from the New room form", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser, DESK);
    try {
      await enterName(page, url, "Newcomer");
      const row = page.getByTestId("how-to-play");
      for (const game of GAMES) {
        const button = row.getByRole("button", { name: `How to play ${game.name}`, exact: true });
        await openPanel(page, button, game);
        expect(await dialog(page).locator('[data-section="how-to-play"] li').count()).toBeGreaterThanOrEqual(5);
        await closeWith(page, "Escape");
        expect(await focusedKey(page)).toBe(`lobby-${game.id}`);
      }
      // The New room form offers the chosen game's rules, and the form keeps what was chosen.
      await page.selectOption("#c-game", "goblin-teeth");
      await page.selectOption("#c-seats", "4");
      const fromForm = page.locator(".create").getByRole("button", { name: "How to play Goblin Teeth", exact: true });
      await openPanel(page, fromForm, GAMES[3]!);
      await checkContent(page, GAMES[3]!);
      await closeWith(page, "Close");
      expect(await focusedKey(page)).toBe("create");
      expect(await page.locator("#c-game").inputValue()).toBe("goblin-teeth");
      expect(await page.locator("#c-seats").inputValue()).toBe("4");
      expect(new URL(page.url()).pathname).toBe("/");
    } finally {
      await context.close();
    }
  }, 120_000);
});
