/**
 * Profiles and leaderboards in a real browser. Finished games are seeded through the real
 * recording function (recordFinishedGame, as a finished room is written), then: /player/<name>
 * (any case) shows each game's rating as one number with its chart (one point per rated game),
 * the game list pages with "Show older games" (no duplicates), narrows to one game, and links every
 * game to its replay; on a phone the game list fits with nothing to scroll sideways (each game a
 * block of lines), and stays the same table to a screen reader;
 * /leaderboards has a tab per game, ranks settled ratings and lists provisional ones unranked,
 * links names to profiles, and shows a daily game's boards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { claimDailyAttempt } from "../../src/db/daily.js";
import { recordFinishedGame, type FinishedGameRecord } from "../../src/db/finished-games.js";
import { utcDay } from "../../src/platform/daily.js";
import { displayedChange, displayRating, isProvisional } from "../../src/protocol/rating-display.js";
import { CHROMIUM, chromiumAvailable, DESKTOP, launchChromium, newPage, PHONE, splitWords, startBazaar, type Bazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const SHOTS = process.env.PROFILE_SHOTS; // a folder: save screenshots there (for looking at the pages)
/** Twenty days ago, on the hour: the games below are recent enough to rank (the server's clock is real here). */
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 20 * 86_400_000;
let seq = 0;

function rec(o: { game?: string; ranked?: boolean; at: number; players: Array<{ id: string | null; name: string }>; places: number[]; daily?: string }): FinishedGameRecord {
  seq++;
  return {
    roomId: `pg${seq}x${Math.random().toString(36).slice(2, 8)}`,
    gameType: o.game ?? "goblin-market",
    ranked: o.ranked ?? true,
    options: {},
    seed: `seed-${seq}`,
    commitment: "c".repeat(64),
    actions: [],
    outcome: { scores: o.places.map((p) => 40 - p * 7), places: o.places },
    startedAt: new Date(o.at - 900_000),
    finishedAt: new Date(o.at),
    seats: o.players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: p.id === null })),
    daily: o.daily ?? null,
  };
}

interface AXNode {
  nodeId: string;
  role?: { value: string };
  name?: { value: string };
  childIds?: string[];
}

/**
 * The table named `name` as the browser's own accessibility tree has it (Chromium's, through the
 * DevTools protocol): one line per row, each cell as "role name" (column headings, cells).
 */
async function axTable(page: Page, name: string): Promise<string[][]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as unknown as { nodes: AXNode[] };
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const children = (n: AXNode) => (n.childIds ?? []).map((id) => byId.get(id)).filter((c): c is AXNode => !!c);
  const rows: string[][] = [];
  const cells = (n: AXNode): string[] =>
    children(n).flatMap((c) => (["cell", "gridcell", "columnheader", "rowheader"].includes(c.role?.value ?? "") ? [`${c.role!.value} ${c.name?.value ?? ""}`] : cells(c)));
  const walk = (n: AXNode): void => {
    for (const c of children(n)) {
      if (c.role?.value === "row") rows.push(cells(c));
      else walk(c);
    }
  };
  const table = nodes.find((n) => n.role?.value === "table" && n.name?.value === name);
  if (table) walk(table);
  return rows;
}

