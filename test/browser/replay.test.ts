/**
 * The replay viewer in a real browser (playwright-core driving Debian's chromium). A game of each
 * of the four games is played to the end over the protocol (one person, bots in the other seats);
 * then /game/<id> replays it: the deal verified in words, steps by the buttons, the keys and the
 * slider, to the end where the final scores are the recorded ones; "viewing as" switches between
 * everyone (the hidden cards listed), a player and a spectator; the shareable link opens at its
 * step. A spectator's end screen of the finished room links to the replay, and the room's address
 * opens the replay at its end once the room itself is forgotten.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { randomLegalAction } from "../../src/games/legal.js";
import type { LegalAction } from "../../src/games/types.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { recordFinishedGame, type FinishedGameRecord } from "../../src/db/finished-games.js";
import { guest, lcg, TestClient, until } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, DESKTOP, launchChromium, newPage, PHONE, ROOT, startBazaar, type Bazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

async function json(url: string): Promise<Record<string, any>> {
  return (await (await fetch(url)).json()) as Record<string, any>;
}

/** One person plays a room (bots fill the other seats) to the end over the protocol; returns its finished record. */
async function playGame(base: string, game: string, seats: number, seed: number): Promise<{ roomId: string; record: Record<string, any> }> {
  const me = await guest(base, "Rae");
  const c = await new TestClient(base, me.token).ready();
  try {
    const created = await c.call("room:create", { game, seats, bots: seats - 1, clock: "none" });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    // A solitaire room starts at creation; the others when the host starts them.
    if (seats === 1) expect((created.state as { status: string }).status).toBe("playing");
    else expect((await c.call("room:start", { roomId })).ok).toBe(true);
    const random = lcg(seed);
    for (let i = 0; i < 3000; i++) {
      await c.sync(roomId);
      const view = c.view(roomId) as Record<string, any>;
      if (view.status === "finished") break;
      const legal = view.legal as LegalAction[];
      if (legal.length === 0) {
        // A bot's turn: wait for it to move.
        await until(async () => ((await c.sync(roomId), c.view(roomId).version as number) > (view.version as number)), "a bot to move");
        continue;
      }
      const ack = await c.call("game:act", { roomId, action: randomLegalAction(legal, random) });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    const record = await until(async () => {
      const r = await json(`${base}/api/finished/${roomId}`);
      return r.ok ? (r.game as Record<string, any>) : undefined;
    }, `the ${game} game to be recorded`);
    return { roomId, record };
  } finally {
    c.close();
  }
}

const step = async (page: Page) => Number(await page.getByTestId("replay").getAttribute("data-step"));

describe.skipIf(!available)("replay viewer (browser)", () => {
  let bazaar: Bazaar;
  let base: string;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    bazaar = await startBazaar({ botDelayMs: 5 });
    base = `http://127.0.0.1:${bazaar.server.port}`;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  const open = async (path: string, size = DESKTOP) => {
    const { context, page } = await newPage(browser, size);
    page.on("pageerror", (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(base + path);
    await page.getByTestId("replay").waitFor();
    return { context, page };
  };

  it("steps through a Goblin Teeth game by buttons, keys and slider to the final scores, as everyone, a player and a spectator", async () => {
    const { roomId, record } = await playGame(base, "goblin-teeth", 3, 11);
    const last = record.actions.length as number;
    const { context, page } = await open(`/game/${roomId}`);
    const replay = page.getByTestId("replay");
    expect(await replay.getAttribute("data-total")).toBe(String(last + 1));
    expect(await step(page)).toBe(0);
    await expect.poll(() => page.getByTestId("replay-step").textContent()).toContain("The deal");
    // The deal, verified in plain words, with the seed the record has.
    await page.getByTestId("replay-seed-ok").waitFor();
    expect(await page.getByTestId("replay-seed-ok").textContent()).toContain("Deal verified: the seed matches the commitment published at the start.");
    expect(await page.getByTestId("replay-seed").textContent()).toBe(record.seed);
    // The rules version the record says it was played under (Goblin Teeth's today: 2).
    expect(record.rules).toBe(2);
    expect(await page.getByTestId("replay-rules").textContent()).toContain("Version 2");
    expect(await page.getByTestId("replay-rules").textContent()).not.toContain("games started now");
    // Everything hidden: every hand at the deal.
    await page.getByTestId("replay-hidden").waitFor();
    expect(await page.getByTestId("replay-hidden").locator("dt").allTextContents()).toEqual(expect.arrayContaining(["Rae's hand", "Bot 1's hand", "Bot 2's hand"]));

    // Buttons.
    await page.getByTestId("replay-next").click();
    await expect.poll(() => step(page)).toBe(1);
    expect(await page.getByTestId("replay-lines").textContent()).toMatch(/moved/);
    await page.getByTestId("replay-prev").click();
    await expect.poll(() => step(page)).toBe(0);
    expect(await page.getByTestId("replay-prev").isDisabled()).toBe(true);
    // Keys.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => step(page)).toBe(2);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => step(page)).toBe(1);
    // The slider, dragged to the middle (it reports its value as a range input does).
    const mid = Math.floor(last / 2);
    await page.getByTestId("replay-slider").evaluate((el, v) => {
      (el as unknown as { value: string }).value = String(v);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, mid);
    await expect.poll(() => step(page)).toBe(mid);
    await page.locator(".gt-table").waitFor();
    // ...and moved by its own arrow key.
    await page.getByTestId("replay-slider").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => step(page)).toBe(mid + 1);
    await page.getByTestId("replay-slider").blur();
    // The shareable link names the step.
    await expect.poll(() => page.getByTestId("replay-url").inputValue()).toBe(`${base}/game/${roomId}?step=${mid + 1}`);
    expect(new URL(page.url()).search).toBe(`?step=${mid + 1}`);

    // A player's own view: their hand, nothing else hidden shown.
    await page.selectOption('[data-testid="replay-viewer"]', "seat:0");
    await expect.poll(() => replay.getAttribute("data-viewer")).toBe("seat:0");
    await page.locator(".gt-table").waitFor();
    expect(await page.getByTestId("replay-hidden").count()).toBe(0);
    expect(await step(page)).toBe(mid + 1);
    await expect.poll(() => page.getByTestId("replay-url").inputValue()).toBe(`${base}/game/${roomId}?step=${mid + 1}&viewer=seat%3A0`);
    // A spectator's.
    await page.selectOption('[data-testid="replay-viewer"]', "spectator");
    await expect.poll(() => replay.getAttribute("data-viewer")).toBe("spectator");
    await page.locator(".gt-table").waitFor();
    expect(await page.getByTestId("replay-hidden").count()).toBe(0);
    await page.selectOption('[data-testid="replay-viewer"]', "all");
    await page.getByTestId("replay-hidden").waitFor();

    // End: the final scores, as recorded.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("End");
    await expect.poll(() => step(page)).toBe(last);
    await page.getByTestId("end-screen").waitFor();
    const rows = page.getByTestId("result-row");
    expect(await rows.count()).toBe(3);
    // Goblin Teeth has no points: each row says the Offering completed and the teeth, which decide
    // the places (its outcome's scores encode them: 100 x Offering level + teeth).
    const shown = (await rows.allTextContents()).join(" ");
    for (const score of record.outcome.scores as number[]) expect(shown).toContain(`${score % 100} ${score % 100 === 1 ? "tooth" : "teeth"}`);
    expect(await page.getByTestId("replay-next").isDisabled()).toBe(true);
    expect(await page.getByTestId("replay-link").count()).toBe(0);
    expect(await page.getByTestId("replay-keys").isVisible()).toBe(true);
    await page.keyboard.press("Home");
    await expect.poll(() => step(page)).toBe(0);
    await context.close();

    // The link opens the replay at its step, as that viewer.
    const shared = await open(`/game/${roomId}?step=${mid + 1}&viewer=seat:1`, PHONE);
    await expect.poll(() => step(shared.page)).toBe(mid + 1);
    // A touch screen is not told about arrow keys.
    expect(await shared.page.getByTestId("replay-keys").isVisible()).toBe(false);
    expect(await shared.page.getByTestId("replay").getAttribute("data-viewer")).toBe("seat:1");
    await shared.page.locator(".gt-table").waitFor();
    // On the phone nothing widens the page (the viewer list's longest name once did).
    expect(Number(await shared.page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(PHONE.width);
    await shared.context.close();

    // A spectator of the finished room finds the replay from its end screen.
    const { context: wc, page: watcher } = await newPage(browser);
    watcher.on("pageerror", (e) => errors.push(`room: ${e.message}`));
    await watcher.goto(`${base}/room/${roomId}`);
    await watcher.getByRole("button", { name: "Just watch games" }).click();
    await watcher.getByTestId("replay-link").click();
    await watcher.waitForURL(`${base}/game/${roomId}`);
    await watcher.getByTestId("replay").waitFor();
    await watcher.getByTestId("replay-seed-ok").waitFor();
    await wc.close();
    expect(errors).toEqual([]);
  }, 180_000);

  it.each([
    ["goblin-market", 3],
    ["sorcerous-futures", 3],
    ["aucteraden", 1],
  ] as const)("replays %s to its final scores with the game's own table", async (game, seats) => {
    const { roomId, record } = await playGame(base, game, seats, 5);
    const last = record.actions.length as number;
    const { context, page } = await open(`/game/${roomId}`);
    await page.getByTestId("replay-seed-ok").waitFor();
    await page.getByTestId("replay-hidden").waitFor();
    await page.getByTestId("replay-next").click();
    await expect.poll(() => step(page)).toBe(1);
    await page.getByTestId("replay-last").click();
    await expect.poll(() => step(page)).toBe(last);
    await page.getByTestId("end-screen").waitFor();
    // Aucteraden's table has its own end screen with the one score; the others list every seat.
    const shown = game === "aucteraden" ? await page.getByTestId("final-score").textContent() : (await page.getByTestId("result-row").allTextContents()).join(" ");
    // (A negative score is printed with a true minus sign.)
    for (const score of record.outcome.scores as number[]) expect(shown).toContain(score < 0 ? `\u2212${-score}` : String(score));
    if (seats > 1) {
      await page.selectOption('[data-testid="replay-viewer"]', "seat:1");
      await expect.poll(() => page.getByTestId("replay").getAttribute("data-viewer")).toBe("seat:1");
      await page.getByTestId("end-screen").waitFor();
    }
    await page.getByTestId("replay-first").click();
    await expect.poll(() => step(page)).toBe(0);
    await context.close();
    expect(errors).toEqual([]);
  }, 120_000);

  it("opens a finished room's address, once the room is forgotten, at the end of its replay", async () => {
    const { roomId, record } = await playGame(base, "goblin-market", 3, 8);
    // The store forgets a finished room two hours after its result is recorded (by its own clock,
    // which is the real one here): forgotten now, as then.
    (bazaar.server.store as unknown as { rooms: Map<string, unknown> }).rooms.delete(roomId);
    expect(await bazaar.server.store.get(roomId)).toBeNull();
    const { context, page } = await newPage(browser);
    page.on("pageerror", (e) => errors.push(`forgotten room: ${e.message}`));
    // A visitor with no name yet: the replay is public, so it opens before any name is asked.
    await page.goto(`${base}/room/${roomId}`);
    await page.waitForURL(`${base}/game/${roomId}?step=${record.actions.length}`);
    await expect.poll(() => step(page)).toBe(record.actions.length);
    await page.getByTestId("end-screen").waitFor();
    // Back goes where the visitor came from, not to the room's address again.
    expect(await page.evaluate("history.length")).toBe(2);
    // An address that never was a room still says so.
    await page.goto(`${base}/room/AAAAAAAA`);
    await page.getByRole("button", { name: "Just watch games" }).click();
    await page.getByText("Room not available").waitFor();
    await context.close();
    expect(errors).toEqual([]);
  }, 120_000);

  it("replays a game played under earlier rules under those, and says today's differ", async () => {
    // A Goblin Teeth record of rules 1 (src/tools/replay-game.test.ts), as the build before rules 2 stored it.
    const old = JSON.parse(readFileSync(join(ROOT, "src/tools/fixtures/goblin-teeth-rules-1-record.json"), "utf8")) as FinishedGameRecord;
    const at = Date.parse("2026-11-30T12:00:00Z");
    await recordFinishedGame(bazaar.db, {
      ...old,
      roomId: "gt-rules-1-replay",
      ranked: false,
      actions: old.actions.map((a, i) => ({ ...a, at: at + i * 1000 })),
      startedAt: new Date(at),
      finishedAt: new Date(at + old.actions.length * 1000),
      seats: [0, 1].map((seat) => ({ seat, playerId: null, name: `Bot ${seat + 1}`, isBot: true })),
    });
    const { context, page } = await open("/game/gt-rules-1-replay");
    await page.getByTestId("replay-seed-ok").waitFor();
    expect(await page.getByTestId("replay-proof").getAttribute("data-proven")).toBe("yes");
    const rules = await page.getByTestId("replay-rules").textContent();
    expect(rules).toContain("Version 1");
    expect(rules).toContain("games started now are played under version 2");
    await context.close();
  });

  it("shows a seat played by a bot only where the record shows a bot playing it, not from the deal", async () => {
    // The same record, its first seat a player's: a bot made two of her moves (she ran out of time
    // and took her seat back), then every move from her fifth last on (she never came back).
    const old = JSON.parse(readFileSync(join(ROOT, "src/tools/fixtures/goblin-teeth-rules-1-record.json"), "utf8")) as FinishedGameRecord;
    const hers = old.actions.flatMap((a, i) => (a.seat === 0 ? [i] : []));
    const botFor = new Set([hers[2]!, hers[3]!, ...hers.slice(-5)]);
    const at = Date.parse("2026-11-30T13:00:00Z");
    await recordFinishedGame(bazaar.db, {
      ...old,
      roomId: "gt-away-replay",
      ranked: false,
      actions: old.actions.map((a, i) => ({ ...a, at: at + i * 1000, ...(botFor.has(i) ? { bot: true as const } : {}) })),
      startedAt: new Date(at),
      finishedAt: new Date(at + old.actions.length * 1000),
      seats: [
        { seat: 0, playerId: null, name: "Alma", isBot: false, forfeit: "timeout" },
        { seat: 1, playerId: null, name: "Bot 2", isBot: true },
      ],
    });
    /** The "a bot plays" tags shown at step `n` (step n is after the n-th action). */
    const tagsAt = async (n: number) => {
      const { context, page } = await open(`/game/gt-away-replay?step=${n}`);
      await expect.poll(() => step(page)).toBe(n);
      await page.locator(".gt-table, [data-testid='end-screen']").first().waitFor();
      const tags = await page.getByTestId("bot-plays").allTextContents();
      await context.close();
      return tags;
    };
    expect(await tagsAt(0), "the deal").toEqual([]);
    expect(await tagsAt(hers[2]! + 1), "after the bot's first move for her").toEqual(["ran out of time: a bot plays"]);
    expect(await tagsAt(hers[4]! + 1), "after she took her seat back").toEqual([]);
    expect(await tagsAt(old.actions.length), "the end").toEqual(["ran out of time: a bot plays"]);
  });

  it("names a seat a bot finished for a player who resigned as the winning seat, not the player, wherever the winner is said", async () => {
    // The same record: its second seat wins; here its player, Bram, resigned and a bot made his last three moves.
    const old = JSON.parse(readFileSync(join(ROOT, "src/tools/fixtures/goblin-teeth-rules-1-record.json"), "utf8")) as FinishedGameRecord;
    expect(old.outcome.places).toEqual([2, 1]);
    const botFor = new Set(old.actions.flatMap((a, i) => (a.seat === 1 ? [i] : [])).slice(-3));
    const at = Date.parse("2026-12-01T13:00:00Z");
    await recordFinishedGame(bazaar.db, {
      ...old,
      roomId: "gt-resigned-winner",
      ranked: false,
      actions: old.actions.map((a, i) => ({ ...a, at: at + i * 1000, ...(botFor.has(i) ? { bot: true as const } : {}) })),
      startedAt: new Date(at),
      finishedAt: new Date(at + old.actions.length * 1000),
      seats: [
        { seat: 0, playerId: null, name: "Alma", isBot: false },
        { seat: 1, playerId: null, name: "Bram", isBot: false, forfeit: "resigned" },
      ],
    });
    const last = old.actions.length;
    const won = "Bram's seat wins (played by a bot after Bram resigned)";
    for (const viewer of ["all", "seat:0", "spectator"]) {
      const { context, page } = await open(`/game/gt-resigned-winner?step=${last}&viewer=${encodeURIComponent(viewer)}`);
      const end = page.getByTestId("end-screen");
      await end.waitFor();
      // The end screen's banner, the revealed hands' summary, the table's log and the step's lines.
      expect(await end.locator("#end-h").textContent(), viewer).toBe(`Game over · ${won}`);
      expect(await page.getByTestId("gt-reveal").locator("p").first().textContent()).toContain(`After round 17, ${won}.`);
      expect(await page.locator(".gt-table .log-list").textContent()).toContain(won);
      expect(await page.getByTestId("replay-lines").textContent()).toContain(won);
      for (const text of [await end.textContent(), await page.locator(".gt-table").textContent(), await page.getByTestId("replay-lines").textContent()]) {
        expect(text).not.toContain("Bram wins");
      }
      await context.close();
    }
    // Seen as Bram: his seat won, not he.
    const { context, page } = await open(`/game/gt-resigned-winner?step=${last}&viewer=${encodeURIComponent("seat:1")}`);
    const end = page.getByTestId("end-screen");
    await end.waitFor();
    expect(await end.locator("#end-h").textContent()).toBe("Game over · Your seat wins (played by a bot after you resigned)");
    expect(await end.locator(".end-you").textContent()).toBe("You resigned, and a bot finished your seat 1st of 2.");
    expect(await page.getByTestId("replay-lines").textContent()).toContain(won);
    await context.close();
  });

  it("says plainly when there is nothing to replay", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/game/AAAAAAAAAAAAAAAAAAAAAA`);
    await page.getByTestId("replay-error").waitFor();
    expect(await page.getByTestId("replay-error").getAttribute("data-code")).toBe("NOT_FOUND");
    expect(await page.getByTestId("replay-error").textContent()).toContain("No finished game with that id");
    await context.close();
  });
});
