import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateSegment, deflateWhole, DICTIONARY_BYTES, readLogs, SealCache, SEGMENT, type Parts } from "./sealed-logs.js";

const action = (i: number) => ({ seat: i % 4, action: { type: i % 3 ? "bid" : "pass", amount: i }, at: 1000 + i, id: `a"${i}` });
const event = (i: number) => ({ type: "bid", seat: i % 4, amount: i, n: i, note: "é \u2028 \\ ✓" });
const parts = (from: number, to: number): Parts =>
  ({ a: Array.from({ length: to - from }, (_, i) => action(from + i)), l: Array.from({ length: 2 * (to - from) }, (_, i) => event(2 * from + i)) }) as unknown as Parts;
const join = (ps: Parts[]) => ({ a: ps.flatMap((p) => p.a), l: ps.flatMap((p) => p.l) });

describe("sealed logs", () => {
  it("a base and segments read back as the entries written, in order", () => {
    const base = deflateWhole(JSON.stringify(parts(0, 10)));
    let window = base.window;
    const tail: Buffer[] = [];
    const written = [parts(0, 10)];
    // Segments of several sizes, one larger than the dictionary, then two plain chunks.
    for (const [from, to] of [[10, 14], [14, 15], [15, 15], [15, 60], [60, 64]] as const) {
      const seg = deflateSegment(JSON.stringify(parts(from, to)), window);
      expect(seg.data[0]).toBe(SEGMENT);
      tail.push(seg.data);
      written.push(parts(from, to));
      window = seg.window;
      expect(window.length).toBeLessThanOrEqual(DICTIONARY_BYTES);
    }
    for (const [from, to] of [[64, 65], [65, 66]] as const) {
      tail.push(Buffer.from(JSON.stringify(parts(from, to))));
      written.push(parts(from, to));
    }
    expect(join(readLogs(base.data, tail))).toEqual(join(written));
  });

  it("compresses a segment against the text sealed before it (and needs it to read it back)", () => {
    const base = deflateWhole(JSON.stringify(parts(0, 40)));
    const json = JSON.stringify(parts(40, 44));
    const withDict = deflateSegment(json, base.window);
    const alone = deflateSegment(json, Buffer.alloc(0));
    expect(withDict.data.length).toBeLessThan(alone.data.length * 0.8);
    expect(() => inflateRawSync(withDict.data.subarray(1))).toThrow();
    expect(inflateRawSync(withDict.data.subarray(1), { dictionary: base.window }).toString()).toBe(json);
  });

  it("keeps the last DICTIONARY_BYTES of the sealed text as the next dictionary", () => {
    const first = JSON.stringify(parts(0, 30));
    const base = deflateWhole(first);
    expect(base.window.toString()).toBe(Buffer.from(first).subarray(-DICTIONARY_BYTES).toString());
    const small = JSON.stringify(parts(30, 31));
    const seg = deflateSegment(small, base.window);
    expect(Buffer.compare(seg.window, Buffer.concat([Buffer.from(first), Buffer.from(small)]).subarray(-DICTIONARY_BYTES))).toBe(0);
  });

  it("reads an empty store and a plain (untagged) base", () => {
    expect(readLogs(Buffer.alloc(0), [])).toEqual([{ a: [], l: [] }]);
    const plain = Buffer.from(JSON.stringify(parts(0, 2)));
    expect(readLogs(plain, [])).toEqual([parts(0, 2)]);
  });

  it("the cache gives a seal point only to a change built on exactly the version it was kept for", () => {
    const cache = new SealCache(2);
    const point = { version: 7, actions: 3, log: 5, segments: 1, window: Buffer.from("x") };
    cache.remember("r", point);
    expect(cache.at("r", 7)).toBe(point);
    expect(cache.at("r", 6)).toBeNull();
    expect(cache.at("other", 7)).toBeNull();
    cache.remember("s", { ...point });
    cache.remember("t", { ...point });
    expect(cache.size).toBe(2);
    expect(cache.at("r", 7)).toBeNull(); // the least recently written went first
    cache.forget("s");
    expect(cache.at("s", 7)).toBeNull();
  });
});
