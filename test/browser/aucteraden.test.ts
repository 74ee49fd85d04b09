/**
 * Aucteraden and the daily challenge in a real browser (playwright-core driving Debian's
 * chromium). A player finds today's challenge in the lobby, plays it to the end through the UI
 * only (choose a market card, a lit cell, the payment suit when there is a choice; one move by
 * keyboard), leaves and resumes it from the lobby, and checks a suit's chain is highlighted on
 * the tableau; a watcher is refused today's deal; the final score shown equals the one the
 * server recorded, and the player finds it on the day's board in the lobby; a second ranked
 * attempt is refused in words. Then, at phone width, a casual replay of a past day is played
 * through the UI while a spectator follows every move (same tableau, deck count, no controls,
 * never an undrawn card on either page) up to the end screen and its checked seed.
 * The server's clock is a test clock (2026-11-22, 10:00 UTC onwards).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { view as auctView } from "../../src/games/aucteraden/view.js";
import type { AucteradenState } from "../../src/games/aucteraden/state.js";
import type { Room } from "../../src/platform/room.js";
import { lcg, TestClient, until } from "../support/harness.js";
import { account } from "../support/accounts.js";
import { randomLegalAction } from "../../src/games/legal.js";
import type { LegalAction } from "../../src/games/types.js";
import { cardsOnPage, CHROMIUM, chromiumAvailable, DESKTOP, enterAccount, enterName, launchChromium, newPage, PHONE, renderedVersion, startBazaar, storedIdentity, type Bazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

const TODAY = "2026-11-22";
const YESTERDAY = "2026-11-21";
const t0 = Date.now();
const now = () => Date.parse(`${TODAY}T10:00:00Z`) + (Date.now() - t0);

async function json(url: string): Promise<Record<string, any>> {
  return (await (await fetch(url)).json()) as Record<string, any>;
}

const stateOf = (room: Room) => room.state as AucteradenState;

interface MoveStats {
  payChoices: number;
  keyboard: number;
  discards: number;
}

/**
 * One Aucteraden move through the UI only: discard when the market must go; otherwise choose a
 * market card (one with a choice of payment while we have not paid by choice yet), a lit cell,
 * and the payment suit if asked. With `keyboard`, the same by Tab focus and Enter.
 */
async function playAuctMove(page: Page, store: Bazaar["server"]["store"], roomId: string, step: number, stats: MoveStats, how: "click" | "keyboard" | "escape-first" = "click"): Promise<void> {
  const keyboard = how === "keyboard";
  const before = (await store.get(roomId))!.version;
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor();
  if ((await panel.getAttribute("data-pending")) === "discard") {
    await page.getByTestId("must-discard").waitFor();
    await page.getByTestId("discard-market").click();
    stats.discards++;
  } else {
    const cards = page.locator('[data-testid="market-card"]:enabled');
    const n = await cards.count();
    expect(n, "a buyable card when the market need not be discarded").toBeGreaterThan(0);
    let pick = step % n;
    if (stats.payChoices === 0) {
      for (let i = 0; i < n; i++) {
        if (((await cards.nth(i).getAttribute("data-pays")) ?? "").split(" ").length > 1) pick = i;
      }
    }
    const card = cards.nth(pick);
    const id = await card.getAttribute("data-choice");
    if (how === "escape-first") {
      // Change of mind: Escape drops the chosen card and its lit cells.
      await card.click();
      await page.getByTestId("placing").waitFor();
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByTestId("cell").count()).toBe(0);
      expect(await card.getAttribute("aria-pressed")).toBe("false");
    }
    const active = () => page.evaluate<string | null>(`document.activeElement && document.activeElement.getAttribute("data-testid")`);
    if (keyboard) {
      await card.focus();
      await page.keyboard.press("Enter");
      await expect.poll(active, { message: "focus moves to the first lit cell" }).toBe("cell");
    } else {
      await card.click();
    }
    expect(await card.getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByTestId("placing").textContent()).toContain("lit cell");
    const cells = page.getByTestId("cell");
    await cells.first().waitFor();
    const count = await cells.count();
    if (keyboard) await page.keyboard.press("Enter");
    else await cells.nth((step * 7) % count).click();
    // Either the buy went (one legal payment) or the payment suits are offered.
    const pay = page.getByTestId("pay-choice");
    const asked = await until(async () => ((await pay.count()) > 0 ? "pay" : (await store.get(roomId))!.version > before ? "sent" : undefined), `card ${id}: pay choice or buy`);
    if (asked === "pay") {
      stats.payChoices++;
      expect(await pay.count()).toBeGreaterThan(1);
      if (keyboard) {
        await expect.poll(active, { message: "focus moves to the payment choice" }).toBe("pay-choice");
        await page.keyboard.press("Enter");
      } else {
        await pay.nth(step % (await pay.count())).click();
      }
    }
    if (keyboard) stats.keyboard++;
  }
  await until(async () => ((await store.get(roomId))!.version > before ? true : undefined), "the move to be applied");
  if (keyboard && (await store.get(roomId))!.status === "playing") {
    // The keyboard player's focus moves on to the next move's controls.
    // (Waits for the push to arrive and render: poll's 1 s default is too short on a loaded machine.)
    await expect
      .poll(() => page.evaluate<string | null>(`document.activeElement && document.activeElement.getAttribute("data-testid")`), { timeout: 10_000 })
      .toMatch(/^(market-card|discard-market)$/);
  }
}

