/**
 * The web client in a real browser (playwright-core driving Debian's chromium): three players
 * create, join and play a whole ranked Goblin Market game through the UI; one reloads mid-game
 * and carries on in the same seat; another drops away and the table shows it; a fourth browser
 * spectates throughout, never gets controls, and never has a hidden card in its page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { Room } from "../../src/platform/room.js";
import { until } from "../support/harness.js";
import { cardsOnPage, CHROMIUM, chromiumAvailable, createRoom, DESKTOP, enterAccount, launchChromium, newPage, PHONE, playOneMove, renderedVersion, splitWords, startBazaar, storedIdentity, type Bazaar } from "./support.js";

const available = chromiumAvailable();
/** Evaluated in the page: the player id kept in localStorage. */
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

describe.skipIf(!available)("web client in chromium", () => {
  let bazaar: Bazaar;
  let browser: Browser;

  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar(), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  it("shows every refusal in words: a bad name, a missing room", async () => {
    const url = bazaar.server.url;
    const { context, page } = await newPage(browser, PHONE);
    await page.goto(url + "/");
    await page.getByLabel("Your display name").fill("!!");
    await page.getByRole("button", { name: "Enter the bazaar" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain('only: "!" is not allowed'); // the server's words (BAD_NAME)
    await page.getByLabel("Your display name").fill("Zed");
    await page.getByRole("button", { name: "Enter the bazaar" }).click();
    await page.getByRole("heading", { name: "Welcome, Zed" }).waitFor();
    await page.goto(url + "/room/NoSuchRoom1");
    await page.getByRole("heading", { name: "Room not available" }).waitFor();
    expect(await page.locator(".notfound").textContent()).toContain("There is no such room"); // the server's words (NO_SUCH_ROOM)
    // Renaming keeps the same player.
    const before = (await storedIdentity(page))!.player.id;
    await page.locator('[data-testid="me"] > summary').click();
    await page.getByLabel("Change your display name").fill("Zed the Bold");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.locator(".me-name").textContent()).toBe("Zed the Bold");
    expect((await storedIdentity(page))!.player.id).toBe(before);
    await context.close();
  });

  it("three players play a full game through the UI; one reloads; a spectator never sees a hidden card", async () => {
    const t0 = Date.now();
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const ann = await newPage(browser, DESKTOP);
    const bob = await newPage(browser, PHONE);
    const cat = await newPage(browser, DESKTOP);
    const spec = await newPage(browser, DESKTOP);

    // Ann creates a ranked room for three.
    await enterAccount(ann.page, url, "Ann");
    const roomId = await createRoom(ann.page, { seats: 3, ranked: true });
    expect(await ann.page.locator("#share-url").inputValue()).toBe(`${url}/room/${roomId}`);

    // The spectator opens the link and just watches (no name).
    await spec.page.goto(`${url}/room/${roomId}`);
    await spec.page.getByRole("button", { name: "Just watch games" }).click();
    await spec.page.getByTestId("spectating").waitFor();

    // Bob joins from the lobby list; Cat from the shared link.
    await enterAccount(bob.page, url, "Bob");
    await bob.page.locator(`.room-row[data-room="${roomId}"]`).getByRole("button", { name: /^Join/ }).click();
    await bob.page.waitForURL(`**/room/${roomId}`);
    await enterAccount(cat.page, url, "Cat", `/room/${roomId}`);
    await cat.page.getByRole("button", { name: "Sit here" }).first().click();
    await cat.page.locator(".wait-seat.you").waitFor();

    // Ann starts once the seats are full.
    const start = ann.page.getByTestId("start");
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    for (const p of [ann, bob, cat, spec]) await p.page.locator(".auction").waitFor();
    // Everyone sees one spectator (Cat watched the room before she sat down: she no longer counts).
    for (const p of [ann, bob, cat, spec]) await expect.poll(() => p.page.getByTestId("watching").getAttribute("data-count")).toBe("1");
    expect(await ann.page.getByTestId("watching").textContent()).toContain("1 watching");

    const players: Record<string, Page> = { Ann: ann.page, Bob: bob.page, Cat: cat.page };
    const room0 = (await store.get(roomId))!;
    const pageOfSeat = room0.seats.map((s) => players[s.name!]!);
    const allPages = () => [...pageOfSeat, spec.page];

    let spectatorCardsSeen = 0;
    /** Spectator check at the server's current version: marked, no controls, no undrawn card. */
    const checkSpectator = async (room: Room) => {
      await until(async () => (await renderedVersion(spec.page)) >= room.version, `spectator to render v${room.version}`, 10_000);
      const undrawn = new Set((room.state as { auctionDeck: string[] }).auctionDeck);
      for (const p of allPages()) {
        const shown = await cardsOnPage(p);
        if (p === spec.page) spectatorCardsSeen = Math.max(spectatorCardsSeen, new Set(shown).size);
        const leaked = shown.filter((id) => undrawn.has(id));
        expect(leaked, `undrawn cards on a page at v${room.version}`).toEqual([]);
      }
      expect(await spec.page.getByTestId("spectating").count()).toBe(1);
      const controls = spec.page.locator('[data-testid="act-panel"], #bid-amount, [data-testid="bid"], [data-testid="pass"], [data-testid="card-choice"], [data-testid="take-all"]');
      expect(await controls.count()).toBe(0);
    };

    let moves = 0;
    let reloaded = false;
    let awayChecked = false;
    let dropped = false;
    let payoutsChecked = 0;
    for (;;) {
      const room = (await store.get(roomId))!;
      await checkSpectator(room);
      if (room.status === "finished") break;
      const lp = (room.state as { lastPayouts: { auction: number; winner: number | null } | null }).lastPayouts;
      if (lp && payoutsChecked < 2) {
        // The last auction's panel, which the client reads from the log (the view does not repeat it).
        payoutsChecked++;
        const panel = spec.page.locator(".panel.payouts");
        expect(await panel.locator("h2").textContent()).toBe(`Last auction (${lp.auction})`);
        if (lp.winner !== null) expect(await panel.textContent()).toContain(`${room.seats[lp.winner]!.name} won with`);
      }
      const seat = (room.state as { turn: number }).turn;

      if (moves === 12 && !reloaded) {
        // Bob reloads mid-game: same seat, current view, and he carries on.
        reloaded = true;
        await bob.page.reload();
        await bob.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
        await bob.page.locator(".seat.you").waitFor();
        expect(await bob.page.locator(".seat.you .seat-name").textContent()).toBe("Bob");
        await until(async () => (await renderedVersion(bob.page)) >= room.version, "Bob's view after reload");
      }
      if (moves === 20 && !awayChecked) {
        // Cat's tab goes away: the others see it; she comes back to her seat.
        awayChecked = true;
        await cat.page.goto("about:blank");
        const catSeat = room.seats.findIndex((s) => s.name === "Cat");
        await ann.page.locator(`.seat[data-seat="${catSeat}"] [data-testid="away"]`).waitFor();
        await cat.page.goto(`${url}/room/${roomId}`);
        await cat.page.locator(".seat.you").waitFor();
        await ann.page.locator(`.seat[data-seat="${catSeat}"] [data-testid="away"]`).waitFor({ state: "detached" });
      }

      if (moves === 28 && !dropped) {
        // Cat's network drops (the server side of her websocket dies): her page says so,
        // reconnects with backoff and is back in her seat with the current view.
        dropped = true;
        const catId = room.seats.find((s) => s.name === "Cat")!.playerId;
        const catSockets = [...bazaar.server.io.sockets.sockets.values()].filter((so) => (so.data as { player?: { id: string } }).player?.id === catId);
        expect(catSockets.length).toBeGreaterThan(0);
        for (const so of catSockets) so.conn.close();
        await cat.page.locator('[data-testid="conn"][data-state="reconnecting"]').waitFor();
        await cat.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
        await until(async () => (await renderedVersion(cat.page)) >= room.version, "Cat's view after reconnecting");
        await cat.page.locator(".seat.you").waitFor();
      }

      const page = pageOfSeat[seat]!;
      await until(async () => (await renderedVersion(page)) >= room.version, `seat ${seat} to render v${room.version}`);
      await playOneMove(page, moves);
      moves++;
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the move to land", 10_000);
      expect(moves).toBeLessThan(400);
    }
    expect(reloaded && awayChecked && dropped).toBe(true);
    expect(payoutsChecked).toBe(2);
    expect(spectatorCardsSeen, "the spectator's page drew cards (the check is not vacuous)").toBeGreaterThan(10);

    // The end: every player and the spectator see places, scores, rating changes and the seed.
    const final = await until(async () => {
      const r = (await store.get(roomId))!;
      return r.ratingChanges ? r : undefined;
    }, "ratings recorded");
    for (const p of allPages()) {
      const end = p.getByTestId("end-screen");
      await end.waitFor();
      expect(await end.getByTestId("result-row").count()).toBe(3);
      expect(await end.getByTestId("seed").textContent()).toBe(final.seed);
      await end.getByTestId("seed-verified").waitFor();
      await expect.poll(() => end.getByTestId("rating-change").count()).toBe(3);
    }
    expect(await ann.page.locator(".end h2").textContent()).toMatch(/Game over/);
    // Each player's name in the results opens their profile.
    const linked = await ann.page.locator('[data-testid="result-row"] th a').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(linked.sort()).toEqual(final.seats.map((x) => `/player/id:${encodeURIComponent(x.playerId!)}`).sort());
    // New players' ratings are provisional: said once under the table, not in each row.
    expect(await bob.page.getByTestId("provisional-note").count()).toBe(1);
    // On the phone, the results table fits without breaking a heading, a place or a name inside a word.
    expect(await splitWords(bob.page, ".results", "the results table")).toEqual([]);
    const t = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`[browser] full game: ${moves} moves through the UI in ${t}s`);

    for (const p of [ann, bob, cat, spec]) await p.context.close();
  }, 180_000);
});
