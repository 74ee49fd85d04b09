/**
 * Drives real games in chromium and saves screenshots of the lobby, a table mid-auction and
 * the end screen (used by `npm run screenshots`, see scripts/screenshots.ts), for Goblin Market,
 * then Sorcerous Futures (sorcerous-futures-*.png), then Aucteraden and the daily challenge
 * (aucteraden-*.png), then Goblin Teeth (goblin-teeth-*.png).
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { sorcerousFutures } from "../../src/games/sorcerous-futures/index.js";
import type { SorcerousFuturesState } from "../../src/games/sorcerous-futures/state.js";
import {
  type Bazaar,
  chromiumAvailable,
  CHROMIUM,
  createRoom,
  DESKTOP,
  enterAccount,
  enterName,
  launchChromium,
  newPage,
  PHONE,
  playGoblinTeethMove,
  playOneMove,
  renderedVersion,
  RESET_VIEW,
  startBazaar,
  storedIdentity,
} from "./support.js";
import { guest, lcg, TestClient, until } from "../support/harness.js";
import { recordFinishedGame } from "../../src/db/finished-games.js";
import { aucteraden } from "../../src/games/aucteraden/index.js";
import type { AucteradenState } from "../../src/games/aucteraden/state.js";
import { view as auctView } from "../../src/games/aucteraden/view.js";
import { randomLegalAction } from "../../src/games/legal.js";
import type { Action, LegalAction } from "../../src/games/types.js";
import { goblinTeeth } from "../../src/games/goblin-teeth/index.js";
import type { GoblinTeethState } from "../../src/games/goblin-teeth/state.js";

/** The system theme the screenshots' browsers prefer (takeScreenshots' `colorScheme`). */
let scheme: "light" | "dark" = "light";
const openPage = (browser: Browser, size = DESKTOP) => newPage(browser, size, { colorScheme: scheme });

interface GMState {
  turn: number | null;
  phase: string;
  auction: { number: number; bids: unknown[] } | null;
}