/** The page shows the server's tableau, deck count and no undrawn card. */
async function checkPageMatches(page: Page, room: Room, what: string): Promise<void> {
  await until(async () => (await renderedVersion(page)) >= room.version, `${what} to render v${room.version}`, 10_000);
  const st = stateOf(room);
  const undrawn = new Set(st.deck);
  const shown = await cardsOnPage(page);
  expect(shown.filter((id) => undrawn.has(id)), `undrawn cards on ${what} at v${room.version}`).toEqual([]);
  const tableau = await page.$$eval('[data-testid="tableau-card"]', (els) =>
    els.map((e) => `${e.getAttribute("data-row")},${e.getAttribute("data-col")}:${e.querySelector("[data-card]")?.getAttribute("data-card")}`),
  );
  expect(tableau.sort(), `${what}'s tableau at v${room.version}`).toEqual(st.tableau.map((p) => `${p.row},${p.col}:${p.card}`).sort());
  if (room.status === "playing") {
    expect(await page.getByTestId("deck-count").textContent()).toBe(`${st.deck.length} card${st.deck.length === 1 ? "" : "s"}`);
    const market = await page.$$eval('[data-testid="market-slot"] [data-card]', (els) => els.map((e) => e.getAttribute("data-card")));
    expect(market, `${what}'s market`).toEqual(st.market.filter((c) => c !== null));
  }
}

