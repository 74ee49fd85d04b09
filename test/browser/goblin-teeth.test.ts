/**
 * The Goblin Teeth table in a real browser (playwright-core driving Debian's chromium).
 *
 * One player and two server bots play whole games through the UI: the player picks among the
 * controls the page offers (its dice, then a place for the chosen die; Cheat cards, then each of
 * their choices step by step; every decision), with a seeded choice so a run is reproducible up
 * to the server's secret seed. Games are played until the player has played at least one Cheat
 * card through the UI (at most three games). The controls are checked against the engine's legal
 * actions on the player's turns; Escape closes a half-made move; the player reloads in the middle
 * of a round and carries on. A spectator on a phone-sized page watches throughout: every version
 * either page renders is recorded in the page and checked against the server's room at that
 * version (no card of another hand, no unknown face-down Item, nothing of the decks; no private
 * log entry; no controls for the spectator; dice, bids, hand sizes and the player's own hand
 * exactly the server's). The end screen and the reveal are checked against the server's outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ITEMS } from "../../src/games/goblin-teeth/data.js";
import { slotTotals } from "../../src/games/goblin-teeth/dice.js";
import { goblinTeeth } from "../../src/games/goblin-teeth/index.js";
import type { GoblinTeethState } from "../../src/games/goblin-teeth/state.js";
import { view as gtView } from "../../src/games/goblin-teeth/view.js";
import type { LegalAction, Seat } from "../../src/games/types.js";
import type { Room } from "../../src/platform/room.js";
import { lcg, until } from "../support/harness.js";
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
  playGoblinTeethMove,
  renderedVersion,
  startBazaar,
  type Bazaar,
} from "./support.js";

const available = chromiumAvailable();
if (!available) {
  console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.\n`);
}

const ITEM_NAMES = [...new Set(ITEMS.map((c) => c.name))];
/** Card-id-like tokens in a text (ids are `item-<type>-<k>` and `cheat-<id>`). */
const ID_TOKENS = /(?:item|cheat)-[a-z0-9-]*[a-z0-9]/g;

/** What a page drew for one room version (recorded in the page by RECORDER). */
interface Snapshot {
  v: number;
  phase: string;
  /** Card-id-like tokens anywhere in the room's HTML outside the event log. */
  ids: string[];
  /** data-card of every card drawn in the event log, and its private entries. */
  logCards: string[];
  logPrivate: number;
  controls: number;
  /** Cards in your hand (null: no hand panel). */
  hand: string[] | null;
  dice: Array<{ id: number; value: number; at: string }>;
  slots: Array<{ slot: number; faceDown: string; known: string; text: string; bids: Array<{ seat: number; total: number; high: boolean }> }>;
  handCounts: number[];
  waiting: string | null;
  status: string;
}

const RECORDER = `(() => {
  if (window.__gt) return;
  const snaps = [];
  window.__gt = snaps;
  let last = -1;
  const ids = (root) => [...root.querySelectorAll("[data-card]")].map((e) => e.getAttribute("data-card"));
  const snap = () => {
    const room = document.querySelector(".room[data-version]");
    const table = room && room.querySelector('[data-testid="gt-table"]');
    if (!room || !table) return;
    const v = Number(room.getAttribute("data-version"));
    if (v === last) return;
    last = v;
    const clone = room.cloneNode(true);
    const logEl = clone.querySelector(".log");
    const logCards = logEl ? ids(logEl) : [];
    const logPrivate = logEl ? logEl.querySelectorAll(".log-private").length : 0;
    if (logEl) logEl.remove();
    const hand = room.querySelector('[data-testid="gt-hand-cards"]');
    const status = room.querySelector('[data-testid="status"]');
    snaps.push({
      v,
      phase: table.getAttribute("data-phase"),
      ids: [...new Set(clone.innerHTML.match(${ID_TOKENS}) || [])],
      logCards,
      logPrivate,
      controls: room.querySelectorAll('[data-testid="act-panel"], [data-testid="gt-die-choice"], [data-testid="gt-dest"], [data-testid="gt-play"], [data-testid="gt-option"], [data-testid="gt-confirm"], [data-testid="gt-decision"], [data-testid="gt-poison"]').length,
      hand: hand ? ids(hand) : null,
      dice: [...room.querySelectorAll('[data-testid="gt-die"]')].map((e) => ({ id: Number(e.dataset.die), value: Number(e.dataset.value), at: e.dataset.at })),
      slots: [...room.querySelectorAll('[data-testid="gt-slot"]')].map((sl) => ({
        slot: Number(sl.dataset.slot), faceDown: sl.dataset.faceDown, known: sl.dataset.known,
        text: (sl.querySelector(".gt-slot-card")?.textContent || "") + " " + (sl.querySelector(".gt-slot-name")?.textContent || "") + " " + [...sl.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label")).join(" "),
        bids: [...sl.querySelectorAll('[data-testid="gt-bid"]')].map((b) => ({ seat: Number(b.dataset.seat), total: Number(b.dataset.total), high: b.dataset.high === "yes" })),
      })),
      handCounts: [...room.querySelectorAll(".gt-seats .seat[data-seat]")].map((e) => Number(e.querySelector('[data-testid="gt-hand-count"]')?.getAttribute("data-count"))),
      waiting: status ? status.getAttribute("data-waiting") : null,
      status: status ? status.textContent : "",
    });
  };
  new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  snap();
})()`;

