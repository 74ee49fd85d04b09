/**
 * Room options: `{ extended?: "pawns" | "courts", match?: 1 | 3 }`. undefined or null = {}.
 * parseOptions cannot see the player count: `extended` is accepted here and used only with 5
 * players (setup defaults it to "pawns"; with 3-4 players it is ignored). Unknown keys or bad
 * values are BAD_OPTIONS.
 */
import { fail, ok, type Result } from "../types.js";
import type { SorcerousFuturesOptions } from "./state.js";

const KEYS = ["extended", "match"];

export function parseOptions(raw: unknown): Result<SorcerousFuturesOptions> {
  if (raw === undefined || raw === null) return ok({ match: 1 });
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail("BAD_OPTIONS", "Sorcerous Futures options must be an object: { extended?: \"pawns\" | \"courts\", match?: 1 | 3 }.");
  }
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) {
    return fail("BAD_OPTIONS", `Unknown Sorcerous Futures option: ${unknown.slice(0, 5).map((k) => k.slice(0, 40)).join(", ")} (options: extended, match).`);
  }
  const out: SorcerousFuturesOptions = { match: 1 };
  if (Object.hasOwn(o, "extended") && o.extended !== undefined) {
    if (o.extended !== "pawns" && o.extended !== "courts") {
      return fail("BAD_OPTIONS", "Option extended must be \"pawns\" or \"courts\" (it is used with 5 players).");
    }
    out.extended = o.extended;
  }
  if (Object.hasOwn(o, "match") && o.match !== undefined) {
    if (o.match !== 1 && o.match !== 3) return fail("BAD_OPTIONS", "Option match must be 1 (one game) or 3 (a three-game match).");
    out.match = o.match;
  }
  return ok(out);
}