describe.skipIf(!available)("Aucteraden and the daily challenge in chromium", () => {
  let bazaar: Bazaar;
  let browser: Browser;

  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar({ now }), launchChromium()]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  it("plays today's daily challenge through the UI, finds the score on the board, then is offered the result instead of a second ranked attempt", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;

    // Someone else has played today's deal already (over the protocol), so the board has two rows.
    const bea = await account(url, "Bea"); // the rated attempt is for accounts
    const client = await new TestClient(url, bea.token).ready();
    const started = await client.call("daily:start", { game: "aucteraden" });
    expect(started.ok).toBe(true);
    const beaRoom = started.roomId as string;
    await client.sync(beaRoom);
    const random = lcg(7);
    while ((client.view(beaRoom).status as string) !== "finished") {
      const v = client.view(beaRoom);
      const action = randomLegalAction(v.legal as LegalAction[], random)!;
      expect((await client.call("game:act", { roomId: beaRoom, action })).ok).toBe(true);
      await until(() => (client.rooms.get(beaRoom)?.version ?? 0) > (v.version as number), "Bea's move");
    }
    await until(async () => ((await json(`${url}/api/daily/aucteraden/board`)).entries as unknown[]).length === 1, "Bea on the board");
    client.socket.close();

    const { context, page } = await newPage(browser, DESKTOP);
    await enterAccount(page, url, "Iris"); // the rated daily attempt is for accounts
    const me = (await storedIdentity(page))!.player.id;

    // The lobby's daily panel: today's day, the commitment (as GET /api/daily publishes it), the time to the next deal.
    const panel = page.locator('[data-testid="daily-panel"][data-game="aucteraden"]');
    await panel.waitFor();
    expect(await panel.getAttribute("data-day")).toBe(TODAY);
    const info = ((await json(`${url}/api/daily`)).daily as Array<Record<string, any>>).find((g) => g.game === "aucteraden")!;
    expect(await page.getByTestId("daily-commitment").getAttribute("title")).toBe(info.commitment);
    expect(await page.getByTestId("daily-commitment").textContent()).toBe(`${info.commitment.slice(0, 8)}…${info.commitment.slice(-6)}`);
    expect(await page.getByTestId("daily-next").textContent()).toMatch(/Next deal in \d+ h \d+ min/);
    await expect.poll(() => page.getByTestId("daily-status").getAttribute("data-state")).toBe("none");
    await expect.poll(() => panel.locator('[data-testid="board-row"]').count()).toBe(1);

    await page.getByTestId("daily-play").click();
    await page.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByTestId("auct-table").waitFor();
    const room0 = (await store.get(roomId))!;
    expect(room0.daily).toBe(TODAY);
    expect(room0.ranked).toBe(true);
    expect(await page.getByTestId("status").textContent()).toContain(`Daily ${TODAY} · ranked`);

    // A watcher who has not played today is refused, in words.
    const watcher = await newPage(browser, DESKTOP);
    await watcher.page.goto(`${url}/room/${roomId}`);
    await watcher.page.getByRole("button", { name: "Just watch games" }).click();
    await watcher.page.getByRole("heading", { name: "Room not available" }).waitFor();
    expect(await watcher.page.locator(".notfound").textContent()).toContain("you can watch it once you have played your own attempt today");
    expect(await cardsOnPage(watcher.page)).toEqual([]);
    // The watcher waits in the lobby: today's board (Bea's row) will show Iris's score when it is recorded, without a reload.
    await watcher.page.getByRole("link", { name: "Goblin Bazaar" }).click();
    const watchedBoard = watcher.page.locator('[data-testid="daily-panel"][data-game="aucteraden"] [data-testid="daily-board"][data-board="today"]');
    await expect.poll(() => watchedBoard.locator('[data-testid="board-row"]').count()).toBe(1);

    const stats: MoveStats = { payChoices: 0, keyboard: 0, discards: 0 };
    let resumed = false;
    let highlighted = false;
    for (let step = 0; ; step++) {
      const room = (await store.get(roomId))!;
      await checkPageMatches(page, room, "the player's page");
      if (room.status === "finished") break;
      if (step === 4 && !resumed) {
        // Back to the lobby mid-game: the attempt is live, and the button resumes the same room.
        resumed = true;
        await page.getByRole("link", { name: "Goblin Bazaar" }).click();
        await expect.poll(() => page.getByTestId("daily-status").getAttribute("data-state")).toBe("live");
        expect(await page.getByTestId("daily-play").textContent()).toContain("Resume today's challenge");
        await page.getByTestId("daily-play").click();
        await page.waitForURL(`**/room/${roomId}`);
        await page.getByTestId("auct-table").waitFor();
        await checkPageMatches(page, room, "the resumed page");
      }
      if (step >= 6 && !highlighted) {
        // A suit's best chain lights up on the tableau when its row in the score is hovered.
        const chains = auctView(stateOf(room), { kind: "spectator" }).score.chains.filter((c) => c.length >= 2);
        if (chains.length) {
          highlighted = true;
          const best = chains.sort((a, b) => b.length - a.length)[0]!;
          await page.locator(`[data-testid="suit-row"][data-suit="${best.suit}"] button`).hover();
          const lit = await page.$$eval(".auct-cell.in-chain", (els) => els.map((e) => `${e.getAttribute("data-row")},${e.getAttribute("data-col")}`));
          expect(lit.sort()).toEqual(best.cells.map((c) => `${c.row},${c.col}`).sort());
          expect(await page.getByTestId("chain-caption").textContent()).toContain(`${best.length} cards`);
          await page.mouse.move(0, 0);
        }
      }
      await playAuctMove(page, store, roomId, step, stats, step === 2 ? "keyboard" : step === 3 ? "escape-first" : "click");
    }
    expect(stats.keyboard, "one move made by keyboard").toBe(1);
    expect(highlighted, "a chain highlighted on the tableau").toBe(true);
    expect(stats.payChoices, "a payment suit chosen at least once").toBeGreaterThan(0);

    // The end screen: the score the server recorded, its breakdown, and the place on today's board.
    const finished = (await store.get(roomId))!;
    const recorded = finished.outcome!.scores[0]!;
    // As the page prints a score: a negative one with a true minus sign.
    const shown = recorded < 0 ? `\u2212${-recorded}` : String(recorded);
    await page.getByTestId("end-screen").waitFor();
    expect(await page.getByTestId("final-score").textContent()).toBe(shown);
    expect(await page.getByTestId("final-total").textContent()).toBe(`${shown} VP`);
    expect(await page.getByTestId("seed-hidden").count()).toBe(1);
    // Each suit's row shows the recorded chain's bonus by whose it is (Ace +1, Crown +2, Ace+Crown +4; one-card chains too).
    const details = finished.outcome!.details as { chains: Array<{ suit: string; ace: boolean; crown: boolean; bonus: number }> };
    for (const c of details.chains) {
      const badge = page.locator(`[data-testid="final-breakdown"] [data-testid="suit-row"][data-suit="${c.suit}"] [data-testid="chain-bonus"]`);
      expect(await badge.allTextContents(), c.suit).toEqual(c.bonus === 0 ? [] : [c.ace && c.crown ? "Ace+Crown +4" : c.crown ? "Crown +2" : "Ace +1"]);
    }
    await until(async () => (await page.getByTestId("daily-place").getAttribute("data-state")) === "done", "the place on the board", 15_000);
    // (The page found its place with the player's token; asked anonymously, today's rows give no room or breakdown.)
    const board = (await json(`${url}/api/daily/aucteraden/board`)).entries as Array<Record<string, any>>;
    const mine = board.find((e) => e.playerId === me)!;
    expect(mine.score).toBe(recorded);
    expect(mine).toMatchObject({ roomId: null, details: null });
    expect(Number(await page.getByTestId("daily-place").getAttribute("data-place"))).toBe(mine.place);
    expect(await page.getByTestId("daily-place").textContent()).toContain(`of ${board.length}`);

    // The watcher's lobby has it (daily:board), with the score only: the day is not over.
    const theirs = watchedBoard.locator(`[data-testid="board-row"][data-player="${me}"]`);
    await theirs.waitFor();
    expect(Number(await theirs.getAttribute("data-score"))).toBe(recorded);
    expect(await watchedBoard.locator('[data-testid="board-row"]').count()).toBe(2);
    await watcher.context.close();

    // Back in the lobby: today's board shows the score; the status says it is done.
    await page.getByRole("link", { name: "Back to the lobby" }).click();
    const row = page.locator(`[data-testid="daily-board"][data-board="today"] [data-testid="board-row"][data-player="${me}"]`);
    await row.waitFor();
    expect(Number(await row.getAttribute("data-score"))).toBe(recorded);
    expect(await row.locator(".daily-score").textContent()).toBe(shown);
    expect(await row.textContent()).toContain("Iris");
    await expect.poll(() => page.getByTestId("daily-status").getAttribute("data-state")).toBe("done");
    expect(await page.getByTestId("daily-status").textContent()).toContain(`${shown} VP`);
    await page.getByRole("button", { name: "All-time best" }).click();
    await page.locator(`[data-testid="daily-board"][data-board="best"] [data-testid="board-row"][data-player="${me}"][data-score="${recorded}"]`).waitFor();

    // The day's one ranked attempt is over: no Play button the server would refuse, but the result (its finished table).
    const result = page.getByTestId("daily-play");
    await expect.poll(() => result.getAttribute("data-state")).toBe("done");
    expect(await result.textContent()).toBe("See your result");
    expect(await result.getAttribute("href")).toBe(`/room/${roomId}`);
    // A second ranked attempt asked anyway (another tab, an old page) is refused in the server's words.
    const again = (await page.evaluate(`window.goblinBazaar.request("daily:start", { game: "aucteraden" })`)) as { ok: boolean; error: { code: string; message: string } };
    expect(again.error.code).toBe("DAILY_DONE");
    expect(again.error.message).toContain(`(score ${recorded})`);
    await result.click();
    await page.waitForURL(`${url}/room/${roomId}`);
    await expect.poll(() => page.getByTestId("final-score").textContent()).toBe(shown);
    await context.close();
  });

  it("a guest who plays today's deal and then registers is told the rated attempt is for tomorrow, and offered a casual replay at once", async () => {
    const url = bazaar.server.url;
    const { context, page } = await newPage(browser, DESKTOP);
    await enterName(page, url, "Gwen");
    await expect.poll(() => page.getByTestId("daily-status").getAttribute("data-state")).toBe("guest");
    await page.getByTestId("daily-play").click();
    await page.waitForURL(/\/room\/[^/]+$/);
    await page.getByTestId("auct-table").waitFor();
    expect(await page.getByTestId("status").textContent()).toContain(`Daily ${TODAY} · unrated`);

    // Back in the lobby, Gwen makes her guest an account (the same player) from her menu.
    await page.goto(url + "/");
    await page.locator('details[data-testid="me"] > summary').click();
    await page.getByTestId("acc-tab-register").click();
    await page.getByLabel("Password").fill("password of Gwen");
    await page.getByTestId("acc-submit").click();
    await page.getByTestId("recovery-dialog").waitFor();
    await page.getByTestId("recovery-done").click();
    expect((await storedIdentity(page))!.player).toMatchObject({ name: "Gwen", account: true });

    // No "Play today's challenge" the server would refuse (DAILY_SEEN): why not, and the casual replay.
    await expect.poll(() => page.getByTestId("daily-status").getAttribute("data-state")).toBe("seen");
    expect(await page.getByTestId("daily-status").textContent()).toContain("You played today's deal as a guest, unrated");
    expect(await page.getByTestId("daily-play").count()).toBe(0);
    await page.getByTestId("daily-replay-today").click();
    await page.waitForURL(/\/room\/[^/]+$/);
    await page.getByTestId("auct-table").waitFor();
    expect(await page.getByTestId("status").textContent()).toContain(`Daily ${TODAY} · unrated`);
    await context.close();
  });

  it("at phone width, a casual replay of a past day is played through the UI while a spectator follows it", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const juno = await newPage(browser, PHONE);
    const spec = await newPage(browser, DESKTOP);
    await enterName(juno.page, url, "Juno");
    await juno.page.getByTestId("daily-panel").waitFor();
    expect(await juno.page.getByTestId("replay-day").inputValue()).toBe(YESTERDAY);
    await juno.page.getByTestId("replay-past").click();
    await juno.page.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(juno.page.url()).pathname.split("/").pop()!;
    await juno.page.getByTestId("auct-table").waitFor();
    const room0 = (await store.get(roomId))!;
    expect(room0.daily).toBe(YESTERDAY);
    expect(room0.ranked).toBe(false);
    expect(await juno.page.getByTestId("status").textContent()).toContain(`Daily ${YESTERDAY} · unrated`);

    // The spectator finds it in the lobby's live list and watches.
    await spec.page.goto(url + "/");
    await spec.page.getByRole("button", { name: "Just watch games" }).click();
    await spec.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("link", { name: /^Watch/ }).click();
    await spec.page.getByTestId("spectating").waitFor();
    await spec.page.getByTestId("auct-table").waitFor();

    const noControls = async () => {
      const controls = spec.page.locator('[data-testid="act-panel"], [data-testid="market-card"], [data-testid="cell"], [data-testid="pay-choice"], [data-testid="discard-market"]');
      expect(await controls.count()).toBe(0);
    };
    const stats: MoveStats = { payChoices: 0, keyboard: 0, discards: 0 };
    for (let step = 0; ; step++) {
      const room = (await store.get(roomId))!;
      await checkPageMatches(juno.page, room, "the phone player's page");
      await checkPageMatches(spec.page, room, "the spectator's page");
      await noControls();
      if (room.status === "finished") break;
      if (step === 1) {
        // Phone width: nothing wider than the screen.
        expect(await juno.page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      }
      await playAuctMove(juno.page, store, roomId, step + 3, stats);
    }
    const recorded = (await store.get(roomId))!.outcome!.scores[0]!;
    for (const p of [juno.page, spec.page]) {
      await p.getByTestId("end-screen").waitFor();
      expect(Number((await p.getByTestId("final-score").textContent())!.replace("\u2212", "-"))).toBe(recorded);
      // A past day's seed is public: it is shown and checked against the commitment in the browser.
      await p.getByTestId("seed-verified").waitFor();
    }
    expect(await juno.page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
    // The end came while the phone's view was scrolled down to the decisions: its heading is shown
    // below the sticky top bar, not above the screen or under the bar.
    const heading = juno.page.locator("#end-h");
    await expect
      .poll(async () => {
        const [h, bar] = await Promise.all([heading.boundingBox(), juno.page.locator(".topbar").boundingBox()]);
        return h !== null && bar !== null && h.y >= bar.y + bar.height && h.y + h.height <= PHONE.height;
      })
      .toBe(true);
    // A casual replay never reaches the boards.
    const board = (await json(`${url}/api/daily/aucteraden/board?day=${YESTERDAY}`)).entries as unknown[];
    expect(board).toEqual([]);
    await juno.context.close();
    await spec.context.close();
  });
  it("a move made by keyboard puts focus on the next move's controls even when its answer comes after the new state", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const { context, page } = await newPage(browser, DESKTOP);
    // Every answer to a request (a Socket.IO ack, "43<id>[...]") reaches the page 600 ms late: the
    // move's new state is drawn first, while the controls still wait for the answer (disabled).
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        if (typeof m === "string" && /^43\d/.test(m)) setTimeout(() => ws.send(m), 600);
        else ws.send(m);
      });
    });
    await enterName(page, url, "Kira");
    const me = (await storedIdentity(page))!.player.id;
    const room = await bazaar.server.service.create({ id: me, name: "Kira" }, { game: "aucteraden", seats: 1 });
    expect(room.status).toBe("playing");
    await page.goto(`${url}/room/${room.id}`);
    await page.getByTestId("auct-table").waitFor();
    const stats: MoveStats = { payChoices: 0, keyboard: 0, discards: 0 };
    for (let step = 0; step < 3 && (await store.get(room.id))!.status === "playing"; step++) {
      await page.locator('[data-testid="market-card"]:enabled').first().waitFor();
      // playAuctMove checks that focus lands on the next move's controls.
      await playAuctMove(page, store, room.id, step, stats, "keyboard");
    }
    expect(stats.keyboard).toBeGreaterThan(0);
    await context.close();
  });

  it("a discard by choice (−3 VP) is asked again before it is made; the answer 'keep' changes nothing", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const { context, page } = await newPage(browser, DESKTOP);
    await enterName(page, url, "Lale");
    const me = (await storedIdentity(page))!.player.id;
    const room = await bazaar.server.service.create({ id: me, name: "Lale" }, { game: "aucteraden", seats: 1 });
    await page.goto(`${url}/room/${room.id}`);
    await page.locator('[data-testid="act-panel"][data-pending="buy"]').waitFor();
    const version = (await store.get(room.id))!.version;
    await page.getByTestId("discard-market").click();
    expect(await page.locator(".auct-discard.asked").textContent()).toContain("Discard the market for −3 VP?");
    // Asked, not made; "Keep the market" takes the question away.
    expect((await store.get(room.id))!.version).toBe(version);
    await page.getByTestId("discard-cancel").click();
    await page.getByTestId("discard-market").waitFor();
    expect(await page.getByTestId("discard-confirm").count()).toBe(0);
    expect((await store.get(room.id))!.version).toBe(version);
    // Asked again and confirmed: made once.
    await page.getByTestId("discard-market").click();
    await page.getByTestId("discard-confirm").click();
    await expect.poll(() => page.getByTestId("market-discards").textContent()).toContain("1 (−3 VP)");
    expect((await store.get(room.id))!.version).toBe(version + 1);
    await context.close();
  });
});