export async function takeScreenshots(outDir: string, opts: { colorScheme?: "light" | "dark" } = {}): Promise<string[]> {
  scheme = opts.colorScheme ?? "light";
  if (!chromiumAvailable()) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  const bazaar = await startBazaar({ botDelayMs: 250 });
  const browser = await launchChromium();
  const saved: string[] = [];
  const shot = async (page: Page, name: string) => {
    const file = join(outDir, name);
    await page.evaluate(RESET_VIEW);
    await page.screenshot({ path: file, fullPage: true });
    saved.push(file);
  };
  try {
    const url = bazaar.server.url;
    const store = bazaar.server.store;

    // Other tables, so the lobby has something to show.
    const rossetti = await openPage(browser);
    await enterName(rossetti.page, url, "Rossetti");
    await createRoom(rossetti.page, { seats: 4, ranked: false, bots: 2 });
    const marlowe = await openPage(browser);
    await enterAccount(marlowe.page, url, "Marlowe");
    await createRoom(marlowe.page, { seats: 5, ranked: true });
    const kit = await openPage(browser);
    await enterName(kit.page, url, "Kit");
    await createRoom(kit.page, { seats: 3, ranked: false, bots: 2 });
    await kit.page.getByTestId("start").click();
    await kit.page.locator(".auction").waitFor();
    // A turn-based room waiting days for players: the lobby lists it apart.
    await bazaar.server.service.create((await storedIdentity(marlowe.page))!.player, { game: "goblin-teeth", seats: 3, clock: "turn-1d" });

    const laura = await openPage(browser, DESKTOP);
    const lizzie = await openPage(browser, DESKTOP);
    const jeanie = await openPage(browser, PHONE);
    const watcher = await openPage(browser, DESKTOP);
    await enterAccount(laura.page, url, "Laura");
    await laura.page.locator(".room-row").nth(2).waitFor();
    await shot(laura.page, "lobby.png");
    await enterAccount(jeanie.page, url, "Jeanie");
    await jeanie.page.locator(".room-row").nth(2).waitFor();
    await shot(jeanie.page, "lobby-phone.png");

    const roomId = await createRoom(laura.page, { seats: 3, ranked: true });
    await enterAccount(lizzie.page, url, "Lizzie");
    await lizzie.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("button", { name: /^Join/ }).click();
    await jeanie.page.goto(`${url}/room/${roomId}`);
    await jeanie.page.getByRole("button", { name: "Sit here" }).first().click();
    await watcher.page.goto(`${url}/room/${roomId}`);
    await watcher.page.getByRole("button", { name: "Just watch games" }).click();
    await laura.page.locator(".wait-seat.you").waitFor();
    await until(async () => ((await store.get(roomId))!.seats.every((s) => s.playerId) ? true : undefined), "seats filled");
    await shot(laura.page, "waiting.png");
    await seedHistory(bazaar, roomId);
    await laura.page.getByTestId("start").click();

    const byName: Record<string, Page> = { Laura: laura.page, Lizzie: lizzie.page, Jeanie: jeanie.page };
    const pageOfSeat = (await store.get(roomId))!.seats.map((s) => byName[s.name!]!);
    const lauraSeat = pageOfSeat.indexOf(laura.page);
    const jeanieSeat = pageOfSeat.indexOf(jeanie.page);
    let tableDone = false;
    let phoneDone = false;
    for (let moves = 0; ; moves++) {
      const room = (await store.get(roomId))!;
      if (room.status === "finished") break;
      const st = room.state as GMState;
      const a = st.auction;
      const seat = st.turn!;
      const page = pageOfSeat[seat]!;
      await until(async () => (await renderedVersion(page)) >= room.version, "render");
      if (st.phase === "bidding" && a && a.bids.length >= 1 && a.number >= 5) {
        if (!tableDone && seat === lauraSeat) {
          await until(async () => (await renderedVersion(watcher.page)) >= room.version, "render");
          await shot(laura.page, "table.png");
          await shot(watcher.page, "spectator.png");
          // The table chat (chat.png, Laura's panel) and the rules panel over the table (rules.png).
          await laura.page.evaluate(`window.goblinBazaar.sendChat(${JSON.stringify(roomId)}, "Good luck, everyone!")`);
          await lizzie.page.evaluate(`window.goblinBazaar.sendChat(${JSON.stringify(roomId)}, "That Wyrm is mine this time.")`);
          await laura.page.getByTestId("chat-msg").nth(1).waitFor();
          await laura.page.getByTestId("chat").screenshot({ path: join(outDir, "chat.png") });
          saved.push(join(outDir, "chat.png"));
          await laura.page.getByTestId("rules-open").first().click();
          await laura.page.locator('[data-testid="rules-dialog"][data-ready="1"]').waitFor();
          await laura.page.screenshot({ path: join(outDir, "rules.png") });
          saved.push(join(outDir, "rules.png"));
          await laura.page.getByTestId("rules-close").click();
          tableDone = true;
        }
        if (!phoneDone && seat === jeanieSeat) {
          await jeanie.page.evaluate(RESET_VIEW);
          await jeanie.page.screenshot({ path: join(outDir, "table-phone.png") });
          saved.push(join(outDir, "table-phone.png"));
          phoneDone = true;
        }
      }
      await playOneMove(page, moves);
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "move");
    }
    await until(async () => ((await store.get(roomId))!.ratingChanges ? true : undefined), "ratings");
    for (const p of [laura.page, jeanie.page]) await p.getByTestId("rating-change").nth(2).waitFor();
    await laura.page.getByTestId("seed-verified").waitFor();
    await laura.page.evaluate(RESET_VIEW);
    await shot(laura.page, "end.png");
    await jeanie.page.evaluate(RESET_VIEW);
    await jeanie.page.screenshot({ path: join(outDir, "end-phone.png") });
    saved.push(join(outDir, "end-phone.png"));
    saved.push(...(await historyShots(bazaar, laura.page, roomId, outDir)));
    saved.push(...(await turnBasedShot(bazaar, laura.page, lizzie.page, outDir)));
    for (const p of [rossetti, marlowe, kit, laura, lizzie, jeanie, watcher]) await p.context.close();
    saved.push(...(await sorcerousFuturesShots(browser, bazaar, outDir)));
    saved.push(...(await aucteradenShots(browser, bazaar, outDir)));
    saved.push(...(await goblinTeethShots(browser, bazaar, outDir)));
    return saved;
  } finally {
    await browser.close();
    await bazaar.close();
  }
}

