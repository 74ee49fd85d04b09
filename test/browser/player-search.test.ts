/**
 * Finding a player in the browser (client/src/player-search.ts): the Leaderboards page's "Find a
 * player" lists the accounts whose name starts with what is typed, as links to their profiles;
 * Enter opens the exact name; and the waiting room's invite field suggests names, but not those
 * one blocks.
 */
import { describe, expect, it } from "vitest";
import { account, call } from "../support/accounts.js";
import { axeViolations, chromiumAvailable, createRoom, DESKTOP, enterAccount, newPage, PHONE, storedIdentity, useBrowserBazaar } from "./support.js";

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
    await found.getByText("Type at least 2 letters to list names, or press Enter to open the player named “a”.").waitFor();
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

  it("the top bar finds a player from any page, on a phone too: the menu opens with the field focused, and closes on a profile opened, Escape or a click outside", async () => {
    const url = t.bazaar.server.url;
    for (const n of ["Bartholomew", "Barnaby"]) await account(url, n);
    for (const size of ["desktop", "phone"] as const) {
      const { context, page } = await newPage(t.browser, size === "phone" ? PHONE : DESKTOP);
      await enterAccount(page, url, `Finder${size}`);
      const menu = page.getByTestId("find-menu");
      expect(await page.locator("#find-player-top").isVisible()).toBe(false);
      await menu.locator("summary").click();
      await expect.poll(() => page.evaluate<string | undefined>("document.activeElement?.id")).toBe("find-player-top");
      // The whole menu is in the window, on a phone too.
      const box = (await page.locator(".find-menu-body").boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual((size === "phone" ? PHONE : DESKTOP).width);
      await page.keyboard.type("bar");
      const found = page.getByTestId("find-player-top-found");
      await found.getByRole("link", { name: "Barnaby" }).waitFor();
      expect(await found.locator("a").allTextContents()).toEqual(["Barnaby", "Bartholomew"]);
      if (size === "desktop") expect(await axeViolations(page), "the lobby with the top bar's search open passes axe").toEqual([]);
      if (process.env.SHOT) await page.screenshot({ path: `scratch/find-menu-${size}.png` });
      await found.getByRole("link", { name: "Bartholomew" }).click();
      await page.waitForURL(`${url}/player/Bartholomew`);
      expect(await page.locator("details.find-menu").evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
      // Escape closes it and gives the focus back; so does a click outside.
      await menu.locator("summary").click();
      await page.locator("#find-player-top").waitFor();
      await page.keyboard.press("Escape");
      expect(await page.locator("details.find-menu").evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
      await menu.locator("summary").click();
      await page.locator("main").click({ position: { x: 5, y: 300 } });
      expect(await page.locator("details.find-menu").evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
      // Enter on an exact name opens it from another page, pressed at once (before typing pauses
      // and while the names found for "bar" still show).
      await menu.locator("summary").click();
      await page.locator("#find-player-top").fill("barnaby");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${url}/player/Barnaby`);
      await context.close();
    }
  });
});
