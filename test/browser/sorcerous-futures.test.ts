/**
 * The Sorcerous Futures table in a real browser (playwright-core driving Debian's chromium).
 *
 * 1. One player and three server bots play a whole game through the UI: the setup exchange
 *    and confirmation, picks, bids (one typed from the keyboard) and passes; the player reloads
 *    in the middle of an auction and carries on. A spectator on a phone-sized page watches
 *    throughout. Every version either page renders is recorded in the page and checked against
 *    the server's room at that version: the spectator never shows a card it may not know (any
 *    seat's valuation, an unseen face-down card, the deck) and has no controls; the player never
 *    shows another seat's valuation; money, holdings, the Excuse, the auction and the
 *    unaccounted panel are exactly the server's. The end screen reveals every valuation with
 *    each seat's sale.
 * 2. A three-game match (three players, two bots, the player at phone width): the finished
 *    game's results stay on the table during the next game, bankrolls carry over, and the end
 *    shows every game and the bankrolls.
 * 3. The end's tables on a phone: one wider than the screen (the revealed valuations) says so, with
 *    a line above it and a shade at each edge with more of it past that edge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { card } from "../../src/games/decktet/cards.js";
import { sorcerousFutures } from "../../src/games/sorcerous-futures/index.js";
import type { SorcerousFuturesState } from "../../src/games/sorcerous-futures/state.js";
import { view as sfView } from "../../src/games/sorcerous-futures/view.js";
import type { Seat } from "../../src/games/types.js";
import { randomLegalAction } from "../../src/games/legal.js";
import type { Player } from "../../src/platform/identity.js";
import { gameOf, gameState, type Room } from "../../src/platform/room.js";
import { guest, lcg, until } from "../support/harness.js";
import { secretsFor } from "../support/secrets.js";
import {
  CHROMIUM,
  chromiumAvailable,
  createRoom,
  DESKTOP,
  enterName,
  launchChromium,
  newPage,
  PHONE,
  renderedVersion,
  splitWords,
  startBazaar,
  type Bazaar,
} from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

const SUITS = ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"] as const;

/** What a page drew for one room version (recorded in the page by RECORDER). */
interface Snapshot {
  v: number;
  /** Game of the match the table shows. */
  game: number;
  /** data-card of every card drawn, outside the unaccounted panel and earlier games' records. */
  cards: string[];
  /** Text and text alternatives (aria-label, title) of the same part of the page. */
  text: string;
  /** Game controls on the page. */
  controls: number;
  /** Cards in the private panel's valuations/hand. */
  mine: string[] | null;
  unaccounted: Record<string, string[]> | null;
  excuse: number | null;
  auction: { number: number; moves: number; card: string | null } | null;
  seats: Array<{ seat: number; money: string; holdings: string[] }>;
}

/**
 * Evaluated in a page: after every render of a new room version, record what the table shows.
 * Left out of `cards`/`text`: the unaccounted panel (it names every card the viewer cannot
 * place, by design never where it is; checked separately against the view) and what belongs to
 * earlier games of a match (their results are public, and the same cards are dealt again).
 */
