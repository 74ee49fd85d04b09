/**
 * Room options: `{ extended?: boolean }` (default false: the standard Decktet). undefined or
 * null = {}. Unknown keys or a non-boolean `extended` are BAD_OPTIONS.
 */
import { fail, ok, type Result } from "../types.js";
import type { AucteradenOptions } from "./state.js";

export function parseOptions(raw: unknown): Result<AucteradenOptions> {
  if (raw === undefined || raw === null) return ok({ extended: false });
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail("BAD_OPTIONS", "Aucteraden options must be an object: { extended?: true | false }.");
  }
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => k !== "extended");
  if (unknown.length > 0) {
    return fail("BAD_OPTIONS", `Unknown Aucteraden option: ${unknown.slice(0, 5).map((k) => k.slice(0, 40)).join(", ")} (the only option is extended).`);
  }
  if (o.extended === undefined) return ok({ extended: false });
  if (typeof o.extended !== "boolean") {
    return fail("BAD_OPTIONS", "Option extended must be true (extended Decktet: Excuse, Pawns and Courts) or false.");
  }
  return ok({ extended: o.extended });
}
