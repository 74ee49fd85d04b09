/** Helpers for every game's tests and fixtures (not used by the server at run time). */
import { randomInt, seedRng } from "./rng.js";

/** Recursively freeze a value (so any mutation in strict-mode code throws). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A deterministic random() in [0, 1) from a seed string (for bots and tests). */
export function seededRandom(seed: string): () => number {
  let rng = seedRng(seed);
  return () => {
    const r = randomInt(rng, 0x100000000);
    rng = r.rng;
    return r.value / 0x100000000;
  };
}
