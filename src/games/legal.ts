/**
 * Generic helpers over LegalAction templates: checking a concrete action against them and
 * picking a random legal action (what bots and load generators do, with no rules code).
 */
import type { Action, LegalAction, ParamSpec } from "./types.js";

function paramOk(spec: ParamSpec, value: unknown): boolean {
  if (spec.kind === "int") {
    return typeof value === "number" && Number.isInteger(value) && value >= spec.min && value <= spec.max;
  }
  return spec.options.includes(value as string | number);
}

/** True when `action` is an instance of one of the templates. */
export function matchesLegal(legal: readonly LegalAction[], action: Action): boolean {
  return legal.some((l) => {
    if (l.type !== action.type) return false;
    const specs = l.params ?? {};
    const keys = Object.keys(action).filter((k) => k !== "type");
    if (keys.some((k) => !Object.hasOwn(specs, k))) return false;
    return Object.entries(specs).every(([k, spec]) => paramOk(spec, action[k]));
  });
}

/** A uniformly chosen template, with each parameter filled uniformly. `random` returns [0, 1). */
export function randomLegalAction(legal: readonly LegalAction[], random: () => number): Action | null {
  if (legal.length === 0) return null;
  const l = legal[Math.floor(random() * legal.length)]!;
  const action: Action = { type: l.type };
  for (const [k, spec] of Object.entries(l.params ?? {})) {
    action[k] =
      spec.kind === "int"
        ? spec.min + Math.floor(random() * (spec.max - spec.min + 1))
        : spec.options[Math.floor(random() * spec.options.length)];
  }
  return action;
}