const RECORDER = `(() => {
  if (window.__sf) return;
  const snaps = [];
  window.__sf = snaps;
  let last = -1;
  const ids = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.getAttribute("data-card"));
  const snap = () => {
    const room = document.querySelector(".room[data-version]");
    const table = room && room.querySelector(".sf-table");
    if (!room || !table) return;
    const v = Number(room.getAttribute("data-version"));
    if (v === last) return;
    last = v;
    const game = Number(table.getAttribute("data-game"));
    const unaccPanel = room.querySelector('[data-testid="sf-unaccounted"]');
    const unaccounted = unaccPanel ? Object.fromEntries([...unaccPanel.querySelectorAll("[data-suit]")].map((e) => [e.getAttribute("data-suit"), ids(e, "[data-card]")])) : null;
    const clone = room.cloneNode(true);
    clone.querySelectorAll('[data-testid="sf-unaccounted"]').forEach((e) => e.remove());
    clone.querySelectorAll("[data-game]").forEach((e) => { if (Number(e.getAttribute("data-game")) < game) e.remove(); });
    const attrs = [...clone.querySelectorAll("[aria-label], [title]")].map((e) => (e.getAttribute("aria-label") || "") + " | " + (e.getAttribute("title") || ""));
    const mineEl = room.querySelector('[data-testid="sf-valuations"]');
    const ex = room.querySelector('[data-testid="sf-excuse-holder"]');
    const au = room.querySelector(".sf-auction");
    snaps.push({
      v, game,
      cards: ids(clone, "[data-card]"),
      text: clone.textContent + " || " + attrs.join(" || "),
      controls: room.querySelectorAll('[data-testid="act-panel"], #bid-amount, [data-testid="bid"], [data-testid="pass"], [data-testid="card-choice"], [data-testid="exchange"], [data-testid="give"], [data-testid="confirm"], [data-testid="reveal"]').length,
      mine: mineEl ? ids(mineEl, "[data-card]") : null,
      unaccounted,
      excuse: ex && ex.hasAttribute("data-seat") ? Number(ex.getAttribute("data-seat")) : null,
      auction: au ? { number: Number(au.getAttribute("data-auction")), moves: Number(au.getAttribute("data-moves")), card: au.querySelector('[data-testid="sf-lot"] [data-card]')?.getAttribute("data-card") ?? null } : null,
      seats: [...room.querySelectorAll(".seats .seat[data-seat]")].map((e) => ({
        seat: Number(e.getAttribute("data-seat")),
        money: e.querySelector('[data-testid="sf-money"]')?.textContent.trim() ?? "",
        holdings: ids(e, '[data-testid="sf-holdings"] [data-card]'),
      })),
    });
  };
  new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  snap();
})()`;

async function takeSnapshots(page: Page): Promise<Snapshot[]> {
  return page.evaluate("(() => (window.__sf ? window.__sf.splice(0) : []))()") as Promise<Snapshot[]>;
}

const sorted = (xs: readonly string[]) => [...xs].sort();

/**
 * Check what a page drew at each version against the server's room at that version: nothing the
 * viewer may not know, no controls for a spectator, and the public facts exactly as they are.
 * Returns how many snapshots were checked.
 */
function checkSnapshots(snaps: Snapshot[], history: Map<number, Room>, viewer: Seat | null, label: string): number {
  let checked = 0;
  for (const snap of snaps) {
    const room = history.get(snap.v);
    expect(room, `${label}: the server had version ${snap.v}`).toBeDefined();
    if (!room || room.status !== "playing") continue;
    const st = room.state as SorcerousFuturesState;
    const at = `${label} at v${snap.v}`;
    const hidden = secretsFor(room, viewer).filter((x) => x.startsWith('"')).map((x) => JSON.parse(x) as string);
    const shown = new Set(snap.cards);
    expect(hidden.filter((id) => shown.has(id)), `${at}: hidden cards drawn`).toEqual([]);
    expect(hidden.filter((id) => snap.text.includes(card(id).name)), `${at}: hidden cards named`).toEqual([]);
    expect(snap.text.includes(room.seed!), `${at}: the seed`).toBe(false);
    expect(snap.game).toBe(st.matchGame);
    if (viewer === null) expect(snap.controls, `${at}: spectator controls`).toBe(0);
    else if (st.phase === "setup" && !st.confirmed[viewer]) expect(sorted(snap.mine ?? []), `${at}: your hand`).toEqual(sorted(st.valuations[viewer]!));
    else if (st.phase !== "over") expect(sorted(snap.mine ?? []), `${at}: your valuations`).toEqual(sorted(st.valuations[viewer]!));
    // The unaccounted panel draws exactly the view's lists for this viewer.
    const v = sfView(st, viewer === null ? { kind: "spectator" } : { kind: "seat", seat: viewer });
    for (const su of SUITS) expect(sorted(snap.unaccounted?.[su] ?? []), `${at}: unaccounted ${su}`).toEqual(sorted(v.unaccounted[su]));
    // Public facts: money, holdings, the Excuse, the auction.
    expect(snap.seats.map((x) => x.money), `${at}: money`).toEqual(st.money.map((m) => `$${m}`));
    expect(snap.seats.map((x) => x.holdings), `${at}: holdings`).toEqual(st.holdings);
    if (st.phase === "pick" || st.phase === "bidding") expect(snap.excuse, `${at}: the Excuse`).toBe(st.excuse);
    expect(snap.auction, `${at}: the auction`).toEqual(st.auction ? { number: st.auction.number, moves: st.auction.moves.length, card: st.auction.card } : null);
    checked++;
  }
  return checked;
}

