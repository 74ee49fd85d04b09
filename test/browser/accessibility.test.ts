/**
 * Accessibility, checked by axe-core in a real browser: every page a player or a spectator meets,
 * and each game's table while it is played (as the player whose turn it is, as another seat, as a
 * spectator), with the rules panel open, at the end screen, and in the replay, on a desktop and on
 * a phone. Each check names every defect axe finds (contrast, names of controls and links, ARIA
 * structure, landmarks...), so a failure says what to fix. The games are moved on by the server
 * (random legal actions by the seats), so the pages meet many different states.
 */
import { describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { randomLegalAction } from "../../src/games/legal.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import type { Player } from "../../src/platform/identity.js";
import { clockPresets } from "../../src/platform/clocks.js";
import { findGame } from "../../src/games/registry.js";
import { lcg, until } from "../support/harness.js";
import { account } from "../support/accounts.js";
import { axeViolations, CHROMIUM, chromiumAvailable, DESKTOP, enterAccount, newPage, PHONE, renderedVersion, storedIdentity, useBrowserBazaar } from "./support.js";

/** The page's background in the light theme (--bg): the dark one must differ. */
const LIGHT_BG = "rgb(243, 237, 225)";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const identityOf = async (page: Page): Promise<Player> => (await storedIdentity(page))!.player;

/**
 * Each browser context comes from its own address (test servers trust X-Forwarded-For), since one
 * address may register only a few accounts an hour and these pages register several.
 */
let addresses = 0;

async function openPage(browser: Browser, size: typeof DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const made = await newPage(browser, size);
  addresses++;
  await made.context.setExtraHTTPHeaders({ "x-forwarded-for": `10.9.${addresses >> 8}.${addresses & 255}` });
  return made;
}

/** A new account made through the public API (ranked games rate accounts only). */
const accountPlayer = async (url: string, name: string): Promise<Player> => (await account(url, name)).player;

/** Fails with every defect found, one per line, de-duplicated (the same one at several stops counts once per place). */
function report(found: string[]): void {
  const lines = [...new Set(found)];
  expect(lines.length, `axe found:\n${lines.join("\n")}`).toBe(0);
}

/** Per game, the control that starts a decision made in several steps (the page then offers the next). */
const FIRST_STEP: Record<string, string> = {
  aucteraden: '[data-testid="market-card"]:not([disabled])',
  "goblin-teeth": '[data-testid="gt-play"]:not([disabled]), .gt-die-btn:not([disabled])',
};

describe.skipIf(!available)("accessibility (axe-core)", () => {
  const t = useBrowserBazaar();

  /**
   * Every defect on `page` now, labelled with where the test stood: in the light theme, then with the
   * system preferring dark (styles.css pairs each colour; the contrast rules check the dark twins).
   */
  const audit = async (page: Page, where: string): Promise<string[]> => {
    const found = (await axeViolations(page)).map((v) => `${where}: ${v}`);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor"), "the dark theme applied").not.toBe(LIGHT_BG);
    found.push(...(await axeViolations(page)).map((v) => `${where}, dark: ${v}`));
    await page.emulateMedia({ colorScheme: "light" });
    return found;
  };

  it("the entry screen, the lobby, the account menu, the leaderboards, the games being played and a profile, on a desktop and a phone; a route change focuses the new page's heading", async () => {
    const url = t.bazaar.server.url;
    const found: string[] = [];
    for (const [size, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
      const { context, page } = await openPage(t.browser, size);
      await page.goto(url);
      await page.getByLabel("Your display name").waitFor();
      found.push(...(await audit(page, `${tag} entry`)));
      await page.getByTestId("account-entry").locator("summary").click();
      found.push(...(await audit(page, `${tag} entry, account forms open`)));
      await enterAccount(page, url, `Ally${tag}`);
      const me = await identityOf(page);
      // A game in progress under Your games, with the turn on this player.
      const other = await accountPlayer(url, `Bea${tag}`);
      await t.bazaar.server.service.createMatchRoom([me, other], { game: "goblin-teeth", seats: 2, clock: clockPresets(findGame("goblin-teeth")!)[0]!.id, ranked: false });
      await page.reload();
      await page.locator('[data-testid="your-games"] [data-room]').waitFor();
      await page.getByTestId("daily-panel").waitFor();
      found.push(...(await audit(page, `${tag} lobby`)));
      await page.locator('details[data-testid="me"] > summary').click();
      // With its Vacation… section open (read from the server: its days field shows).
      await page.getByTestId("vacation-setting").locator("summary").click();
      await page.getByTestId("vacation-days").waitFor();
      found.push(...(await audit(page, `${tag} lobby, account menu open`)));
      await page.keyboard.press("Escape");
      // Following a link within the page moves the focus to the new page's heading, and the tab says where it is.
      const focused = () => page.evaluate("document.activeElement?.tagName + ' ' + document.activeElement?.textContent");
      await page.getByTestId("nav-leaderboards").click();
      await expect.poll(focused).toBe("H1 Leaderboards");
      // (A turn waiting for this player in a game, once the page knows of it, is counted first.)
      expect(await page.title()).toMatch(/^(\(1\) Your turn — )?Leaderboards · Goblin Bazaar$/);
      found.push(...(await audit(page, `${tag} leaderboards`)));
      // The logo back to the lobby, then the browser's Back: each lands on its page's heading.
      await page.locator("a.brand").click();
      await expect.poll(focused).toBe(`H1 Welcome, Ally${tag}`);
      await page.goBack();
      await expect.poll(focused).toBe("H1 Leaderboards");
      // The games being played (the header's Watch; a phone's header shows it as its eye alone): the game in progress above is listed.
      await page.getByRole("link", { name: "Watch", exact: true }).click();
      await expect.poll(focused).toBe("H1 Games being played");
      await page.getByTestId("live-list").locator("[data-room]").first().waitFor();
      found.push(...(await audit(page, `${tag} games being played`)));
      await page.goto(`${url}/player/Ally${tag}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.title()).toMatch(new RegExp(`^(\\(1\\) Your turn — )?Ally${tag} · Goblin Bazaar$`));
      found.push(...(await audit(page, `${tag} profile`)));
      await context.close();
    }
    report(found);
  }, 120_000);

  for (const [game, seats, ranked] of [["goblin-market", 4, true], ["sorcerous-futures", 3, false], ["goblin-teeth", 3, true], ["aucteraden", 1, false]] as const) {
    it(`${game}: the table as the acting seat, another seat and a spectator, the rules, the end screen and the replay`, async () => {
      const url = t.bazaar.server.url;
      const service = t.bazaar.server.service;
      const store = t.bazaar.server.store;
      const found: string[] = [];
      // The seat at the desktop, another seat on a phone (games for two or more), a spectator on a phone.
      const desk = await openPage(t.browser, DESKTOP);
      await enterAccount(desk.page, url, `Acc${game.slice(0, 8)}`);
      const players = [await identityOf(desk.page)];
      const phone = seats > 1 ? await openPage(t.browser, PHONE) : null;
      if (phone) {
        await enterAccount(phone.page, url, `Pho${game.slice(0, 8)}`);
        players.push(await identityOf(phone.page));
      }
      for (let i = players.length; i < seats; i++) players.push(await accountPlayer(url, `Oth${i}${game.slice(0, 8)}`));
      const watcher = await openPage(t.browser, PHONE);
      const clock = clockPresets(findGame(game)!)[0]!.id;
      let room: Room = await service.createMatchRoom(players, { game, seats, clock, ranked });
      const id = room.id;
      await watcher.page.goto(`${url}/room/${id}`);
      await watcher.page.getByRole("button", { name: "Just watch games" }).click();
      await watcher.page.getByTestId("spectating").waitFor();
      const pages = [desk.page, ...(phone ? [phone.page] : []), watcher.page];
      for (const p of [desk.page, phone?.page]) if (p) await p.goto(`${url}/room/${id}`);
      const shown = async () => {
        for (const p of pages) await until(async () => (await renderedVersion(p)) >= room.version, "the page to draw the room");
      };
      const random = lcg(seats * 101 + game.length);
      const move = async (seat: number) => {
        room = (await service.act(id, players[seat]!, randomLegalAction(gameOf(room).legalActions(gameState(room), seat), random)!)).room;
      };
      const finished = () => room.status === "finished";
      const active = () => (finished() ? [] : gameOf(room).activeSeats(gameState(room)));

      // The spectator on the phone opens the chat (collapsed there at first).
      await watcher.page.getByTestId("chat-toggle").click();
      // Audit at several points of the game: each time the desktop seat must act.
      let stops = 0;
      let stepped = false;
      for (let stop = 0; stop < 3 && !finished(); stop++) {
        for (let n = 0; n < 4 + stop * 5 && !finished(); n++) await move(active()[0]!);
        while (!finished() && !active().includes(0)) await move(active()[0]!);
        if (finished()) break;
        await shown();
        found.push(...(await audit(desk.page, `${game} v${room.version} desktop, to act`)));
        if (phone) found.push(...(await audit(phone.page, `${game} v${room.version} phone, another seat`)));
        found.push(...(await audit(watcher.page, `${game} v${room.version} phone, spectator`)));
        stops++;
        // The first step of a decision made in several (a card chosen, its places lit), once, where the game has one and it is on offer.
        const firstStep = FIRST_STEP[game] ? desk.page.locator(FIRST_STEP[game]).first() : null;
        if (firstStep && !stepped && (await firstStep.count())) {
          await firstStep.click();
          found.push(...(await audit(desk.page, `${game} v${room.version} desktop, a decision's first step taken`)));
          await desk.page.keyboard.press("Escape");
          stepped = true;
        }
      }
      expect(stops, "audits while the desktop seat had to act").toBeGreaterThanOrEqual(2);
      if (FIRST_STEP[game]) expect(stepped, "a decision's first step audited").toBe(true);
      await desk.page.getByRole("button", { name: "Rules" }).first().click();
      await desk.page.locator('[data-testid="rules-dialog"][data-ready="1"]').waitFor();
      found.push(...(await audit(desk.page, `${game} desktop, the rules open`)));
      await desk.page.keyboard.press("Escape");

      while (!finished()) await move(active()[0]!);
      await shown();
      for (const p of pages) await p.getByTestId("end-screen").waitFor();
      if (ranked) await until(async () => ((await store.get(id))?.ratingChanges ? true : undefined), "the ratings");
      await desk.page.locator('[data-testid="end-screen"]').waitFor();
      found.push(...(await audit(desk.page, `${game} desktop, the end screen`)));
      found.push(...(await audit(watcher.page, `${game} phone, spectator, the end screen`)));
      await desk.page.goto(`${url}/game/${id}?step=3`);
      await desk.page.getByTestId("replay-seed-ok").waitFor();
      found.push(...(await audit(desk.page, `${game} desktop, the replay`)));
      await watcher.page.goto(`${url}/game/${id}`);
      await watcher.page.getByTestId("replay-seed-ok").waitFor();
      found.push(...(await audit(watcher.page, `${game} phone, the replay`)));
      for (const c of [desk, phone, watcher]) await c?.context.close();
      report(found);
    }, 180_000);
  }
});
