/**
 * Two-step login in a real browser (client/src/two-factor.ts, account.ts): an account sets it up
 * from the menu, and the QR code the page draws decodes (jsQR) to the otpauth URI of the key the
 * page shows as text; a code made from that key turns it on; another browser's login then asks for
 * a code, is refused a wrong one with the server's words, and gets in with a fresh one. The set-up
 * with its QR code passes axe in both themes.
 */
import jsqr from "jsqr";
import { describe, expect, it } from "vitest";
import { stepAt, totpCode } from "../../src/platform/totp.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, newPage, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

// jsqr is CommonJS with `exports.default`: an ES import may give the module object instead of the function.
const jsQR = ((jsqr as unknown as { default?: unknown }).default ?? jsqr) as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

/** The text of a QR code drawn as one SVG path of unit squares ("M x y h1v1h-1z ..."). */
function decodeQrPath(size: number, d: string): string | null {
  const scale = 6;
  const quiet = 4;
  const width = (size + 2 * quiet) * scale;
  const rgba = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const m of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const [x, y] = [Number(m[1]) + quiet, Number(m[2]) + quiet];
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = ((y * scale + dy) * width + x * scale + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
    }
  }
  return jsQR(rgba, width, width)?.data ?? null;
}

describe.skipIf(!available)("two-step login, in the browser", () => {
  const t = useBrowserBazaar();

  it("sets it up from a QR code that holds the key shown, turns it on with a code, and a login elsewhere asks for one", async () => {
    const url = t.bazaar.server.url;
    const { page } = await newPage(t.browser);
    await enterAccount(page, url, "TwoStepTeo");
    await page.locator('details[data-testid="me"] > summary').click();
    const section = page.getByTestId("two-factor");
    await section.locator("summary").click();
    await page.getByTestId("totp-status").waitFor();
    expect(await page.getByTestId("totp-status").textContent()).toMatch(/^Off\./);
    await page.getByLabel("Your password, to set it up").fill("password of TwoStepTeo");
    await page.getByTestId("totp-setup").click();
    const qr = page.getByTestId("totp-qr");
    await qr.waitFor();
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const size = Number((await qr.getAttribute("viewBox"))!.split(" ")[2]);
    const d = (await qr.locator("path").getAttribute("d"))!;
    expect(decodeQrPath(size, d)).toBe(`otpauth://totp/Goblin%20Bazaar%3ATwoStepTeo?secret=${secret}&issuer=Goblin%20Bazaar&algorithm=SHA1&digits=6&period=30`);
    await section.scrollIntoViewIfNeeded();
    expect(await axeViolations(page), "the set-up with its QR code passes axe").toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page), "and in the dark theme").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // A wrong code first: the server's words; then the app's code.
    await page.getByLabel("The six-digit code your app shows").fill("000000");
    await page.getByTestId("totp-on").click();
    await section.getByRole("alert").waitFor();
    expect(await section.getByRole("alert").textContent()).toBe("That code does not match: type the six digits your app shows now for Goblin Bazaar.");
    const step = stepAt(Date.now());
    await page.getByLabel("The six-digit code your app shows").fill(totpCode(secret, step));
    await page.getByTestId("totp-on").click();
    await page.getByText("On: logging in asks for a code from your authenticator app.").waitFor();

    // Another browser logs in: the password, then the code it asks for.
    const other = (await newPage(t.browser)).page;
    await other.goto(url);
    await other.getByTestId("account-entry").locator("summary").click();
    await other.getByLabel("Account name").fill("TwoStepTeo");
    await other.getByLabel("Password").fill("password of TwoStepTeo");
    await other.getByTestId("acc-submit").click();
    await other.getByTestId("acc-error").waitFor();
    expect(await other.getByTestId("acc-error").textContent()).toContain("Two-step login is on for this account");
    const codeField = other.getByLabel("Code from your authenticator app");
    // Without the phone, the way in is said where the code is asked for.
    expect(await other.getByTestId("acc-totp-lost").textContent()).toContain("Your recovery code gets you in");
    await codeField.fill("123 456");
    await other.getByTestId("acc-submit").click();
    await expect.poll(async () => other.getByTestId("acc-error").textContent()).toContain("That code does not match");
    // The code that turned it on is spent: the next step's (a phone a little ahead) gets in.
    await codeField.fill(totpCode(secret, step + 1));
    await other.getByTestId("acc-submit").click();
    await other.locator('[data-testid="account-status"]').waitFor({ state: "attached" });
    expect(await other.getByTestId("account-status").textContent()).toContain("Logged in");
  });
});