async function takeSnapshots(page: Page): Promise<Snapshot[]> {
  return page.evaluate("(() => (window.__gt ? window.__gt.splice(0) : []))()") as Promise<Snapshot[]>;
}

const sorted = <T>(xs: readonly T[]) => [...xs].sort();

/**
 * Check what a page drew at each version against the server's room at that version. Returns how
 * many snapshots were checked (versions of a running game).
 */
function checkSnapshots(snaps: Snapshot[], history: Map<number, Room>, viewer: Seat | null, label: string): number {
  let checked = 0;
  for (const snap of snaps) {
    const room = history.get(snap.v);
    expect(room, `${label}: the server had version ${snap.v}`).toBeDefined();
    if (!room || room.status !== "playing") continue;
    const st = room.state as GoblinTeethState;
    const at = `${label} at v${snap.v}`;
    // Nothing the viewer may not know: no hidden card id anywhere outside the log.
    const hidden = new Set(secretsFor(room, viewer).filter((x) => x.startsWith('"')).map((x) => JSON.parse(x) as string));
    expect(snap.ids.filter((id) => hidden.has(id)), `${at}: hidden cards on the page`).toEqual([]);
    // The log shows only cards named by entries this viewer receives.
    const visible = room.log.filter((e) => e.to === undefined || (viewer !== null && e.to.includes(viewer)));
    const named = new Set(JSON.stringify(visible).match(ID_TOKENS) ?? []);
    expect(snap.logCards.filter((id) => !named.has(id)), `${at}: log cards not in the viewer's log`).toEqual([]);
    if (viewer === null) {
      expect(snap.logPrivate, `${at}: private log entries for a spectator`).toBe(0);
      expect(snap.controls, `${at}: spectator controls`).toBe(0);
      expect(snap.hand, `${at}: a spectator has no hand`).toBeNull();
    } else {
      expect(sorted(snap.hand ?? []), `${at}: your hand`).toEqual(sorted(st.hands[viewer]!));
    }
    // The face-down Item: named only to a viewer who knows it.
    const v = gtView(st, viewer === null ? { kind: "spectator" } : { kind: "seat", seat: viewer });
    for (const sl of snap.slots) {
      const p = v.pot[sl.slot]!;
      expect(sl.faceDown, `${at}: slot ${sl.slot} face down`).toBe(p.faceDown ? "yes" : "no");
      if (p.faceDown) {
        expect(sl.known, `${at}: face-down Item known`).toBe(p.item ? "yes" : "no");
        if (!p.item) expect(ITEM_NAMES.filter((n) => sl.text.includes(n)), `${at}: the face-down Item named`).toEqual([]);
        else expect(sl.text).toContain(p.item.name);
      }
    }
    // Public facts: dice, bids and the high bidder, hand sizes, whose decision it is.
    expect(
      [...snap.dice].sort((a, b) => a.id - b.id),
      `${at}: dice`,
    ).toEqual(st.dice.map((d, id) => ({ id, value: d.value, at: String(d.at) })));
    expect(snap.slots.map((sl) => sl.slot), `${at}: pot slots`).toEqual(st.pot.map((_, i) => i));
    for (const sl of snap.slots) {
      const totals = slotTotals(st.dice, sl.slot, st.players);
      const best = Math.max(...totals);
      const want = totals.flatMap((total, seat) => (total > 0 ? [{ seat, total, high: total === best }] : []));
      expect(sl.bids, `${at}: bids on slot ${sl.slot}`).toEqual(want);
    }
    expect(snap.handCounts, `${at}: hand sizes`).toEqual(st.hands.map((h) => h.length));
    const waiting = st.pending[0]?.seat ?? st.turn;
    expect(snap.waiting, `${at}: whose move`).toBe(waiting === null ? null : String(waiting));
    // The status line says whose move or decision it is (or that it is yours).
    if (waiting !== null && waiting === viewer) expect(snap.status, `${at}: status speaks to you`).toMatch(/\byou/i);
    if (waiting !== null && waiting !== viewer) expect(snap.status, `${at}: status names the player`).toContain(room.seats[waiting]!.name!);
    checked++;
  }
  return checked;
}

