/**
 * Rematch from the end screen in a real browser (issue 23): three guests finish a Goblin Teeth
 * game (seated and played through the server, to reach the end screen fast); one presses
 * "Rematch", the others see the offer with who accepted and press "Accept"; every page ends in the
 * new room, which has started with the same players in the same seats.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { randomLegalAction } from "../../src/games/legal.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import type { Player } from "../../src/platform/identity.js";
import { lcg, until } from "../support/harness.js";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, enterName, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("rematch in the browser", () => {
  const t = useBrowserBazaar();

  it("three players finish, one offers a rematch, the others accept, and the new game starts", async () => {
    const url = t.bazaar.server.url;
    const service = t.bazaar.server.service;
    const pages: Page[] = [];
    const players: Player[] = [];
    for (const name of ["Rin", "Sol", "Tam"]) {
      const { page } = await newPage(t.browser);
      await enterName(page, url, name);
      const id = (await storedIdentity(page))!;
      pages.push(page);
      players.push(id.player);
    }
    let room: Room = await service.createMatchRoom(players, { game: "goblin-teeth", seats: 3, clock: "none", ranked: false });
    const old = room.id;
    const random = lcg(12);
    while (room.status === "playing") {
      const g = gameOf(room);
      const seat = g.activeSeats(gameState(room))[0]!;
      room = (await service.act(old, players[seat]!, randomLegalAction(g.legalActions(gameState(room), seat), random)!)).room;
    }
    for (const p of pages) await p.goto(`${url}/room/${old}`);
    for (const p of pages) await p.locator('[data-testid="end-screen"]').waitFor();

    await pages[1]!.locator('[data-testid="rematch"]').click();
    await pages[1]!.waitForURL((u) => u.pathname.startsWith("/room/") && !u.pathname.endsWith(old));
    const newId = new URL(pages[1]!.url()).pathname.split("/").pop()!;
    expect((await service.get(newId)).status).toBe("open");
    // The new room says whom its kept seats wait for, and that it starts when they accept; nobody
    // is offered a kept seat ("Sit here" on a seat the server would refuse).
    const offerer = pages[1]!;
    await expect.poll(() => offerer.getByTestId("kept-seat").allTextContents()).toEqual(["Kept for Rin", "Kept for Tam"]);
    expect(await offerer.getByTestId("starts-itself").textContent()).toContain("Waiting for Rin and Tam to accept the rematch: the game starts by itself once they all do.");
    expect(await offerer.getByText("Empty seat").count()).toBe(0);
    const { page: watcher, context: watcherContext } = await newPage(t.browser);
    // A spectator of the finished game follows the players to the rematch from its end screen.
    await enterName(watcher, url, "Wes", `/room/${old}`);
    await watcher.getByTestId("rematch-watch").click();
    await watcher.waitForURL(`${url}/room/${newId}`);
    await expect.poll(() => watcher.getByTestId("kept-seat").count()).toBe(2);
    expect(await watcher.getByTestId("sit-here").count()).toBe(0);
    await watcherContext.close();

    // The others see the offer: Sol accepted, they are waiting.
    await pages[0]!.locator('[data-testid="rematch-answer"][data-state="accepted"]').waitFor();
    expect(await pages[0]!.locator('[data-testid="rematch-answer"][data-state="waiting"]').count()).toBe(2);
    await pages[0]!.locator('[data-testid="rematch-accept"]').click();
    await pages[0]!.waitForURL(`${url}/room/${newId}`);
    await pages[2]!.locator('[data-testid="rematch-answer"][data-state="accepted"] >> nth=1').waitFor();
    await pages[2]!.locator('[data-testid="rematch-accept"]').click();
    await pages[2]!.waitForURL(`${url}/room/${newId}`);

    const fresh = await until(async () => {
      const r = await service.get(newId);
      return r.status === "playing" ? r : undefined;
    }, "the rematch to start");
    expect(fresh.seats.map((s) => s.playerId)).toEqual(players.map((p) => p.id));
    for (const p of pages) await p.locator(`.room[data-room="${newId}"][data-status="playing"]`).waitFor();
  }, 120_000);

  it("the host of a casual table seats bots in its empty seats and takes them out again (a rematch someone declined need not wait for a stranger)", async () => {
    const url = t.bazaar.server.url;
    const { page, context } = await newPage(t.browser);
    await enterName(page, url, "Uma");
    const roomId = await createRoom(page, { game: "goblin-teeth", seats: 3, ranked: false });
    await expect.poll(() => page.getByTestId("add-bot").count()).toBe(2);
    expect(await page.getByTestId("start").isDisabled()).toBe(true);
    await page.getByTestId("add-bot").first().click();
    await page.locator('.wait-seat[data-seat="1"] .tag', { hasText: "bot" }).waitFor();
    expect([await page.getByTestId("add-bot").count(), await page.getByTestId("remove-bot").count()]).toEqual([1, 1]);
    expect(await axeViolations(page), "the waiting room with the host's bot controls passes axe").toEqual([]);
    await page.getByTestId("add-bot").click();
    await expect.poll(() => page.getByTestId("start").isEnabled()).toBe(true);
    expect(await page.locator(".wait-seat .wait-name").allTextContents()).toEqual(["Uma", "Bot 1", "Bot 2"]);
    // Taken out again: the seat is empty, and the game cannot start.
    await page.getByTestId("remove-bot").first().click();
    await expect.poll(() => page.getByTestId("start").isDisabled()).toBe(true);
    await page.getByTestId("add-bot").click();
    await page.getByTestId("start").click();
    await page.locator(`.room[data-room="${roomId}"][data-status="playing"]`).waitFor();
    expect((await t.bazaar.server.service.get(roomId)).seats.map((x) => x.bot)).toEqual([false, true, true]);
    await context.close();
  }, 60_000);
});
