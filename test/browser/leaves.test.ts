/**
 * Leaving ranked games, in a real browser: an account whose ranked play is paused (two leaves
 * recorded just now) is told so in the lobby, with the wait, and Quick play shows the server's
 * refusal for a ranked table while a casual one is open; the notice passes axe in both themes.
 * Forgiven by the operators, the notice is gone at the next load.
 */
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("leaving ranked games, in the browser", () => {
  const t = useBrowserBazaar();

  it("tells a paused player why and for how long, and refuses ranked quick play with the server's words", async () => {
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

    // Quick play: ranked is refused with the server's reason; casual queues.
    const panel = page.getByTestId("quick-play-panel");
    await page.locator('#qp-game option[value="goblin-market"]').waitFor({ state: "attached" });
    await panel.getByTestId("qp-ranked").check();
    await page.getByTestId("quick-play").click();
    const error = page.getByTestId("qp-error");
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^You left 2 ranked games in the last 7 days .* so your ranked play is paused for 1[23] min more/);
    await panel.getByTestId("qp-casual").check();
    await page.getByTestId("quick-play").click();
    await page.getByRole("button", { name: "Leave the queue" }).waitFor();

    // The operators forgive the leaves: the notice is gone at the next load.
    await db.prisma.leave.updateMany({ where: { playerId: id }, data: { forgivenAt: new Date() } });
    await page.reload();
    await page.getByTestId("quick-play-panel").waitFor();
    await page.waitForTimeout(500);
    expect(await notice.count()).toBe(0);
  });
});
