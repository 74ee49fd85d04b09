/**
 * A ranked room's rating range in a real browser: the host (rated 1650 in Goblin Market) chooses
 * "Within 200 of my rating" in the New room form; the lobby of another player shows the room's
 * "Ratings 1450–1850", and a player rated 1900 who presses Join is told why not, in the server's
 * words, while one rated 1800 sits. The host also keeps it for players who finish their games: a
 * player in range who left his one ranked game is refused, in the server's words. The form with
 * the choices passes axe.
 */
import { describe, expect, it } from "vitest";
import { RATING_SCALE } from "../../src/protocol/rating-display.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("rating ranges, in the browser", () => {
  const t = useBrowserBazaar();

  it("the host limits a ranked room to players near their rating; the lobby shows it and a join outside it is refused", async () => {
    const url = t.bazaar.server.url;
    const db = t.bazaar.db;
    const rate = async (playerId: string, name: string, shown: number) => {
      await db.prisma.player.upsert({ where: { id: playerId }, create: { id: playerId, name, lastSeenAt: new Date() }, update: {} });
      const mu = 25 + (shown - 1500) / RATING_SCALE;
      await db.prisma.rating.create({ data: { playerId, gameType: "goblin-market", mu, sigma: 3, ordinal: mu - 9, games: 30 } });
    };
    const pages = await Promise.all([0, 1, 2, 3].map(async () => (await newPage(t.browser)).page));
    const [host, far, near, leaver] = pages as [typeof pages[0], typeof pages[0], typeof pages[0], typeof pages[0]];
    for (const [p, name, shown] of [[host, "RangeHana", 1650], [far, "RangeFaro", 1900], [near, "RangeNell", 1800], [leaver, "RangeLeif", 1700]] as const) {
      await enterAccount(p, url, name);
      await rate((await storedIdentity(p))!.player.id, name, shown);
    }
    // Leif never moved in his one ranked game, so it was called off: he left 1 of 1.
    const leif = (await storedIdentity(leaver))!.player.id;
    await db.prisma.leave.create({ data: { roomId: "called-off", playerId: leif, gameType: "goblin-market", kind: "no-show", at: new Date(Date.now() - 30 * 86_400_000) } });

    await host.getByRole("heading", { name: "New room" }).waitFor();
    await host.locator("#c-game option").first().waitFor({ state: "attached" });
    await host.getByLabel("Ranked", { exact: true }).check();
    await host.selectOption("#c-range", "200");
    expect(await host.locator("#c-range-hint").textContent()).toBe("Only players rated within 200 points of your rating in this game now may sit.");
    // And only players who finish their games.
    await host.getByTestId("reliable-only").check();
    expect(await host.locator("#c-reliable-hint").textContent()).toBe("Players who left more than 1 in 10 of their latest ranked games (ran out of time for good, or never moved) may not sit.");
    expect(await axeViolations(host), "the New room form with the range passes axe").toEqual([]);
    await host.getByRole("button", { name: "Create room" }).click();
    await host.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(host.url()).pathname.split("/").pop()!;

    const row = far.locator(`.open-rooms [data-room="${roomId}"]`);
    await row.waitFor();
    expect(await row.getByTestId("room-range").textContent()).toBe("Ratings 1450–1850");
    expect(await row.getByTestId("room-reliable").textContent()).toBe("Players who finish their games");
    await row.getByRole("button", { name: /^Join/ }).click();
    await far.getByTestId("toast").filter({ hasText: "This table is for players rated 1450–1850 in Goblin Market; your rating there is 1900." }).waitFor();
    expect((await t.bazaar.server.store.get(roomId))!.seats.filter((s) => s.playerId !== null)).toHaveLength(1);

    const leifRow = leaver.locator(`.open-rooms [data-room="${roomId}"]`);
    await leifRow.getByRole("button", { name: /^Join/ }).click();
    await leaver.getByTestId("toast").filter({ hasText: "This table is for players who play their games out (who left at most 1 in 10 of their latest ranked games); you left 1 of your one ranked game." }).waitFor();
    expect((await t.bazaar.server.store.get(roomId))!.seats.filter((s) => s.playerId !== null)).toHaveLength(1);

    const nearRow = near.locator(`.open-rooms [data-room="${roomId}"]`);
    await nearRow.getByRole("button", { name: /^Join/ }).click();
    await near.waitForURL(new RegExp(`/room/${roomId}$`));
    await expect.poll(async () => (await t.bazaar.server.store.get(roomId))!.seats.filter((s) => s.playerId !== null).length).toBe(2);
  });
});
