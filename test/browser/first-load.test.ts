/**
 * Each game's table code is its own chunk (client/src/games.ts), so a first visit to the lobby
 * loads none of them: a page fetches a game's table when it first shows that game (a room, a
 * replay), and only that game's, or ahead of time for the games its player sits in. When the chunk cannot be fetched, the page says so and offers a
 * reload instead of an empty table.
 */
import { describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import type { Player } from "../../src/platform/identity.js";
import { guest } from "../support/harness.js";
import { CHROMIUM, chromiumAvailable, createRoom, enterName, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

/** The table chunks by game, as the build names them (`<module>-<hash>.js`). */
const TABLES: Record<string, RegExp> = {
  "goblin-market": /\/assets\/gm-[\w-]+\.js$/,
  "sorcerous-futures": /\/assets\/sf-[\w-]+\.js$/,
  aucteraden: /\/assets\/auct-[\w-]+\.js$/,
  "goblin-teeth": /\/assets\/gt-[\w-]+\.js$/,
};

/** Which games' table chunks the page has fetched so far. */
function tablesFetched(page: Page): () => string[] {
  const urls: string[] = [];
  page.on("request", (r: Request) => urls.push(r.url()));
  return () => Object.keys(TABLES).filter((game) => urls.some((u) => TABLES[game]!.test(u)));
}

describe.skipIf(!available)("first load: game tables load when a page needs them", () => {
  const t = useBrowserBazaar({ botDelayMs: 30 });

  it("the lobby loads no table; a Goblin Market room loads Goblin Market's only", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser);
    const fetched = tablesFetched(page);
    // The page runs the production builds of its dependencies, though the client was built under
    // the test runner (NODE_ENV=test): no development build's warnings (Lit's "dev mode").
    const logged: string[] = [];
    page.on("console", (m) => logged.push(m.text()));
    await enterName(page, url, "Early");
    await page.getByTestId("daily-panel").waitFor();
    expect(fetched()).toEqual([]);
    await createRoom(page, { seats: 3, ranked: false, bots: 2 });
    await page.getByTestId("start").click();
    await page.locator(".auction").waitFor();
    expect(fetched()).toEqual(["goblin-market"]);
    // The announcer reads the game's own status line (from the same chunk).
    await expect.poll(() => page.getByTestId("announcer").textContent()).toMatch(/auction|bid/i);
    expect(logged.filter((m) => /dev mode|development build/i.test(m))).toEqual([]);
    await context.close();
  }, 60_000);

  it("fetches ahead the tables of the games a player sits in (Your games), and no other", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser);
    const fetched = tablesFetched(page);
    await enterName(page, url, "Seated");
    const me = (await storedIdentity(page))!.player;
    const other = (await guest(url, "Other")).player as Player;
    await t.bazaar.server.service.createMatchRoom([me, other], { game: "goblin-teeth", seats: 2, clock: "none", ranked: false });
    await page.reload();
    await page.locator('[data-testid="your-games"] [data-room]').waitFor();
    await expect.poll(fetched).toEqual(["goblin-teeth"]);
    await context.close();
  }, 60_000);

  it("says the table could not be loaded, with a Reload button, when its chunk does not arrive", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser);
    await enterName(page, url, "Offline");
    await page.route(TABLES["goblin-market"]!, (route) => route.abort("internetdisconnected"));
    await createRoom(page, { seats: 3, ranked: false, bots: 2 });
    await page.getByTestId("start").click();
    await page.getByTestId("table-failed").waitFor();
    expect(await page.getByTestId("table-failed").getByRole("button", { name: "Reload" }).count()).toBe(1);
    await page.unroute(TABLES["goblin-market"]!);
    await page.getByTestId("table-failed").getByRole("button", { name: "Reload" }).click();
    await page.locator(".auction").waitFor();
    await context.close();
  }, 60_000);
});
