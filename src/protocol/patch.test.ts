/** The patch format: a diff applied gives the new value exactly (and the diff the other way the old one), and applying never edits its input. */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../games/testing.js";
import { applyPatch, diff, type Patch } from "./patch.js";

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 5 : 8));
  if (k === 0) return null;
  if (k === 1) return r() < 0.5;
  if (k === 2) return Math.floor(r() * 5);
  if (k === 3) return ["a", "b", "x/y", "t~1", "", "__proto__"][Math.floor(r() * 6)];
  if (k === 4) return Math.floor(r() * 3) - 1.5;
  if (k < 7) return Array.from({ length: Math.floor(r() * 5) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (const key of ["a", "b", "c", "d/e", "f~g", "h", "0", "12"]) if (r() < 0.5) o[key] = randomValue(r, depth + 1);
  return o;
}

/** A random variation of `v`: some members and elements changed, added, removed, appended, cut. */
function mutate(v: unknown, r: () => number, depth = 0): unknown {
  if (depth > 0 && r() < 0.1) return randomValue(r, depth);
  if (Array.isArray(v)) {
    let out = v.map((x) => (r() < 0.3 ? mutate(x, r, depth + 1) : x));
    if (r() < 0.2) out = [...out, ...Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomValue(r, depth + 1))];
    if (r() < 0.15) out = out.slice(0, Math.floor(r() * out.length));
    if (r() < 0.1) out = out.slice(1);
    return out;
  }
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (r() < 0.1) continue;
      out[k] = r() < 0.3 ? mutate(x, r, depth + 1) : x;
    }
    if (r() < 0.2) out[`n${Math.floor(r() * 3)}`] = randomValue(r, depth + 1);
    if (r() < 0.05) out.u = undefined;
    return out;
  }
  return r() < 0.5 ? v : randomValue(r, depth);
}

const deepFrozen = <T>(v: T): T => {
  if (typeof v === "object" && v !== null) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFrozen(x);
  }
  return v;
};

describe("patch", () => {
  it("turns a into b and back, for many random pairs, without editing either", () => {
    const r = seededRandom("patch");
    let changed = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = { root: randomValue(r, 0), x: randomValue(r, 1), list: [randomValue(r, 2), randomValue(r, 2)] };
      const b = mutate(a, r) as Record<string, unknown>;
      const aText = JSON.stringify(a);
      const bText = JSON.stringify(b);
      const d = diff(a, b, true);
      if (aText === bText) {
        expect(d).toBeNull();
        continue;
      }
      changed++;
      expect(d).not.toBeNull();
      const A = deepFrozen(JSON.parse(aText) as Record<string, unknown>);
      const B = deepFrozen(JSON.parse(bText) as Record<string, unknown>);
      expect(applyPatch(A, JSON.parse(d!) as Patch)).toEqual(B);
      expect(applyPatch(B, JSON.parse(diff(b, a, true)!) as Patch)).toEqual(A);
      // Never much longer than the whole new value: at most the wrapping of each top-level member.
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
      expect(d!.length).toBeLessThanOrEqual(bText.length + keys.reduce((n, k) => n + k.length + 6, 2));
    }
    expect(changed).toBeGreaterThan(10_000);
  });

  it("is small: element by element, an appended or cut tail, else the whole", () => {
    expect(diff({ a: [1, 2, 3] }, { a: [1, 2, 3, 4] }, true)).toBe('{"a":[[4],3]}');
    expect(diff({ a: [1, 2, 3] }, { a: [1, 2] }, true)).toBe('{"a":[[],2]}');
    expect(diff({ a: [1, 2, 3] }, { a: [1, 9, 3] }, true)).toBe('{"a":{"1":[9]}}');
    expect(diff({ a: { b: 1, c: 2 } }, { a: { b: 1 } }, true)).toBe('{"a":{"c":[]}}');
    expect(diff({ a: [1, 2, 3, 4] }, { a: [5, 6, 7, 8] }, true)).toBe('{"a":[[5,6,7,8]]}');
    expect(diff({ a: [0, 1, 2, 3, 4] }, { a: [0, 5, 6, 7, 8] }, true)).toBe('{"a":[[5,6,7,8],1]}');
    expect(diff({ a: 1, u: undefined }, { a: 1, v: undefined }, true)).toBeNull();
    expect(diff({ a: 1 }, { a: 1, b: null }, true)).toBe('{"b":[null]}');
  });

  it("refuses what does not fit", () => {
    expect(() => applyPatch({ a: 1 }, { b: { c: [1] } })).toThrow();
    expect(() => applyPatch({ a: [1] }, { a: { "1": [1] } })).toThrow();
    expect(() => applyPatch({ a: [1] }, { a: [[], 2] })).toThrow();
    expect(() => applyPatch({ a: [1] }, { a: { "0": [] } })).toThrow();
    expect(() => applyPatch({ a: 1 }, { b: [] })).toThrow();
    expect(() => applyPatch({ a: 1 }, JSON.parse('{"__proto__":[1]}') as Patch)).toThrow();
    expect(() => applyPatch({ a: 1 }, { a: [1, 2, 3] as unknown as [] })).toThrow();
  });
});