/**
 * Your games with turn-based games (your-games.png): two against bots where it is Laura's turn
 * (the one whose time runs out first on top), and one with Lizzie, who wrote in its chat; then
 * Laura on vacation at one of them (vacation.png).
 */
async function turnBasedShot(bazaar: Bazaar, laura: Page, lizzie: Page, outDir: string): Promise<string[]> {
  const service = bazaar.server.service;
  const [lauraP, lizzieP] = [(await storedIdentity(laura))!.player, (await storedIdentity(lizzie))!.player];
  await service.create(lauraP, { game: "sorcerous-futures", seats: 3, bots: 2, clock: "turn-3d" });
  const market = await service.create(lauraP, { game: "goblin-market", seats: 3, bots: 2, clock: "turn-1d" });
  const theirs = await service.create(lizzieP, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
  await service.join(theirs.id, lauraP);
  const lizzieClient = await new TestClient(bazaar.server.url, (await storedIdentity(lizzie))!.token).ready();
  await lizzieClient.call("chat:send", { roomId: theirs.id, text: "Take your time — I am away until tonight." });
  lizzieClient.close();
  await laura.goto(`${bazaar.server.url}/`);
  await laura.locator(`.your-games [data-room="${theirs.id}"] [data-testid="unread-chat"]`).waitFor();
  await laura.evaluate(RESET_VIEW);
  const file = join(outDir, "your-games.png");
  await laura.getByTestId("your-games").screenshot({ path: file });
  // Then Laura goes on vacation for a week (vacation.png): at the Goblin Market table where it is
  // her turn, her clock stands still with "On vacation until", and the event log says so.
  const res = await fetch(`${bazaar.server.url}/api/vacation`, {
    method: "POST",
    headers: { authorization: `Bearer ${(await storedIdentity(laura))!.token}`, "content-type": "application/json" },
    body: JSON.stringify({ days: 7 }),
  });
  if (!res.ok) throw new Error(`vacation refused: ${await res.text()}`);
  await laura.goto(`${bazaar.server.url}/room/${market.id}`);
  await laura.getByTestId("seat-vacation").first().waitFor();
  await laura.evaluate(RESET_VIEW);
  const away = join(outDir, "vacation.png");
  await laura.screenshot({ path: away });
  return [file, away];
}

/**
 * So that the profile's chart and the leaderboard have something to draw, a dozen ranked games
 * between the accounts seated in `roomId` are recorded before it starts, on the days before,
 * through the same function that records a finished room (their moves are not replayable: seed
 * and actions are placeholders; the replay shot is of the real game).
 */
async function seedHistory(bazaar: Bazaar, roomId: string): Promise<void> {
  const room = (await bazaar.server.store.get(roomId))!;
  const players = room.seats.map((s) => ({ id: s.playerId!, name: s.name! }));
  const t0 = Date.now() - 13 * 86_400_000;
  for (let i = 0; i < 12; i++) {
    const places = [[1, 2, 3], [2, 1, 3], [1, 3, 2], [3, 1, 2]][i % 4]!;
    await recordFinishedGame(bazaar.db, {
      roomId: `shot${i}${roomId}`.slice(0, 24),
      gameType: "goblin-market",
      ranked: true,
      options: {},
      seed: `screenshot-seed-${i}`,
      commitment: "0".repeat(64),
      actions: [],
      outcome: { scores: places.map((p) => 40 - p * 6), places },
      startedAt: new Date(t0 + i * 86_400_000),
      finishedAt: new Date(t0 + i * 86_400_000 + 1_200_000),
      seats: players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: false })),
      daily: null,
    });
  }
}

