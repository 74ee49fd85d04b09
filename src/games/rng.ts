/**
 * Seeded pseudo-random numbers kept as plain data inside a game state.
 *
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator) with a 128-bit state of four
 * uint32 words, seeded from a string by a 128-bit string hash. Pure: every function takes a
 * state and returns a new one; nothing is mutated and nothing global is touched.
 */

export type RngState = [number, number, number, number];

/** Hash a string into four 32-bit words (cyrb128-style mixing). */
function hash128(text: string): RngState {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function step(s: RngState): { value: number; next: RngState } {
  let [a, b, c, d] = s;
  const t = (((a + b) >>> 0) + d) >>> 0;
  d = (d + 1) >>> 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) >>> 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) >>> 0;
  return { value: t >>> 0, next: [a >>> 0, b >>> 0, c >>> 0, d] };
}

/** A fresh generator state from a seed string; the first 12 outputs are discarded. */
export function seedRng(seed: string): RngState {
  let s = hash128(seed);
  for (let i = 0; i < 12; i++) s = step(s).next;
  return s;
}

/** A uniform integer in [0, n). Rejection sampling keeps it unbiased. */
export function randomInt(s: RngState, n: number): { value: number; rng: RngState } {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`randomInt: bad bound ${n}`);
  const limit = Math.floor(0x100000000 / n) * n;
  let cur = s;
  for (;;) {
    const r = step(cur);
    cur = r.next;
    if (r.value < limit) return { value: r.value % n, rng: cur };
  }
}

/** Fisher-Yates shuffle; returns a new array and the advanced generator. */
export function shuffle<T>(s: RngState, items: readonly T[]): { value: T[]; rng: RngState } {
  const out = items.slice();
  let rng = s;
  for (let i = out.length - 1; i > 0; i--) {
    const r = randomInt(rng, i + 1);
    rng = r.rng;
    const j = r.value;
    const tmp = out[i]!;
    out[i] = out[j]!;
    out[j] = tmp;
  }
  return { value: out, rng };
}
