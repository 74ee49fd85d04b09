/**
 * The checks every game's apply() makes before its rules: is the seat a seat, and is the
 * action an object of a known type with exactly the parameters that type takes. Rules-free.
 */
import { fail, ok, type Result, type Seat } from "./types.js";

export function checkSeat(players: number, seat: unknown): Result<Seat> {
  if (typeof seat === "number" && Number.isInteger(seat) && seat >= 0 && seat < players) return ok(seat);
  const which = typeof seat === "number" && Number.isFinite(seat) ? `${seat} ` : "";
  return fail("BAD_SEAT", `There is no seat ${which}in this game (seats are 0-${players - 1}).`);
}

/**
 * `specs` maps each action type to the parameter names it takes (besides `type`); `known` is the
 * phrase listing them for the error message. Unknown type, missing or extra parameters: UNKNOWN_ACTION.
 */
export function checkActionShape<T extends string>(
  action: unknown,
  specs: Record<T, { params: readonly string[] }>,
  known: string,
): Result<{ type: T; fields: Record<string, unknown> }> {
  if (typeof action !== "object" || action === null || Array.isArray(action)) return fail("UNKNOWN_ACTION", `Unknown action: expected ${known}.`);
  const fields = action as Record<string, unknown>;
  if (typeof fields.type !== "string" || !Object.hasOwn(specs, fields.type)) return fail("UNKNOWN_ACTION", `Unknown action: expected ${known}.`);
  const type = fields.type as T;
  const { params } = specs[type];
  const keys = Object.keys(fields).filter((k) => k !== "type");
  if (keys.length !== params.length || !params.every((p) => Object.hasOwn(fields, p))) {
    const want = params.length === 0 ? "no parameters" : `exactly: ${params.join(", ")}`;
    return fail("UNKNOWN_ACTION", `A ${type} action takes ${want}.`);
  }
  return ok({ type, fields });
}
