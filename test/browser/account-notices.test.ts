/**
 * The lobby's notices about the account (client/src/account-notices.ts), in a real browser.
 * Leaving ranked games: an account whose ranked play is paused (two leaves recorded just now) is
 * told so, with the wait, and Quick play offers casual tables only, saying why; forgiven by the operators, the notice is gone at the next load. Rating given
 * back: a player who lost a ranked game to an account refunded against is told how much, until
 * they dismiss it. Silenced by the operators: the lobby says for how long and why, and the
 * table's chat shows the refusal in the server's words. The notices pass axe in both themes.
 */
import { describe, expect, it } from "vitest";
import { recordFinishedGame } from "../../src/db/finished-games.js";
import { refundRatingsLostTo } from "../../src/db/rating-refunds.js";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const ADMIN = "operators-token-" + "n".repeat(32);

describe.skipIf(!available)("the lobby's account notices, in the browser", () => {
  const t = useBrowserBazaar({ adminToken: ADMIN });

  it("tells a paused player why and for how long, and offers quick play's casual tables only", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "LeaverLou");
    const id = (await storedIdentity(page))!.player.id;
    const now = Date.now();
    await db.prisma.leave.createMany({
      data: [10, 2].map((m, i) => ({ roomId: `gone-${i}`, playerId: id, gameType: "goblin-market", kind: i === 0 ? "timeout" : "no-show", at: new Date(now - m * 60_000) })),
    });
    await page.reload();
    const notice = page.getByTestId("leaves-notice");
    await notice.waitFor();
    expect(await notice.getAttribute("data-paused")).toBe("true");
    expect((await notice.textContent())!.replace(/\s+/g, " ")).toMatch(/^ ?Ranked play is paused for 1[23] min \(until \d\d:\d\d( [AP]M)?\): you left 2 ranked games in the last 7 days/);
    expect(await axeViolations(page), "the lobby with the notice passes axe").toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page), "and in the dark theme").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // Quick play: ranked is not offered (the server would refuse it), and the form says why; casual queues.
    const panel = page.getByTestId("quick-play-panel");
    await page.locator('#qp-game option[value="goblin-market"]').waitFor({ state: "attached" });
    expect(await panel.getByTestId("qp-ranked").isDisabled()).toBe(true);
    expect(await panel.getByTestId("qp-casual").isChecked()).toBe(true);
    expect((await panel.getByTestId("qp-ranked-paused").textContent())!.replace(/\s+/g, " ")).toMatch(/^Ranked play is paused for 1[23] min \(until \d\d:\d\d( [AP]M)?\): you left ranked games lately\. Casual tables are open to you\.$/);
    await page.getByTestId("quick-play").click();
    await page.getByRole("button", { name: "Leave the queue" }).waitFor();

    // The operators forgive the leaves: the notice is gone at the next load.
    await db.prisma.leave.updateMany({ where: { playerId: id }, data: { forgivenAt: new Date() } });
    await page.reload();
    await page.getByTestId("quick-play-panel").waitFor();
    await page.waitForTimeout(500);
    expect(await notice.count()).toBe(0);
    expect(await page.getByTestId("qp-ranked-paused").count()).toBe(0);
  });

  it("tells a player the rating given back for games against a closed cheater, until dismissed", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "RefundRia");
    const id = (await storedIdentity(page))!.player.id;
    const at = Date.now() - 3_600_000;
    await recordFinishedGame(db, {
      roomId: "refund-browser-1", gameType: "goblin-market", ranked: true, options: {}, seed: "s", commitment: "c".repeat(64), actions: [],
      outcome: { scores: [30, 20], places: [1, 2] }, startedAt: new Date(at - 600_000), finishedAt: new Date(at),
      seats: [{ seat: 0, playerId: "p_cheat_browser", name: "Cheat", isBot: false }, { seat: 1, playerId: id, name: "RefundRia", isBot: false }],
    });
    const { refunds } = await refundRatingsLostTo(db, "p_cheat_browser", Date.now());
    const points = refunds.find((r) => r.playerId === id)!.points;
    expect(points).toBeGreaterThan(0);
    await page.reload();
    const notice = page.getByTestId("refunds-notice");
    await notice.waitFor();
    expect((await notice.textContent())!.replace(/\s+/g, " ").trim()).toBe(
      `Rating given back: ${points} in Goblin Market (1 game). A player you lost to in ranked games was closed by the operators for breaking the rules, so what those games cost you is yours again. Dismiss`,
    );
    expect(await axeViolations(page), "the lobby with the notice passes axe").toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page), "and in the dark theme").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByTestId("refunds-dismiss").click();
    expect(await notice.count()).toBe(0);
    await page.reload();
    await page.getByTestId("quick-play-panel").waitFor();
    await page.waitForTimeout(500);
    expect(await notice.count()).toBe(0);
    // The profile says the rating includes it; the chart's points are the games', and a last one,
    // apart, is the rating now: the line ends where the number above it stands.
    await page.goto(`${url}/player/RefundRia`);
    expect((await page.getByTestId("rating-refunded").textContent())!.trim()).toBe(
      `Includes ${points} points given back for games against a player the operators closed for breaking the rules.`,
    );
    const card = page.locator('[data-testid="rating-card"][data-game="goblin-market"]');
    const shown = Number((await card.getByTestId("profile-rating").textContent())!.replace(/[^0-9]/g, ""));
    const chart = card.getByTestId("rating-chart");
    expect(await chart.getByTestId("chart-point").count()).toBe(1);
    expect(Number(await chart.getByTestId("chart-point").getAttribute("data-rating"))).toBe(shown - points);
    expect(Number(await chart.getByTestId("chart-given").getAttribute("data-rating"))).toBe(shown);
    expect(await chart.locator("desc").textContent()).toBe(`1 rated game: from ${shown - points} after the first to ${shown - points} after the last, and ${shown} now with ${points} given back; lowest ${shown - points}, highest ${shown}.`);
    expect(await axeViolations(page), "the profile with the chart passes axe").toEqual([]);
  });

  it("tells a player the operators silenced in chats for how long and why, and the chat says so when they write", async () => {
    const url = t.bazaar.server.url;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "HushedHal");
    await t.bazaar.server.app.inject({ method: "POST", url: "/api/admin/accounts/HushedHal/silence", headers: { authorization: `Bearer ${ADMIN}` }, payload: { minutes: 45, reason: "Insults in the chat." } });
    await page.reload();
    const notice = page.getByTestId("silenced-notice");
    await notice.waitFor();
    expect((await notice.textContent())!.replace(/\s+/g, " ").trim()).toMatch(/^You cannot write in table chats for 4[45] min \(until \d\d:\d\d( [AP]M)?\): the operators silenced you \(“Insults in the chat\.”\)\. You can still play, and read the chats\.$/);
    expect(await axeViolations(page), "the lobby with the notice passes axe").toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page), "and in the dark theme").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await createRoom(page, { seats: 3, ranked: false });
    await page.getByTestId("chat-input").fill("you all stink");
    await page.getByTestId("chat-send").click();
    expect(await page.getByTestId("chat-error").textContent()).toMatch(/^The operators have silenced you in table chats for 4[45] min more \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\): Insults in the chat\.$/);
    expect(await page.getByTestId("chat-msg").count()).toBe(0);
  });
});