/** Laura's profile, the leaderboards and the replay of the game just played (profile.png, leaderboards.png, replay.png). */
async function historyShots(bazaar: Bazaar, page: Page, roomId: string, outDir: string): Promise<string[]> {
  const url = bazaar.server.url;
  const played = (await bazaar.server.store.get(roomId))!;
  const files: string[] = [];
  const save = async (name: string) => {
    const file = join(outDir, name);
    await page.evaluate(RESET_VIEW);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  };
  await page.goto(`${url}/player/Laura`);
  await page.locator('[data-testid="rating-card"][data-game="goblin-market"] [data-testid="chart-point"]').nth(12).waitFor();
  await page.getByTestId("game-row").nth(5).waitFor();
  await save("profile.png");
  await page.goto(`${url}/leaderboards`);
  await page.getByTestId("leader-row").nth(2).waitFor();
  await save("leaderboards.png");
  await page.goto(`${url}/game/${roomId}?step=${Math.floor(played.actions.length / 2)}`);
  await page.getByTestId("replay-seed-ok").waitFor();
  await page.locator(".auction").waitFor();
  await save("replay.png");
  return files;
}

/** Only the Sorcerous Futures screenshots (sorcerous-futures-*.png), on their own server. */
export async function takeSorcerousFuturesScreenshots(outDir: string): Promise<string[]> {
  if (!chromiumAvailable()) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  const bazaar = await startBazaar({ botDelayMs: 250 });
  const browser = await launchChromium();
  try {
    return await sorcerousFuturesShots(browser, bazaar, outDir);
  } finally {
    await browser.close();
    await bazaar.close();
  }
}

/**
 * One Sorcerous Futures move on a page whose controls are showing, reading only the UI: in
 * setup one exchange then confirm (or reveal a Pawn/Court); pick a market card; open or answer
 * early with a bid, otherwise pass.
 */
async function playSfMove(page: Page, step: number): Promise<void> {
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor();
  const pending = await panel.getAttribute("data-pending");
  if (pending === "setup") {
    const exchange = panel.getByTestId("exchange");
    const confirm = panel.getByTestId("confirm");
    if (step % 2 === 0 && (await exchange.count()) > 0) await exchange.first().click();
    else if ((await confirm.count()) > 0) await confirm.click();
    else await panel.getByTestId("reveal").first().click();
    return;
  }
  if (pending === "pick") {
    const choices = panel.getByTestId("card-choice");
    await choices.nth(step % (await choices.count())).click();
    return;
  }
  const moves = Number(await page.locator(".sf-auction").getAttribute("data-moves"));
  const bid = page.getByTestId("bid");
  if ((await bid.count()) > 0 && moves <= 1 && step % 3 !== 2) {
    const more = page.getByRole("button", { name: "One dollar more" });
    if (step % 2 === 0 && (await more.isEnabled())) await more.click();
    await bid.click();
  } else {
    await page.getByTestId("pass").click();
  }
}

