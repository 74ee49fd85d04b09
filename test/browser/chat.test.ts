/**
 * Table chat in a real browser (issue 25): a ranked Goblin Teeth game between two accounts, with
 * a spectator on a desktop page and one on a phone. The spectator's message never reaches a
 * player's page (neither shown nor held); a player's quick phrase reaches the spectators; the phone
 * shows the chat collapsed with an unread count; Mute hides an author (remembered after a reload);
 * a refused message shows the server's reason. A player who leaves a ranked seat to watch reads
 * the spectators' earlier messages at once. The server's clock is the test's (rate limits).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Player } from "../../src/platform/identity.js";
import { clockPresets } from "../../src/platform/clocks.js";
import { findGame } from "../../src/games/registry.js";
import { CHAT_LIMITS } from "../../src/platform/chat.js";
import { guest, TestClient } from "../support/harness.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, enterName, newPage, PHONE, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

/** The server's clock: still, so the rate limit's window is the test's to move. */
let now = Date.now();

const identityOf = async (page: Page): Promise<Player> => (await storedIdentity(page))!.player;
/** Every chat text this page holds for the room (shown or not). */
const heldTexts = async (page: Page, roomId: string): Promise<string[]> =>
  (await page.evaluate(`(window.goblinBazaar.chats.get(${JSON.stringify(roomId)}) ?? []).map((m) => m.text)`)) as string[];
const shownMessage = (page: Page, text: string) => page.locator('[data-testid="chat-msg"]', { hasText: text });

