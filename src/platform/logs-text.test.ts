import { describe, expect, it } from "vitest";
import { LogsTextCache, logsJson, logsText } from "./logs-text.js";

const action = (i: number) => ({ seat: i % 4, action: { type: i % 3 ? "bid" : "pass", amount: i }, at: 1000 + i, id: `a"${i}` });
const event = (i: number) => ({ type: "bid", seat: i % 4, amount: i, n: i, note: "é \u2028 \\" });

describe("logs text", () => {
  it("extended change by change, equals JSON.stringify of both logs", () => {
    const cache = new LogsTextCache();
    const a: unknown[] = [];
    const l: unknown[] = [];
    // The first write: the chunk holds everything.
    a.push(action(0));
    l.push(event(0), event(1));
    let text = logsText(JSON.stringify(a), JSON.stringify(l));
    expect(logsJson(text)).toBe(JSON.stringify({ a, l }));
    cache.remember("r", 1, a.length, l.length, text);
    for (let v = 2; v <= 30; v++) {
      const added = { a: v % 5 === 0 ? [] : [action(v)], l: Array.from({ length: v % 3 }, (_, i) => event(v * 10 + i)) };
      const next = cache.extend("r", v - 1, a.length, l.length, JSON.stringify(added.a), JSON.stringify(added.l));
      expect(next).not.toBeNull();
      a.push(...added.a);
      l.push(...added.l);
      text = next!;
      expect(logsJson(text)).toBe(JSON.stringify({ a, l }));
      cache.remember("r", v, a.length, l.length, text);
    }
  });

  it("extends only the very version and log lengths it kept", () => {
    const cache = new LogsTextCache();
    cache.remember("r", 5, 3, 7, logsText("[1,2,3]", "[4,5,6,7,8,9,10]"));
    expect(cache.extend("r", 5, 3, 7, "[11]", "[]")).toEqual({ a: "1,2,3,11", l: "4,5,6,7,8,9,10" });
    expect(cache.extend("r", 4, 3, 7, "[11]", "[]")).toBeNull(); // another version
    expect(cache.extend("r", 5, 2, 7, "[11]", "[]")).toBeNull(); // other lengths
    expect(cache.extend("r", 5, 3, 6, "[11]", "[]")).toBeNull();
    expect(cache.extend("other", 5, 3, 7, "[11]", "[]")).toBeNull();
    cache.forget("r");
    expect(cache.extend("r", 5, 3, 7, "[11]", "[]")).toBeNull();
  });

  it("keeps at most `limit` rooms, dropping the least recently written", () => {
    const cache = new LogsTextCache(2);
    cache.remember("a", 1, 0, 0, logsText("[]", "[]"));
    cache.remember("b", 1, 0, 0, logsText("[]", "[]"));
    cache.remember("a", 2, 0, 0, logsText("[]", "[]"));
    cache.remember("c", 1, 0, 0, logsText("[]", "[]"));
    expect(cache.size).toBe(2);
    expect(cache.extend("b", 1, 0, 0, "[]", "[]")).toBeNull();
    expect(cache.extend("a", 2, 0, 0, "[]", "[]")).not.toBeNull();
  });
});