async function sorcerousFuturesShots(browser: Browser, bazaar: Bazaar, outDir: string): Promise<string[]> {
  const url = bazaar.server.url;
  const store = bazaar.server.store;
  const saved: string[] = [];
  const shot = async (page: Page, name: string, fullPage = true) => {
    const file = join(outDir, name);
    await page.evaluate(RESET_VIEW);
    await page.screenshot({ path: file, fullPage });
    saved.push(file);
  };
  const morgan = await openPage(browser, DESKTOP);
  const vivien = await openPage(browser, PHONE);
  const watcher = await openPage(browser, DESKTOP);
  await enterName(morgan.page, url, "Morgan");
  const roomId = await createRoom(morgan.page, { game: "sorcerous-futures", seats: 4, ranked: false, bots: 2 });
  await enterName(vivien.page, url, "Vivien");
  await vivien.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("button", { name: /^Join/ }).click();
  await vivien.page.locator(".wait-seat.you").waitFor();
  await watcher.page.goto(`${url}/room/${roomId}`);
  await watcher.page.getByRole("button", { name: "Just watch games" }).click();
  await morgan.page.getByTestId("start").click();
  await morgan.page.locator(".sf-table").waitFor();

  const byName: Record<string, Page> = { Morgan: morgan.page, Vivien: vivien.page };
  const pageOfSeat = (await store.get(roomId))!.seats.map((x) => (x.name ? byName[x.name] : undefined));
  const morganSeat = pageOfSeat.indexOf(morgan.page);
  const vivienSeat = pageOfSeat.indexOf(vivien.page);
  let setupDone = false;
  let tableDone = false;
  let phoneDone = false;
  for (let moves = 0; ; ) {
    const room = (await store.get(roomId))!;
    if (room.status === "finished") break;
    const st = room.state as SorcerousFuturesState;
    const seat = sorcerousFutures.activeSeats(st).find((x) => pageOfSeat[x]);
    if (seat === undefined) {
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "a bot move");
      continue;
    }
    const page = pageOfSeat[seat]!;
    await until(async () => (await renderedVersion(page)) >= room.version, "render");
    if (!setupDone && st.phase === "setup" && seat === morganSeat && st.paid[morganSeat]! > 0) {
      await shot(morgan.page, "sorcerous-futures-setup.png");
      setupDone = true;
    }
    const a = st.auction;
    if (st.phase === "bidding" && a && a.moves.length >= 2 && a.number >= 6) {
      if (!tableDone && seat === morganSeat) {
        await until(async () => (await renderedVersion(watcher.page)) >= room.version, "render");
        await shot(morgan.page, "sorcerous-futures-table.png");
        await shot(watcher.page, "sorcerous-futures-spectator.png");
        tableDone = true;
      }
      if (!phoneDone && seat === vivienSeat) {
        await shot(vivien.page, "sorcerous-futures-phone.png", false);
        phoneDone = true;
      }
    }
    await playSfMove(page, moves++);
    await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "move");
  }
  await morgan.page.getByTestId("end-screen").waitFor();
  await morgan.page.getByTestId("seed-verified").waitFor();
  await shot(morgan.page, "sorcerous-futures-end.png");
  await vivien.page.getByTestId("end-screen").waitFor();
  await shot(vivien.page, "sorcerous-futures-end-phone.png", false);
  for (const p of [morgan, vivien, watcher]) await p.context.close();
  return saved;
}

/** Only the Aucteraden and daily-challenge screenshots (aucteraden-*.png), on their own server. */
export async function takeAucteradenScreenshots(outDir: string): Promise<string[]> {
  if (!chromiumAvailable()) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  const bazaar = await startBazaar({ botDelayMs: 250 });
  const browser = await launchChromium();
  try {
    return await aucteradenShots(browser, bazaar, outDir);
  } finally {
    await browser.close();
    await bazaar.close();
  }
}

/** Concrete actions from the legal templates (every parameter of an Aucteraden action is a one-option choice). */
function concrete(legal: LegalAction[]): Action[] {
  return legal.map((l) => ({ type: l.type, ...Object.fromEntries(Object.entries(l.params ?? {}).map(([k, p]) => [k, p.kind === "choice" ? p.options[0] : p.min])) }));
}

/**
 * A good-looking move for the pictures: the engine looks two moves ahead on the server's state
 * (a screenshot helper, not a player: the test and the client never do this).
 */
