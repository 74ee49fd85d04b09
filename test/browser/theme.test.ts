/**
 * Light and dark pages (client/src/theme.ts, styles.css): the page follows the system's preference
 * until the reader chooses in the account menu; the choice is kept across reloads and applied before
 * the app's script runs (/theme-boot.js), so a reload never shows the other theme first. Contrast
 * in both themes is the accessibility test's (accessibility.test.ts audits every page in both).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, enterName, newPage, PHONE, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

/** The page's background (--bg) in each theme. */
const LIGHT = "rgb(243, 237, 225)";
const DARK = "rgb(23, 20, 17)";

const background = (page: Page) => page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg') && getComputedStyle(document.body).backgroundColor") as Promise<string>;
const chosen = (page: Page) => page.evaluate(`[document.documentElement.dataset.theme ?? "system", localStorage.getItem("goblin-bazaar.theme")]`) as Promise<[string, string | null]>;

/** Chooses in the account menu, then closes it with Escape (the focus goes back to its button). */
async function choose(page: Page, theme: "System" | "Light" | "Dark"): Promise<void> {
  await page.locator('details[data-testid="me"] > summary').click();
  // Every option shows whole inside the menu (it is 260 px wide, on a phone too).
  const menu = (await page.locator(".account-menu-body").boundingBox())!;
  for (const label of ["System", "Light", "Dark"]) {
    const box = (await page.getByTestId("theme").locator("label", { hasText: label }).boundingBox())!;
    expect(box.x + box.width, `${label} inside the menu`).toBeLessThanOrEqual(menu.x + menu.width);
  }
  await page.getByTestId("theme").getByLabel(theme).check();
  await page.keyboard.press("Escape");
  expect(await page.evaluate(`[document.querySelector('details[data-testid="me"]').open, document.activeElement?.tagName]`)).toEqual([false, "SUMMARY"]);
}

describe.skipIf(!available)("light and dark themes", () => {
  const t = useBrowserBazaar();

  it("follows the system until the reader chooses; the choice survives a reload and is applied before the app runs", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser, undefined, { colorScheme: "dark" });
    await enterName(page, url, "Nyx");
    expect(await background(page)).toBe(DARK);
    expect(await chosen(page)).toEqual(["system", null]);
    // The system prefers dark; the reader chooses Light, then reloads.
    await choose(page, "Light");
    expect(await background(page)).toBe(LIGHT);
    expect(await chosen(page)).toEqual(["light", "light"]);
    // Reload with the app's script held back: the theme is already the chosen one without it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let heldScripts = 0;
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      heldScripts++;
      await held;
      await route.continue();
    });
    // (A module script holds DOMContentLoaded back too: wait only for the body to be parsed.)
    await page.goto(url, { waitUntil: "commit" });
    await expect.poll(async () => heldScripts > 0 && (await page.evaluate("document.body !== null"))).toBe(true);
    expect(await page.locator('[data-testid="me"]').count(), "the app has not run").toBe(0);
    expect(await background(page)).toBe(LIGHT);
    release();
    await page.locator('[data-testid="me"]').waitFor({ state: "attached" });
    await page.unroute(/\/assets\/.*\.js$/);
    expect(await background(page)).toBe(LIGHT);
    // The system changes its mind: a chosen theme stays; back on System, the page follows it.
    await page.emulateMedia({ colorScheme: "light" });
    await choose(page, "Dark");
    expect(await background(page)).toBe(DARK);
    await choose(page, "System");
    expect(await chosen(page)).toEqual(["system", null]);
    expect(await background(page)).toBe(LIGHT);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background(page)).toBe(DARK);
    await context.close();
  }, 60_000);

  it("keeps cards, dice and the dark green panels in their light colours in the dark theme; panels and text turn; the picker fits a phone", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser, undefined, { colorScheme: "dark" });
    await enterName(page, url, "Nox");
    const look = (selector: string) =>
      page.evaluate(`(() => { const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return [style.colorScheme, style.backgroundColor]; })()`) as Promise<[string, string]>;
    // The lobby's cards (the fan beside the welcome) and the top bar keep the light look.
    expect((await look(".hero-fan .card"))[0]).toBe("light");
    expect(await look(".topbar")).toEqual(["light", "rgb(31, 61, 51)"]);
    // A panel of the page turns dark; its menu inside the (light) top bar does too.
    expect((await look(".panel"))[1]).toBe("rgb(34, 30, 26)");
    await page.locator('details[data-testid="me"] > summary').click();
    expect(await look(".account-menu-body")).toEqual(["light dark", "rgb(34, 30, 26)"]);
    await context.close();
    // On a phone the menu's picker fits as well.
    const phone = await newPage(t.browser, PHONE);
    await enterName(phone.page, url, "Lux");
    await choose(phone.page, "Dark");
    expect(await background(phone.page)).toBe(DARK);
    await phone.context.close();
  }, 60_000);
});
