/**
 * The games being played, in the browser: the lobby lists the newest few of each game with the
 * count of all (kept current by lobby:counts), and links to /live, which pages through every one
 * of them by game, newest first, each with its Watch button, and keeps itself current: games that
 * start come in, games that end leave, the count follows (client/src/live-games.ts). The top bar's
 * Watch leads there from every page, a phone's too (as its eye alone, in a bar that fits 390 px).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Player } from "../../src/platform/identity.js";
import { randomLegalAction } from "../../src/games/legal.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import { guest, lcg, until } from "../support/harness.js";
import { chromiumAvailable, enterName, newPage, PHONE, useBrowserBazaar } from "./support.js";

describe.skipIf(!chromiumAvailable())("the games being played, in the browser", () => {
  let clock = Date.UTC(2026, 10, 26, 9, 0, 0);
  const t = useBrowserBazaar({ now: () => clock, manualTimers: true });

  it("the lobby shows the newest and the count, and /live pages through them all, by game", async () => {
    const url = t.bazaar.server.url;
    const service = t.bazaar.server.service;
    const players: Player[] = [];
    for (let i = 0; i < 8; i++) players.push((await guest(url, `Player ${i}`)).player as Player);
    const start = async (game: string, i: number) => {
      clock += 1_000;
      const seats = game === "goblin-teeth" ? 2 : 3;
      const at = Array.from({ length: seats }, (_, k) => players[(i + k) % players.length]!);
      const room = await service.createMatchRoom(at, { game, seats, clock: "none", ranked: false });
      expect(room.status).toBe("playing");
      return room.id;
    };
    const teeth: string[] = [];
    for (let i = 0; i < 23; i++) teeth.unshift(await start("goblin-teeth", i));
    const market = await start("goblin-market", 0);

    const { page } = await newPage(t.browser);
    await enterName(page, url, "Looker");
    const live = page.locator(".live-rooms");
    await live.locator(".room-row").first().waitFor();
    expect(await live.getByTestId("live-count").innerText()).toBe("24");
    // The newest ten of all (the market game started last).
    expect(await live.locator(".room-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-room")))).toEqual([market, ...teeth.slice(0, 9)]);
    expect(await live.getByTestId("all-live").innerText()).toBe("See all 24 games being played →");
    // Filtered by a game: that game's newest and count, and the link to its own list.
    await page.getByTestId("game-filter").locator('[data-game="goblin-teeth"]').click();
    await until(async () => (await live.getByTestId("live-count").innerText()) === "23", "the filtered count");
    expect(await live.locator(".room-row").count()).toBe(10);
    expect(await live.getByTestId("all-live").getAttribute("href")).toBe("/live/goblin-teeth");
    await page.getByTestId("game-filter").locator('[data-game="all"]').click();
    if (process.env.SHOT) await page.locator(".live-rooms").screenshot({ path: "scratch/lobby-live.png" });

    // Another game starts: the list has it at once (lobby:room), the count with the next lobby:counts (every few seconds).
    const late = await start("goblin-teeth", 3);
    teeth.unshift(late);
    await live.locator(`[data-room="${late}"]`).waitFor(); // lobby:room at once
    await t.bazaar.server.pushLobbyCounts();
    await until(async () => (await live.getByTestId("live-count").innerText()) === "25", "the new count");

    // All of them, a page at a time.
    await live.getByTestId("all-live").click();
    await page.waitForURL(`${url}/live`);
    const list = page.getByTestId("live-list");
    await list.locator(".room-row").first().waitFor();
    expect(await page.getByTestId("live-total").innerText()).toBe("25");
    expect(await list.locator(".room-row").count()).toBe(20);
    expect(await page.getByTestId("live-more").innerText()).toBe("Show older games (20 of 25 shown)");
    await page.getByTestId("live-more").click();
    await until(async () => (await list.locator(".room-row").count()) === 25, "the older games");
    expect(await page.getByTestId("live-more").count()).toBe(0);
    expect(await list.locator(".room-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-room")))).toEqual([late, market, ...teeth.slice(1)]);
    expect(await page.title()).toBe("Games being played · Goblin Bazaar");

    // Without a Refresh: a game that starts comes in at the top, one that ends leaves (lobby:room),
    // and the count follows with the next lobby:counts.
    const rows = () => list.locator(".room-row").evaluateAll((rs) => rs.map((r) => r.getAttribute("data-room")));
    const newer = await start("goblin-market", 5);
    await until(async () => (await rows())[0] === newer || undefined, "the new game at the top");
    const ending = teeth[6]!;
    let room: Room = await service.get(ending);
    const random = lcg(7);
    const byId = new Map(players.map((p) => [p.id, p]));
    while (room.status === "playing") {
      const seat = gameOf(room).activeSeats(gameState(room))[0]!;
      room = (await service.act(ending, byId.get(room.seats[seat]!.playerId!)!, randomLegalAction(gameOf(room).legalActions(gameState(room), seat), random)!)).room;
    }
    await until(async () => !(await rows()).includes(ending) || undefined, "the ended game to leave");
    expect(await rows()).toEqual([newer, late, market, ...teeth.slice(1).filter((x) => x !== ending)]);
    await t.bazaar.server.pushLobbyCounts();
    await until(async () => (await page.getByTestId("live-total").innerText()) === "25", "the count after one in, one out");
    expect(await page.getByTestId("live-refresh").isEnabled()).toBe(true);
    if (process.env.SHOT) await page.evaluate("window.scrollTo(0, 0)").then(() => page.screenshot({ path: "scratch/live.png" }));

    // One game's tab; then Watch opens the table as a spectator.
    await page.getByTestId("live-tab").and(page.locator('[data-game="goblin-market"]')).click();
    await page.waitForURL(`${url}/live/goblin-market`);
    await until(async () => (await page.getByTestId("live-total").innerText()) === "2", "two market games");
    expect(await list.locator(".room-row").count()).toBe(2);
    await list.locator(`[data-room="${market}"]`).getByRole("link", { name: /^Watch/ }).click();
    await page.waitForURL(`${url}/room/${market}`);
    await page.getByTestId("spectating").waitFor();

    // The header's Watch link leads there from anywhere.
    await page.getByTestId("nav-live").click();
    await page.waitForURL(`${url}/live`);
    await until(async () => (await page.getByTestId("live-total").innerText()) === "25", "all again");
    expect(await list.locator(".room-row").count()).toBe(20);
  });

  it("a phone's top bar keeps Watch (its eye) in view beside the rest, fitting 390 px: on the name screen, watching, with a long name, with the quick play pill", async () => {
    const url = t.bazaar.server.url;
    /** Watch (its eye alone) and Leaderboards show, every part of the top bar is in the window, and the page is no wider than it. */
    const barFits = async (page: Page, where: string) => {
      const watch = page.getByRole("link", { name: "Watch", exact: true });
      expect(await watch.isVisible(), `${where}: Watch shows`).toBe(true);
      expect((await watch.boundingBox())!.width, `${where}: Watch is its eye alone`).toBeLessThan(40);
      expect(await page.getByTestId("nav-leaderboards").isVisible(), `${where}: Leaderboards shows`).toBe(true);
      const out = (await page.evaluate(
        `[...document.querySelectorAll(".topbar-right > *")].filter((e) => e.getBoundingClientRect().left < 0 || e.getBoundingClientRect().right > ${PHONE.width}).map((e) => e.className)`,
      )) as string[];
      expect(out, `${where}: parts of the top bar past the window's edge`).toEqual([]);
      expect(Number(await page.evaluate("document.documentElement.scrollWidth")), `${where}: the page's width`).toBeLessThanOrEqual(PHONE.width);
    };
    const first = await newPage(t.browser, PHONE);
    await first.page.goto(url);
    await first.page.getByLabel("Your display name").waitFor();
    await barFits(first.page, "the name screen");
    await first.page.getByRole("button", { name: "Just watch games" }).click();
    await first.page.getByRole("button", { name: "Choose a name" }).waitFor();
    await barFits(first.page, "watching without a name");
    await first.context.close();

    // The longest name (24 wide letters), then waiting in quick play (its pill joins the bar).
    const { context, page } = await newPage(t.browser, PHONE);
    await enterName(page, url, "WmWmWmWmWmWmWmWmWmWmWmWm");
    await barFits(page, "a long name");
    await page.getByTestId("quick-play").waitFor();
    expect(await page.evaluate(`window.goblinBazaar.queueRequest("queue:join", { game: "goblin-market", seats: 4, ranked: false })`)).toBeFalsy();
    await page.getByTestId("nav-leaderboards").click();
    await page.getByTestId("queue-pill").waitFor();
    await barFits(page, "a long name and the quick play pill");
    if (process.env.SHOT) await page.screenshot({ path: "scratch/topbar-phone.png", clip: { x: 0, y: 0, width: PHONE.width, height: 60 } });
    // The eye leads to the games being played; its title says what they are.
    const watch = page.getByRole("link", { name: "Watch", exact: true });
    expect(await watch.getAttribute("title")).toBe("The games being played now");
    await watch.click();
    await page.waitForURL(`${url}/live`);
    await page.getByTestId("live-total").waitFor();
    await context.close();
  });
});
