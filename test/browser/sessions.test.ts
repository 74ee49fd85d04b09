/**
 * "Where you're logged in…" in the account menu (client/src/sessions.ts), in a real browser: an
 * account logged in on two devices is told of the second login on the first, sees both, this
 * browser marked and named from its User-Agent,
 * logs the other out from the list, and the other device is logged out at once (its socket
 * dropped, its page back at the entry screen saying why). The open list passes axe in both themes.
 * A rename on one device shows on the other at once.
 */
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, chromiumAvailable, DESKTOP, enterAccount, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

describe.skipIf(!available)("where you're logged in, in the browser", () => {
  const t = useBrowserBazaar();

  it("lists both devices and logs the other one out", async () => {
    const url = t.bazaar.server.url;
    const here = await (await t.browser.newContext({ viewport: DESKTOP, reducedMotion: "reduce" })).newPage();
    const there = await (await t.browser.newContext({ viewport: DESKTOP, reducedMotion: "reduce", userAgent: FIREFOX })).newPage();
    for (const p of [here, there]) p.setDefaultTimeout(15_000);
    await enterAccount(here, url, "SessionSia");
    await enterAccount(there, url, "SessionSia");
    // The login on the other device is announced here.
    await here.getByTestId("toast").filter({ hasText: "Your account was just logged in on Firefox on Windows." }).waitFor();

    // A rename here reaches the other device at once, without a reload: its top bar and its stored
    // identity take the new name, and it says so.
    await here.locator('details[data-testid="me"] > summary').click();
    // The form says, before the first rename, that an account's new name must then last 30 days.
    expect(await here.getByTestId("rename-rule").textContent()).toBe("An account takes a new name once every 30 days");
    await here.locator("#rename").fill("SessionSiana");
    await here.getByRole("button", { name: "Rename", exact: true }).click();
    await there.getByTestId("toast").filter({ hasText: "This account is now called “SessionSiana”." }).waitFor();
    // Here, one toast says it (the reply's or the push's, whichever came first), not both.
    const renamedHere = here.getByTestId("toast").filter({ hasText: "SessionSiana" });
    await renamedHere.first().waitFor();
    await here.waitForTimeout(500);
    expect(await renamedHere.count()).toBe(1);
    await expect.poll(() => there.locator(".me-name").textContent()).toBe("SessionSiana");
    expect((await storedIdentity(there))!.player.name).toBe("SessionSiana");
    await expect.poll(() => here.locator(".me-name").textContent()).toBe("SessionSiana");

    await here.locator('details[data-testid="me"] > summary').click();
    await here.getByTestId("sessions").locator("summary").click();
    const rows = here.getByTestId("session");
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const texts = (await rows.allTextContents()).map((x) => x.replace(/\s+/g, " ").trim());
    expect(texts.find((x) => x.includes("(this browser)"))).toMatch(/^Chrome on Linux \(this browser\) Logged in .*; in use now$/);
    expect(texts.find((x) => !x.includes("(this browser)"))).toMatch(/^Firefox on Windows Logged in .*; in use now Log out$/);
    expect(await axeViolations(here), "the open list passes axe").toEqual([]);
    await here.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(here), "and in the dark theme").toEqual([]);
    await here.emulateMedia({ colorScheme: "light" });

    await here.getByRole("button", { name: /^Log out Firefox on Windows/ }).click();
    await there.getByLabel("Your display name").waitFor();
    expect(await there.locator(".welcome p.notice[role=alert]").textContent()).toContain("You were logged out");
    expect(await storedIdentity(there)).toBeNull();
    // Here stays logged in, and the list now holds this browser only.
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute("data-current")).toBe("true");
    expect((await storedIdentity(here))!.player.name).toBe("SessionSiana");
  });
});
