/**
 * Vacations from turn-based games in the browser (client/src/vacation.ts, account-notices.ts,
 * clock.ts), with the server's clock injected: an account takes days off from its menu's
 * "Vacation…", the lobby says it is on vacation until when and ends it from there, the days begun
 * are counted; a refusal is shown in the server's words. At a turn-based table, the seat of a player
 * on vacation shows the time it will have afterwards, frozen, and until when, and the event log says
 * so; the pages pass axe in both themes.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { clockDeadline } from "../../src/protocol/clock.js";
import type { RoomView } from "../../src/protocol/wire.js";
import { TestClient } from "../support/harness.js";
import { account, call } from "../support/accounts.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const day = 24 * 60 * 60_000;

/** How the page writes a moment in local time, as clock.ts shortWhen does. */
const shortWhenIn = (page: Page, t: number) =>
  page.evaluate(`new Date(${t}).toLocaleString("en-GB", { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" })`) as Promise<string>;

const words = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

/** Both themes' axe defects on the page as it is now. */
async function axeBothThemes(page: Page): Promise<string[]> {
  const found = await axeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  found.push(...(await axeViolations(page)).map((v) => `dark: ${v}`));
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

describe.skipIf(!available)("vacations from turn-based games, in the browser", () => {
  let clock = Date.UTC(2026, 10, 26, 9, 0, 0);
  const t = useBrowserBazaar({ now: () => clock, manualTimers: true });

  it("the account menu takes days off, the lobby says so and ends it, the days begun are counted; a refusal in the server's words", async () => {
    const url = t.bazaar.server.url;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "Vera");
    const token = (await storedIdentity(page))!.token;
    const openSection = async () => {
      await page.locator('details[data-testid="me"] > summary').click();
      const section = page.getByTestId("vacation-setting");
      // Opening it reads GET /api/me: wait for the answer (what the section shows before is what was known).
      if ((await section.getAttribute("open")) === null) {
        await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === "/api/me"), section.locator("summary").click()]);
      }
      return section;
    };
    const closeMenu = () => page.locator('details[data-testid="me"] > summary').click();

    const section = await openSection();
    const status = section.getByTestId("vacation-status");
    await expect.poll(async () => words(await status.textContent())).toBe("30 of 30 vacation days left in the last 365 days");
    expect(await section.innerText()).toContain("Going away? Your clocks in your turn-based games stop until you are back");
    expect(await section.getByLabel(/^Days away/).inputValue()).toBe("7");
    expect(await section.getByTestId("vacation-days").getAttribute("max")).toBe("30");
    expect(await axeBothThemes(page), "the menu's Vacation section passes axe").toEqual([]);

    // Three days from now.
    await section.getByTestId("vacation-days").fill("3");
    await section.getByTestId("vacation-start").click();
    const until = clock + 3 * day;
    const when = await shortWhenIn(page, until);
    await expect.poll(async () => words(await status.textContent())).toBe(`On vacation until ${when}`);
    expect(words(await section.textContent())).toContain("27 of 30 vacation days left besides this one");
    await section.getByTestId("vacation-end").waitFor();
    expect(await section.getByTestId("vacation-start").count()).toBe(0);
    expect(await axeBothThemes(page), "the section on vacation passes axe").toEqual([]);

    // The lobby says so at once, and after a reload (read from GET /api/me).
    await closeMenu();
    const notice = page.getByTestId("vacation-notice");
    await notice.waitFor();
    const noticeText = `You are on vacation from turn-based games until ${when}: your clocks there are stopped. End vacation`;
    expect(words(await notice.textContent())).toBe(noticeText);
    await page.reload();
    await notice.waitFor();
    expect(words(await notice.textContent())).toBe(noticeText);
    expect(await axeBothThemes(page), "the lobby with the notice passes axe").toEqual([]);

    // Ended from the notice at once: one day begun is counted, the other two come back.
    await notice.getByTestId("vacation-notice-end").click();
    await notice.waitFor({ state: "detached" });
    expect((await call(url, "GET", "/api/me", token)).body.vacation).toEqual({ current: null, daysLeft: 29, allowanceDays: 30 });
    await openSection();
    await expect.poll(async () => words(await status.textContent())).toBe("29 of 30 vacation days left in the last 365 days");

    // Meanwhile (a second on), another device of hers takes two days: the menu's Go is refused in
    // the server's words, and the section shows the vacation under way.
    clock += 1000;
    expect((await call(url, "POST", "/api/vacation", token, { days: 2 })).status).toBe(200);
    await section.getByTestId("vacation-days").fill("5");
    await section.getByTestId("vacation-start").click();
    const error = section.getByRole("alert");
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^You are on vacation already, until 2026-11-28 09:00 UTC\.$/);
    await expect.poll(async () => words(await status.textContent())).toBe(`On vacation until ${await shortWhenIn(page, clock + 2 * day)}`);
    // Ended from the menu: one more day counted.
    await section.getByTestId("vacation-end").click();
    await expect.poll(async () => words(await status.textContent())).toBe("28 of 30 vacation days left in the last 365 days");
    expect(await section.getByRole("alert").count()).toBe(0);
    await closeMenu();
    expect(await notice.count()).toBe(0);
    await page.close();
  });

  it("a turn-based table: the seat of the player on vacation shows its time frozen and until when, the event log and their profile say so", async () => {
    clock += 60_000;
    const url = t.bazaar.server.url;
    const names = ["Wren", "Xia", "Yul"];
    const ids = await Promise.all(names.map((n) => account(url, n)));
    const clients = await Promise.all(ids.map(async (a) => new TestClient(url, a.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    await clients[0]!.sync(roomId, true);
    const view = clients[0]!.view(roomId) as unknown as RoomView;
    expect(view.status).toBe("playing");
    const mover = view.active[0]!;
    // The time the mover's clock has now (the server's clock stands still): what it keeps.
    const left = clockDeadline(view.clock!, view.clocks![mover]!)! - clock;
    expect(left).toBe(day);

    const started = await call(url, "POST", "/api/vacation", ids[mover]!.token, { days: 2 });
    expect(started.body).toMatchObject({ ok: true, rooms: [roomId] });
    const until = clock + 2 * day;

    // Another player's page.
    const other = (mover + 1) % 3;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, names[other]!);
    await page.goto(`${url}/room/${roomId}`);
    const seatClock = page.locator(`[data-testid="clock"][data-seat="${mover}"]`);
    await seatClock.getByTestId("seat-vacation").waitFor();
    const when = await shortWhenIn(page, until);
    expect(words(await seatClock.getByTestId("seat-vacation").textContent())).toBe(`On vacation until ${when}`);
    expect(await seatClock.getAttribute("data-running")).toBe("no");
    expect(await seatClock.getAttribute("data-left")).toBe(String(left));
    expect(await seatClock.locator(".clock-time").innerText()).toBe("1 d 00 h");
    expect(await seatClock.getAttribute("aria-label")).toBe(`On vacation until ${when}: their clock is stopped, with 1 d 00 h for the first move when it runs again`);
    expect((await seatClock.getAttribute("class"))!.split(/\s+/)).not.toContain("running");
    // The frozen time does not count down.
    await page.waitForTimeout(1500);
    expect(await seatClock.locator(".clock-time").innerText()).toBe("1 d 00 h");
    // Only that seat.
    expect(await page.getByTestId("seat-vacation").count()).toBe(1);
    // The event log.
    const logged = page.locator('[data-testid="notice"][data-kind="vacation"]');
    await logged.first().waitFor({ state: "attached" });
    expect(words(await logged.last().textContent())).toBe(`${names[mover]} is on vacation until 2026-11-28 09:01 UTC; their clock is stopped until then.`);
    expect(await axeBothThemes(page), "the table with a seat on vacation passes axe").toEqual([]);

    // A player whose turn it is not shows it too, at once (their turn would start at its end).
    const third = (mover + 2) % 3;
    expect((await call(url, "POST", "/api/vacation", ids[third]!.token, { days: 3 })).body).toMatchObject({ ok: true, rooms: [roomId] });
    const idleClock = page.locator(`[data-testid="clock"][data-seat="${third}"]`);
    await idleClock.getByTestId("seat-vacation").waitFor();
    const idleWhen = await shortWhenIn(page, clock + 3 * day);
    expect(words(await idleClock.getByTestId("seat-vacation").textContent())).toBe(`On vacation until ${idleWhen}`);
    expect(await idleClock.getAttribute("aria-label")).toBe(`On vacation until ${idleWhen}: their clock is stopped, with 1 d 00 h for the first move when it runs again`);
    expect(await page.getByTestId("seat-vacation").count()).toBe(2);
    expect(words(await logged.last().textContent())).toBe(`${names[third]} is on vacation until 2026-11-29 09:01 UTC; their clock is stopped until then.`);

    // The player on vacation sees it as their own clock, above the table.
    const own = await newPage(t.browser);
    await enterAccount(own.page, url, names[mover]!);
    await own.page.goto(`${url}/room/${roomId}`);
    const mine = own.page.getByTestId("my-clock");
    await mine.getByTestId("seat-vacation").waitFor();
    expect(await mine.locator('[data-testid="clock"]').getAttribute("aria-label")).toBe(`On vacation until ${when}: your clock is stopped, with 1 d 00 h for the first move when it runs again`);
    expect(await own.page.getByTestId("low-time").count()).toBe(0);
    // Their Your games says the same: not the days to the deadline (which counts the vacation).
    await own.page.goto(url);
    const row = own.page.locator(`[data-testid="your-games"] [data-room="${roomId}"]`);
    await row.getByTestId("time-left").waitFor();
    expect(words(await row.getByTestId("time-left").textContent())).toBe(`On vacation until ${when}: 1 day left then`);

    // Their profile says so too.
    const profile = await newPage(t.browser);
    await profile.page.goto(`${url}/player/${names[mover]}`);
    const line = profile.page.getByTestId("profile-vacation");
    await line.waitFor();
    expect(words(await line.textContent())).toBe(`On vacation from turn-based games until ${when}: their clocks there are stopped.`);
    await profile.page.close();

    // Back early: the notice says so, and the clock runs again on the other's page.
    expect((await call(url, "POST", "/api/vacation/end", ids[mover]!.token)).status).toBe(200);
    await seatClock.getByTestId("seat-vacation").waitFor({ state: "detached" });
    await expect.poll(() => seatClock.getAttribute("data-running")).toBe("yes");
    expect(words(await logged.last().textContent())).toBe(`${names[mover]} is back from vacation; their clock runs again.`);
    for (const c of clients) c.close();
    await own.page.close();
    await page.close();
  });
});
