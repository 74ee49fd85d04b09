/**
 * Room options: `{ advanced?: boolean }` (the Advanced Play variant). undefined or null = {}.
 * Unknown keys or bad values are BAD_OPTIONS.
 */
import { fail, ok, type Result } from "../types.js";
import type { GoblinTeethOptions } from "./state.js";

const KEYS = ["advanced"];

export function parseOptions(raw: unknown): Result<GoblinTeethOptions> {
  if (raw === undefined || raw === null) return ok({ advanced: false });
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail("BAD_OPTIONS", "Goblin Teeth options must be an object: { advanced?: true | false }.");
  }
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) {
    return fail("BAD_OPTIONS", `Unknown Goblin Teeth option: ${unknown.slice(0, 5).map((k) => k.slice(0, 40)).join(", ")} (options: advanced).`);
  }
  if (Object.hasOwn(o, "advanced") && o.advanced !== undefined && typeof o.advanced !== "boolean") {
    return fail("BAD_OPTIONS", "Option advanced must be true (Advanced Play: Offerings in front of each player) or false.");
  }
  return ok({ advanced: o.advanced === true });
}
