/**
 * `npm run screenshots`: starts a throwaway server, drives real games in Debian's chromium and
 * saves docs/screenshots/{lobby,table,end}.png (desktop) and *-phone.png (390 px wide), then the
 * same in the dark theme, of which docs/screenshots/dark/ keeps the few the README shows (`--light`
 * or `--dark` for one of the two).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { takeScreenshots } from "../test/browser/screenshots.js";
import { ROOT } from "../test/browser/support.js";

/** The dark-theme pictures the README shows. */
const DARK_KEPT = ["lobby.png", "table.png", "table-phone.png", "sorcerous-futures-table.png", "aucteraden-table.png", "goblin-teeth-table.png"];

const only = process.argv.includes("--light") ? "light" : process.argv.includes("--dark") ? "dark" : null;
for (const colorScheme of ["light", "dark"] as const) {
  if (only && only !== colorScheme) continue;
  const out = join(ROOT, "docs", "screenshots", ...(colorScheme === "dark" ? ["dark"] : []));
  mkdirSync(out, { recursive: true });
  for (const f of await takeScreenshots(out, { colorScheme })) {
    if (colorScheme === "dark" && !DARK_KEPT.some((name) => f.endsWith(`/${name}`))) rmSync(f);
    else console.log(`saved ${f}`);
  }
}
process.exit(0);