export function auctGoodMove(state: AucteradenState): Action {
  const after = (s: AucteradenState, a: Action) => {
    const r = aucteraden.apply(s, 0, a);
    return r.ok ? r.value.state : s;
  };
  const value = (s: AucteradenState) => auctView(s, { kind: "spectator" }).score.total;
  let best: { action: Action; v: number } | null = null;
  for (const a1 of concrete(aucteraden.legalActions(state, 0))) {
    const s1 = after(state, a1);
    let v = value(s1) - (a1.type === "discard-market" ? 2 : 0);
    if (s1.phase !== "over") {
      for (const a2 of concrete(aucteraden.legalActions(s1, 0))) v = Math.max(v, value(after(s1, a2)) - 0.01);
    }
    if (!best || v > best.v) best = { action: a1, v };
  }
  return best!.action;
}

/** Make `action` through the UI: the market card, the lit cell, the payment suit when asked. */
async function auctMoveByUi(page: Page, action: Action): Promise<void> {
  const panel = page.locator('[data-testid="act-panel"][aria-busy="false"]');
  await panel.waitFor();
  if (action.type === "discard-market") {
    // A discard by choice is asked again (the forced one is made at once: read which before the click).
    const forced = (await panel.getAttribute("data-pending")) === "discard";
    await page.getByTestId("discard-market").click();
    if (!forced) await page.getByTestId("discard-confirm").click();
    return;
  }
  await page.locator(`[data-testid="market-card"][data-choice="${String(action.card)}"]`).click();
  await page.locator(`[data-testid="cell"][data-row="${String(action.row)}"][data-col="${String(action.col)}"]`).click();
  const pay = page.locator(`[data-testid="pay-choice"][data-pay="${String(action.pay)}"]`);
  if (await pay.count()) await pay.click();
}

