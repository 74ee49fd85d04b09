/** Room options: Goblin Market has none. Accepts undefined, null or {}; anything else is BAD_OPTIONS. */
import { fail, ok, type Result } from "../types.js";
import type { GoblinMarketOptions } from "./state.js";

export function parseOptions(raw: unknown): Result<GoblinMarketOptions> {
  if (raw === undefined || raw === null) return ok({});
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail("BAD_OPTIONS", "Goblin Market options must be an object (and it takes no options).");
  }
  const keys = Object.keys(raw);
  if (keys.length > 0) {
    return fail("BAD_OPTIONS", `Goblin Market has no options; unknown: ${keys.slice(0, 5).map((k) => k.slice(0, 40)).join(", ")}.`);
  }
  return ok({});
}
