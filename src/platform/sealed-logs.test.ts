import { describe, expect, it } from "vitest";
import { DEFLATED, deflateJson, inflateJson, readLogs, type Parts } from "./sealed-logs.js";

const action = (i: number) => ({ seat: i % 4, action: { type: i % 3 ? "bid" : "pass", amount: i }, at: 1000 + i, id: `a"${i}` });
const event = (i: number) => ({ type: "bid", seat: i % 4, amount: i, n: i, note: "é \u2028 \\ ✓" });
const parts = (from: number, to: number): Parts =>
  ({ a: Array.from({ length: to - from }, (_, i) => action(from + i)), l: Array.from({ length: 2 * (to - from) }, (_, i) => event(2 * from + i)) }) as unknown as Parts;

describe("sealed logs", () => {
  it("the sealed part and the chunks after it read back as the entries written, in order", () => {
    const sealed = deflateJson(JSON.stringify(parts(0, 30)));
    expect(sealed[0]).toBe(DEFLATED);
    expect(sealed.length).toBeLessThan(JSON.stringify(parts(0, 30)).length / 3);
    const tail = [parts(30, 31), parts(31, 31), parts(31, 33)].map((p) => Buffer.from(JSON.stringify(p)));
    expect(readLogs(sealed, tail)).toEqual([parts(0, 30), parts(30, 31), parts(31, 31), parts(31, 33)]);
  });

  it("reads an empty store and a plain (untagged) value", () => {
    expect(readLogs(Buffer.alloc(0), [])).toEqual([{ a: [], l: [] }]);
    const plain = Buffer.from(JSON.stringify(parts(0, 2)));
    expect(readLogs(plain, [])).toEqual([parts(0, 2)]);
    expect(inflateJson(plain)).toBe(JSON.stringify(parts(0, 2)));
  });
});
