/**
 * The Goblin Teeth table says why a choice is missing (client/src/gt-reasons.ts), in a real
 * browser. Ann and two bots start a game; on Ann's turn the room is put in a chosen position
 * (written to the room store, then the page reloaded): Ann holds only Quick Fingers, has a 5 and a
 * 2 unplayed and a 6 on one Item, and a bot has a 5 on another. Quick Fingers has no Play tag and
 * says it can't be played with no other card to discard; with the 5 chosen, the two Items it may
 * not bid on are shown as unavailable, in the controls and on the Pot, one because it would tie
 * the bot's 5 and one because the bid would be 11; the 2 may bid anywhere and nothing is said.
 * The words name players and Items, never seats or codes, and the page still fits a phone. Then a
 * hand of Exchange (no Item in hand), Trade Places (none of Ann's dice placed) and Sleight of Hand
 * (no die on the Altar): each card says what it lacks.
 */
import { describe, expect, it } from "vitest";
import { goblinTeeth } from "../../src/games/goblin-teeth/index.js";
import { position } from "../../src/games/goblin-teeth/fixtures.js";
import type { GoblinTeethState } from "../../src/games/goblin-teeth/state.js";
import { until } from "../support/harness.js";
import { axeViolations, chromiumAvailable, createRoom, DESKTOP, enterName, newPage, PHONE, renderedVersion, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();

describe.skipIf(!available)("Goblin Teeth: why a place or a card is not offered", () => {
  const t = useBrowserBazaar({ botDelayMs: 30 });

  it("a die's forbidden Items and a lone Quick Fingers say why, from what the player can see", async () => {
    const { page, context } = await newPage(t.browser, DESKTOP);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const store = t.bazaar.server.store;
    await enterName(page, t.bazaar.server.url, "Ann");
    const roomId = await createRoom(page, { game: "goblin-teeth", seats: 3, ranked: false, bots: 2 });
    await page.getByTestId("start").click();
    await page.getByTestId("gt-table").waitFor();

    // Ann's turn (the bots play theirs first if they go first), then the chosen position.
    const room = await until(async () => {
      const r = (await store.get(roomId))!;
      return goblinTeeth.activeSeats(r.state as GoblinTeethState).includes(0) ? r : undefined;
    }, "Ann's turn");
    expect(room.seats[0]!.name).toBe("Ann");
    const state = position({
      players: 3,
      dice: [[5, 2, 6], [5, 3, 3], [4, 4, 1]],
      at: [["supply", "supply", 2], [1, "supply", "supply"], ["supply", "supply", "supply"]],
      pot: ["item-tooth-1", "item-emerald-1", "item-worms-1"],
      hands: [["cheat-quick-fingers"], ["item-bone-1"], ["cheat-swap"]],
      turn: 0,
    });
    expect((await store.compareAndSetOrGet({ ...room, state, version: room.version + 1, updatedAt: Date.now() }, room.version)).ok).toBe(true);
    await page.reload();
    await until(async () => ((await renderedVersion(page)) > room.version ? true : undefined), "the chosen position on the page");
    await page.locator('[data-testid="act-panel"][aria-busy="false"]').waitFor();
    const bot = room.seats[1]!.name!;

    // Quick Fingers alone: no Play tag, and why.
    expect(await page.getByTestId("gt-play").count()).toBe(0);
    const qf = page.locator('[data-testid="gt-not-playable"][data-choice="cheat-quick-fingers"]');
    expect(await qf.locator(".gt-hand-why").textContent()).toBe("Can't play now: you have no other card in your hand to discard.");

    // The 5: the Items it would tie on or take over 10 are unavailable, with why; the face-down Item and the Altar are offered.
    await page.locator('[data-testid="gt-die-choice"][data-die="0"]').click();
    await page.getByTestId("gt-dest").first().waitFor();
    const dests = await page.getByTestId("gt-dest").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-type")}:${e.getAttribute("data-slot") ?? ""}`));
    expect(dests).toContain("place:0");
    expect(dests.filter((d) => d === "place:1" || d === "place:2")).toEqual([]);
    const blocked = await page.getByTestId("gt-dest-blocked").evaluateAll((els) => els.map((e) => [e.getAttribute("data-slot"), e.textContent]));
    expect(blocked).toEqual([
      ["1", `Your 5 can't bid on the Fancy Emerald: it would tie ${bot}'s 5.`],
      ["2", "Your 5 can't bid on the Yummy Worms: your bid would be 11, over 10."],
    ]);
    const onPot = await page.getByTestId("gt-slot").evaluateAll((els) => els.map((e) => e.querySelector('[data-testid="gt-slot-blocked"]')?.textContent ?? ""));
    expect(onPot).toEqual(["", `Your 5 can't bid here: it would tie ${bot}'s 5.`, "Your 5 can't bid here: your bid would be 11, over 10."]);
    for (const [, text] of blocked) expect(text).not.toMatch(/seat|BID_|\bslot\b/i);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "fits a phone").toBe(true);
    await page.setViewportSize(DESKTOP);

    // The 2 may bid on every Item: nothing is unavailable.
    await page.locator('[data-testid="gt-die-choice"][data-die="1"]').click();
    await page.locator('[data-testid="gt-dest"][data-slot="1"]').waitFor();
    expect(await page.getByTestId("gt-dest-blocked").count()).toBe(0);
    expect(await page.getByTestId("gt-slot-blocked").count()).toBe(0);

    // A hand of cards the table keeps out for what the card needs: each says what is missing, and
    // the longer reasons still fit under their cards on a phone.
    const now = (await store.get(roomId))!;
    const needs = position({
      players: 3,
      dice: [[5, 2, 6], [5, 3, 3], [4, 4, 1]],
      at: [["supply", "supply", "supply"], [1, "supply", "supply"], ["supply", "supply", "supply"]],
      pot: ["item-tooth-1", "item-emerald-1", "item-worms-1"],
      hands: [["cheat-exchange", "cheat-trade-places", "cheat-sleight-of-hand"], ["item-bone-1"], ["cheat-swap"]],
      turn: 0,
    });
    expect((await store.compareAndSetOrGet({ ...now, state: needs, version: now.version + 1, updatedAt: Date.now() }, now.version)).ok).toBe(true);
    await page.reload();
    await until(async () => ((await renderedVersion(page)) > now.version ? true : undefined), "the second position on the page");
    await page.locator('[data-testid="act-panel"][aria-busy="false"]').waitFor();
    const why = () => page.getByTestId("gt-not-playable").evaluateAll((els) => els.map((e) => [e.getAttribute("data-choice"), e.querySelector(".gt-hand-why")?.textContent]));
    expect(await why()).toEqual([
      ["cheat-exchange", "Can't play now: you have no Item in your hand to exchange."],
      ["cheat-trade-places", "Can't play now: none of your dice is placed."],
      ["cheat-sleight-of-hand", "Can't play now: no die is on the Altar."],
    ]);
    expect(await page.getByTestId("gt-play").count()).toBe(0);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "fits a phone").toBe(true);
    if (process.env.SHOT) await page.getByTestId("gt-hand-cards").screenshot({ path: "scratch/gt-reasons-hand-phone.png" });
    await page.setViewportSize(DESKTOP);

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
