/**
 * `npx tsx scripts/icons.ts`: draws the app icons in client/public from favicon.svg, in Debian's
 * chromium (the same renderer as the browser tests): icon-192.png and icon-512.png (the logo, its
 * own rounded square), icon-maskable-512.png (the logo inside the safe zone of a full-bleed green
 * square, for launchers that cut their own shape) and apple-touch-icon.png (180 px). Run it again
 * when the logo changes; the PNGs are committed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium, ROOT } from "../test/browser/support.js";

const pub = join(ROOT, "client", "public");
const svg = readFileSync(join(pub, "favicon.svg"), "utf8");
const GREEN = "#1f3d33";

const browser = await launchChromium();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const draw = async (file: string, size: number, inset: number, background: string) => {
    await page.setViewportSize({ width: size, height: size });
    const logo = Buffer.from(svg).toString("base64");
    await page.setContent(`<html><body style="margin:0;background:${background}"><img src="data:image/svg+xml;base64,${logo}" style="position:absolute;left:${inset}px;top:${inset}px;width:${size - 2 * inset}px;height:${size - 2 * inset}px"></body></html>`);
    await page.locator("img").evaluate("(img) => img.decode()");
    await page.screenshot({ path: join(pub, file), omitBackground: background === "transparent" });
    console.log(`saved client/public/${file}`);
  };
  await draw("icon-192.png", 192, 0, "transparent");
  await draw("icon-512.png", 512, 0, "transparent");
  // Maskable: the launcher may crop to a circle of 80% of the width; keep the logo inside it.
  await draw("icon-maskable-512.png", 512, 72, GREEN);
  // iOS draws its own rounded corners over an opaque square.
  await draw("apple-touch-icon.png", 180, 0, GREEN);
} finally {
  await browser.close();
}
