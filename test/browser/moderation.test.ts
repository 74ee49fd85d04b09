/**
 * Reports and closing an account in a real browser: an account reports another from their profile
 * (the dialog passes axe, says what is missing, and gives the focus back) and from a chat message
 * at a table (the report names that game); a second report of the same player is refused with the
 * server's reason; then a player closes their own account from the account menu (password, and a
 * box ticked in the form: "I understand…", no popup): they are back at the entry screen with a notice, their game in play is resigned
 * before the other player's eyes, their profile says the account is closed, and logging in again
 * shows why it cannot. Blocking: from a profile (the blocked player's chat hidden, no seat beside
 * them), undone from the account menu; the profile of a player you block offers Unblock, not
 * Follow or Invite, and following ends both ways; the blocked player is refused Follow and Invite.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Player } from "../../src/platform/identity.js";
import { clockPresets } from "../../src/platform/clocks.js";
import { findGame } from "../../src/games/registry.js";
import { until } from "../support/harness.js";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const identityOf = async (page: Page): Promise<Player> => (await storedIdentity(page))!.player;
const focused = (page: Page) => page.evaluate(`document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName ?? null`);

describe.skipIf(!available)("reports and closing an account in the browser", () => {
  const ADMIN = "browser-test-admin-token-" + "b".repeat(20);
  const t = useBrowserBazaar({ adminToken: ADMIN });

  it("reports a player from a profile and from the chat, and closes an account from its menu", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const { page: ann } = await newPage(t.browser);
    const { page: bob } = await newPage(t.browser);
    for (const p of [ann, bob]) p.setDefaultTimeout(30_000);
    await enterAccount(ann, url, "ModAnn");
    await enterAccount(bob, url, "ModBob");
    const [annId, bobId] = [(await identityOf(ann)).id, (await identityOf(bob)).id];

    // Bob reports Ann from her profile.
    await bob.goto(`${url}/player/modann`);
    await bob.getByTestId("profile-name").waitFor();
    await bob.getByTestId("report-open").click();
    const dialog = bob.getByTestId("report-dialog");
    await dialog.waitFor();
    expect(await bob.locator("#report-title").textContent()).toBe("Report ModAnn");
    expect(await axeViolations(bob), "the report dialog passes axe").toEqual([]);
    await bob.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(bob), "the report dialog passes axe in the dark theme").toEqual([]);
    await bob.emulateMedia({ colorScheme: "light" });
    expect(await bob.getByTestId("report-send").isDisabled()).toBe(true);
    await bob.getByTestId("report-text").fill("She called me names all game.");
    await bob.getByTestId("report-send").click();
    expect(await bob.getByTestId("report-error").textContent()).toBe("Choose what the report is about.");
    await bob.getByRole("radio", { name: /^Abuse/ }).check();
    await bob.getByTestId("report-send").click();
    await bob.getByTestId("report-done").waitFor();
    expect(await bob.getByTestId("report-done").textContent()).toContain("ModAnn is not told who reported them");
    await bob.getByTestId("report-close").click();
    await dialog.waitFor({ state: "hidden" });
    expect(await focused(bob)).toBe("report-open");
    const first = await db.prisma.report.findMany({ where: { reporterId: bobId } });
    expect(first.map((r) => [r.targetId, r.reason, r.text, r.roomId])).toEqual([[annId, "abuse", "She called me names all game.", null]]);
    // Again while that one is open: the server's reason, and nothing stored; Escape closes.
    await bob.getByTestId("report-open").click();
    await bob.getByRole("radio", { name: /^Stalling/ }).check();
    await bob.getByTestId("report-text").fill("And she stalls.");
    await bob.getByTestId("report-send").click();
    expect(await bob.getByTestId("report-error").textContent()).toMatch(/^You reported ModAnn on \d{4}-\d\d-\d\d and the operators have not dealt with it yet\.$/);
    await bob.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await db.prisma.report.count({ where: { reporterId: bobId } })).toBe(1);
    // Nobody reports themselves: Ann's own profile has no Report button.
    await ann.goto(`${url}/player/ModAnn`);
    await ann.getByTestId("profile-name").waitFor();
    expect(await ann.getByTestId("report-open").count()).toBe(0);

    // At a table: Bob writes, Ann reports him from his message, which names the game.
    const clock = clockPresets(findGame("goblin-market")!)[0]!.id;
    const room = await t.bazaar.server.service.createMatchRoom([await identityOf(ann), await identityOf(bob)], { game: "goblin-market", seats: 3, clock, ranked: false }, 1);
    for (const p of [ann, bob]) await p.goto(`${url}/room/${room.id}`);
    for (const p of [ann, bob]) await p.locator(`.room[data-room="${room.id}"][data-status="playing"]`).waitFor();
    await bob.getByTestId("chat-input").fill("Only idiots bid like that.");
    await bob.getByTestId("chat-send").click();
    const message = ann.locator('[data-testid="chat-msg"]', { hasText: "Only idiots" });
    await message.waitFor();
    expect(await bob.locator('[data-testid="chat-msg"]', { hasText: "Only idiots" }).getByTestId("report-open").count()).toBe(0);
    await message.getByRole("button", { name: "Report ModBob" }).click();
    expect(await ann.locator("#report-title").textContent()).toBe("Report ModBob");
    expect(await ann.getByTestId("report-dialog").textContent()).toContain("About the game at this table.");
    await ann.getByRole("radio", { name: /^Abuse/ }).check();
    await ann.getByTestId("report-text").fill("Insults in the chat.");
    await ann.getByTestId("report-send").click();
    await ann.getByTestId("report-done").waitFor();
    await ann.getByTestId("report-close").click();
    const fromChat = await db.prisma.report.findMany({ where: { reporterId: annId } });
    expect(fromChat.map((r) => [r.targetId, r.reason, r.roomId])).toEqual([[bobId, "abuse", room.id]]);
    // The operators remove Bob's message: it leaves both pages at once.
    const removed = await fetch(`${url}/api/admin/rooms/${room.id}/chat/1/remove`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: "{}" });
    expect(((await removed.json()) as { ok: boolean }).ok).toBe(true);
    for (const p of [ann, bob]) {
      await p.locator(".chat-removed", { hasText: "(removed by the operators)" }).waitFor();
      expect(await p.locator('[data-testid="chat-msg"]', { hasText: "Only idiots" }).count()).toBe(0);
    }

    // Ann is also logged in on another device (on her profile page, not at a table).
    const { page: annPhone } = await newPage(t.browser);
    await enterAccount(annPhone, url, "ModAnn");
    await annPhone.getByTestId("nav-leaderboards").click();
    await annPhone.waitForURL(`${url}/leaderboards`);

    // Ann closes her account from the menu: a wrong password first, then hers.
    await ann.locator('details[data-testid="me"] > summary').click();
    await ann.getByTestId("account-close").locator("summary").click();
    expect(await axeViolations(ann), "the menu with the closing form open passes axe").toEqual([]);
    await ann.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(ann), "the menu with the closing form open passes axe in the dark theme").toEqual([]);
    await ann.emulateMedia({ colorScheme: "light" });
    // As deleting your data: "I understand" is ticked in the form before the button may be
    // pressed, and no popup is asked, so a wrong password is refused at once.
    const popups: string[] = [];
    ann.on("dialog", (d) => {
      popups.push(d.message());
      void d.dismiss();
    });
    await ann.getByLabel("Your password, to confirm").fill("not my password");
    expect(await ann.getByTestId("account-close-submit").isDisabled()).toBe(true);
    await ann.getByLabel("I understand that closing is for good: only the operators can open my account again.").check();
    await ann.getByTestId("account-close-submit").click();
    await ann.getByTestId("account-close").getByRole("alert").waitFor();
    expect(await ann.getByTestId("account-close").getByRole("alert").textContent()).toBe("Your current password is not right; nothing was changed.");
    expect(await axeViolations(ann), "the closing form with its box ticked and a refusal passes axe").toEqual([]);
    await ann.getByLabel("Your password, to confirm").fill("password of ModAnn");
    await ann.getByTestId("account-close-submit").click();
    await ann.getByLabel("Your display name").waitFor();
    expect(await ann.locator(".welcome p.notice[role=alert]").textContent()).toBe("Your account is closed; its game in play was resigned. Its name stays reserved. You can go on as a guest.");
    expect(await storedIdentity(ann)).toBeNull();
    expect(popups).toEqual([]);
    // Her other device is told that the account is closed, in the words a login would get (not "logged out").
    // It is on the leaderboards, a page anyone may read: a banner says it there, and leads to the name screen.
    const closedHere = /^You closed this account on \d{4}-\d\d-\d\d\. Its name stays reserved; ask the operators to reopen it\. Log in with another account, or continue as a guest\.$/;
    await annPhone.getByTestId("identity-notice").waitFor();
    expect(await annPhone.getByTestId("identity-notice-text").textContent()).toMatch(closedHere);
    await annPhone.getByTestId("identity-notice").getByRole("link", { name: "Choose a name or log in" }).click();
    await annPhone.getByLabel("Your display name").waitFor();
    expect(await annPhone.locator(".welcome p.notice[role=alert]").textContent()).toMatch(closedHere);
    // Bob sees her resign: a bot plays her seat.
    await bob.getByText("ModAnn resigned; a bot plays their seat to the end.").first().waitFor();

    // Her profile says the account is closed, and offers no Report button; logging in says why not.
    await bob.goto(`${url}/player/ModAnn`);
    await bob.getByTestId("profile-closed").waitFor();
    expect(await bob.getByTestId("profile-closed").textContent()).toContain("This account is closed.");
    expect(await bob.getByTestId("report-open").count()).toBe(0);
    expect(await axeViolations(bob), "a closed account's profile passes axe").toEqual([]);
    await ann.getByTestId("account-entry").locator("summary").click();
    await ann.getByTestId("acc-tab-login").click();
    await ann.getByLabel("Account name").fill("ModAnn");
    await ann.getByLabel("Password").fill("password of ModAnn");
    await ann.getByTestId("acc-submit").click();
    expect(await ann.getByTestId("acc-error").textContent()).toMatch(/^You closed this account on \d{4}-\d\d-\d\d\. Its name stays reserved; ask the operators to reopen it\.$/);
  });

  it("blocks a player from their profile: their chat hidden, no seat beside them; unblocks from the menu", async () => {
    const url = t.bazaar.server.url;
    const { page: cal } = await newPage(t.browser);
    const { page: dee } = await newPage(t.browser);
    for (const p of [cal, dee]) p.setDefaultTimeout(30_000);
    await enterAccount(cal, url, "BlockCal");
    await enterAccount(dee, url, "BlockDee");

    // Dee blocks Cal from his profile (after a confirmation).
    await dee.goto(`${url}/player/BlockCal`);
    dee.once("dialog", (d) => void d.accept());
    await dee.getByTestId("block").click();
    await dee.getByTestId("unblock").waitFor();
    expect(await t.bazaar.db.prisma.block.count({ where: { blocked: { name: "BlockCal" } } })).toBe(1);

    // Cal opens a table and writes; Dee may watch it, sees his message hidden, and cannot sit.
    await cal.goto(url);
    const roomId = await createRoom(cal, { seats: 3, ranked: false });
    await cal.getByTestId("chat-input").fill("Anyone for a game?");
    await cal.getByTestId("chat-send").click();
    await dee.goto(`${url}/room/${roomId}`);
    await dee.getByTestId("chat-hidden").waitFor();
    expect(await dee.getByTestId("chat-hidden").textContent()).toMatch(/1 hidden \(\s*you block BlockCal\)/);
    expect(await dee.locator('[data-testid="chat-msg"]', { hasText: "Anyone for a game?" }).count()).toBe(0);
    // The page offers her no seat, and says why.
    await expect.poll(() => dee.getByTestId("seat-refusal").textContent()).toBe("You block BlockCal, who sits at this table; unblock them to join.");
    expect(await dee.getByTestId("sit-here").count()).toBe(0);

    // Unblocked from the account menu: his message shows, and Dee sits down.
    await dee.locator('details[data-testid="me"] > summary').click();
    await dee.getByTestId("blocked-list").locator("summary").click();
    expect(await dee.getByTestId("blocked-list").locator("summary").textContent()).toBe("Blocked players (1)");
    expect(await axeViolations(dee), "the menu with the blocked list open passes axe").toEqual([]);
    await dee.getByRole("button", { name: "Unblock BlockCal" }).click();
    await until(async () => (await dee.getByTestId("blocked-list").locator("summary").textContent()) === "Blocked players" || undefined, "the list to empty");
    await dee.keyboard.press("Escape");
    await dee.locator('[data-testid="chat-msg"]', { hasText: "Anyone for a game?" }).waitFor();
    expect(await dee.getByTestId("seat-refusal").count()).toBe(0);
    await dee.getByRole("button", { name: "Sit here" }).first().click();
    await until(async () => (await t.bazaar.server.service.get(roomId)).seats.some((s) => s.name === "BlockDee") || undefined, "Dee seated");
  });
});

describe.skipIf(!available)("a blocked player's profile in the browser", () => {
  // A server of its own: the other describe's accounts use up an address's registrations for the hour.
  const t = useBrowserBazaar();

  it("a blocked player's profile offers Unblock, not Following nor Invite; the block ends following both ways; the blocked player is refused both", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const { page: eve } = await newPage(t.browser);
    const { page: fay } = await newPage(t.browser);
    for (const p of [eve, fay]) p.setDefaultTimeout(30_000);
    await enterAccount(eve, url, "BlockEve");
    await enterAccount(fay, url, "BlockFay");
    const [eveId, fayId] = [(await identityOf(eve)).id, (await identityOf(fay)).id];

    // They follow each other.
    await fay.goto(`${url}/player/BlockEve`);
    await fay.getByTestId("follow").click();
    await fay.getByTestId("unfollow").waitFor();
    await eve.goto(`${url}/player/BlockFay`);
    await eve.getByTestId("follow").click();
    await eve.getByTestId("unfollow").waitFor();
    expect(await eve.getByTestId("unfollow").textContent()).toBe("Following ✓");

    // Eve blocks Fay: her profile no longer says Following nor offers Invite; it says she is blocked, with Unblock.
    eve.once("dialog", (d) => void d.accept());
    await eve.getByTestId("block").click();
    await eve.getByTestId("profile-blocked").waitFor();
    const blockedView = async () => ({
      note: (await eve.getByTestId("profile-blocked").textContent())!.replace(/\s+/g, " ").trim(),
      actions: await eve.locator(".profile-actions button").allTextContents(),
    });
    const expected = {
      note: "You block BlockFay: you are never seated together, their chat messages are hidden from you, and neither of you follows the other. Unblock them to follow them or invite them to a game.",
      actions: ["Unblock", "Report"],
    };
    expect(await blockedView()).toEqual(expected);
    expect(await axeViolations(eve), "the profile of a player you block passes axe").toEqual([]);
    // So on the server: neither follows the other.
    expect(await db.prisma.follow.count({ where: { OR: [{ playerId: eveId, followedId: fayId }, { playerId: fayId, followedId: eveId }] } })).toBe(0);
    // The same after a reload (the blocked list read afresh), and in her menu's Following.
    await eve.reload();
    await eve.getByTestId("profile-blocked").waitFor();
    expect(await blockedView()).toEqual(expected);
    await eve.locator('details[data-testid="me"] > summary').click();
    expect(await eve.getByTestId("follows-list").locator("summary").textContent()).toBe("Following");
    await eve.keyboard.press("Escape");

    // Fay, blocked: her follow of Eve is gone; following again is refused in plain words.
    await fay.reload();
    await fay.getByTestId("follow").waitFor();
    await fay.getByTestId("follow").click();
    await fay.getByTestId("toast").filter({ hasText: "You cannot follow BlockEve: they have blocked you." }).waitFor();
    expect(await fay.getByTestId("unfollow").count()).toBe(0);
    // Invite to a game: the table is made, and the invitation refused (in the words an account that turned invitations off gets).
    await fay.getByTestId("play-with").click();
    await fay.waitForURL(`${url}/`);
    await fay.selectOption("#c-game", "goblin-teeth");
    await fay.selectOption("#c-seats", "2");
    await fay.getByRole("button", { name: "Create room" }).click();
    await fay.waitForURL(/\/room\/[^/]+$/);
    await expect.poll(() => fay.getByTestId("invite-error").textContent()).toBe("BlockEve is not taking invitations to this table.");

    // Eve unblocks her from the profile: Follow and Invite are back; the follow is not.
    await eve.getByTestId("unblock").click();
    await eve.getByTestId("play-with").waitFor();
    expect(await eve.locator(".profile-actions button").allTextContents()).toEqual(["Follow", "Invite to a game", "Block", "Report"]);
    expect(await eve.getByTestId("profile-blocked").count()).toBe(0);
  });
});
