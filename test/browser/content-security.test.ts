/**
 * The web client runs under the server's Content-Security-Policy (src/transport/security-headers.ts)
 * without tripping it: through the entry screen, the lobby, a Goblin Market game with bots (moves,
 * the rules dialog, the chat, the end screen), an Aucteraden table (its grid is sized by a style
 * attribute), the replay, the leaderboards and a profile, the browser reports no violation. And the
 * policy is in force: a script the page did not ship is refused.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { randomLegalAction } from "../../src/games/legal.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import type { Player } from "../../src/platform/identity.js";
import { guest, lcg } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, createRoom, enterName, newPage, playOneMove, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

/** Records every securitypolicyviolation the page's documents report, from the first byte of each. */
const RECORD = `window.__violations = []; document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" + e.lineNumber));`;
const violations = async (page: Page): Promise<string[]> => (await page.evaluate("window.__violations")) as string[];

describe.skipIf(!available)("the client under the Content-Security-Policy", () => {
  const t = useBrowserBazaar({ botDelayMs: 30 });

  it("trips nothing on any page, and the policy refuses a script the page did not ship", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser);
    await context.addInitScript(RECORD);
    const seen: string[] = [];
    const check = async (where: string) => seen.push(...(await violations(page)).map((v) => `${where}: ${v}`));

    await enterName(page, url, "Csp");
    await check("entry and lobby");
    await createRoom(page, { seats: 3, ranked: false, bots: 2 });
    await page.getByTestId("start").click();
    for (let step = 0; step < 4; step++) await playOneMove(page, step);
    await page.getByRole("button", { name: "Rules" }).first().click();
    await page.locator('[data-testid="rules-dialog"][data-ready="1"]').waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("chat-phrase").first().click();
    await page.getByTestId("chat-msg").first().waitFor();
    await check("a Goblin Market table");
    await page.goto(url);
    await createRoom(page, { seats: 1, ranked: false, game: "aucteraden" });
    await page.getByTestId("tableau").waitFor();
    await check("an Aucteraden table");
    await page.goto(`${url}/leaderboards`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await check("the leaderboards");
    await page.goto(`${url}/player/Csp`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await check("a profile");
    // A finished game's replay (played to the end by the server: two guests' random legal moves).
    const service = t.bazaar.server.service;
    const players = [(await guest(url, "Rep1")).player as Player, (await guest(url, "Rep2")).player as Player];
    let room: Room = await service.createMatchRoom(players, { game: "goblin-teeth", seats: 2, clock: "none", ranked: false });
    const random = lcg(5);
    while (room.status !== "finished") {
      const seat = gameOf(room).activeSeats(gameState(room))[0]!;
      room = (await service.act(room.id, players[seat]!, randomLegalAction(gameOf(room).legalActions(gameState(room), seat), random)!)).room;
    }
    await page.goto(`${url}/game/${room.id}`);
    await page.getByTestId("replay-seed-ok").waitFor();
    await check("a replay");
    expect(seen).toEqual([]);

    // In force: an inline script (as an injection would add) is refused and reported.
    await page.evaluate(`(() => { const s = document.createElement("script"); s.textContent = "window.__ran = true"; document.head.append(s); })()`);
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await page.evaluate("window.__ran === true")).toBe(false);
    await context.close();
  }, 90_000);
});
