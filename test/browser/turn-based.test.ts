/**
 * Turn-based games in the browser: the New room form groups the paces (one sitting, turn-based) and
 * says what a turn-based room does; its waiting room has no Start button (the game starts by itself
 * when the last seat is taken); the lobby says how long an open one waits for players; the clocks
 * count days down; Your games says how long you have to move, and keeps an invitation to one
 * (Join, Decline) until it is answered.
 */
import { describe, expect, it } from "vitest";
import type { Player } from "../../src/platform/identity.js";
import { TestClient } from "../support/harness.js";
import { account } from "../support/accounts.js";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom as createRoomInPage, enterAccount, enterName, newPage, storedIdentity, useBrowserBazaar } from "./support.js";
import { actInRoom, createRematchRoom, createRoom, gameOf, gameState, joinRoom, startRoom } from "../../src/platform/room.js";
import { randomLegalAction } from "../../src/games/legal.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("turn-based games in the browser", () => {
  let clock = Date.UTC(2026, 10, 26, 9, 0, 0);
  const t = useBrowserBazaar({ now: () => clock, manualTimers: true });

  it("a turn-based room from the form: waits for players without its host, starts by itself, and shows days on the clocks and in Your games", async () => {
    const url = t.bazaar.server.url;
    // A guest sees the paces but cannot pick them: turn-based games are for accounts.
    const gus = await newPage(t.browser);
    await enterName(gus.page, url, "Gus");
    await gus.page.locator("#c-game option").first().waitFor({ state: "attached" });
    expect(await gus.page.locator('#c-clock option[value="turn-1d"]').isDisabled()).toBe(true);
    expect(await gus.page.locator('#c-clock option[value="turn-1d"]').innerText()).toMatch(/\(accounts\)$/);
    expect(await gus.page.getByTestId("turn-based-needs-account").innerText()).toBe("Turn-based games, played over days, are for accounts, which find them on any device.");
    await gus.page.close();

    const ada = await newPage(t.browser);
    await enterAccount(ada.page, url, "Ada");
    await ada.page.locator("#c-game option").first().waitFor({ state: "attached" });
    expect(await ada.page.getByTestId("turn-based-needs-account").count()).toBe(0);
    await ada.page.selectOption("#c-game", "sorcerous-futures");
    // The paces come in two groups; the hint says what turn-based means.
    const groups = await ada.page.locator("#c-clock optgroup").evaluateAll((gs) => gs.map((g) => g.getAttribute("label")));
    expect(groups).toEqual(["Played in one sitting", "Turn-based: played over days"]);
    await ada.page.selectOption("#c-clock", "turn-1d");
    expect(await ada.page.locator("#c-clock-hint").innerText()).toContain("the game starts by itself once every seat is taken");
    const roomId = await createRoomInPage(ada.page, { seats: 3, ranked: false });
    const waiting = ada.page.getByTestId("starts-itself");
    expect(await waiting.innerText()).toContain("Waiting for 2 more players: the game starts by itself once every seat is taken.");
    expect(await ada.page.getByTestId("start").count()).toBe(0);
    expect(await ada.page.getByTestId("room-clock").innerText()).toContain("A first move must come within 1 day.");
    expect(await axeViolations(ada.page)).toEqual([]);

    // Another player's lobby: the room says how long it waits, not whether its host is here.
    const bo = await newPage(t.browser);
    await enterAccount(bo.page, url, "Bo");
    const row = bo.page.locator(`.open-rooms [data-room="${roomId}"]`);
    await row.waitFor();
    // Listed apart from the rooms played now, under its own heading.
    expect(await bo.page.locator(`[data-testid="open-turn-based"] [data-room="${roomId}"]`).count()).toBe(1);
    expect(await bo.page.locator("#open-days-h").innerText()).toMatch(/^Turn-based, over days\s*1$/);
    expect(await bo.page.locator('.open-rooms [data-testid="open-now"]').count()).toBe(0);
    expect(await bo.page.locator(".open-rooms .empty").innerText()).toBe("No open rooms to play now. Create one and share the link!");
    expect(await axeViolations(bo.page)).toEqual([]);
    expect(await row.getByTestId("room-closes").innerText()).toMatch(/^waits for players (3 days|2 days 23 h) more$/);
    expect(await row.getByTestId("host-presence").count()).toBe(0);
    expect(await row.getByTestId("room-pace").innerText()).toContain("Turn-based, 1 day");
    await row.getByRole("button", { name: /^Join/ }).click();
    await bo.page.locator(".wait-seat.you").waitFor();

    // The last seat taken (by a third player) starts the game on both pages.
    const cy = (await account(url, "Cy")).player as Player;
    await t.bazaar.server.service.join(roomId, cy);
    await ada.page.locator('[data-status="playing"]').waitFor();
    await bo.page.locator('[data-status="playing"]').waitFor();
    // Sorcerous Futures' first step is everyone's: each clock runs with a day less a few seconds.
    const mine = ada.page.locator('[data-testid="clock"].mine').first();
    await mine.waitFor();
    expect(await mine.locator(".clock-time").innerText()).toMatch(/^23:59:\d\d$/);

    // Your games, in the lobby: your turn, and the time left in words.
    await ada.page.goto(`${url}/`);
    const entry = ada.page.locator(`.your-games [data-room="${roomId}"]`);
    await entry.getByTestId("your-turn").waitFor();
    expect(await entry.getByTestId("time-left").innerText()).toMatch(/^(1 day|23 h 59 min) left$/);
    // The lobby's live list leaves turn-based games out (they last days).
    expect(await ada.page.locator(`.live-rooms [data-room="${roomId}"]`).count()).toBe(0);
    expect(await axeViolations(ada.page)).toEqual([]);
  });

  it("the New room form shows each pace and each game option whole on a desktop, for every game: a few words in the field, what it means in the hint under it", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser);
    await enterAccount(page, url, "Clockwatcher");
    await page.locator("#c-game option").first().waitFor({ state: "attached" });
    // The chosen option's text against the room inside the closed field (its paddings and, at its
    // right, about 24 px for the arrow): a longer text is cut off there ("Standard: 30 s a turn +").
    const shown = () =>
      page.evaluate(`(() => {
        const sel = document.querySelector("#c-clock");
        const cs = getComputedStyle(sel);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = cs.font;
        const opt = sel.selectedOptions[0];
        return { text: opt.text, title: opt.title, width: Math.ceil(ctx.measureText(opt.text).width),
          room: sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24 };
      })()`) as Promise<{ text: string; title: string; width: number; room: number }>;
    let seen = 0;
    for (const game of await page.locator("#c-game option").evaluateAll((os) => os.map((o) => o.getAttribute("value")!))) {
      await page.selectOption("#c-game", game);
      const paces = await page.locator("#c-clock option:not([disabled])").evaluateAll((os) => os.map((o) => o.getAttribute("value")!));
      for (const pace of paces) {
        await page.selectOption("#c-clock", pace);
        const s = await shown();
        expect(s.width, `${game}, ${pace}: "${s.text}" takes ${s.width} px of the field's ${s.room}`).toBeLessThanOrEqual(s.room);
        // The pace's whole description (turn, bank, increment) is the option's title and begins the hint.
        if (pace !== "none") expect(await page.locator("#c-clock-hint").innerText()).toContain(s.title);
        seen++;
      }
    }
    expect(seen, "paces checked").toBeGreaterThan(12);

    // The games' own options likewise: each choice's few words fit the closed field, and what the
    // chosen one means is said under it ("Basic: the 6-Item Offering, one A and one B for everyone" was cut off).
    const options = await t.bazaar.server.app.inject({ url: "/api/games" });
    const games = (options.json() as { games: Array<{ id: string; maxPlayers: number; options: Array<{ key: string; label: string; choices: Array<{ label: string; detail?: string }> }> }> }).games;
    let choices = 0;
    for (const g of games) {
      if (g.options.length === 0) continue;
      await page.selectOption("#c-game", g.id);
      await page.selectOption("#c-seats", String(g.maxPlayers));
      for (const o of g.options) {
        const field = page.getByLabel(o.label, { exact: true });
        for (const c of o.choices) {
          await field.selectOption({ label: c.label });
          const s = await page.evaluate(`(() => {
            const sel = document.querySelector('[data-option="${o.key}"]');
            const cs = getComputedStyle(sel);
            const ctx = document.createElement("canvas").getContext("2d");
            ctx.font = cs.font;
            const opt = sel.selectedOptions[0];
            const hint = sel.getAttribute("aria-describedby");
            return { text: opt.text, width: Math.ceil(ctx.measureText(opt.text).width),
              room: sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24,
              hint: hint ? document.getElementById(hint).innerText : null };
          })()`) as { text: string; width: number; room: number; hint: string | null };
          expect(s.width, `${g.id}, ${o.key}: "${s.text}" takes ${s.width} px of the field's ${s.room}`).toBeLessThanOrEqual(s.room);
          expect(s.hint).toBe(c.detail ?? null);
          choices++;
        }
      }
      // Nothing in the form reaches past its right edge (a long option label once widened the
      // labels' column until the Mode switch's "Ranked" was cut off).
      const past = await page.evaluate(`(() => {
        const form = document.querySelector("form.form-grid");
        const right = form.getBoundingClientRect().right + 0.5;
        return [...form.querySelectorAll("label, select, input, button")]
          .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > right)
          .map((e) => e.textContent.trim() || e.id);
      })()`);
      expect(past, `${g.id} with ${g.maxPlayers} players`).toEqual([]);
      // Whom the table is for: nobody can join a solitaire table, so it speaks only of watching.
      expect(await page.getByTestId("private-hint").textContent()).toBe(
        g.maxPlayers === 1 ? "Listed among the live games: anyone may watch." : "Listed in the lobby: anyone may join.",
      );
    }
    expect(choices, "option choices checked").toBeGreaterThanOrEqual(8);
    await context.close();
  });

  it("a player of several games goes from one waiting for them to the next: Next game, straight from a link", async () => {
    const url = t.bazaar.server.url;
    const nia = await newPage(t.browser);
    await enterAccount(nia.page, url, "Nia");
    const player = (await storedIdentity(nia.page))!.player;
    // Two turn-based Sorcerous Futures games with bots, started at once: everyone's first step, so hers in both.
    const first = await t.bazaar.server.service.create(player, { game: "sorcerous-futures", seats: 3, bots: 2, clock: "turn-1d" });
    clock += 60_000;
    const second = await t.bazaar.server.service.create(player, { game: "sorcerous-futures", seats: 3, bots: 2, clock: "turn-3d" });
    expect([first.status, second.status]).toEqual(["playing", "playing"]);
    // Opened straight at the first (as from a notice): the other waits for her.
    await nia.page.goto(`${url}/room/${first.id}`);
    const next = nia.page.getByTestId("next-game");
    await next.waitFor();
    expect(await next.innerText()).toBe("Your turn in 1 other game: Next game →");
    expect(await axeViolations(nia.page)).toEqual([]);
    await next.getByRole("link", { name: "Next game where it is your turn: Sorcerous Futures" }).click();
    await nia.page.waitForURL(`${url}/room/${second.id}`);
    await nia.page.locator(`.room[data-version]`).waitFor();
    expect(await nia.page.getByTestId("next-game").locator("a").getAttribute("href")).toBe(`/room/${first.id}`);
    // Your games puts the turn whose time runs out first at the top, though the other is newer.
    await nia.page.goto(`${url}/`);
    await nia.page.locator(`.your-games [data-room="${second.id}"] [data-testid="your-turn"]`).waitFor();
    expect(await nia.page.locator(".your-games .room-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-room")))).toEqual([first.id, second.id]);
    await nia.page.close();
  });

  it("an invitation to a turn-based room waits in Your games: Decline drops it, Join takes the seat", async () => {
    const url = t.bazaar.server.url;
    const jon = await newPage(t.browser);
    await enterAccount(jon.page, url, "Jon");
    const ivy = await account(url, "Ivy");
    const host = await new TestClient(url, ivy.token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" })).roomId as string;
    expect(await host.call("room:invite", { roomId, name: "Jon" })).toMatchObject({ ok: true, kept: true });
    // Online: the invitation card, and the invitation in Your games.
    const row = jon.page.locator(`[data-testid="kept-invitation"][data-room="${roomId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain("Ivy invites you · Turn-based, 3 days");
    // The section's count counts it (no game yet, one invitation: 1, not 0).
    expect(await jon.page.locator("#mine-h .count").textContent()).toBe("1");
    expect(await axeViolations(jon.page)).toEqual([]);
    const card = jon.page.locator(`[data-testid="invitation-card"][data-room="${roomId}"]`);
    await card.waitFor();
    await row.getByTestId("decline-invitation").click();
    await row.waitFor({ state: "detached" });
    // The card on screen is answered too: it goes with the row.
    await card.waitFor({ state: "detached", timeout: 2000 });
    expect((await t.bazaar.server.service.get(roomId)).invited ?? []).toEqual([]);

    // Asked again (a minute on), while Jon is away: it waits for his next visit.
    clock += 61_000;
    await jon.page.close();
    expect(await host.call("room:invite", { roomId, name: "Jon" })).toMatchObject({ ok: true, kept: true });
    const back = await newPage(t.browser);
    await enterAccount(back.page, url, "Jon");
    const again = back.page.locator(`[data-testid="kept-invitation"][data-room="${roomId}"]`);
    await again.waitFor();
    await again.getByRole("button", { name: "Join Ivy's Goblin Market room" }).click();
    await back.page.waitForURL(new RegExp(`/room/${roomId}$`));
    await back.page.locator(".wait-seat.you").waitFor();
    expect((await t.bazaar.server.service.get(roomId)).invited ?? []).toEqual([]);

    // Ivy offers a rematch of a turn-based game they played: it waits in Jon's Your games as one.
    const jonPlayer = (await storedIdentity(back.page))!.player;
    let old = joinRoom(createRoom("tb-old", ivy.player, { game: "goblin-teeth", seats: 2, clock: "turn-1d" }, clock), jonPlayer, undefined, clock);
    old = startRoom(old, ivy.player, "seed", clock);
    for (let i = 0; i < 5000 && old.status === "playing"; i++) {
      const seat = gameOf(old).activeSeats(gameState(old))[0]!;
      old = actInRoom(old, seat, randomLegalAction(gameOf(old).legalActions(gameState(old), seat), () => 0.3)!, undefined, clock)!;
    }
    const rematch = await t.bazaar.server.service.insert(createRematchRoom("tb-again", old, ivy.player, clock));
    await back.page.goto(`${url}/`);
    const offered = back.page.locator(`[data-testid="kept-invitation"][data-room="${rematch.id}"]`);
    await offered.waitFor();
    expect(await offered.innerText()).toContain("Rematch");
    expect(await offered.innerText()).toContain("Ivy offers a rematch · Turn-based, 1 day");
    expect(await axeViolations(back.page)).toEqual([]);
    await offered.getByRole("button", { name: "Decline Ivy's rematch" }).click();
    await offered.waitFor({ state: "detached" });
    expect((await t.bazaar.server.service.get(rematch.id)).reserved).toEqual([null, null]);
    host.close();
  });
  it("the lobby shows open turn-based rooms ten at a time, those nearest to starting first", async () => {
    const url = t.bazaar.server.url;
    const hosts = await Promise.all(["Hob", "Hal", "Hew", "Hux"].map((n) => account(url, n)));
    const service = t.bazaar.server.service;
    for (const h of hosts) for (let i = 0; i < 3; i++) await service.create(h.player, { game: "goblin-market", seats: 4, clock: "turn-3d" });
    // One with a single seat free: the next join starts it.
    const near = await service.create(hosts[0]!.player, { game: "goblin-market", seats: 3, clock: "turn-1d" });
    await service.join(near.id, (await account(url, "Hana")).player);
    await account(url, "Zed");
    const zed = await newPage(t.browser);
    await enterAccount(zed.page, url, "Zed");
    const list = zed.page.getByTestId("open-turn-based");
    await list.locator(".room-row").first().waitFor();
    const total = Number(await zed.page.locator("#open-days-h .count").innerText());
    expect(total).toBeGreaterThanOrEqual(13);
    expect(await list.locator(".room-row").count()).toBe(10);
    // Rooms with one seat free come first, this one among them.
    const firstFree = await list.locator(".room-row").first().innerText();
    expect(firstFree).toContain("1 free");
    expect(await list.locator(`[data-room="${near.id}"]`).count()).toBe(1);
    const more = zed.page.getByTestId("more-turn-based");
    expect(await more.innerText()).toBe(`Show ${Math.min(10, total - 10)} more (of ${total - 10})`);
    expect(await axeViolations(zed.page)).toEqual([]);
    await more.click();
    await expect.poll(() => list.locator(".room-row").count()).toBe(Math.min(total, 20));
    if (total <= 20) expect(await more.count()).toBe(0);
    await zed.page.close();
    // A guest is offered to register instead of a Join that would be refused.
    const gwen = await newPage(t.browser);
    await enterName(gwen.page, url, "Gwen");
    const row = gwen.page.locator(`[data-testid="open-turn-based"] [data-room="${near.id}"]`);
    await row.waitFor();
    expect(await row.getByRole("button", { name: /^Join/ }).count()).toBe(0);
    await row.getByTestId("join-needs-account").click();
    await gwen.page.getByLabel("Choose a name (unique)").waitFor();
    await gwen.page.close();
  });
  it("the New room form joins a turn-based game waiting for players like the one chosen, else opens one", async () => {
    const url = t.bazaar.server.url;
    const olga = await account(url, "Olga");
    const waiting = await t.bazaar.server.service.create(olga.player, { game: "goblin-teeth", seats: 2, clock: "turn-3d" });
    // Registered beforehand (the browser's registrations from one address are limited): the page logs in.
    await account(url, "Pip");
    const pip = await newPage(t.browser);
    await enterAccount(pip.page, url, "Pip");
    await pip.page.locator("#c-game option").first().waitFor({ state: "attached" });
    await pip.page.selectOption("#c-game", "goblin-teeth");
    await pip.page.selectOption("#c-seats", "2");
    // Only for turn-based paces.
    expect(await pip.page.getByTestId("find-game").count()).toBe(0);
    await pip.page.selectOption("#c-clock", "turn-3d");
    expect(await axeViolations(pip.page)).toEqual([]);
    await pip.page.getByTestId("find-game").click();
    await pip.page.waitForURL(`${url}/room/${waiting.id}`);
    await pip.page.getByText("You joined a game that was waiting for players.").waitFor();
    // Her seat was the last: the game is on.
    await pip.page.locator('[data-status="playing"]').waitFor();
    // Nothing else waits: a room of her own opens.
    await pip.page.goto(`${url}/`);
    await pip.page.locator("#c-game option").first().waitFor({ state: "attached" });
    await pip.page.selectOption("#c-game", "goblin-teeth");
    await pip.page.selectOption("#c-seats", "2");
    await pip.page.selectOption("#c-clock", "turn-3d");
    await pip.page.getByTestId("find-game").click();
    await pip.page.getByText("No game of this kind was waiting: this new room waits for players.").waitFor();
    expect(pip.page.url()).not.toContain(waiting.id);
    await pip.page.getByTestId("starts-itself").waitFor();
    await pip.page.close();
  });
  it("Your games says New messages where the other players wrote since you read the table's chat", async () => {
    const url = t.bazaar.server.url;
    await account(url, "Rue");
    const sam = await account(url, "Sam");
    const rue = await newPage(t.browser);
    await enterAccount(rue.page, url, "Rue");
    const player = (await storedIdentity(rue.page))!.player;
    const room = await t.bazaar.server.service.create(player, { game: "goblin-teeth", seats: 2, clock: "turn-3d" });
    const samPage = await new TestClient(url, sam.token).ready();
    expect((await samPage.call("room:join", { roomId: room.id })).ok).toBe(true);
    expect((await samPage.call("chat:send", { roomId: room.id, text: "Your move, whenever you like." })).ok).toBe(true);
    await rue.page.goto(`${url}/`);
    const badge = rue.page.locator(`.your-games [data-room="${room.id}"] [data-testid="unread-chat"]`);
    await badge.waitFor();
    expect(await badge.innerText()).toBe("New messages");
    expect(await axeViolations(rue.page)).toEqual([]);
    // She opens the table: its chat shows the message, and the mark goes.
    await rue.page.goto(`${url}/room/${room.id}`);
    await rue.page.getByText("Your move, whenever you like.").waitFor();
    await expect.poll(async () => (await t.bazaar.server.service.store.unreadChat(player.id, [room.id])).size, { timeout: 5000 }).toBe(0);
    await rue.page.goto(`${url}/`);
    await rue.page.locator(`.your-games [data-room="${room.id}"]`).waitFor();
    expect(await badge.count()).toBe(0);
    samPage.close();
    await rue.page.close();
  });
});
