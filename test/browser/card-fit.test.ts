/**
 * Every Decktet card fits its face: rank, suit symbols, name and the suits' names stay inside the
 * card, in each size, in each place whose styles resize it, on a phone, a tablet and a desktop.
 * Cards have fixed sizes where they sit in rows; a card with three suits and a name on two lines
 * once spilt its suits' names below the card, onto the page (unreadable in the dark theme; the
 * accessibility audit caught it only when such a card happened to be on the table). The page is
 * built from the client's own cardFace and styles.css (test/browser/card-fit/), so nothing here
 * restates the card's markup.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, DESKTOP, launchChromium, newPage, PHONE, ROOT } from "./support.js";
import { lightDarkFallback } from "../../client/light-dark-fallback.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const TABLET = { width: 700, height: 900 };
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

describe.skipIf(!available)("Decktet cards in chromium", () => {
  let browser: Browser;
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "card-fit-"));
    const { build } = await import("vite");
    await build({ configFile: false, root: join(ROOT, "test/browser/card-fit"), plugins: [lightDarkFallback()], logLevel: "warn", build: { outDir: out, emptyOutDir: true, target: "es2022" } });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("keeps every part of every card inside it, in each size and place, on a phone, a tablet and a desktop", async () => {
    const spills: string[] = [];
    let measured = 0;
    for (const [size, tag] of [[PHONE, "phone"], [TABLET, "tablet"], [DESKTOP, "desktop"]] as const) {
      const { context, page } = await newPage(browser, size);
      await page.route("http://cards.test/**", (route) => {
        const path = new URL(route.request().url()).pathname;
        const file = join(out, path === "/" ? "index.html" : path);
        return route.fulfill({ body: readFileSync(file), contentType: TYPES[extname(file)] ?? "application/octet-stream" });
      });
      await page.goto("http://cards.test/");
      await page.locator('body[data-ready="1"]').waitFor();
      const found = (await page.evaluate(`[...document.querySelectorAll("section[data-place] .card")].map((card) => {
        const box = card.getBoundingClientRect();
        const out = [...card.children].filter((part) => getComputedStyle(part).display !== "none").filter((part) => {
          const r = part.getBoundingClientRect();
          return r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5;
        }).map((part) => part.className.baseVal ?? part.className);
        return { place: card.closest("section").dataset.place, card: card.dataset.card, size: card.className.match(/card-(lg|md)/)[1], out };
      })`)) as { place: string; card: string; size: string; out: string[] }[];
      measured += found.length;
      for (const f of found) if (f.out.length) spills.push(`${tag}, ${f.place}, ${f.size}: ${f.card}: ${f.out.join(", ")} outside the card`);
      await context.close();
    }
    expect(measured, "cards measured (45 cards, 2 sizes, 4 places, 3 screens)").toBe(45 * 2 * 4 * 3);
    expect(spills, spills.join("\n")).toEqual([]);
  }, 120_000);
});