describe.skipIf(!available)("table chat in the browser", () => {
  const t = useBrowserBazaar({ now: () => now, manualTimers: true });

  it("ranked: spectators talk among themselves, players' messages reach everyone, mute hides an author", async () => {
    const url = t.bazaar.server.url;
    const { page: ann } = await newPage(t.browser);
    const { page: bob } = await newPage(t.browser);
    const { page: carl } = await newPage(t.browser);
    const { page: dee } = await newPage(t.browser, PHONE);
    // Patient: other test runs may share this machine's two cores.
    for (const p of [ann, bob, carl, dee]) p.setDefaultTimeout(45_000);
    await enterAccount(ann, url, "ChatAnn");
    await enterAccount(bob, url, "ChatBob");
    await enterName(carl, url, "Carl");
    await enterName(dee, url, "Dee");
    const players = [await identityOf(ann), await identityOf(bob)];
    const clock = clockPresets(findGame("goblin-teeth")!)[0]!.id;
    const room = await t.bazaar.server.service.createMatchRoom(players, { game: "goblin-teeth", seats: 2, clock, ranked: true });
    for (const p of [ann, bob, carl, dee]) await p.goto(`${url}/room/${room.id}`);
    for (const p of [ann, bob, carl, dee]) await p.locator(`.room[data-room="${room.id}"][data-status="playing"]`).waitFor();
    // The players see who watches: "2 watching", which opens to the two names.
    await expect.poll(() => ann.getByTestId("watching").getAttribute("data-count")).toBe("2");
    await ann.getByTestId("watching").locator("summary").click();
    expect(await ann.getByTestId("watchers").textContent()).toBe("Carl, Dee");
    expect(await axeViolations(ann), "the open list of watchers passes axe").toEqual([]);
    await ann.getByTestId("watching").locator("summary").click();

    // Desktop: the panel is open. Players have no Spectators tab in a ranked room.
    for (const p of [ann, bob, carl]) await p.getByTestId("chat-list").waitFor();
    for (const p of [ann, bob]) expect(await p.getByTestId("chat-tab-spectators").count()).toBe(0);
    await carl.getByTestId("chat-tab-spectators").waitFor();
    // Phone: collapsed to one button, after the table.
    const toggle = dee.getByTestId("chat-toggle");
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await dee.getByTestId("chat-list").count()).toBe(0);

    // Carl (a spectator) writes and sends with Enter: it goes to the spectators.
    const secret = "Psst Ann, Bob holds the high tooth";
    await carl.getByTestId("chat-input").fill(secret);
    await carl.getByTestId("chat-input").press("Enter");
    await shownMessage(carl, secret).waitFor();
    expect(await shownMessage(carl, secret).getAttribute("data-channel")).toBe("spectators");
    expect(await carl.getByTestId("chat-input").inputValue()).toBe("");
    // Dee, on the phone, sees an unread count on the collapsed chat.
    await dee.getByTestId("chat-unread").waitFor();
    expect(await dee.getByTestId("chat-unread").textContent()).toBe("1");

    // Ann sends a quick phrase: everyone sees it.
    await ann.getByTestId("chat-phrase").filter({ hasText: "Good luck!" }).click();
    await shownMessage(ann, "Good luck!").waitFor();
    await shownMessage(bob, "Good luck!").waitFor();
    await carl.getByTestId("chat-tab-players").click();
    await shownMessage(carl, "Good luck!").waitFor();
    expect(await shownMessage(carl, "Good luck!").locator(".chat-name").textContent()).toBe("ChatAnn");
    await dee.getByTestId("chat-unread").filter({ hasText: "2" }).waitFor();
    await toggle.click();
    await shownMessage(dee, "Good luck!").waitFor();
    expect(await dee.getByTestId("chat-unread").count()).toBe(0);
    // On the phone a long message flows under its time and author, using the whole width, instead
    // of being squeezed into a column beside them.
    await dee.getByTestId("chat-tab-spectators").click();
    const flow = (await dee.evaluate(`(() => {
      const li = [...document.querySelectorAll('[data-testid="chat-msg"]')].find((e) => e.textContent.includes(${JSON.stringify(secret)}));
      const range = document.createRange();
      range.selectNodeContents(li.querySelector(".chat-text"));
      const rects = [...range.getClientRects()].filter((b) => b.width > 0);
      return { lines: new Set(rects.map((b) => Math.round(b.top))).size, indent: rects.at(-1).left - li.getBoundingClientRect().left - parseFloat(getComputedStyle(li).paddingLeft) };
    })()`)) as { lines: number; indent: number };
    expect(flow.lines).toBeGreaterThan(1);
    expect(flow.indent).toBeLessThan(2);

    // Carl's message came first: it never reached either player's page, shown or held.
    for (const p of [ann, bob]) {
      expect(await heldTexts(p, room.id)).toEqual(["Good luck!"]);
      expect(await p.locator("body").textContent()).not.toContain(secret);
    }
    // Nor after a reload (the history is what the player may see).
    await bob.reload();
    await shownMessage(bob, "Good luck!").waitFor();
    expect(await heldTexts(bob, room.id)).toEqual(["Good luck!"]);

    // Carl mutes Ann: her message is hidden, counted, and stays hidden after a reload.
    await shownMessage(carl, "Good luck!").getByRole("button", { name: "Mute ChatAnn" }).click();
    await carl.getByTestId("chat-hidden").waitFor();
    expect(await carl.getByTestId("chat-hidden").textContent()).toContain("1 hidden");
    expect(await shownMessage(carl, "Good luck!").count()).toBe(0);
    await carl.reload();
    await carl.getByTestId("chat-hidden").waitFor();
    expect(await shownMessage(carl, "Good luck!").count()).toBe(0);
    await carl.getByRole("button", { name: "Unmute ChatAnn" }).click();
    await shownMessage(carl, "Good luck!").waitFor();

    // Too many messages at once: the server's reason is shown, and the message kept in the input.
    await carl.getByTestId("chat-tab-spectators").click();
    for (let i = 1; i < CHAT_LIMITS.burst.max; i++) {
      await carl.getByTestId("chat-input").fill(`note ${i}`);
      await carl.getByTestId("chat-input").press("Enter");
      await shownMessage(carl, `note ${i}`).waitFor();
    }
    await carl.getByTestId("chat-input").fill("one too many");
    await carl.getByTestId("chat-input").press("Enter");
    await carl.getByTestId("chat-error").waitFor();
    expect(await carl.getByTestId("chat-error").textContent()).toMatch(/Too many chat messages; try again in \d+ seconds?/);
    expect(await carl.getByTestId("chat-input").inputValue()).toBe("one too many");
    now += CHAT_LIMITS.burst.windowMs;
    await carl.getByTestId("chat-input").press("Enter");
    await shownMessage(carl, "one too many").waitFor();
    expect(await carl.getByTestId("chat-error").count()).toBe(0);
  }, 180_000);

  it("ranked: a player who leaves the seat to watch reads the spectators' earlier messages at once", async () => {
    now += 3_600_000; // fresh chat windows
    const url = t.bazaar.server.url;
    const { page: host } = await newPage(t.browser);
    const { page: eve } = await newPage(t.browser);
    for (const p of [host, eve]) p.setDefaultTimeout(45_000);
    await enterAccount(host, url, "LeaveHost");
    await enterAccount(eve, url, "LeaveEve");
    const token = async (page: Page) => (await storedIdentity(page))!.token;
    const hostC = await new TestClient(url, await token(host)).ready();
    const eveC = await new TestClient(url, await token(eve)).ready();
    const rail = await new TestClient(url, (await guest(url, "Rail")).token).ready();
    try {
      const created = await hostC.call("room:create", { game: "goblin-teeth", seats: 3, ranked: true });
      expect(created.ok, JSON.stringify(created)).toBe(true);
      const roomId = created.roomId as string;
      expect((await eveC.call("room:join", { roomId, seat: 1 })).ok).toBe(true);
      await eve.goto(`${url}/room/${roomId}`);
      await eve.getByTestId("chat-list").waitFor();
      // A spectator speaks while Eve sits: her page neither shows nor holds it; a player's message reaches her.
      expect((await rail.call("room:sync", { roomId })).ok).toBe(true);
      expect((await rail.call("chat:send", { roomId, text: "from the rail" })).ok).toBe(true);
      expect((await hostC.call("chat:send", { roomId, text: "seated hello" })).ok).toBe(true);
      await shownMessage(eve, "seated hello").waitFor();
      expect(await heldTexts(eve, roomId)).not.toContain("from the rail");
      // Eve leaves her seat and stays to watch: the spectators' message is hers to read now.
      await eve.evaluate(`window.goblinBazaar.leave(${JSON.stringify(roomId)})`);
      await expect.poll(() => heldTexts(eve, roomId)).toContain("from the rail");
      expect(await heldTexts(eve, roomId)).toEqual(["from the rail", "seated hello"]);
    } finally {
      for (const c of [hostC, eveC, rail]) c.close();
    }
  }, 120_000);
});