/** The page has no horizontal scrolling (phone width). */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1") as Promise<boolean>;
}

const optionValues = (ls: LegalAction[], param: string) =>
  sorted([...new Set(ls.flatMap((l) => (l.params?.[param]?.kind === "choice" ? (l.params[param] as { options: Array<string | number> }).options : []).map(String)))]);

async function attrs(page: Page, selector: string, attr: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els, a) => els.map((e) => e.getAttribute(a as string) ?? ""), attr);
}

describe.skipIf(!available)("Goblin Teeth table in chromium", () => {
  let bazaar: Bazaar;
  let browser: Browser;
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

  async function current(page: Page, roomId: string): Promise<Room> {
    const room = (await bazaar.server.store.get(roomId))!;
    await until(async () => (await renderedVersion(page)) >= room.version, `the page to render v${room.version}`);
    return room;
  }

  async function landed(roomId: string, after: number): Promise<void> {
    await until(async () => ((await bazaar.server.store.get(roomId))!.version > after ? true : undefined), "the move to land", 10_000);
  }

  it("one player and two bots play through the UI (a Cheat card, a reload mid-round); a spectator never sees a hidden card", async () => {
    const t0 = Date.now();
    const url = bazaar.server.url;
    const store = bazaar.server.store;
    const ann = await newPage(browser, DESKTOP);
    const spec = await newPage(browser, PHONE);
    const errors: string[] = [];
    for (const p of [ann.page, spec.page]) p.on("pageerror", (e) => errors.push(e.message));
    await enterName(ann.page, url, "Ann");
    const random = lcg(20261201);

    let reloaded = false;
    let escapeDie = false;
    let escapeComposer = false;
    let controlsChecked = 0;
    let annCheats = 0;
    let games = 0;
    let totalMoves = 0;
    const specChecks: number[] = [];
    for (; games < 3 && annCheats === 0; games++) {
      if (games > 0) await ann.page.goto(`${url}/`);
      const roomId = await createRoom(ann.page, { game: "goblin-teeth", seats: 3, ranked: false, bots: 2 });
      await spec.page.goto(`${url}/room/${roomId}`);
      if (games === 0) await spec.page.getByRole("button", { name: "Just watch games" }).click();
      await spec.page.getByTestId("spectating").waitFor();
      await ann.page.getByTestId("start").click();
      for (const p of [ann.page, spec.page]) {
        await p.getByTestId("gt-table").waitFor();
        await p.evaluate(RECORDER);
      }
      const seat = (await store.get(roomId))!.seats.findIndex((x) => x.name === "Ann");
      expect(seat).toBe(0);
      const annSnaps: Snapshot[] = [];
      let moves = 0;
      for (;;) {
        let room = (await store.get(roomId))!;
        if (room.status === "finished") break;
        let st = room.state as GoblinTeethState;
        if (!goblinTeeth.activeSeats(st).includes(seat)) {
          await landed(roomId, room.version);
          continue;
        }
        room = await current(ann.page, roomId);
        st = room.state as GoblinTeethState;
        const panel = ann.page.locator('[data-testid="act-panel"][aria-busy="false"]');
        await panel.waitFor();

        if (!reloaded && st.round >= 2 && st.phase === "turn" && st.pending.length === 0 && st.dice.some((d) => d.at !== "supply")) {
          // Reload in the middle of a round: same seat, same table, same controls; carry on.
          reloaded = true;
          annSnaps.push(...(await takeSnapshots(ann.page)));
          await ann.page.reload();
          await ann.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
          await until(async () => (await renderedVersion(ann.page)) >= room.version, "Ann's view after the reload");
          await ann.page.evaluate(RECORDER);
          await panel.waitFor();
          expect(await ann.page.locator('[data-testid="act-panel"]').getAttribute("data-pending")).toBe("turn");
          expect(sorted(await attrs(ann.page, '[data-testid="gt-hand-cards"] [data-card]', "data-card"))).toEqual(sorted(st.hands[seat]!));
          const bids = await attrs(ann.page, '[data-testid="gt-bid"]', "data-total");
          expect(bids.map(Number).sort()).toEqual(st.pot.flatMap((_, slot) => slotTotals(st.dice, slot, st.players).filter((x) => x > 0)).sort());
          // The player's own table at phone width, a die chosen and its places listed: no sideways scrolling.
          await ann.page.setViewportSize(PHONE);
          await ann.page.getByTestId("gt-die-choice").first().click();
          await ann.page.getByTestId("gt-dest").first().waitFor();
          expect(await fitsWidth(ann.page), "the player's page fits a phone").toBe(true);
          await ann.page.getByTestId("gt-cancel").click();
          await ann.page.setViewportSize(DESKTOP);
        }

        // The controls offer exactly what the engine allows (on the player's own turns).
        const legal = goblinTeeth.legalActions(st, seat);
        if (st.pending.length === 0 && st.phase === "turn") {
          const places = legal.filter((l) => ["place", "altar", "altar-draw", "altar-clear"].includes(l.type));
          expect(sorted(await attrs(ann.page, '[data-testid="gt-die-choice"]', "data-die")), "die choices").toEqual(optionValues(places, "die"));
          expect(sorted(await attrs(ann.page, '[data-testid="gt-play"]', "data-choice")), "playable cards").toEqual(optionValues(legal.filter((l) => l.type === "cheat"), "card"));
          const die = Number((await attrs(ann.page, '[data-testid="gt-die-choice"]', "data-die"))[0]);
          await ann.page.locator(`[data-testid="gt-die-choice"][data-die="${die}"]`).click();
          const dests = await ann.page.getByTestId("gt-dest").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-type")}:${e.getAttribute("data-slot") ?? e.getAttribute("data-target") ?? ""}`));
          const want = places.flatMap((l) => {
            if (!optionValues([l], "die").includes(String(die))) return [];
            if (l.type === "place") return optionValues([l], "slot").map((x) => `place:${x}`);
            if (l.type === "altar-clear") return optionValues([l], "target").map((x) => `altar-clear:${x}`);
            return [`${l.type}:`];
          });
          expect(sorted(dests), "places for the chosen die").toEqual(sorted(want));
          if (!escapeDie) {
            // Escape changes your mind: the chosen die's places go away.
            escapeDie = true;
            await ann.page.keyboard.press("Escape");
            await expect.poll(() => ann.page.getByTestId("gt-dest").count()).toBe(0);
          } else {
            await ann.page.getByTestId("gt-cancel").click();
          }
          const play = ann.page.getByTestId("gt-play").first();
          if (!escapeComposer && (await play.count()) > 0) {
            // From the keyboard: choose a Cheat card (Enter), its first choices appear; Escape closes it.
            escapeComposer = true;
            // Focus and Enter on the button as drawn now (a push may redraw the hand between a
            // separate focus and key press on a busy machine, and the key then lands nowhere).
            await play.press("Enter");
            await ann.page.getByTestId("gt-composer").waitFor();
            await ann.page.keyboard.press("Escape");
            await expect.poll(() => ann.page.getByTestId("gt-composer").count()).toBe(0);
          }
          controlsChecked++;
        }

        const what = await playGoblinTeethMove(ann.page, random);
        moves++;
        await landed(roomId, room.version);
        if (what.startsWith("cheat")) {
          // The card played is the one chosen, by Ann, through the UI.
          const after = (await store.get(roomId))!;
          const played = after.log.slice(room.log.length).find((e) => e.type === "cheat" && e.seat === seat);
          expect(played?.card, `the played card (${what})`).toBe(what.slice("cheat ".length));
          annCheats++;
        }
        if (moves === 12) expect(await fitsWidth(spec.page), "spectator page fits a phone mid-game").toBe(true);
        expect(moves).toBeLessThan(400);
      }
      totalMoves += moves;

      // ---- The end: places, scores, every hand revealed, as the server says.
      const final = (await store.get(roomId))!;
      const fst = final.state as GoblinTeethState;
      const outcome = final.outcome as { scores: number[]; places: number[] };
      for (const p of [ann.page, spec.page]) {
        const end = p.getByTestId("end-screen");
        await end.waitFor();
        expect(await end.getByTestId("seed").textContent()).toBe(final.seed);
        const rows = end.getByTestId("result-row");
        expect(await rows.count()).toBe(3);
        for (let i = 0; i < 3; i++) {
          const text = (await rows.nth(i).textContent()) ?? "";
          const s = final.seats.findIndex((x) => text.includes(x.name!));
          expect(s, `row ${i} names a seat`).toBeGreaterThanOrEqual(0);
          // Goblin Teeth has no points: the outcome's scores only order the places, and the row says
          // what the seat achieved instead (no "301" for an Offering and a tooth).
          expect(await rows.nth(i).locator(".big-score").count()).toBe(0);
          const detail = (await rows.nth(i).getByTestId("gt-end-detail").textContent())!;
          expect(detail).toMatch(fst.result!.completed[s] ? /^completed .+ · \d+ (tooth|teeth)$/ : /^no Offering completed · \d+ (tooth|teeth)$/);
          expect(detail).toContain(`${fst.result!.teeth[s]} `);
          expect(text).toContain(["1st", "2nd", "3rd"][outcome.places[s]! - 1]!);
        }
        const reveal = p.getByTestId("gt-reveal-seat");
        expect(await reveal.count()).toBe(3);
        for (let s = 0; s < 3; s++) {
          const box = p.locator(`[data-testid="gt-reveal-seat"][data-seat="${s}"]`);
          expect(sorted(await box.getByTestId("gt-reveal-hand").locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")!)))).toEqual(sorted(fst.result!.hands[s]!));
          expect(await box.getByTestId("gt-reveal-score").count()).toBe(0);
        }
      }
      expect(await ann.page.locator(".end-you").textContent()).toContain(["1st", "2nd", "3rd"][outcome.places[seat]! - 1]!);
      expect(await fitsWidth(spec.page), "spectator end screen fits a phone").toBe(true);

      // ---- Every version each page rendered, checked against the server.
      const versions = roomHistory(roomId);
      annSnaps.push(...(await takeSnapshots(ann.page)));
      const specSnaps = await takeSnapshots(spec.page);
      const playing = [...versions.values()].filter((r) => r.status === "playing").length;
      const specChecked = checkSnapshots(specSnaps, versions, null, `spectator (game ${games + 1})`);
      const annChecked = checkSnapshots(annSnaps, versions, seat, `Ann (game ${games + 1})`);
      expect(specChecked, `spectator renders checked of ${playing} versions`).toBeGreaterThan(playing * 0.5);
      expect(annChecked).toBeGreaterThan(playing * 0.3);
      // The checks see what they look for: the spectator's log names public cards, Ann's page her
      // own hand; and Ann's page checked as if it were a spectator's is caught showing her hand.
      expect(specSnaps.some((x) => x.logCards.length > 0 && x.dice.length === 9)).toBe(true);
      expect(annSnaps.some((x) => x.ids.length > 0 && (x.hand?.length ?? 0) > 0)).toBe(true);
      expect(() => checkSnapshots(annSnaps, versions, null, "Ann as a spectator")).toThrow();
      specChecks.push(specChecked);
      console.log(`[browser] Goblin Teeth game ${games + 1}: ${moves} moves by Ann, ${final.log.filter((e) => e.type === "cheat" && e.seat === seat).length} cheats by Ann, round ${fst.round}, ${specChecked}/${playing} spectator renders checked`);
    }
    expect(annCheats, "Ann played a Cheat card through the UI").toBeGreaterThan(0);
    expect(reloaded, "reloaded mid-round").toBe(true);
    expect(controlsChecked).toBeGreaterThan(3);
    expect(escapeDie && escapeComposer, "Escape closed a chosen die and a Cheat card being composed").toBe(true);
    expect(errors, "page errors").toEqual([]);
    console.log(`[browser] Goblin Teeth: ${games} game(s), ${totalMoves} moves by Ann, ${annCheats} cheats through the UI, ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    for (const p of [ann, spec]) await p.context.close();
  }, 300_000);
});
