/**
 * "Your data…" in the identity menu (client/src/your-data.ts), in a real browser: an account
 * downloads everything stored about it as a JSON file (the file read back: its games and its chat
 * message), is refused with the server's words for a wrong password, then deletes its account
 * and data and is back at the entry screen, told what happened, with nothing of it left in the
 * database; a guest confirms by typing its name. The open section passes axe in both themes.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { recordFinishedGame } from "../../src/db/finished-games.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, enterName, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("your data, in the browser", () => {
  const t = useBrowserBazaar();

  it("an account downloads its data, then deletes its account and data", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "DataDella");
    const id = (await storedIdentity(page))!.player.id;
    const at = Date.now() - 3_600_000;
    await recordFinishedGame(db, {
      roomId: "your-data-browser-1", gameType: "goblin-market", ranked: true, options: {}, seed: "s", commitment: "c".repeat(64), actions: [],
      outcome: { scores: [30, 20], places: [1, 2] }, startedAt: new Date(at - 600_000), finishedAt: new Date(at),
      seats: [{ seat: 0, playerId: id, name: "DataDella", isBot: false }, { seat: 1, playerId: "p_data_other", name: "Other", isBot: false }],
      chat: [{ n: 1, at: at - 1000, from: { id, name: "DataDella", account: true }, channel: "players", text: "della's own words" }],
    });

    await page.locator('details[data-testid="me"] > summary').click();
    await page.getByTestId("your-data").locator("summary").click();
    expect(await axeViolations(page), "the menu with Your data open passes axe").toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page), "and in the dark theme").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // The download: a JSON file holding what is stored about her.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("data-download").click()]);
    expect(download.suggestedFilename()).toMatch(/^goblin-bazaar-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, "utf8")) as Record<string, any>;
    expect(data.playerId).toBe(id);
    expect(data.account.name).toBe("DataDella");
    expect(data.games.map((g: any) => [g.id, g.place])).toEqual([["your-data-browser-1", 1]]);
    expect(data.chat.map((m: any) => m.text)).toEqual(["della's own words"]);

    // A wrong password: the server's words, nothing erased.
    const erase = page.getByTestId("your-data");
    await page.getByLabel("Your password, to delete your account").fill("not my password");
    page.once("dialog", (d) => void d.accept());
    await page.getByTestId("data-erase").click();
    await erase.getByRole("alert").waitFor();
    expect(await erase.getByRole("alert").textContent()).toBe("Your current password is not right; nothing was changed.");
    expect(await db.prisma.account.count({ where: { playerId: id } })).toBe(1);

    // Dismissing the browser's confirmation erases nothing either.
    await page.getByLabel("Your password, to delete your account").fill("password of DataDella");
    page.once("dialog", (d) => void d.dismiss());
    await page.getByTestId("data-erase").click();
    await page.waitForTimeout(300);
    expect(await db.prisma.account.count({ where: { playerId: id } })).toBe(1);

    page.once("dialog", (d) => void d.accept());
    await page.getByTestId("data-erase").click();
    await page.getByLabel("Your display name").waitFor();
    expect(await page.locator(".welcome p.notice[role=alert]").textContent()).toBe(
      "Your account and your data are deleted. Your finished games stay in the other players' histories, with your seat anonymous.",
    );
    expect(await storedIdentity(page)).toBeNull();
    expect(await db.prisma.player.count({ where: { id } })).toBe(0);
    const seat = await db.prisma.gameSeat.findUniqueOrThrow({ where: { gameId_seat: { gameId: "your-data-browser-1", seat: 0 } } });
    expect([seat.playerId, seat.name]).toEqual([null, "Deleted player"]);
    expect(JSON.stringify((await db.prisma.game.findUniqueOrThrow({ where: { id: "your-data-browser-1" } })).chat)).not.toContain("della");
  });

  it("a guest confirms by typing its name", async () => {
    const url = t.bazaar.server.url;
    const { page } = await newPage(t.browser);
    await enterName(page, url, "Guest Gwen");
    const id = (await storedIdentity(page))!.player.id;
    await page.locator('details[data-testid="me"] > summary').click();
    await page.getByTestId("your-data").locator("summary").click();
    const field = page.getByLabel("Type your name, Guest Gwen, to delete its data");
    await field.fill("Gwen");
    page.once("dialog", (d) => void d.accept());
    await page.getByTestId("data-erase").click();
    await page.getByTestId("your-data").getByRole("alert").waitFor();
    expect(await page.getByTestId("your-data").getByRole("alert").textContent()).toBe("Type your name exactly as it is, Guest Gwen, to confirm; nothing was erased.");
    await field.fill("Guest Gwen");
    page.once("dialog", (d) => void d.accept());
    await page.getByTestId("data-erase").click();
    await page.getByLabel("Your display name").waitFor();
    expect(await page.locator(".welcome p.notice[role=alert]").textContent()).toBe(
      "This guest's data is deleted. Your finished games stay in the other players' histories, with your seat anonymous.",
    );
    expect(await t.bazaar.db.prisma.erasedPlayer.count({ where: { id } })).toBe(1);
  });
});
