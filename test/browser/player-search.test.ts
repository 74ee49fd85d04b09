/**
 * Finding a player in the browser (client/src/player-search.ts): the Leaderboards page's "Find a
 * player" lists the accounts whose name starts with what is typed, as links to their profiles;
 * Enter opens the exact name; and the waiting room's invite field suggests names, but not those
 * one blocks.
 */
import { describe, expect, it } from "vitest";
import { account, call } from "../support/accounts.js";
import { axeViolations, chromiumAvailable, createRoom, enterAccount, newPage, storedIdentity, useBrowserBazaar } from "./support.js";

describe.skipIf(!chromiumAvailable())("finding a player, in the browser", () => {
  const t = useBrowserBazaar();

  it("lists the names that start with what is typed, opens a profile, and suggests names to invite", async () => {
    const url = t.bazaar.server.url;
    for (const n of ["Adalind", "Ada", "Adam"]) await account(url, n);
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "Seeker");
    await page.goto(`${url}/leaderboards`);
    const box = page.locator("#find-player");
    await box.waitFor();
    const found = page.getByTestId("find-player-found");
    await box.fill("a");
    await found.getByText("Type at least 2 letters.").waitFor();
    await box.fill("ad");
    await found.locator("a").first().waitFor();
    expect(await found.locator("a").allTextContents()).toEqual(["Ada", "Adam", "Adalind"]);
    expect(await axeViolations(page), "the Leaderboards page with names found passes axe").toEqual([]);
    if (process.env.SHOT) await page.screenshot({ path: "scratch/find-player.png" });
    // Enter with several names and none exactly what is typed: the first name takes the focus.
    await box.press("Enter");
    await expect.poll(() => page.evaluate<string | undefined>("document.activeElement?.textContent")).toBe("Ada");
    await box.fill("zz");
    await found.getByText("No player's name starts with “zz”.").waitFor();

    // A link opens the profile; Enter on an exact name too.
    await box.fill("adal");
    await found.getByRole("link", { name: "Adalind" }).click();
    await page.waitForURL(`${url}/player/Adalind`);
    await page.goto(`${url}/leaderboards`);
    await box.fill("ADA");
    await found.getByRole("link", { name: "Adam" }).waitFor();
    await box.press("Enter");
    await page.waitForURL(`${url}/player/Ada`);

    // The waiting room's invite field suggests names as they are typed, but not those one blocks.
    expect((await call(url, "POST", "/api/block", (await storedIdentity(page))!.token, { name: "Adam" })).status).toBe(200);
    await page.goto(`${url}/`);
    await createRoom(page, { seats: 3, ranked: false });
    await page.locator("#invite-name").fill("ada");
    await expect.poll(() => page.locator("#invite-name-names option").evaluateAll((os) => os.map((o) => o.getAttribute("value")))).toEqual(["Ada", "Adalind"]);
  });
});
