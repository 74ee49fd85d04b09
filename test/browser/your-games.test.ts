/**
 * Your games in the browser (issue 23): a player whose game is in progress elsewhere (moved on by
 * the others through the server) sees it first in the lobby under "Your games"; when it becomes
 * their turn the row gets a "Your turn" badge and the tab title counts it, and with "Notify me when
 * it is my turn" on (permission granted) a hidden page shows a browser notification; a move made
 * elsewhere takes the badge away when the tab comes back to the front; "Resume" takes them to the table.
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../../src/games/legal.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import type { Player } from "../../src/platform/identity.js";
import { guest, lcg, until } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, DESKTOP, enterName, newPage, PHONE, splitWords, storedIdentity, textLines, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("your games in the browser", () => {
  const t = useBrowserBazaar();

  it("lists the game in progress with the badge and the tab title, notifies, and Resume opens it", async () => {
    const url = t.bazaar.server.url;
    const service = t.bazaar.server.service;
    const { context, page } = await newPage(t.browser);
    await context.grantPermissions(["notifications"], { origin: url });
    await enterName(page, url, "Rin");
    const rin = (await storedIdentity(page))!.player;
    const others = [(await guest(url, "Sol")).player as Player, (await guest(url, "Tam")).player as Player];
    const players = [rin, ...others];

    // A game Rin sits in (seat 0), played by the others until one of them must act (Rin does not watch it).
    let room: Room = await service.createMatchRoom(players, { game: "goblin-teeth", seats: 3, clock: "none", ranked: false });
    const id = room.id;
    const random = lcg(7);
    const active = () => gameOf(room).activeSeats(gameState(room));
    const move = async (seat: number) => {
      room = (await service.act(id, players[seat]!, randomLegalAction(gameOf(room).legalActions(gameState(room), seat), random)!)).room;
    };
    while (active().includes(0)) await move(0);

    // Back in the lobby: the game is listed first, without the badge while others must act.
    await page.goto(url);
    const row = page.locator(`[data-testid="your-games"] [data-room="${id}"]`);
    await row.waitFor();
    expect(await row.locator(".room-game").innerText()).toBe("Goblin Teeth");
    expect(await row.getByRole("link", { name: /^Resume/ }).count()).toBe(1);
    expect(await row.locator('[data-testid="your-turn"]').count()).toBe(0);
    expect(await page.title()).toBe("Goblin Bazaar");
    // Your games comes before Quick play and the other lists.
    const order = await page.evaluate(`[...document.querySelectorAll(".lobby > section, .lobby-grid > section")].map((e) => e.className)`) as string[];
    expect(order[0]).toContain("your-games");

    // Opt in to notifications (permission granted above), remembered across reloads.
    await page.getByTestId("notify-turns").check();
    await until(async () => (await page.evaluate(`localStorage.getItem("goblin-bazaar.notify-turns")`)) === "1", "the choice to be kept");
    await page.reload();
    await row.waitFor();
    expect(await page.getByTestId("notify-turns").isChecked()).toBe(true);
    // The identity menu's switch is the same one (for a player seated nowhere yet).
    expect(await page.getByTestId("menu-notify-turns").isChecked()).toBe(true);
    expect(await page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")).toBe(`${url}/notify-sw.js`);
    // The page goes to the background (a hidden tab).
    await page.evaluate(`Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" })`);

    // The others move until it is Rin's turn: pushed at once (turn:yours), no reload.
    while (!active().includes(0)) await move(active()[0]!);
    await row.locator('[data-testid="your-turn"]').waitFor();
    await until(async () => (await page.title()) === "(1) Your turn — Goblin Bazaar", "the tab title");
    expect(await page.evaluate(`window.goblinBazaar.notified`)).toEqual([id]);
    // Shown through the page's service worker (as a phone's browser requires), opening the table.
    expect(await page.evaluate(`navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((l) => l.map((n) => [n.tag, n.title, n.data.path]))`))
      .toEqual([[`turn-${id}`, "Your turn — Goblin Teeth", `/room/${id}`]]);

    // Rin moves on another device while this tab is in the background. No push says a turn has
    // left her: when the tab comes back to the front, Your games is read again and the badge goes.
    while (active().includes(0)) await move(0);
    await page.waitForTimeout(300);
    expect(await page.title(), "nothing told the background tab yet").toBe("(1) Your turn — Goblin Bazaar");
    await page.evaluate(`Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" }); document.dispatchEvent(new Event("visibilitychange"))`);
    await row.locator('[data-testid="your-turn"]').waitFor({ state: "detached" });
    await until(async () => (await page.title()) === "Goblin Bazaar", "the tab title without the turn");
    // The others move until it is her turn again.
    while (!active().includes(0)) await move(active()[0]!);
    await row.locator('[data-testid="your-turn"]').waitFor();

    // On a phone the list's tools stay whole: "Sounds on" is one line, not "Sounds" over "on".
    await page.setViewportSize(PHONE);
    expect(await textLines(page, '[data-testid="your-games"] [data-testid="mute"]')).toEqual([1]);
    expect((await page.locator('[data-testid="your-games"] [data-testid="mute"] .icon').boundingBox())!.width).toBeGreaterThan(8);
    expect(await splitWords(page, '[data-testid="your-games"]', "Your games")).toEqual([]);
    await page.setViewportSize(DESKTOP);

    // Resume takes Rin to the table, where it is her turn.
    await row.getByRole("link", { name: /^Resume/ }).click();
    await page.waitForURL(`${url}/room/${id}`);
    await until(async () => (await page.title()) === "● Your turn · Goblin Bazaar", "the room's title");
    // A click on a notification: the worker asks this page to open its path (notify-sw.js; a
    // foreign one is ignored).
    await page.evaluate(`navigator.serviceWorker.dispatchEvent(new MessageEvent("message", { data: { type: "goblin-bazaar:open", path: "//elsewhere.example/" } }))`);
    await page.evaluate(`navigator.serviceWorker.dispatchEvent(new MessageEvent("message", { data: { type: "goblin-bazaar:open", path: "/leaderboards" } }))`);
    await page.waitForURL(`${url}/leaderboards`);
    await context.close();
  }, 60_000);
});