/**
 * The cue that a table goes on past its box (scroll-table.ts), for the table scrolling in the box
 * labelled `label`: how far it reaches past the box, the line above it if one shows, and whether
 * the shade at its left and right edges shows.
 */
async function scrollCue(page: Page, label: string): Promise<{ past: number; hint: string | null; left: boolean; right: boolean }> {
  return page.evaluate(`(() => {
    const box = document.querySelector('.table-scroll[aria-label=${JSON.stringify(label)}]');
    const frame = box.parentElement;
    const hint = frame.previousElementSibling;
    const shade = (side) => getComputedStyle(frame, side).content !== "none" && getComputedStyle(frame, side).opacity === "1";
    return { past: box.scrollWidth - box.clientWidth, hint: hint && hint.classList.contains("scroll-hint") && hint.checkVisibility() ? hint.textContent.trim() : null,
      left: shade("::before"), right: shade("::after") };
  })()`) as Promise<{ past: number; hint: string | null; left: boolean; right: boolean }>;
}

/** The page has no horizontal scrolling (phone width). */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1") as Promise<boolean>;
}

describe.skipIf(!available)("Sorcerous Futures table in chromium", () => {
  let bazaar: Bazaar;
  let browser: Browser;
  /** Every version of every room, as the server wrote it. */
  const history = new Map<string, Map<number, Room>>();
  const roomHistory = (roomId: string) => history.get(roomId) ?? new Map<number, Room>();

  beforeAll(async () => {
    [bazaar, browser] = await Promise.all([startBazaar({ botDelayMs: 30 }), launchChromium()]);
    bazaar.server.service.onChange((_prev, next) => {
      if (!history.has(next.id)) history.set(next.id, new Map());
      history.get(next.id)!.set(next.version, next);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bazaar?.close();
  });

  /** The room now, and the player's page rendering at least that version. */
  async function current(page: Page, roomId: string): Promise<Room> {
    const room = (await bazaar.server.store.get(roomId))!;
    await until(async () => (await renderedVersion(page)) >= room.version, `the page to render v${room.version}`);
    return room;
  }

  async function landed(roomId: string, after: number): Promise<void> {
    await until(async () => ((await bazaar.server.store.get(roomId))!.version > after ? true : undefined), "the move to land", 10_000);
  }

  it("one player and three bots play a whole game through the UI; a reload mid-auction; a spectator never sees a valuation", async () => {
    const t0 = Date.now();
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const ann = await newPage(browser, DESKTOP);
    const spec = await newPage(browser, PHONE);

    await enterName(ann.page, url, "Ann");
    const roomId = await createRoom(ann.page, { game: "sorcerous-futures", seats: 4, ranked: false, bots: 3 });
    await spec.page.goto(`${url}/room/${roomId}`);
    await spec.page.getByRole("button", { name: "Just watch games" }).click();
    await spec.page.getByTestId("spectating").waitFor();
    await ann.page.getByTestId("start").click();

    for (const p of [ann.page, spec.page]) {
      await p.locator(".sf-table").waitFor();
      await p.evaluate(RECORDER);
    }
    const seat = (await store.get(roomId))!.seats.findIndex((x) => x.name === "Ann");
    expect(seat).toBe(0);

    // ---- Setup: the private hand, one exchange, the others' payments, confirm.
    let room = await current(ann.page, roomId);
    let st = room.state as SorcerousFuturesState;
    const priv = ann.page.getByTestId("sf-private");
    expect(await priv.textContent()).toContain("Only you can see these");
    expect(sorted(await priv.getByTestId("sf-valuations").locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!)))).toEqual(sorted(st.valuations[seat]!));
    expect(await priv.getByTestId("sf-facedown").locator("[data-card]").count(), "face-down cards are unseen").toBe(0);
    expect(await spec.page.getByTestId("sf-private").count()).toBe(0);
    expect(await fitsWidth(spec.page), "spectator page fits a phone in setup").toBe(true);

    const give = st.valuations[seat]![1]!;
    const take = st.faceDown[seat]![0]!;
    await priv.locator(`[data-testid="give"][data-choice="${give}"]`).click();
    await expect.poll(() => priv.locator(`[data-testid="give"][data-choice="${give}"]`).getAttribute("aria-pressed")).toBe("true");
    await priv.locator('[data-testid="exchange"][data-slot="0"]').click();
    await until(() => [...roomHistory(roomId).values()].some((r) => (r.state as SorcerousFuturesState | null)?.paid[seat] === 3) || undefined, "the exchange");
    room = await current(ann.page, roomId);
    st = room.state as SorcerousFuturesState;
    expect(st.valuations[seat]).toContain(take);
    expect(st.faceDown[seat]![0]).toBe(give);
    // The card taken is now in hand; the one given is face down and still known to its owner.
    await expect.poll(async () => sorted(await priv.getByTestId("sf-valuations").locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!)))).toEqual(sorted(st.valuations[seat]!));
    expect(await priv.locator(`[data-testid="sf-facedown"] [data-slot="0"] [data-card="${give}"]`).count()).toBe(1);
    // Everyone sees what each player paid and who has confirmed (at the version each page shows).
    // Read in one go with the version drawn (bots keep exchanging meanwhile: the page may draw a
    // newer version between two separate reads).
    for (const p of [ann.page, spec.page]) {
      const shown = (await p.evaluate(`(() => ({
        v: Number(document.querySelector(".room[data-version]")?.getAttribute("data-version") ?? -1),
        rows: [...document.querySelectorAll('[data-testid="sf-setup-progress"] .sf-setup-row')].map((r) => ({
          paid: r.querySelector('[data-testid="sf-paid"]')?.textContent ?? null,
          confirmed: r.querySelector('[data-testid="sf-confirmed"]')?.getAttribute("data-confirmed") ?? null,
        })),
      }))()`)) as { v: number; rows: Array<{ paid: string | null; confirmed: string | null }> };
      const at = roomHistory(roomId).get(shown.v)!.state as SorcerousFuturesState;
      if (at.phase !== "setup") continue;
      expect(shown.rows).toEqual(
        at.paid.map((paid, i) => ({ paid: paid > 0 ? `paid $${paid} for exchanges` : "no exchanges yet", confirmed: at.confirmed[i] ? "yes" : "no" })),
      );
    }
    expect(await spec.page.getByTestId("sf-setup-progress").locator('.sf-setup-row[data-seat="0"] [data-testid="sf-paid"]').textContent()).toBe("paid $3 for exchanges");
    await priv.getByTestId("confirm").click();
    await until(async () => ((await store.get(roomId))!.state as SorcerousFuturesState).confirmed[seat] || undefined, "Ann's confirmation");

    // ---- The auctions, played through the UI.
    let moves = 0;
    let reloaded = false;
    let keyboardBid = false;
    let picks = 0;
    for (;;) {
      room = (await store.get(roomId))!;
      if (room.status === "finished") break;
      st = room.state as SorcerousFuturesState;
      if (!sorcerousFutures.activeSeats(st).includes(seat)) {
        await landed(roomId, room.version);
        continue;
      }
      room = await current(ann.page, roomId);
      st = room.state as SorcerousFuturesState;
      const legal = sorcerousFutures.legalActions(st, seat);
      const panel = ann.page.locator('[data-testid="act-panel"][aria-busy="false"]');
      await panel.waitFor();

      if (st.phase === "pick") {
        const choices = panel.getByTestId("card-choice");
        expect(sorted(await choices.evaluateAll((els) => els.map((e) => e.getAttribute("data-choice")!)))).toEqual(sorted(st.market));
        expect(await ann.page.getByTestId("sf-excuse-holder").getAttribute("data-seat")).toBe(String(seat));
        await choices.nth(picks++ % st.market.length).click();
      } else if (st.phase === "bidding") {
        const a = st.auction!;
        if (!reloaded && a.moves.length >= 1 && a.number >= 3) {
          // Reload in the middle of the auction: same seat, same auction, same bounds; carry on.
          reloaded = true;
          await ann.page.reload();
          await ann.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
          await until(async () => (await renderedVersion(ann.page)) >= room.version, "Ann's view after the reload");
          await ann.page.evaluate(RECORDER);
          const au = ann.page.locator(".sf-auction");
          expect(await au.getAttribute("data-auction")).toBe(String(a.number));
          expect(await au.getAttribute("data-moves")).toBe(String(a.moves.length));
          expect(await au.getByTestId("sf-lot").locator("[data-card]").getAttribute("data-card")).toBe(a.card);
          await panel.waitFor();
        }
        const bid = legal.find((l) => l.type === "bid");
        const form = ann.page.locator("#bid-amount");
        const range = bid ? (bid.params!.amount as { kind: "int"; min: number; max: number }) : null;
        if (range) {
          // The controls offer exactly the legal amounts.
          expect(await form.getAttribute("min")).toBe(String(range.min));
          expect(await form.getAttribute("max")).toBe(String(range.max));
          expect(await form.inputValue()).toBe(String(range.min));
        } else {
          expect(await form.count()).toBe(0);
        }
        const money = st.money[seat]!;
        const wantBid = range && (a.moves.length <= 1 || a.number % 4 === 0) && money > 30 && moves % 3 !== 2;
        if (range && wantBid && !keyboardBid && range.max >= range.min + 2) {
          // From the keyboard: focus the amount, raise it twice with the arrow key, Enter.
          keyboardBid = true;
          const min = range.min;
          await form.focus();
          await ann.page.keyboard.press("ArrowUp");
          await ann.page.keyboard.press("ArrowUp");
          await expect.poll(() => ann.page.getByTestId("bid").textContent()).toContain(`$${min + 2}`);
          await ann.page.keyboard.press("Enter");
          await until(() => [...roomHistory(roomId).values()].some((r) => r.log.some((e) => e.type === "bid" && e.seat === seat && e.amount === min + 2)) || undefined, "the keyboard bid");
        } else if (range && keyboardBid && st.holdings[seat]!.length === 0) {
          // The bots bid what lots are worth to them (src/games/sorcerous-futures/bot.ts): until
          // Ann owns something, she bids all she may, typed into the amount, so the end has a sale.
          await form.fill(String(range.max));
          await expect.poll(() => ann.page.getByTestId("bid").textContent()).toContain(`$${range.max}`);
          await ann.page.getByTestId("bid").click();
        } else if (range && wantBid) {
          if (range.max > range.min) await ann.page.getByRole("button", { name: "One dollar more" }).click();
          await ann.page.getByTestId("bid").click();
        } else {
          await ann.page.getByTestId("pass").click();
        }
      }
      moves++;
      await landed(roomId, room.version);
      expect(moves).toBeLessThan(200);
    }
    expect(reloaded, "reloaded mid-auction").toBe(true);
    expect(keyboardBid, "bid from the keyboard").toBe(true);
    const final = room;
    const fst = final.state as SorcerousFuturesState;
    expect(fst.holdings[seat]!.length, "Ann bought something").toBeGreaterThan(0);

    // ---- The end: every valuation revealed, each seat's sale broken down.
    for (const p of [ann.page, spec.page]) {
      const end = p.getByTestId("end-screen");
      await end.waitFor();
      expect(await end.getByTestId("result-row").count()).toBe(4);
      expect(await end.getByTestId("seed").textContent()).toBe(final.seed);
      const result = fst.results[0]!;
      const revealed = p.getByTestId("sf-result").getByTestId("sf-revealed-valuations");
      expect(await revealed.count()).toBe(4);
      for (let i = 0; i < 4; i++) {
        expect(sorted(await revealed.nth(i).locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!)))).toEqual(sorted(result.valuations[i]!));
      }
      const sales = p.getByTestId("sf-sale");
      expect(await sales.count()).toBe(4);
      for (let i = 0; i < 4; i++) {
        const sale = result.sales[i]!;
        expect(await sales.nth(i).getByTestId("sf-sale-total").textContent()).toBe(`$${sale.total}`);
        expect(await sales.nth(i).locator(".sf-items tbody tr").count()).toBe(sale.perItem.length);
        expect(await sales.nth(i).textContent()).toContain(`Face value $${sale.faceValue}`);
      }
      const values = p.getByTestId("sf-suit-values").locator("li");
      expect(await values.count()).toBe(6);
      for (const sv of result.suitValues) {
        expect(await p.getByTestId("sf-suit-values").locator(`li[data-suit="${sv.suit}"] .sf-sv-value`).textContent()).toBe(`$${sv.value}`);
      }
    }
    const places = (final.outcome as { places: number[] }).places;
    expect(await ann.page.locator(".end-you").textContent()).toContain(["1st", "2nd", "3rd", "4th"][places[seat]! - 1]!);
    expect(await fitsWidth(spec.page), "spectator end screen fits a phone").toBe(true);

    // ---- Every version each page rendered, checked against the server.
    const versions = roomHistory(roomId);
    const specSnaps = await takeSnapshots(spec.page);
    const annSnaps = await takeSnapshots(ann.page);
    const specChecked = checkSnapshots(specSnaps, versions, null, "spectator");
    const annChecked = checkSnapshots(annSnaps, versions, seat, "Ann");
    const playing = [...versions.values()].filter((r) => r.status === "playing").length;
    expect(specChecked, `spectator renders checked of ${playing} versions`).toBeGreaterThan(playing * 0.6);
    expect(annChecked).toBeGreaterThan(playing * 0.4);
    expect(specSnaps.filter((x) => x.auction).length, "the spectator saw auctions").toBeGreaterThan(20);
    expect(specSnaps.some((x) => x.text.includes("Only you can see these"))).toBe(false);
    console.log(`[browser] Sorcerous Futures: ${moves} moves by Ann, ${specChecked}/${playing} spectator renders checked, ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    for (const p of [ann, spec]) await p.context.close();
  }, 180_000);

  it("the end's tables on a phone: one wider than the screen says so (a line above it, a shade at each edge with more past it), one that fits does not", async () => {
    const url = bazaar.server.url;
    const service = bazaar.server.service;
    const players: Player[] = [];
    for (const name of ["Morgana", "Vivienne", "Gwendolyn"]) players.push((await guest(url, name)).player as Player);
    let room = await service.createMatchRoom(players, { game: "sorcerous-futures", seats: 3, clock: "none", ranked: false });
    const random = lcg(5);
    while (room.status === "playing") {
      const seat = gameOf(room).activeSeats(gameState(room))[0]!;
      room = (await service.act(room.id, players[seat]!, randomLegalAction(gameOf(room).legalActions(gameState(room), seat), random)!)).room;
    }
    const watch = async (size: typeof PHONE) => {
      const made = await newPage(browser, size);
      await made.page.goto(`${url}/room/${room.id}`);
      await made.page.getByRole("button", { name: "Just watch games" }).click();
      await made.page.getByTestId("sf-results").waitFor();
      return made;
    };
    const phone = await watch(PHONE);
    const page = phone.page;
    // The revealed valuations (four columns of cards and money) are wider than a phone: the line
    // above says to scroll sideways, and the right edge is shaded, the last column being past it.
    const vals = "Valuations revealed";
    await expect.poll(async () => (await scrollCue(page, vals)).right).toBe(true);
    let cue = await scrollCue(page, vals);
    expect(cue.past, "the valuations reach past the phone's screen").toBeGreaterThan(20);
    expect(cue).toEqual({ past: cue.past, hint: "Scroll sideways to see the whole table ↔", left: false, right: true });
    // A table that scrolls need not squeeze its names: none breaks inside a word ("Morgan" / "a").
    expect(await splitWords(page, ".table-scroll .results th[scope=row]", "a player's name")).toEqual([]);
    if (process.env.SHOT) await page.locator("table.sf-vals").screenshot({ path: "scratch/sf-vals-phone.png" });
    // Scrolled across to its end: the shade moves to the left edge.
    await page.locator(`.table-scroll[aria-label="${vals}"]`).evaluate((box) => void ((box as unknown as { scrollLeft: number }).scrollLeft = 10_000));
    await expect.poll(async () => (await scrollCue(page, vals)).left).toBe(true);
    cue = await scrollCue(page, vals);
    expect([cue.left, cue.right, cue.hint !== null]).toEqual([true, false, true]);
    // The results table fits the phone: no line, no shade.
    expect(await scrollCue(page, "Results")).toEqual({ past: 0, hint: null, left: false, right: false });
    expect(await fitsWidth(page), "the phone's page fits").toBe(true);
    await phone.context.close();

    // On a desktop every table fits: no cue at all.
    const desk = await watch(DESKTOP);
    await desk.page.getByTestId("end-screen").waitFor();
    expect(await scrollCue(desk.page, vals)).toEqual({ past: 0, hint: null, left: false, right: false });
    expect(await desk.page.locator(".scroll-hint").evaluateAll((els) => els.filter((e) => (e as unknown as { checkVisibility(): boolean }).checkVisibility()).length)).toBe(0);
    await desk.context.close();
  });

  it("a three-game match at phone width: finished games stay on the table, bankrolls carry over, the end shows every game", async () => {
    const t0 = Date.now();
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const bea = await newPage(browser, PHONE);
    const spec = await newPage(browser, DESKTOP);
    await enterName(bea.page, url, "Bea");
    // The match is chosen in the lobby form (the game's options as the server lists them); the
    // fifth player's extra cards are offered only for five players.
    await bea.page.getByRole("heading", { name: "New room" }).waitFor();
    await bea.page.selectOption("#c-game", "sorcerous-futures");
    await bea.page.selectOption("#c-seats", "5");
    await bea.page.getByLabel("Deck", { exact: true }).waitFor();
    await bea.page.selectOption("#c-seats", "3");
    expect(await bea.page.getByLabel("Deck", { exact: true }).count()).toBe(0);
    await bea.page.getByLabel("Length").selectOption({ label: "Three-game match" });
    const roomId = await createRoom(bea.page, { game: "sorcerous-futures", seats: 3, ranked: false, bots: 2 });
    expect((await store.get(roomId))!.options).toEqual({ match: 3 });
    await spec.page.goto(`${url}/room/${roomId}`);
    await spec.page.getByRole("button", { name: "Just watch games" }).click();
    await spec.page.getByTestId("spectating").waitFor();
    await bea.page.getByTestId("start").click();
    for (const p of [bea.page, spec.page]) {
      await p.locator(".sf-table").waitFor();
      await p.evaluate(RECORDER);
    }
    const seat = 0;
    expect((await store.get(roomId))!.seats[seat]!.name).toBe("Bea");

    let moves = 0;
    const between = new Set<number>();
    for (;;) {
      const now = (await store.get(roomId))!;
      if (now.status === "finished") break;
      if (!sorcerousFutures.activeSeats(now.state as SorcerousFuturesState).includes(seat)) {
        await landed(roomId, now.version);
        continue;
      }
      const room = await current(bea.page, roomId);
      const st = room.state as SorcerousFuturesState;
      const panel = bea.page.locator('[data-testid="act-panel"][aria-busy="false"]');
      await panel.waitFor();
      if (st.phase === "setup" && st.matchGame > 1 && !between.has(st.matchGame)) {
        // A new game of the match: the last one's results are on the table, bankrolls carried over.
        between.add(st.matchGame);
        const last = st.results[st.results.length - 1]!;
        const results = bea.page.getByTestId("sf-results");
        expect(await results.getByTestId("sf-result").count()).toBe(st.results.length);
        const shown = results.locator(`[data-testid="sf-result"][data-game="${last.game}"]`);
        const revealed = shown.getByTestId("sf-revealed-valuations");
        for (let i = 0; i < 3; i++) {
          expect(sorted(await revealed.nth(i).locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!)))).toEqual(sorted(last.valuations[i]!));
        }
        expect(sorted(await revealed.nth(3).locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!))), "the three-player extras").toEqual(sorted(last.extraValuations));
        // Set-aside cards stay hidden until the match is over (Bea confirmed without exchanging, so
        // she never saw her own either): no card in that column, "2 hidden" in every row.
        const valRows = shown.locator("table.sf-vals tbody tr");
        expect(await valRows.count()).toBe(4);
        for (let i = 0; i < 4; i++) {
          const setAside = valRows.nth(i).locator("td").nth(1);
          expect(await setAside.locator("[data-card]").count(), `row ${i}'s set-aside cards`).toBe(0);
          expect(await setAside.getByTestId("sf-set-aside-hidden").textContent()).toContain("2 hidden until the match ends");
        }
        const bank = results.getByTestId("sf-bankrolls");
        for (let i = 0; i < 3; i++) expect(await bank.locator("tbody tr").nth(i).textContent()).toContain(`$${last.moneyAfter[i]}`);
        expect(await bea.page.getByTestId("status").textContent()).toContain(`Game ${st.matchGame} of 3`);
        const start = bea.page.locator(`.sf-log[data-game="${st.matchGame}"]`).first();
        expect(await start.textContent()).toContain(`Game ${st.matchGame} of 3 begins`);
        expect(await start.textContent()).toContain("bankrolls carried over");
        expect(await start.textContent()).toContain(`Bea $${last.moneyAfter[seat]}`);
        expect(await fitsWidth(bea.page), "phone page fits between games").toBe(true);
      }
      if (st.phase === "setup") {
        await panel.getByTestId("confirm").click();
      } else if (st.phase === "pick") {
        await panel.getByTestId("card-choice").first().click();
      } else {
        const a = st.auction!;
        const bid = bea.page.getByTestId("bid");
        if (a.moves.length === 0 && (await bid.count()) > 0 && st.money[seat]! > 10) await bid.click();
        else await bea.page.getByTestId("pass").click();
      }
      moves++;
      await landed(roomId, room.version);
      if (moves === 25) expect(await fitsWidth(bea.page), "phone page fits mid-game").toBe(true);
      expect(moves).toBeLessThan(300);
    }
    expect([...between].sort()).toEqual([2, 3]);

    const final = (await store.get(roomId))!;
    const fst = final.state as SorcerousFuturesState;
    expect(fst.results).toHaveLength(3);
    for (const p of [bea.page, spec.page]) {
      await p.getByTestId("end-screen").waitFor();
      const results = p.getByTestId("sf-results");
      expect(await results.getByTestId("sf-result").count()).toBe(3);
      expect(await results.getByTestId("sf-sale").count()).toBe(9);
      for (const r of fst.results) {
        const sales = results.locator(`[data-testid="sf-result"][data-game="${r.game}"] [data-testid="sf-sale-total"]`);
        expect(await sales.allTextContents()).toEqual(r.sales.map((x) => `$${x.total}`));
      }
      // Game 2 started from game 1's money: the bankroll table's columns chain.
      const rows = results.getByTestId("sf-bankrolls").locator("tbody tr");
      for (let i = 0; i < 3; i++) {
        const cells = await rows.nth(i).locator("td b").allTextContents();
        expect(cells).toEqual(fst.results.map((r) => `$${r.moneyAfter[i]}`));
      }
      expect(await p.getByTestId("end-screen").getByTestId("result-row").count()).toBe(3);
      // The match is over: every game's set-aside cards are shown (as the replay shows them).
      for (const r of fst.results) {
        const valRows = results.locator(`[data-testid="sf-result"][data-game="${r.game}"] table.sf-vals tbody tr`);
        for (let i = 0; i < 4; i++) {
          const cards = await valRows.nth(i).locator("td").nth(1).locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!));
          expect(sorted(cards), `game ${r.game} row ${i}`).toEqual(sorted(i < 3 ? r.faceDown[i]! : r.extraSetAside));
        }
      }
    }
    expect(fst.results[1]!.moneyBefore[seat]! <= fst.results[0]!.moneyAfter[seat]!).toBe(true);
    expect(await fitsWidth(bea.page), "phone end screen fits").toBe(true);

    const versions = roomHistory(roomId);
    const playing = [...versions.values()].filter((r) => r.status === "playing").length;
    const specChecked = checkSnapshots(await takeSnapshots(spec.page), versions, null, "spectator");
    const beaChecked = checkSnapshots(await takeSnapshots(bea.page), versions, seat, "Bea");
    expect(specChecked).toBeGreaterThan(playing * 0.6);
    expect(beaChecked).toBeGreaterThan(playing * 0.4);
    console.log(`[browser] Sorcerous Futures match: ${moves} moves by Bea, ${specChecked}/${playing} spectator renders checked, ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    for (const p of [bea, spec]) await p.context.close();
  }, 240_000);
});
