import { describe, expect, it } from "vitest";
import { randomInt, seedRng, shuffle } from "./rng.js";

describe("seeded RNG", () => {
  it("is a pure function of the seed", () => {
    expect(seedRng("abc")).toEqual(seedRng("abc"));
    expect(seedRng("abc")).not.toEqual(seedRng("abd"));
    const s = seedRng("x");
    const copy = [...s];
    randomInt(s, 10);
    expect(s).toEqual(copy); // never mutated
  });

  it("gives the same sequence for the same state, different for different seeds", () => {
    const seq = (seed: string) => {
      let rng = seedRng(seed);
      return Array.from({ length: 20 }, () => {
        const r = randomInt(rng, 1000);
        rng = r.rng;
        return r.value;
      });
    };
    expect(seq("one")).toEqual(seq("one"));
    expect(seq("one")).not.toEqual(seq("two"));
  });

  it("is roughly uniform and stays in range", () => {
    let rng = seedRng("uniform");
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 60_000; i++) {
      const r = randomInt(rng, 6);
      rng = r.rng;
      counts[r.value]++;
    }
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it("shuffles into a permutation without touching the input", () => {
    const items = Array.from({ length: 36 }, (_, i) => i);
    const { value } = shuffle(seedRng("deck"), items);
    expect([...value].sort((a, b) => a - b)).toEqual(items);
    expect(value).not.toEqual(items);
    expect(items[0]).toBe(0);
    expect(shuffle(seedRng("deck"), items).value).toEqual(value);
  });

  it("rejects nonsense bounds", () => {
    expect(() => randomInt(seedRng("a"), 0)).toThrow(RangeError);
    expect(() => randomInt(seedRng("a"), 1.5)).toThrow(RangeError);
  });
});
