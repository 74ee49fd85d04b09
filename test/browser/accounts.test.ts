/**
 * Accounts in a real browser: a guest is told to create an account where ranked play is offered,
 * turns into an account from the identity menu keeping their player id, can then choose ranked;
 * a wrong login shows the server's own words; logging out everywhere from a second device logs
 * the first one out at once (its socket is disconnected and its token refused).
 */
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, DESKTOP, enterAccount, enterName, newPage, PHONE, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);


describe.skipIf(!available)("accounts in the browser", () => {
  const t = useBrowserBazaar();

  it("a guest registers from the menu keeping their id, can then play ranked; log out everywhere reaches the other device", async () => {
    const url = t.bazaar.server.url;
    const one = await newPage(t.browser, DESKTOP);
    const page = one.page;
    await enterName(page, url, "Nell");
    const guestId = (await storedIdentity(page))!.player.id;

    // Where ranked play is offered, the guest is told to create an account; the option is off.
    // In the create form and in the daily challenge panel.
    await page.getByTestId("ranked-needs-account").first().waitFor();
    expect(await page.getByTestId("ranked-needs-account").count()).toBe(2);
    expect(await page.getByTestId("ranked-needs-account").first().textContent()).toContain("Create an account to play ranked");
    expect(await page.locator('input[name="mode"][value="ranked"]').isDisabled()).toBe(true);

    // The hint opens the menu on the registration form, the guest's name filled in.
    await page.getByRole("button", { name: "Create an account to play ranked" }).first().click();
    await page.getByTestId("acc-form-register").waitFor();
    expect(await page.getByLabel("Choose a name (unique)").inputValue()).toBe("Nell");
    await page.getByLabel("Password").fill("short");
    await page.getByTestId("acc-submit").click();
    // The browser's own minlength check or the server's words: either way, no account yet.
    expect(await page.getByTestId("account-status").textContent()).toContain("guest");
    await page.getByLabel("Password").fill("password of Nell");
    await page.getByTestId("acc-submit").click();
    // The new account's recovery code, shown once in a dialog that passes axe.
    await page.getByTestId("recovery-dialog").waitFor();
    const code = (await page.getByTestId("recovery-code").textContent())!;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect(await axeViolations(page), "the recovery code dialog passes axe").toEqual([]);
    await page.getByTestId("recovery-done").click();
    await page.getByTestId("recovery-dialog").waitFor({ state: "hidden" });
    await expect.poll(() => page.getByTestId("account-status").textContent()).toContain("Logged in");
    expect((await storedIdentity(page))!.player.id).toBe(guestId);
    await page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
    await expect.poll(() => page.getByTestId("ranked-needs-account").count()).toBe(0);
    expect(await page.locator('input[name="mode"][value="ranked"]').isDisabled()).toBe(false);

    // Another device: a wrong password is refused in the server's words, the right one logs in.
    const two = await newPage(t.browser, PHONE);
    await two.page.goto(url + "/");
    await two.page.getByTestId("account-entry").locator("summary").click();
    await two.page.getByLabel("Account name").fill("nell");
    await two.page.getByLabel("Password").fill("not Nell's password");
    await two.page.getByTestId("acc-submit").click();
    await expect.poll(() => two.page.getByTestId("acc-error").textContent()).toBe("That name and password do not match an account.");
    await enterAccount(two.page, url, "Nell"); // registered already: logs in
    expect((await storedIdentity(two.page))!.player.id).toBe(guestId);

    // Log out everywhere from the phone: the desktop is logged out at once.
    two.page.once("dialog", (d) => void d.accept());
    await two.page.locator('[data-testid="me"] > summary').click();
    await two.page.getByTestId("logout-all").click();
    await two.page.getByLabel("Your display name").waitFor();
    await page.getByLabel("Your display name").waitFor();
    expect(await page.locator(".notice").first().textContent()).toContain("You were logged out");
    expect(await storedIdentity(page)).toBeNull();

    // Nell forgets her password: the recovery code sets a new one, and she gets a new code.
    await two.page.getByTestId("account-entry").locator("summary").click();
    await two.page.getByTestId("acc-tab-login").click();
    await two.page.getByTestId("acc-forgot").click();
    await two.page.getByLabel("Account name").fill("Nell");
    await two.page.getByLabel("Recovery code").fill(code.toLowerCase());
    await two.page.getByLabel("New password").fill("Nell's new password");
    await two.page.getByTestId("acc-submit").click();
    await two.page.getByTestId("recovery-dialog").waitFor();
    const next = (await two.page.getByTestId("recovery-code").textContent())!;
    expect(next).not.toBe(code);
    expect(await two.page.getByTestId("recovery-dialog").textContent()).toContain("The code you used is spent");
    await two.page.getByTestId("recovery-done").click();
    expect((await storedIdentity(two.page))!.player.id).toBe(guestId);
    await two.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
    // A new code from the account menu (the password again) replaces that one.
    await two.page.locator('[data-testid="me"] > summary').click();
    await two.page.getByTestId("account-recovery").locator("summary").click();
    await two.page.getByLabel("Your password (for a new code)").fill("Nell's new password");
    await two.page.getByTestId("recovery-new").click();
    await two.page.getByTestId("recovery-dialog").waitFor();
    const third = (await two.page.getByTestId("recovery-code").textContent())!;
    expect([code, next]).not.toContain(third);
    await two.page.getByTestId("recovery-done").click();
    // The spent code is refused in the server's words.
    await two.page.getByTestId("logout").click();
    await two.page.getByTestId("account-entry").locator("summary").click();
    await two.page.getByTestId("acc-tab-login").click();
    await two.page.getByTestId("acc-forgot").click();
    await two.page.getByLabel("Account name").fill("Nell");
    await two.page.getByLabel("Recovery code").fill(code);
    await two.page.getByLabel("New password").fill("another new password");
    await two.page.getByTestId("acc-submit").click();
    await expect.poll(() => two.page.getByTestId("acc-error").textContent()).toMatch(/^That name and recovery code do not match an account\./);
    await one.context.close();
    await two.context.close();
  }, 120_000);

  it("a guest whose name an account registers is asked for another at once, at the table, keeping their seat", async () => {
    const url = t.bazaar.server.url;
    const { context, page } = await newPage(t.browser, DESKTOP);
    await enterName(page, url, "Wren");
    const guestId = (await storedIdentity(page))!.player.id;
    const roomPath = `/room/${await createRoom(page, { seats: 3, ranked: false })}`;
    // Someone else registers "wren" meanwhile.
    const reg = await fetch(`${url}/api/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "wren", password: "password of wren" }) });
    expect(((await reg.json()) as { ok: boolean }).ok).toBe(true);
    // The open page is told at once (its connection ends, and the next one is refused): it asks
    // for another name and says why; nothing else is offered.
    await expect.poll(() => page.locator(".welcome").textContent()).toContain("An account has registered the name “Wren” since you chose it");
    if (process.env.GB_SHOT) await page.screenshot({ path: process.env.GB_SHOT });
    expect(await page.getByRole("button", { name: "Just watch games" }).count()).toBe(0);
    // The account's name again (any case) is refused in the server's words; a free one renames the guest.
    await page.getByLabel("Your display name").fill("WREN");
    await page.getByRole("button", { name: "Enter the bazaar" }).click();
    await expect.poll(() => page.locator("#name-error").textContent()).toContain("belongs to an account");
    await page.getByLabel("Your display name").fill("Wren the Guest");
    await page.getByRole("button", { name: "Enter the bazaar" }).click();
    await page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
    const now = (await storedIdentity(page))!;
    expect(now.player).toMatchObject({ id: guestId, name: "Wren the Guest" });
    // Still at the table, seated under the new name.
    expect(new URL(page.url()).pathname).toBe(roomPath);
    await expect.poll(() => page.locator("body").textContent()).toContain("Wren the Guest");
    await context.close();
  }, 60_000);
});
