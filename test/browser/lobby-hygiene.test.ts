/**
 * Lobby hygiene in the browser (issue 23, part 4): open rooms show how long ago they were opened
 * (by the server's clock, injected here) and whether their host is here, updated live; a filter by
 * game above the room lists, with counts, kept for the tab; an invitation link to a game already
 * started offers to watch it, never a seat.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Player } from "../../src/platform/identity.js";
import { guest, until } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, createRoom, enterName, launchChromium, newPage, startBazaar, type Bazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("lobby hygiene in the browser", () => {
  let bazaar: Bazaar;
  let browser: Browser;
  let clock = Date.UTC(2026, 10, 24, 9, 0, 0);

  beforeAll(async () => {
    bazaar = await startBazaar({ now: () => clock, manualTimers: true });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  it("shows each open room's age and host presence, filters by game, and a started game's link offers to watch", async () => {
    const url = bazaar.server.url;
    const service = bazaar.server.service;
    const player = async (name: string) => (await guest(url, name)).player as Player;
    const [ada, bo, cy, di, ed] = [await player("Ada"), await player("Bo"), await player("Cy"), await player("Di"), await player("Ed")];

    const market = await service.create(ada, { game: "goblin-market", seats: 3 });
    clock += 3 * 60_000;
    const teeth = await service.create(bo, { game: "goblin-teeth", seats: 3 });
    await service.hostPresence(teeth.id, false);
    const started = await service.createMatchRoom([cy, di, ed], { game: "goblin-teeth", seats: 3, clock: "none", ranked: false });
    expect(started.status).toBe("playing");
    clock += 4 * 60_000;

    const { page } = await newPage(browser);
    await enterName(page, url, "Viewer");
    const openRow = (id: string) => page.locator(`.open-rooms [data-room="${id}"]`);
    await openRow(market.id).waitFor();
    expect(await openRow(market.id).getByTestId("room-age").innerText()).toBe("opened 7 min ago");
    expect(await openRow(teeth.id).getByTestId("room-age").innerText()).toBe("opened 4 min ago");
    expect(await openRow(market.id).getByTestId("host-presence").innerText()).toBe("Host here");
    expect(await openRow(teeth.id).getByTestId("host-presence").innerText()).toBe("Host away");
    // Live: the host of the Goblin Market room leaves; the row says so without a reload.
    await service.hostPresence(market.id, false);
    await openRow(market.id).locator('[data-testid="host-presence"][data-away="1"]').waitFor();
    await service.hostPresence(market.id, true);
    await openRow(market.id).locator('[data-testid="host-presence"][data-away="0"]').waitFor();

    // The filter by game, with counts (open and live rooms together).
    const filter = page.getByTestId("game-filter");
    const chip = (game: string) => filter.locator(`[data-game="${game}"]`);
    expect(await chip("all").locator(".count").innerText()).toBe("3");
    expect(await chip("goblin-market").locator(".count").innerText()).toBe("1");
    expect(await chip("goblin-teeth").locator(".count").innerText()).toBe("2");
    expect(await chip("all").getAttribute("aria-pressed")).toBe("true");
    await chip("goblin-teeth").click();
    await until(async () => (await page.locator(".open-rooms .room-row").count()) === 1, "the open list filtered");
    expect(await openRow(teeth.id).count()).toBe(1);
    expect(await page.locator(`.live-rooms [data-room="${started.id}"]`).count()).toBe(1);
    expect(await chip("goblin-teeth").getAttribute("aria-pressed")).toBe("true");
    // Kept for this tab across a reload.
    await page.reload();
    await openRow(teeth.id).waitFor();
    expect(await openRow(market.id).count()).toBe(0);
    await chip("goblin-market").click();
    await openRow(market.id).waitFor();
    expect(await openRow(teeth.id).count()).toBe(0);
    expect(await page.locator(".live-rooms .room-row").count()).toBe(0);
    expect(await page.locator(".live-rooms .empty").innerText()).toBe("No Goblin Market game being played right now.");
    await chip("all").click();
    await openRow(teeth.id).waitFor();
    expect(await page.evaluate(`sessionStorage.getItem("goblin-bazaar.lobby-game")`)).toBeNull();

    // Someone with a name opens the link of the started game: they watch, no seat on offer.
    await page.goto(`${url}/room/${started.id}`);
    await page.getByTestId("started-watch").waitFor();
    expect(await page.getByTestId("spectating").count()).toBe(1);
    expect(await page.getByRole("button", { name: /Sit here|Take a seat/i }).count()).toBe(0);

    // A newcomer opens the invitation link of the started game: told it has started, offered Watch.
    const fresh = await newPage(browser);
    await fresh.page.goto(`${url}/room/${started.id}`);
    const invitation = fresh.page.locator('[data-testid="invitation"][data-status="playing"]');
    await invitation.waitFor();
    expect(await invitation.innerText()).toContain("This game has already started");
    expect(await invitation.innerText()).not.toMatch(/take a seat/i);
    await fresh.page.getByTestId("watch-started").click();
    await fresh.page.locator(`.room[data-room="${started.id}"][data-status="playing"]`).waitFor();
    await fresh.page.getByTestId("started-watch").waitFor();
    expect(await fresh.page.getByRole("button", { name: /Sit here|Take a seat/i }).count()).toBe(0);

    // While the link of a room still open invites to take a seat.
    const other = await newPage(browser);
    await other.page.goto(`${url}/room/${market.id}`);
    const openInvite = other.page.locator('[data-testid="invitation"][data-status="open"]');
    await openInvite.waitFor();
    expect(await openInvite.innerText()).toContain("Choose a name to take a seat");
    await fresh.context.close();
    await other.context.close();
  }, 120_000);

  it("a host who leaves their open table for another page is told, on every page, that it waits for them, with the way back", async () => {
    const url = bazaar.server.url;
    const { page, context } = await newPage(browser);
    await enterName(page, url, "Hostess");
    const roomId = await createRoom(page, { seats: 3, ranked: false });
    const banner = page.getByTestId("hosting-away");
    expect(await banner.count()).toBe(0);
    // To the leaderboards: the table shows the host away (the lobby's rule), and the page says so.
    await page.getByTestId("nav-leaderboards").click();
    await banner.waitFor();
    expect(await banner.innerText()).toContain("Your Goblin Market table is waiting for you: only you can start it, and it closes if you stay away a few minutes.");
    await expect.poll(async () => (await bazaar.server.service.get(roomId)).hostAwaySince !== undefined).toBe(true);
    // On to the lobby: still said; the way back leads to the table, where the host is here again.
    await page.getByRole("link", { name: "Goblin Bazaar: the lobby" }).click();
    await banner.waitFor();
    await banner.getByRole("link", { name: "Back to your table" }).click();
    await page.waitForURL(`${url}/room/${roomId}`);
    expect(await banner.count()).toBe(0);
    await expect.poll(async () => (await bazaar.server.service.get(roomId)).hostAwaySince).toBeUndefined();
    // Once the game has started, leaving it says nothing of the kind.
    for (const name of ["Guesta", "Guestb"]) {
      const g = await guest(url, name);
      await bazaar.server.service.join(roomId, g.player as Player);
    }
    await page.getByTestId("start").click();
    await page.locator(`.room[data-room="${roomId}"][data-status="playing"]`).waitFor();
    await page.getByTestId("nav-leaderboards").click();
    await page.getByRole("heading", { name: /Leaderboards/ }).first().waitFor();
    expect(await banner.count()).toBe(0);
    await context.close();
  }, 120_000);
});
