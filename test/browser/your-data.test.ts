/**
 * "Your data…" in the identity menu (client/src/your-data.ts), in a real browser: an account
 * downloads everything stored about it as a JSON file (the file read back: its games and its chat
 * message), ticks "I understand…" (the button waits for it; no popup is ever asked), is refused
 * an empty password in the form and a wrong one with the server's words at once, then deletes its
 * account and data and is back at the entry screen, told what happened, with nothing of it left in
 * the database; a guest confirms by typing its name. The open section passes axe in both themes.
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

    // The confirmation is asked in the form, not by a popup after pressing: until the box is
    // ticked the button cannot be pressed, and no popup comes at any point.
    const popups: string[] = [];
    page.on("dialog", (d) => {
      popups.push(d.message());
      void d.dismiss();
    });
    let asked = 0;
    page.on("request", (r) => void (r.url().endsWith("/api/me/erase") && asked++));
    const erase = page.getByTestId("your-data");
    const password = page.getByLabel("Your password, to delete your account");
    expect(await page.getByTestId("data-erase").isDisabled()).toBe(true);
    await page.getByLabel("I understand that this deletes my account and data for good: it cannot be undone.").check();
    expect(await page.getByTestId("data-erase").isDisabled()).toBe(false);
    // An empty password is refused before anything is sent (the field says so).
    await page.getByTestId("data-erase").click();
    expect(await password.evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    expect(await erase.getByRole("alert").count()).toBe(0);
    expect(asked, "nothing was sent").toBe(0);
    // A wrong password: the server's words at once, nothing erased.
    await password.fill("not my password");
    await page.getByTestId("data-erase").click();
    await erase.getByRole("alert").waitFor();
    expect(await erase.getByRole("alert").textContent()).toBe("Your current password is not right; nothing was changed.");
    expect(await db.prisma.account.count({ where: { playerId: id } })).toBe(1);
    expect(asked, "one request: the password checked as the deletion's").toBe(1);
    expect(await axeViolations(page), "the deletion form with its box ticked and a refusal passes axe").toEqual([]);

    // Unticked again, the button cannot be pressed; ticked with her password, it deletes.
    await page.getByTestId("erase-understood").uncheck();
    expect(await page.getByTestId("data-erase").isDisabled()).toBe(true);
    await password.fill("password of DataDella");
    await page.getByTestId("erase-understood").check();
    await page.getByTestId("data-erase").click();
    await page.getByLabel("Your display name").waitFor();
    expect(await page.locator(".welcome p.notice[role=alert]").textContent()).toBe(
      "Your account and your data are deleted. Your finished games stay in the other players' histories, with your seat anonymous.",
    );
    expect(popups).toEqual([]);
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
    expect(await page.getByTestId("data-erase").isDisabled()).toBe(true);
    await page.getByLabel("I understand that this deletes this guest's data for good: it cannot be undone.").check();
    await page.getByTestId("data-erase").click();
    await page.getByTestId("your-data").getByRole("alert").waitFor();
    expect(await page.getByTestId("your-data").getByRole("alert").textContent()).toBe("Type your name exactly as it is, Guest Gwen, to confirm; nothing was erased.");
    await field.fill("Guest Gwen");
    await page.getByTestId("data-erase").click();
    await page.getByLabel("Your display name").waitFor();
    expect(await page.locator(".welcome p.notice[role=alert]").textContent()).toBe(
      "This guest's data is deleted. Your finished games stay in the other players' histories, with your seat anonymous.",
    );
    expect(await t.bazaar.db.prisma.erasedPlayer.count({ where: { id } })).toBe(1);
  });
});