describe.skipIf(!available)("profiles and leaderboards in the browser", () => {
  let bazaar: Bazaar;
  let browser: Browser;
  const ann = { id: "p_ann_browser_test_0001", name: "Ann" };
  const bob = { id: "p_bob_browser_test_0002", name: "Bob" };
  const cat = { id: "p_cat_browser_test_0003", name: "Cat" };
  const dee = { id: "p_dee_browser_test_0004", name: "Dee" };
  const eve = { id: "p_eve_browser_test_0005", name: "Eve" };
  const fay = { id: "p_fay_browser_test_0006", name: "Fay" };
  const annGames: string[] = [];

  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar(), launchChromium()]);
    const db = bazaar.db;
    const save = async (r: FinishedGameRecord) => {
      await recordFinishedGame(db, r);
      if (r.seats.some((s) => s.playerId === ann.id)) annGames.push(r.roomId);
    };
    // 24 ranked Goblin Market games between Ann, Bob and Cat (Ann wins most), one casual game with a bot.
    for (let i = 0; i < 24; i++) {
      const places = i % 4 === 3 ? [3, 1, 2] : i % 2 ? [1, 3, 2] : [1, 2, 3];
      await save(rec({ at: T0 + i * 3_600_000, players: [ann, bob, cat], places }));
    }
    await save(rec({ ranked: false, at: T0 + 30 * 3_600_000, players: [ann, { id: null, name: "Bot 1" }, bob], places: [1, 2, 3] }));
    // Three ranked Sorcerous Futures games; Dee's two Goblin Market wins (provisional).
    for (let i = 0; i < 3; i++) await save(rec({ game: "sorcerous-futures", at: T0 + (40 + i) * 3_600_000, players: [cat, ann, bob], places: [2, 1, 3] }));
    for (let i = 0; i < 2; i++) await save(rec({ at: T0 + (50 + i) * 3_600_000, players: [dee, bob, cat], places: [1, 2, 3] }));
    // Eve and Fay: sixteen ranked games between them (and a bot), the last 40 days ago: settled, inactive.
    for (let i = 0; i < 16; i++) await save(rec({ at: T0 - 20 * 86_400_000 - (16 - i) * 3_600_000, players: [eve, fay, { id: null, name: "Bot 1" }], places: i % 3 ? [1, 2, 3] : [2, 1, 3] }));
    // Ann registered (an account); Bob's ranked daily attempt today.
    await db.prisma.$executeRaw`INSERT INTO "Account" ("playerId", "name", "nameKey", "passwordHash", "updatedAt") VALUES (${ann.id}, 'Ann', 'ann', 'scrypt$test', CURRENT_TIMESTAMP)`;
    const today = utcDay(Date.now());
    const daily = rec({ game: "aucteraden", at: Date.now() - 60_000, players: [bob], places: [1], daily: today });
    await claimDailyAttempt(db, { gameType: "aucteraden", day: today, playerId: bob.id, name: bob.name, roomId: daily.roomId, startedAt: daily.startedAt });
    await recordFinishedGame(db, daily);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  it("a profile shows each rating with its chart, and its games page by page, each linked to its replay", async () => {
    const url = bazaar.server.url;
    const api = (await (await fetch(`${url}/api/players/Ann`)).json()) as { ratings: Array<{ game: string; rating: number; provisional: boolean; games: number; wins: number }> };
    const { page, context } = await newPage(browser, DESKTOP);
    // Anyone may look, without choosing a name first; the name matches in any case.
    await page.goto(`${url}/player/aNN`);
    await page.getByTestId("profile-name").waitFor();
    expect((await page.getByTestId("profile-name").textContent())?.trim()).toBe("Ann");

    const gm = page.locator('[data-testid="rating-card"][data-game="goblin-market"]');
    const gmApi = api.ratings.find((r) => r.game === "goblin-market")!;
    expect(gmApi.provisional).toBe(false);
    expect(await gm.getByTestId("profile-rating").textContent()).toBe(String(gmApi.rating));
    expect(await gm.getByTestId("rated-games").textContent()).toBe("24");
    expect(await gm.getByTestId("wins").textContent()).toContain(String(gmApi.wins));
    // The chart: one point per rated game, each titled with its rating; the last is the rating now.
    const chart = gm.getByTestId("rating-chart");
    expect(await chart.getAttribute("data-points")).toBe("24");
    expect(await chart.getByTestId("chart-point").count()).toBe(24);
    expect(await chart.getByTestId("chart-point").last().getAttribute("data-rating")).toBe(String(gmApi.rating));
    expect(await chart.locator("circle.provisional").count()).toBeGreaterThan(0);
    expect(await chart.getAttribute("role")).toBe("img");
    expect(await chart.locator("desc").textContent()).toContain(`${gmApi.rating} now`);
    const sf = page.locator('[data-testid="rating-card"][data-game="sorcerous-futures"]');
    expect(await sf.getByTestId("chart-point").count()).toBe(3);
    expect(await sf.locator(".rating-num").getAttribute("data-provisional")).toBe("yes");
    expect(await sf.getByTestId("profile-rating").textContent()).toMatch(/^\d+\?$/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/profile.png`, fullPage: true });

    // 28 games: 20 on the first page, the rest after "Show older games"; no duplicate, newest first.
    const rows = page.getByTestId("game-row");
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByTestId("older-games").click();
    await expect.poll(() => rows.count()).toBe(28);
    await page.getByTestId("games-end").waitFor();
    expect(await page.getByTestId("older-games").count()).toBe(0);
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-game-id")));
    expect(new Set(ids).size).toBe(28);
    expect([...ids].sort()).toEqual([...annGames].sort());
    const times = await rows.locator("time").evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute("datetime")!)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Each game links to its replay; the rating change reads in displayed numbers.
    const hrefs = await page.getByTestId("replay-link").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(hrefs).toEqual(ids.map((id) => `/game/${id}`));
    const newestRanked = page.locator('[data-testid="game-row"][data-game="goblin-market"]', { has: page.getByTestId("game-rating-change") }).first();
    const shown = (await newestRanked.getByTestId("game-rating-change").textContent())!;
    const stored = await bazaar.db.prisma.gameSeat.findFirst({ where: { gameId: (await newestRanked.getAttribute("data-game-id"))!, playerId: ann.id } });
    const c = displayedChange({ mu: stored!.muBefore!, sigma: stored!.sigmaBefore! }, { mu: stored!.muAfter!, sigma: stored!.sigmaAfter! });
    expect(shown.replace(/\s+/g, " ").trim()).toBe(`${c.before}${c.beforeProvisional ? "?" : ""} → ${c.after}${c.afterProvisional ? "?" : ""}`);
    // One game's only: the three Sorcerous Futures games; then all again, from the first page.
    await page.getByLabel("Game", { exact: true }).selectOption("sorcerous-futures");
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-game")))).toEqual(["sorcerous-futures", "sorcerous-futures", "sorcerous-futures"]);
    await page.getByTestId("games-end").waitFor();
    await page.getByLabel("Game", { exact: true }).selectOption("");
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByTestId("replay-link").first().click();
    await page.waitForURL(`${url}/game/${ids[0]}`);

    // An unknown name says so.
    await page.goto(`${url}/player/Nobody`);
    await page.getByTestId("profile-missing").waitFor();
    await context.close();
  });

  it("leaderboards: a tab per game, settled ratings ranked, provisional ones after, names link to profiles, daily boards", async () => {
    const url = bazaar.server.url;
    const { page, context } = await newPage(browser, DESKTOP);
    await page.goto(`${url}/`);
    await page.getByLabel("Your display name").waitFor();
    await page.getByTestId("nav-leaderboards").click();
    await page.waitForURL(`${url}/leaderboards`);
    const tabs = page.getByTestId("lb-tab");
    await expect.poll(() => tabs.count()).toBe(4);
    expect(await page.locator('[data-testid="lb-tab"][aria-current="page"]').getAttribute("data-game")).toBe("goblin-market");
    const rows = page.getByTestId("leader-row");
    await expect.poll(() => rows.count()).toBe(6);
    const board = (await (await fetch(`${url}/api/games/goblin-market/leaderboard`)).json()) as { players: Array<{ playerId: string; mu: number; sigma: number; rank: number | null; rating: number; inactive: boolean }> };
    const shown = await rows.evaluateAll((els) => els.map((e) => ({ player: e.getAttribute("data-player"), rank: e.getAttribute("data-rank"), rating: e.getAttribute("data-rating") })));
    expect(shown).toEqual(board.players.map((p) => ({ player: p.playerId, rank: p.rank === null ? "" : String(p.rank), rating: String(displayRating(p.mu)) })));
    expect(shown.map((r) => r.rank)).toEqual(["1", "2", "3", "", "", ""]);
    // Eve and Fay, settled but idle for 40 days, in their own group after the ranked players; Dee, provisional, last.
    expect(board.players.slice(3, 5).map((p) => [p.inactive, isProvisional(p.sigma)])).toEqual([[true, false], [true, false]]);
    expect((await page.getByTestId("inactive-rows").locator('[data-testid="leader-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-player")))).sort()).toEqual([eve.id, fay.id].sort());
    expect(await page.getByTestId("inactive-rows").locator("th[scope=rowgroup]").textContent()).toContain("No rated game in the last 30 days");
    expect(shown[5]!.player).toBe(dee.id);
    expect(isProvisional(board.players[5]!.sigma)).toBe(true);
    expect(await rows.last().locator(".rating-num").textContent()).toMatch(/\?$/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/leaderboards.png`, fullPage: true });

    // Aucteraden: solitaire, no rating board, its daily boards.
    await page.locator('[data-testid="lb-tab"][data-game="aucteraden"]').click();
    await page.waitForURL(`${url}/leaderboards/aucteraden`);
    await page.getByTestId("daily-today").getByTestId("daily-row").first().waitFor();
    expect(await page.getByTestId("rating-board").count()).toBe(0);
    expect(await page.getByTestId("daily-today").getByTestId("daily-row").count()).toBe(1);
    expect(await page.getByTestId("daily-best").getByTestId("daily-row").count()).toBe(1);
    expect((await page.getByTestId("daily-today").getByTestId("daily-row").textContent())!).toContain("Bob");
    // Someone not on today's board is told why it shows names and scores only.
    expect(await page.getByTestId("daily-today-hint").count()).toBe(1);

    // A name opens that player's profile: a guest's by id, a registered one's by name.
    await page.goBack();
    await page.waitForURL(`${url}/leaderboards`);
    await page.locator(`[data-testid="leader-row"][data-player="${dee.id}"] a`).click();
    await page.waitForURL(`${url}/player/id:${dee.id}`);
    expect((await page.getByTestId("profile-name").textContent())?.trim()).toBe("Dee");
    await page.goBack();
    await page.locator(`[data-testid="leader-row"][data-player="${ann.id}"] a`).click();
    await page.waitForURL(`${url}/player/Ann`);
    const gmChart = page.locator('[data-testid="rating-card"][data-game="goblin-market"]').getByTestId("rating-chart");
    await expect.poll(() => gmChart.getAttribute("data-points")).toBe("24");

    // A new game is recorded; the next visit to the profile shows it: a 25th point, the new rating, the game on top.
    const next = rec({ at: Date.now() - 1000, players: [ann, bob, cat], places: [1, 2, 3] });
    await recordFinishedGame(bazaar.db, next);
    const after = await bazaar.db.prisma.rating.findUnique({ where: { playerId_gameType: { playerId: ann.id, gameType: "goblin-market" } } });
    await page.getByTestId("nav-leaderboards").click();
    await page.waitForURL(`${url}/leaderboards`);
    await page.goBack();
    await page.waitForURL(`${url}/player/Ann`);
    await expect.poll(() => gmChart.getAttribute("data-points")).toBe("25");
    expect(await page.locator('[data-testid="rating-card"][data-game="goblin-market"]').getByTestId("profile-rating").textContent()).toBe(String(displayRating(after!.mu)));
    expect(await page.getByTestId("game-row").first().getAttribute("data-game-id")).toBe(next.roomId);
    await context.close();

    const phone = await newPage(browser, PHONE);
    await phone.page.goto(`${url}/player/Ann`);
    await phone.page.getByTestId("rating-chart").first().waitFor();
    // The chart fits a phone's width.
    const box = await phone.page.getByTestId("rating-chart").first().boundingBox();
    expect(box!.width).toBeLessThanOrEqual(PHONE.width);
    // Nothing makes the page wider than the phone.
    const wide = (await phone.page.evaluate(
      `[...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > ${PHONE.width + 1} && !e.closest(".table-scroll, .toasts")).map((e) => e.tagName + "." + e.className).slice(0, 5)`,
    )) as string[];
    expect(wide).toEqual([]);
    // ...nor anything placed inside the scrolling list (its screen-reader caption once did).
    expect(Number(await phone.page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(PHONE.width);
    // The game list fits the phone with nothing to scroll sideways (it once needed 720 px): each game
    // is a block of lines, its Replay button in the window...
    const list = phone.page.getByTestId("game-list");
    await list.getByTestId("game-row").first().waitFor();
    const scroller = phone.page.locator(".profile-games .table-scroll");
    expect(await scroller.evaluate((b) => (b as unknown as { scrollWidth: number }).scrollWidth - (b as unknown as { clientWidth: number }).clientWidth), "the game list's sideways scroll").toBeLessThanOrEqual(0);
    for (const row of (await list.getByTestId("game-row").all()).slice(0, 3)) {
      const r = (await row.boundingBox())!;
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.x + r.width).toBeLessThanOrEqual(PHONE.width);
      const replay = (await row.getByTestId("replay-link").boundingBox())!;
      expect(replay.x + replay.width).toBeLessThanOrEqual(PHONE.width);
    }
    // ...and rather than break a word (its Replay buttons once wrapped letter by letter).
    expect(await splitWords(phone.page, '[data-testid="game-list"]', "the game list")).toEqual([]);
    // To a screen reader it is the same table as on a desktop (the browser's own accessibility
    // tree): its six column headings, then rows of six cells, none of them read with a label twice.
    const desk = await newPage(browser, DESKTOP);
    await desk.page.goto(`${url}/player/Ann`);
    await desk.page.getByTestId("game-row").first().waitFor();
    const table = await axTable(phone.page, "Finished games, newest first");
    expect(table).toEqual(await axTable(desk.page, "Finished games, newest first"));
    await desk.context.close();
    expect(table[0]).toEqual(["columnheader FINISHED", "columnheader GAME", "columnheader PLAYERS (PLACE, SCORE)", "columnheader RESULT", "columnheader RATING", "columnheader REPLAY"]);
    expect(table.length).toBeGreaterThan(3);
    for (const row of table.slice(1)) {
      expect(row.map((c) => c.split(" ")[0])).toEqual(["cell", "cell", "cell", "cell", "cell", "cell"]);
      expect(row[3]).not.toMatch(/Result/i);
      expect(row[5]).toBe("cell Replay");
    }
    if (SHOTS) {
      await phone.page.screenshot({ path: `${SHOTS}/profile-phone.png` });
      await phone.page.getByTestId("game-list").scrollIntoViewIfNeeded();
      await phone.page.screenshot({ path: `${SHOTS}/profile-phone-games.png` });
    }
    await phone.context.close();
  });
});
