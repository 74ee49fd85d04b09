/**
 * A ranked player's whole journey in a real browser (issue 22): three people register, play a
 * ranked Goblin Market game through the UI; midway Ann logs in as herself in a second browser
 * context (another device) and finds her seat there, and moves from it; at the end each sees the
 * rating change as one number; Ann's profile shows the game's rating on its card and as a point
 * on the chart, and the game in her list; its replay steps to the end with the recorded scores.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { displayedChange } from "../../src/protocol/rating-display.js";
import { until } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, createRoom, DESKTOP, enterAccount, newPage, PHONE, playOneMove, renderedVersion, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("a ranked player's journey: register, play, rating, profile, replay, second device", () => {
  const t = useBrowserBazaar();

  it("register, play a ranked game (resuming the seat on a second device), see the rating on the profile and the chart, replay it to the end", async () => {
    const url = t.bazaar.server.url;
    const store = t.bazaar.server.store;
    const ann = await newPage(t.browser, DESKTOP);
    const bob = await newPage(t.browser, PHONE);
    const cat = await newPage(t.browser, DESKTOP);

    // Three new accounts (registered through the entry screen's form).
    for (const [p, name] of [[ann, "Ann"], [bob, "Bob"], [cat, "Cat"]] as const) {
      await enterAccount(p.page, url, name);
      expect(await p.page.getByTestId("account-status").textContent()).toContain("Logged in");
    }
    const roomId = await createRoom(ann.page, { seats: 3, ranked: true });
    for (const p of [bob, cat]) {
      await p.page.goto(`${url}/room/${roomId}`);
      await p.page.getByRole("button", { name: "Sit here" }).first().click();
      await p.page.locator(".wait-seat.you").waitFor();
    }
    const start = ann.page.getByTestId("start");
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();

    const room0 = (await store.get(roomId))!;
    const annSeat = room0.seats.findIndex((s) => s.name === "Ann");
    // Who sits at the table, under its title: three new accounts, none rated yet.
    const atTable = (p: Page) => p.getByTestId("table-players");
    await expect.poll(async () => (await atTable(bob.page).textContent())?.replace(/\s+/g, " ").trim()).toBe(
      `At the table: ${room0.seats.map((x) => `${x.name} (unrated)`).join(" · ")}`,
    );
    const pageOfSeat: Page[] = room0.seats.map((s) => ({ Ann: ann.page, Bob: bob.page, Cat: cat.page })[s.name!]!);

    let moves = 0;
    let second: Awaited<ReturnType<typeof newPage>> | null = null;
    let movedFromSecond = false;
    for (;;) {
      const room = (await store.get(roomId))!;
      if (room.status === "finished") break;
      const seat = (room.state as { turn: number }).turn;
      if (moves >= 10 && !second && seat === annSeat) {
        // Ann on another device: she logs in (not registers: the name is hers) and her seat is there.
        second = await newPage(t.browser, PHONE);
        await enterAccount(second.page, url, "Ann", `/room/${roomId}`);
        // (A view held from before the login was the spectator's: the client drops it and syncs as Ann.)
        await second.page.locator(".seat.you").waitFor();
        expect(await second.page.locator(".seat.you .seat-name").textContent()).toBe("Ann");
        pageOfSeat[annSeat] = second.page;
        movedFromSecond = true;
      }
      const page = pageOfSeat[seat]!;
      await until(async () => (await renderedVersion(page)) >= room.version, `seat ${seat} to render v${room.version}`);
      await playOneMove(page, moves);
      moves++;
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the move to land", 10_000);
      expect(moves).toBeLessThan(400);
    }
    expect(movedFromSecond, "Ann moved from her second device").toBe(true);
    const recorded = (await store.get(roomId))!.actions.filter((a) => a.seat === annSeat).length;
    expect(recorded).toBeGreaterThan(0);

    // The rating change, as one number, on the end screen.
    const final = await until(async () => {
      const r = (await store.get(roomId))!;
      return r.ratingChanges ? r : undefined;
    }, "ratings recorded");
    const annChange = final.ratingChanges!.find((c) => c.seat === annSeat)!;
    const shown = displayedChange(annChange.before, annChange.after);
    const end = ann.page.getByTestId("end-screen");
    await end.waitFor();
    await expect.poll(() => end.getByTestId("rating-change").count()).toBe(3);
    expect((await end.getByTestId("rating-change").allTextContents()).join(" ")).toContain(String(shown.after));
    // Now each name there carries its new rating and opens the player's profile.
    await expect.poll(() => atTable(ann.page).getByTestId("table-rating").count()).toBe(3);
    expect(await atTable(ann.page).locator(`[data-seat="${annSeat}"] [data-testid="table-rating"]`).textContent()).toBe(`${shown.after}${shown.afterProvisional ? "?" : ""}`);
    expect(await atTable(ann.page).locator(`[data-seat="${annSeat}"] a`).getAttribute("href")).toBe(`/player/id:${room0.seats[annSeat]!.playerId}`);

    // Ann's profile: the game's rating on its card, one point on the chart, the game listed.
    await ann.page.goto(`${url}/player/ann`);
    const card = ann.page.locator('[data-testid="rating-card"][data-game="goblin-market"]');
    await card.waitFor();
    expect(await card.getByTestId("profile-rating").textContent()).toBe(`${shown.after}${shown.afterProvisional ? "?" : ""}`);
    expect(await card.getByTestId("rated-games").textContent()).toBe("1");
    const chart = card.getByTestId("rating-chart");
    expect(await chart.getByTestId("chart-point").count()).toBe(1);
    expect(await chart.getByTestId("chart-point").last().getAttribute("data-rating")).toBe(String(shown.after));
    const row = ann.page.locator(`[data-testid="game-row"][data-game-id="${roomId}"]`);
    await row.waitFor();

    // Its replay, from the profile, stepped to the end: the recorded scores, the deal verified.
    await row.getByTestId("replay-link").click();
    await ann.page.waitForURL(`${url}/game/${roomId}`);
    await ann.page.getByTestId("replay").waitFor();
    await ann.page.getByTestId("replay-seed-ok").waitFor();
    await ann.page.getByTestId("replay-next").click();
    await expect.poll(async () => Number(await ann.page.getByTestId("replay").getAttribute("data-step"))).toBe(1);
    await ann.page.locator("body").click({ position: { x: 5, y: 5 } });
    await ann.page.keyboard.press("End");
    await expect.poll(async () => Number(await ann.page.getByTestId("replay").getAttribute("data-step"))).toBe(final.actions.length);
    await ann.page.getByTestId("end-screen").waitFor();
    const results = (await ann.page.getByTestId("result-row").allTextContents()).join(" ");
    for (const score of final.outcome!.scores) expect(results).toContain(String(score));
    expect(await ann.page.getByTestId("replay-next").isDisabled()).toBe(true);

    for (const p of [ann, bob, cat, second!]) await p.context.close();
  }, 240_000);
});
