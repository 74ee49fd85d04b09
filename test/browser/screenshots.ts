/**
 * Drives real games in chromium and saves screenshots of the lobby, a table mid-auction and
 * the end screen (used by `npm run screenshots`, see scripts/screenshots.ts), for Goblin Market
 * and then Sorcerous Futures (sorcerous-futures-*.png).
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
  enterName,
  launchChromium,
  newPage,
  PHONE,
  playOneMove,
  renderedVersion,
  RESET_VIEW,
  startBazaar,
} from "./support.js";
import { until } from "../support/harness.js";

interface GMState {
  turn: number | null;
  phase: string;
  auction: { number: number; bids: unknown[] } | null;
}

export async function takeScreenshots(outDir: string): Promise<string[]> {
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
    const rossetti = await newPage(browser);
    await enterName(rossetti.page, url, "Rossetti");
    await createRoom(rossetti.page, { seats: 4, ranked: false, bots: 2 });
    const marlowe = await newPage(browser);
    await enterName(marlowe.page, url, "Marlowe");
    await createRoom(marlowe.page, { seats: 5, ranked: true });
    const kit = await newPage(browser);
    await enterName(kit.page, url, "Kit");
    await createRoom(kit.page, { seats: 3, ranked: false, bots: 2 });
    await kit.page.getByTestId("start").click();
    await kit.page.locator(".auction").waitFor();

    const laura = await newPage(browser, DESKTOP);
    const lizzie = await newPage(browser, DESKTOP);
    const jeanie = await newPage(browser, PHONE);
    const watcher = await newPage(browser, DESKTOP);
    await enterName(laura.page, url, "Laura");
    await laura.page.locator(".room-row").nth(2).waitFor();
    await shot(laura.page, "lobby.png");
    await enterName(jeanie.page, url, "Jeanie");
    await jeanie.page.locator(".room-row").nth(2).waitFor();
    await shot(jeanie.page, "lobby-phone.png");

    const roomId = await createRoom(laura.page, { seats: 3, ranked: true });
    await enterName(lizzie.page, url, "Lizzie");
    await lizzie.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("button", { name: /^Join/ }).click();
    await jeanie.page.goto(`${url}/room/${roomId}`);
    await jeanie.page.getByRole("button", { name: "Sit here" }).first().click();
    await watcher.page.goto(`${url}/room/${roomId}`);
    await watcher.page.getByRole("button", { name: "Just watch games" }).click();
    await laura.page.locator(".wait-seat.you").waitFor();
    await until(async () => ((await store.get(roomId))!.seats.every((s) => s.playerId) ? true : undefined), "seats filled");
    await shot(laura.page, "waiting.png");
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
    for (const p of [rossetti, marlowe, kit, laura, lizzie, jeanie, watcher]) await p.context.close();
    saved.push(...(await sorcerousFuturesShots(browser, bazaar, outDir)));
    return saved;
  } finally {
    await browser.close();
    await bazaar.close();
  }
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
  const morgan = await newPage(browser, DESKTOP);
  const vivien = await newPage(browser, PHONE);
  const watcher = await newPage(browser, DESKTOP);
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
