/**
 * Every game ends (turn clocks, in real browsers): three players start a RANKED Goblin Market game
 * through the UI (the lobby shows its pace, the waiting room its clock); every seat's clock is
 * shown, the running one counts down from the server's deadline; one player closes their tab
 * mid-game, the server's (injected) clock is moved past their deadline, a bot takes their seat
 * (the others' pages say so, and the game log carries the notice); the two left finish the game
 * through the UI, and the game is recorded once, the leaver placed last in the rating update.
 *
 * Time is injected, never waited for: the server runs on `now` with manual timers, so the test
 * moves the clock and calls `timers.tick()` (for the time-out, and for each bot move).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { deadlineOf } from "../../src/platform/clocks.js";
import type { Room } from "../../src/platform/room.js";
import { until } from "../support/harness.js";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, DESKTOP, enterAccount, launchChromium, newPage, PHONE, playOneMove, renderedVersion, startBazaar, type Bazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const BOT_DELAY_MS = 600;

/** "m:ss" (or "h:mm:ss") in ms. */
function parseClock(text: string): number {
  const parts = text.trim().split(":").map(Number);
  return parts.reduce((acc, n) => acc * 60 + n, 0) * 1000;
}

describe.skipIf(!available)("a player leaves a ranked game: the clock runs out and a bot finishes for them", () => {
  let bazaar: Bazaar;
  let browser: Browser;
  let now = Date.now();

  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar({ now: () => now, manualTimers: true, botDelayMs: BOT_DELAY_MS }), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  it("clocks count down, the leaver times out, a bot plays their seat, the game is recorded once with the leaver last", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const ann = await newPage(browser, DESKTOP);
    const bob = await newPage(browser, PHONE);
    const cat = await newPage(browser, DESKTOP);

    // The create form: a clock per game; ranked greys out "No clock".
    await enterAccount(ann.page, url, "Ann");
    await ann.page.locator("#c-clock option").first().waitFor({ state: "attached" });
    const games = (await (await fetch(`${url}/api/games`)).json()) as { games: Array<{ id: string; clocks: Array<{ id: string; label: string; turnMs: number; bankMs: number }> }> };
    const gm = games.games.find((g) => g.id === "goblin-market")!;
    await ann.page.getByLabel("Ranked", { exact: true }).check();
    expect(await ann.page.locator('#c-clock option[value="none"]').isDisabled()).toBe(true);
    expect(await ann.page.locator("#c-clock").inputValue()).toBe(gm.clocks[0]!.id);
    await ann.page.getByLabel("Casual", { exact: true }).check();
    expect(await ann.page.locator('#c-clock option[value="none"]').isDisabled()).toBe(false);

    const roomId = await createRoom(ann.page, { seats: 3, ranked: true });
    const created = (await store.get(roomId))!;
    expect(created.ranked).toBe(true);
    expect(created.clock?.id).toBe(gm.clocks[0]!.id);
    const preset = created.clock!;
    // The waiting room shows the room's clock.
    expect(await ann.page.getByTestId("room-clock").textContent()).toContain(preset.label);

    // Bob sees the room's pace in the lobby list and joins from there; Cat from the link.
    await enterAccount(bob.page, url, "Bob");
    const row = bob.page.locator(`.room-row[data-room="${roomId}"]`);
    await row.waitFor();
    expect(await row.getByTestId("room-pace").textContent()).toContain(preset.label.split(":")[0]!);
    await row.getByRole("button", { name: /^Join/ }).click();
    await bob.page.waitForURL(`**/room/${roomId}`);
    await enterAccount(cat.page, url, "Cat", `/room/${roomId}`);
    await cat.page.getByRole("button", { name: "Sit here" }).first().click();
    await cat.page.locator(".wait-seat.you").waitFor();

    const start = ann.page.getByTestId("start");
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    for (const p of [ann, bob, cat]) await p.page.locator(".auction").waitFor();

    const room0 = (await store.get(roomId))!;
    const players: Record<string, Page> = { Ann: ann.page, Bob: bob.page, Cat: cat.page };
    const pageOfSeat = room0.seats.map((s) => players[s.name!]!);
    const catSeat = room0.seats.findIndex((s) => s.name === "Cat");
    const turnOf = (r: Room) => (r.state as { turn: number | null }).turn;

    /** Play through the UI until `stop` says so (checked before each move). */
    let moves = 0;
    const playUntil = async (stop: (r: Room) => boolean): Promise<Room> => {
      for (;;) {
        const room = (await store.get(roomId))!;
        if (room.status !== "playing" || stop(room)) return room;
        const seat = turnOf(room)!;
        const page = pageOfSeat[seat]!;
        await until(async () => (await renderedVersion(page)) >= room.version, `seat ${seat} to render v${room.version}`);
        await playOneMove(page, moves++);
        await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the move to land", 10_000);
        expect(moves).toBeLessThan(400);
      }
    };

    // Play until Cat has moved at least once (a ranked no-show would call the game off) and it is her turn again.
    let catMoved = false;
    let room = await playUntil((r) => {
      catMoved ||= r.actions.some((a) => a.seat === catSeat);
      return catMoved && moves >= 4 && turnOf(r) === catSeat;
    });
    expect(room.status).toBe("playing");

    // Clocks at the table: Cat's runs on every page (highlighted, counting down from the server's
    // deadline), the others are stopped and show their turn allowance + bank.
    const clocks = room.clocks!;
    const deadline = deadlineOf(preset, clocks[catSeat]!)!;
    expect(deadline).toBe(clocks[catSeat]!.since! + preset.turnMs + clocks[catSeat]!.bankMs);
    for (const p of [ann.page, bob.page, cat.page]) {
      await until(async () => (await renderedVersion(p)) >= room.version, "the page to render Cat's turn");
      const running = p.locator(`.seat[data-seat="${catSeat}"] [data-testid="clock"]`);
      expect(await running.getAttribute("data-running")).toBe("yes");
      const shown = parseClock((await running.locator(".clock-time").textContent())!);
      // The server's clock stands still (injected), so the page can only be ahead of it by the time since the view arrived.
      expect(shown).toBeLessThanOrEqual(deadline - now + 1000);
      expect(shown).toBeGreaterThan(deadline - now - 15_000);
      for (let seat = 0; seat < 3; seat++) {
        if (seat === catSeat) continue;
        const stopped = p.locator(`.seat[data-seat="${seat}"] [data-testid="clock"]`);
        expect(await stopped.getAttribute("data-running")).toBe("no");
        expect((await stopped.locator(".clock-time").textContent())!.trim()).toMatch(/^\d+:\d\d \+ \d+:\d\d$/);
      }
    }
    // The running clock counts down (every ~250 ms, by the server's time as of the last view).
    const annCatClock = ann.page.locator(`.seat[data-seat="${catSeat}"] [data-testid="clock"] .clock-time`);
    const first = parseClock((await annCatClock.textContent())!);
    await expect.poll(async () => parseClock((await annCatClock.textContent())!), { timeout: 5000 }).toBeLessThan(first);
    // Cat's own page has her clock marked as hers.
    expect(await cat.page.locator(`.seat[data-seat="${catSeat}"] [data-testid="clock"].mine`).count()).toBe(1);

    // The table bar: the pace, Resign for a player in the game, no way to take back a seat nobody lost.
    expect(await ann.page.getByTestId("pace").textContent()).toContain(preset.label);
    await ann.page.getByTestId("resign").waitFor();
    expect(await ann.page.getByTestId("take-back").count()).toBe(0);

    // Cat closes her tab mid-game, on her turn.
    await cat.context.close();
    await ann.page.locator(`.seat[data-seat="${catSeat}"] [data-testid="away"]`).waitFor();

    // Her time runs out on the server's clock: the timer fires, a bot takes the seat.
    now = deadline + 1;
    await bazaar.server.timers.tick();
    room = await until(async () => {
      const r = (await store.get(roomId))!;
      return r.seats[catSeat]!.away === "timeout" ? r : undefined;
    }, "Cat's seat to time out");
    expect(room.status).toBe("playing");
    expect(room.seats[catSeat]!.timeouts).toBe(1);
    for (const p of [ann.page, bob.page]) {
      const tag = p.locator(`.seat[data-seat="${catSeat}"] [data-testid="bot-plays"]`);
      await tag.waitFor();
      expect(await tag.textContent()).toContain("ran out of time: a bot plays");
      // No clock for a seat a bot plays.
      expect(await p.locator(`.seat[data-seat="${catSeat}"] [data-testid="clock"]`).count()).toBe(0);
      const notice = p.locator('.log-list [data-testid="notice"][data-kind="timeout"]');
      await notice.waitFor();
      expect(await notice.textContent()).toContain("Cat ran out of time");
      // At its place in the log: right after the entry that was last when it happened.
      const logAt = Number(await notice.getAttribute("data-log-at"));
      expect(await notice.evaluate((el) => Number(el.previousElementSibling?.getAttribute("data-n") ?? 0))).toBe(logAt);
    }

    // The two left finish the game through the UI; the bot moves when the clock moves.
    let botMoves = 0;
    for (;;) {
      room = (await store.get(roomId))!;
      if (room.status !== "playing") break;
      const seat = turnOf(room)!;
      if (seat === catSeat) {
        now += BOT_DELAY_MS;
        await bazaar.server.timers.tick();
        await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the bot to move", 10_000);
        botMoves++;
        continue;
      }
      const page = pageOfSeat[seat]!;
      await until(async () => (await renderedVersion(page)) >= room.version, `seat ${seat} to render v${room.version}`);
      await playOneMove(page, moves++);
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the move to land", 10_000);
      expect(moves + botMoves).toBeLessThan(600);
    }
    expect(room.status).toBe("finished");
    expect(botMoves).toBeGreaterThan(0);
    expect(room.seats[catSeat]!.away).toBe("timeout");

    // Recorded once, with the leaver placed last in the rating update.
    const final = await until(async () => {
      const r = (await store.get(roomId))!;
      return r.ratingChanges ? r : undefined;
    }, "ratings recorded");
    expect(await bazaar.db.prisma.game.count({ where: { id: roomId } })).toBe(1);
    expect(await bazaar.db.prisma.gameSeat.count({ where: { gameId: roomId } })).toBe(3);
    const rec = (await (await fetch(`${url}/api/finished/${roomId}`)).json()) as {
      ok: boolean;
      game: { seats: Array<{ seat: number; name: string; forfeit?: string | null }>; ratingChanges: Array<{ seat: number; before: { mu: number }; after: { mu: number } }>; actions: unknown[] };
    };
    expect(rec.ok).toBe(true);
    expect(rec.game.actions.length).toBe(final.actions.length);
    expect(rec.game.seats[catSeat]!.forfeit).toBe("timeout");
    expect(rec.game.seats.filter((s) => s.forfeit).map((s) => s.seat)).toEqual([catSeat]);
    const changes = rec.game.ratingChanges;
    expect(changes.map((c) => c.seat).sort()).toEqual([0, 1, 2]);
    const delta = (seat: number) => changes.find((c) => c.seat === seat)!.after.mu - changes.find((c) => c.seat === seat)!.before.mu;
    // Everyone started from the same rating: the seat placed last alone loses the most.
    for (let seat = 0; seat < 3; seat++) if (seat !== catSeat) expect(delta(catSeat)).toBeLessThan(delta(seat));
    expect(delta(catSeat)).toBeLessThan(0);
    expect(final.ratingChanges!.length).toBe(3);

    // The end screen, on the others' pages: rating changes, and why Cat's seat was played by a bot.
    for (const p of [ann.page, bob.page]) {
      const end = p.getByTestId("end-screen");
      await end.waitFor();
      await expect.poll(() => end.getByTestId("rating-change").count()).toBe(3);
      expect(await end.getByTestId("forfeit").textContent()).toContain("ran out of time");
      expect(await end.getByTestId("left-last-note").textContent()).toBe("Cat left the game and counts as last in the rating update; the others are rated in the order they finished.");
    }
    // Cat, back: her end screen does not say she won or finished where her bot did; it says what happened.
    const catBack = await newPage(browser, DESKTOP);
    await enterAccount(catBack.page, url, "Cat", `/room/${roomId}`);
    const catEnd = catBack.page.getByTestId("end-screen");
    await catEnd.waitFor();
    const catPlace = final.outcome!.places[catSeat]!;
    expect(await catEnd.locator(".end-you").textContent()).toBe(`You ran out of time, and a bot finished your seat ${["", "1st", "2nd", "3rd"][catPlace]} of 3. In the rating update you count as last.`);
    expect(await catEnd.locator("#end-h").textContent()).not.toContain("You win");
    expect(await catEnd.getByTestId("left-last-note").count()).toBe(0);
    await catBack.context.close();
    // Profiles say how reliably each plays ranked games out: Cat left hers, Ann played hers out.
    await ann.page.goto(`${url}/player/Cat`);
    const catLine = ann.page.getByTestId("reliability");
    await expect.poll(() => catLine.textContent()).toContain("0% of ranked games played out: left 1 of their one ranked game");
    expect(await catLine.getAttribute("class")).toContain("unreliable");
    // You and Cat: the one game together, Ann ahead (Cat's seat was finished by a bot), with its replay.
    const vs = ann.page.getByTestId("versus");
    await expect.poll(() => ann.page.getByTestId("versus-total").textContent()).toMatch(/^\s*1 game together: you finished ahead in 1,\s+Cat in 0\.\s*$/);
    expect(await vs.getByTestId("versus-game").getAttribute("data-result")).toBe("ahead");
    expect(await vs.getByTestId("versus-game").getByRole("link").getAttribute("href")).toBe(`/game/${roomId}`);
    // Cat's games narrowed to those with Ann (from You and Cat): the one.
    await ann.page.getByTestId("versus-all").click();
    await expect.poll(() => ann.page.getByTestId("games-with-me").isChecked()).toBe(true);
    await expect.poll(() => ann.page.getByTestId("game-row").count()).toBe(1);
    expect(await ann.page.getByTestId("game-row").getAttribute("data-game-id")).toBe(roomId);
    expect(await axeViolations(ann.page), "a profile with reliability and You and Cat passes axe").toEqual([]);
    // The table's players line says so beside Cat (read afresh on a reload of the end screen).
    await ann.page.goto(`${url}/room/${roomId}`);
    const badge = ann.page.getByTestId("table-players").locator(`[data-seat="${catSeat}"]`).getByTestId("left-badge");
    await expect.poll(() => badge.textContent()).toBe("left 1 of 1");
    expect(await ann.page.getByTestId("table-players").getByTestId("left-badge").count()).toBe(1);
    // Her own profile: no request of the page is refused (it asked "you and them" of herself: SAME_PLAYER, in the console).
    const refused: string[] = [];
    ann.page.on("response", (r) => void (r.url().includes("/api/") && r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`)));
    await ann.page.goto(`${url}/player/Ann`);
    await expect.poll(() => ann.page.getByTestId("reliability").textContent()).toContain("100% of ranked games played out: left none of your one ranked game");
    expect(refused).toEqual([]);
    expect(await ann.page.getByTestId("reliability").getAttribute("class")).not.toContain("unreliable");
    expect(await ann.page.getByTestId("versus").count()).toBe(0); // nobody plays themselves
    console.log(`[browser] leaver game: ${moves} moves through the UI, ${botMoves} bot moves for the leaver`);
    for (const p of [ann, bob]) await p.context.close();
  }, 240_000);

  /** Lets bots move (the clock moves by their delay, then the timers fire) until a person must act. */
  async function botsMove(roomId: string): Promise<Room> {
    const store = bazaar.server.store;
    for (let i = 0; i < 50; i++) {
      const room = (await store.get(roomId))!;
      const turn = (room.state as { turn: number | null }).turn;
      const s = turn === null ? undefined : room.seats[turn];
      if (room.status !== "playing" || !s || (!s.bot && !s.away)) return room;
      now += BOT_DELAY_MS;
      await bazaar.server.timers.tick();
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "a bot to move", 10_000);
    }
    throw new Error("the bots never stopped");
  }

  it("low time warns (class, live note, beeps at 10 s and 5 s, mute remembered); a timed-out player takes the seat back; resigning asks first", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const ann = await newPage(browser, DESKTOP);
    const bob = await newPage(browser, DESKTOP);
    await enterAccount(ann.page, url, "Ann");
    // A casual room with a pace picked in the form (and one bot).
    await ann.page.locator("#c-clock option").first().waitFor({ state: "attached" });
    const games = (await (await fetch(`${url}/api/games`)).json()) as { games: Array<{ id: string; clocks: Array<{ id: string }> }> };
    const gmClocks = games.games.find((g) => g.id === "goblin-market")!.clocks;
    const pace = (gmClocks[1] ?? gmClocks[0]!).id;
    await ann.page.selectOption("#c-clock", pace);
    const roomId = await createRoom(ann.page, { seats: 3, ranked: false, bots: 1 });
    const room0 = (await store.get(roomId))!;
    expect(room0.clock?.id).toBe(pace);
    await enterAccount(bob.page, url, "Bob", `/room/${roomId}`);
    await bob.page.getByRole("button", { name: "Sit here" }).first().click();
    await bob.page.locator(".wait-seat.you").waitFor();
    await expect.poll(() => ann.page.getByTestId("start").isEnabled()).toBe(true);
    await ann.page.getByTestId("start").click();
    await ann.page.locator(".auction").waitFor();

    // Play (bots on the moved clock) until it is Ann's turn.
    const annSeat = 0;
    let room = await botsMove(roomId);
    for (let i = 0; (room.state as { turn: number }).turn !== annSeat; i++) {
      const seat = (room.state as { turn: number }).turn;
      const page = seat === 1 ? bob.page : ann.page;
      await until(async () => (await renderedVersion(page)) >= room.version, "Bob's page");
      await playOneMove(page, i);
      await until(async () => ((await store.get(roomId))!.version > room.version ? true : undefined), "the move to land");
      room = await botsMove(roomId);
      expect(i).toBeLessThan(20);
    }
    const deadline = deadlineOf(room.clock!, room.clocks![annSeat]!)!;

    // 9.5 s left on the server's clock: a fresh view tells the page; her clock turns red, a note says so, a beep.
    now = deadline - 9_500;
    await ann.page.reload();
    const mine = ann.page.locator('[data-testid="my-clock"] [data-testid="clock"]');
    await mine.waitFor();
    expect(await mine.getAttribute("class")).toContain("low");
    expect(parseClock((await mine.locator(".clock-time").textContent())!)).toBeLessThanOrEqual(10_000);
    expect(await ann.page.getByTestId("low-time").textContent()).toContain("Under 10 seconds");
    expect(await ann.page.getByTestId("low-time").getAttribute("role")).toBe("alert");
    await expect.poll(() => ann.page.evaluate("window.goblinBazaarBeeps")).toEqual([`${roomId}:${deadline}:10000`]);
    // Bob's page shows her clock running, but no warning (it is not his clock).
    expect(await bob.page.getByTestId("low-time").count()).toBe(0);

    // Her connection drops (and stays down): her clock counts on as last known, dimmed and said
    // so, with no "move now" alert (nothing can be done); back, it is as before.
    await ann.context.setOffline(true);
    const annId = room.seats[annSeat]!.playerId;
    for (const so of bazaar.server.io.sockets.sockets.values()) if ((so.data as { player?: { id: string } }).player?.id === annId) so.conn.close();
    await expect.poll(() => ann.page.getByTestId("conn").getAttribute("data-state")).not.toBe("connected");
    await expect.poll(async () => (await mine.getAttribute("class"))!.split(/\s+/)).toContain("unsure");
    expect(await mine.getAttribute("aria-label")).toMatch(/; not connected, so as last known$/);
    expect(await ann.page.getByTestId("low-time").count()).toBe(0);
    await ann.context.setOffline(false);
    await ann.page.locator('[data-testid="conn"][data-state="connected"]').waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await mine.getAttribute("class"))!.split(/\s+/)).not.toContain("unsure");
    await ann.page.getByTestId("low-time").waitFor();

    // Muted, and remembered across a reload: the 5 s warning is shown but not sounded.
    await ann.page.getByTestId("mute").click();
    expect(await ann.page.getByTestId("mute").getAttribute("aria-pressed")).toBe("true");
    now = deadline - 5_400;
    await ann.page.reload();
    await ann.page.getByTestId("low-time").waitFor();
    expect(await ann.page.getByTestId("mute").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => ann.page.evaluate("window.goblinBazaarBeeps")).toEqual([`${roomId}:${deadline}:5000:muted`]);
    await ann.page.getByTestId("mute").click();
    expect(await ann.page.evaluate(`localStorage.getItem("goblin-bazaar.clock-muted")`)).toBe(null);

    // Her time runs out: a bot plays her seat; she may take it back (a first time-out).
    now = deadline + 1;
    await bazaar.server.timers.tick();
    await ann.page.getByTestId("you-away").waitFor();
    expect(await ann.page.locator('[data-testid="act-panel"]').count()).toBe(0);
    await bob.page.locator(`.seat[data-seat="${annSeat}"] [data-testid="bot-plays"]`).waitFor();
    // Her lobby says so too (Your games), and its link takes her back to the table.
    await ann.page.goto(url);
    const row = ann.page.locator(`.mine-row[data-room="${roomId}"]`);
    await expect.poll(() => row.getByTestId("mine-away").textContent()).toBe("A bot plays your seat");
    await row.getByTestId("mine-open").click();
    await ann.page.getByTestId("you-away").waitFor();
    await ann.page.getByTestId("take-back").click();
    await until(async () => ((await store.get(roomId))!.seats[annSeat]!.away ? undefined : true), "Ann back in her seat");
    await ann.page.getByTestId("take-back").waitFor({ state: "detached" });
    const back = bob.page.locator('.log-list [data-testid="notice"][data-kind="returned"]');
    await back.waitFor();
    expect(await back.textContent()).toContain("Ann is back");

    // Bob resigns: asked first (casual: nothing about ratings), then a bot plays his seat to the end.
    await bob.page.getByTestId("resign").click();
    const confirm = bob.page.getByTestId("resign-confirm");
    await confirm.waitFor();
    expect(await confirm.textContent()).not.toContain("rating");
    await bob.page.getByTestId("resign-no").click();
    await confirm.waitFor({ state: "detached" });
    expect((await store.get(roomId))!.seats[1]!.away).toBeUndefined();
    await bob.page.getByTestId("resign").click();
    await bob.page.getByTestId("resign-yes").click();
    await until(async () => ((await store.get(roomId))!.seats[1]!.away === "resigned" ? true : undefined), "Bob resigned");
    const tag = ann.page.locator('.seat[data-seat="1"] [data-testid="bot-plays"]');
    await tag.waitFor();
    expect(await tag.textContent()).toContain("resigned");
    expect(await ann.page.locator('.log-list [data-testid="notice"][data-kind="resigned"]').textContent()).toContain("Bob resigned");
    expect(await bob.page.getByTestId("you-away").textContent()).toContain("You resigned");
    expect(await bob.page.getByTestId("resign").count()).toBe(0);
    for (const p of [ann, bob]) await p.context.close();
  }, 120_000);

  it("a ranked game whose first move never comes is called off, and the table says so", async () => {
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const pages = await Promise.all([newPage(browser, DESKTOP), newPage(browser, PHONE), newPage(browser, DESKTOP)]);
    await enterAccount(pages[0]!.page, url, "Ann");
    const roomId = await createRoom(pages[0]!.page, { seats: 3, ranked: true });
    for (const [i, name] of ["Bob", "Cat"].entries()) {
      const p = pages[i + 1]!.page;
      await enterAccount(p, url, name, `/room/${roomId}`);
      await p.getByRole("button", { name: "Sit here" }).first().click();
      await p.locator(".wait-seat.you").waitFor();
    }
    await expect.poll(() => pages[0]!.page.getByTestId("start").isEnabled()).toBe(true);
    await pages[0]!.page.getByTestId("start").click();
    const room = await until(async () => {
      const r = (await store.get(roomId))!;
      return r.status === "playing" ? r : undefined;
    }, "the start");
    const seat = (room.state as { turn: number }).turn;
    const firstMove = pages[0]!.page.locator(`.seat[data-seat="${seat}"] [data-testid="clock"]`);
    await firstMove.waitFor();
    expect(await firstMove.textContent()).toContain("first move");
    now = deadlineOf(room.clock!, room.clocks![seat]!)! + 1;
    await bazaar.server.timers.tick();
    const noShow = room.seats[seat]!.name!;
    for (const [i, { page }] of pages.entries()) {
      const closed = page.getByTestId("closed-room");
      await closed.waitFor();
      expect(await closed.getAttribute("data-ended")).toBe("aborted");
      expect(await closed.textContent()).toContain("Game called off");
      // The others read who did not show up; the one who did not is spoken to, and told what it costs.
      expect(await closed.getByTestId("closed-why").textContent()).toBe(
        ["Ann", "Bob", "Cat"][i] === noShow
          ? "You did not make your first move in time, so the game is called off and no ratings change. It counts as leaving a ranked game: leaving them pauses your ranked play for a while."
          : `${noShow} did not make a first move in time. The game is called off; no ratings change.`,
      );
    }
    expect((await store.get(roomId))!.status).toBe("closed");
    for (const p of pages) await p.context.close();
  }, 120_000);
});