async function aucteradenShots(browser: Browser, bazaar: Bazaar, outDir: string): Promise<string[]> {
  const url = bazaar.server.url;
  const store = bazaar.server.store;
  const saved: string[] = [];
  const shot = async (page: Page, name: string, fullPage = true) => {
    const file = join(outDir, name);
    await page.evaluate(RESET_VIEW);
    await page.screenshot({ path: file, fullPage });
    saved.push(file);
  };
  // A few others have played today's deal (over the protocol, at random), for the board.
  for (const [i, name] of ["Christina", "Dante", "Maria"].entries()) {
    const g = await guest(url, name);
    const c = await new TestClient(url, g.token).ready();
    const started = await c.call("daily:start", { game: "aucteraden" });
    if (!started.ok) throw new Error(`daily:start: ${JSON.stringify(started.error)}`);
    const roomId = started.roomId as string;
    await c.sync(roomId);
    const random = lcg(11 + i);
    while (c.view(roomId).status !== "finished") {
      const v = c.view(roomId);
      await c.call("game:act", { roomId, action: randomLegalAction(v.legal as LegalAction[], random) });
      await until(() => (c.rooms.get(roomId)?.version ?? 0) > (v.version as number), "a move");
    }
    c.socket.close();
  }

  const goblin = await openPage(browser, DESKTOP);
  await enterAccount(goblin.page, url, "Goblin Gill");
  await goblin.page.getByTestId("daily-panel").waitFor();
  await goblin.page.getByTestId("daily-play").click();
  await goblin.page.waitForURL(/\/room\/[^/]+$/);
  const roomId = new URL(goblin.page.url()).pathname.split("/").pop()!;
  await goblin.page.getByTestId("auct-table").waitFor();
  let tableDone = false;
  for (;;) {
    const room = (await store.get(roomId))!;
    if (room.status === "finished") break;
    await until(async () => (await renderedVersion(goblin.page)) >= room.version, "render");
    const st = room.state as AucteradenState;
    const action = auctGoodMove(st);
    if (!tableDone && st.tableau.length >= 8 && action.type === "buy") {
      // Mid-game: the best chain pinned on the tableau, and a market card chosen with its cells lit.
      const chains = auctView(st, { kind: "spectator" }).score.chains.filter((c) => c.length >= 2).sort((a, b) => b.length - a.length);
      if (chains[0]) await goblin.page.locator(`[data-testid="suit-row"][data-suit="${chains[0].suit}"] button`).click();
      await goblin.page.locator(`[data-testid="market-card"][data-choice="${String(action.card)}"]`).click();
      await goblin.page.mouse.move(0, 0);
      await shot(goblin.page, "aucteraden-table.png");
      if (chains[0]) await goblin.page.locator(`[data-testid="suit-row"][data-suit="${chains[0].suit}"] button`).click();
      await goblin.page.getByTestId("cancel-choice").click();
      tableDone = true;
    }
    await auctMoveByUi(goblin.page, action);
    await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "move");
  }
  await goblin.page.getByTestId("end-screen").waitFor();
  await until(async () => (await goblin.page.getByTestId("daily-place").getAttribute("data-state")) === "done", "the place on the board");
  await shot(goblin.page, "aucteraden-end.png");
  await goblin.page.getByRole("link", { name: "Back to the lobby" }).click();
  await goblin.page.locator('[data-testid="daily-status"][data-state="done"]').waitFor();
  await goblin.page.locator('[data-testid="daily-board"][data-board="today"] tr.you').waitFor();
  await goblin.page.evaluate(RESET_VIEW);
  const daily = join(outDir, "aucteraden-daily.png");
  await goblin.page.getByTestId("daily-panel").screenshot({ path: daily });
  saved.push(daily);

  // Phone: a casual replay of yesterday's deal, a card chosen.
  const wren = await openPage(browser, PHONE);
  await enterName(wren.page, url, "Wren");
  await wren.page.getByTestId("replay-past").click();
  await wren.page.waitForURL(/\/room\/[^/]+$/);
  const replayId = new URL(wren.page.url()).pathname.split("/").pop()!;
  await wren.page.getByTestId("auct-table").waitFor();
  for (let moves = 0; ; moves++) {
    const room = (await store.get(replayId))!;
    await until(async () => (await renderedVersion(wren.page)) >= room.version, "render");
    const action = auctGoodMove(room.state as AucteradenState);
    if (moves >= 5 && action.type === "buy") {
      await wren.page.locator(`[data-testid="market-card"][data-choice="${String(action.card)}"]`).click();
      await wren.page.evaluate(RESET_VIEW);
      // The chosen card's lit cells on the tableau, under the top bar.
      await wren.page.evaluate(`window.scrollTo(0, document.querySelector(".auct-tableau").getBoundingClientRect().top + window.scrollY - 60)`);
      await wren.page.screenshot({ path: join(outDir, "aucteraden-phone.png") });
      saved.push(join(outDir, "aucteraden-phone.png"));
      break;
    }
    await auctMoveByUi(wren.page, action);
    await until(async () => ((await store.get(replayId))!.version > room.version ? true : undefined), "move");
  }
  for (const p of [goblin, wren]) await p.context.close();
  return saved;
}

/** Only the Goblin Teeth screenshots (goblin-teeth-*.png), on their own server. */
export async function takeGoblinTeethScreenshots(outDir: string): Promise<string[]> {
  if (!chromiumAvailable()) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  const bazaar = await startBazaar({ botDelayMs: 250 });
  const browser = await launchChromium();
  try {
    return await goblinTeethShots(browser, bazaar, outDir);
  } finally {
    await browser.close();
    await bazaar.close();
  }
}

/**
 * A Goblin Teeth game of two players and a bot, played through the UI at random (seeded): the
 * desktop player with a die chosen and with a Cheat card being played, the phone player choosing
 * a die, a spectator, and the end with every hand revealed.
 */
