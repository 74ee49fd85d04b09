/**
 * `npm run screenshots`: starts a throwaway server, drives real games in Debian's chromium and
 * saves docs/screenshots/{lobby,table,end}.png (desktop) and *-phone.png (390 px wide).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { takeScreenshots } from "../test/browser/screenshots.js";
import { ROOT } from "../test/browser/support.js";

const out = join(ROOT, "docs", "screenshots");
mkdirSync(out, { recursive: true });
const files = await takeScreenshots(out);
for (const f of files) console.log(`saved ${f}`);
process.exit(0);