async function goblinTeethShots(browser: Browser, bazaar: Bazaar, outDir: string): Promise<string[]> {
  const url = bazaar.server.url;
  const store = bazaar.server.store;
  const saved: string[] = [];
  const shot = async (page: Page, name: string, fullPage = true) => {
    const file = join(outDir, name);
    await page.evaluate(RESET_VIEW);
    await page.screenshot({ path: file, fullPage });
    saved.push(file);
  };
  const grizelda = await openPage(browser, DESKTOP);
  const snagg = await openPage(browser, PHONE);
  const watcher = await openPage(browser, DESKTOP);
  await enterName(grizelda.page, url, "Grizelda");
  const roomId = await createRoom(grizelda.page, { game: "goblin-teeth", seats: 3, ranked: false, bots: 1 });
  await enterName(snagg.page, url, "Snagg");
  await snagg.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("button", { name: /^Join/ }).click();
  await snagg.page.locator(".wait-seat.you").waitFor();
  await watcher.page.goto(`${url}/room/${roomId}`);
  await watcher.page.getByRole("button", { name: "Just watch games" }).click();
  await grizelda.page.getByTestId("start").click();
  await grizelda.page.getByTestId("gt-table").waitFor();

  const byName: Record<string, Page> = { Grizelda: grizelda.page, Snagg: snagg.page };
  const pageOfSeat = (await store.get(roomId))!.seats.map((x) => (x.name ? byName[x.name] : undefined));
  const gSeat = pageOfSeat.indexOf(grizelda.page);
  const sSeat = pageOfSeat.indexOf(snagg.page);
  const random = lcg(7);
  let tableDone = false;
  let cheatDone = false;
  let phoneDone = false;
  for (;;) {
    const room = (await store.get(roomId))!;
    if (room.status === "finished") break;
    const st = room.state as GoblinTeethState;
    const seat = goblinTeeth.activeSeats(st).find((x) => pageOfSeat[x]);
    if (seat === undefined) {
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "a bot move");
      continue;
    }
    const page = pageOfSeat[seat]!;
    await until(async () => (await renderedVersion(page)) >= room.version, "render");
    const myTurn = st.phase === "turn" && st.pending.length === 0;
    const busy = st.dice.filter((d) => typeof d.at === "number").length >= 3;
    if (myTurn && busy && st.round >= 2 && seat === gSeat && !tableDone) {
      // A die chosen: its places listed, the Pot slots it may bid on lit.
      await until(async () => (await renderedVersion(watcher.page)) >= room.version, "render");
      await shot(watcher.page, "goblin-teeth-spectator.png");
      await grizelda.page.getByTestId("gt-die-choice").last().click();
      await grizelda.page.mouse.move(0, 0);
      await shot(grizelda.page, "goblin-teeth-table.png");
      await grizelda.page.getByTestId("gt-cancel").click();
      tableDone = true;
    }
    if (myTurn && seat === gSeat && !cheatDone && (await grizelda.page.getByTestId("gt-play").count()) > 0) {
      // A Cheat card being played: its first choice offered.
      await grizelda.page.getByTestId("gt-play").first().click();
      await grizelda.page.getByTestId("gt-composer").waitFor();
      await grizelda.page.mouse.move(0, 0);
      await shot(grizelda.page, "goblin-teeth-cheat.png", false);
      await grizelda.page.getByTestId("gt-cancel").click();
      cheatDone = true;
    }
    if (myTurn && busy && seat === sSeat && !phoneDone) {
      await snagg.page.getByTestId("gt-die-choice").first().click();
      await snagg.page.evaluate(RESET_VIEW);
      await snagg.page.evaluate(`window.scrollTo(0, document.querySelector('[data-testid="status"]').getBoundingClientRect().top + window.scrollY - 60)`);
      await snagg.page.screenshot({ path: join(outDir, "goblin-teeth-phone.png") });
      saved.push(join(outDir, "goblin-teeth-phone.png"));
      await snagg.page.getByTestId("gt-cancel").click();
      phoneDone = true;
    }
    await playGoblinTeethMove(page, random, 0.5);
    await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "move");
  }
  await grizelda.page.getByTestId("end-screen").waitFor();
  await grizelda.page.getByTestId("seed-verified").waitFor();
  await shot(grizelda.page, "goblin-teeth-end.png");
  await snagg.page.getByTestId("end-screen").waitFor();
  await shot(snagg.page, "goblin-teeth-end-phone.png", false);
  for (const p of [grizelda, snagg, watcher]) await p.context.close();
  return saved;
}
