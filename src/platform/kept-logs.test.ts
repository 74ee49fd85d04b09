import { describe, expect, it } from "vitest";
import { KeptLogs, LogsBytes } from "./kept-logs.js";

const action = (i: number) => ({ seat: i % 4, action: { type: i % 3 ? "bid" : "pass", amount: i }, at: 1000 + i, id: `a"${i}` });
// Multi-byte UTF-8, an escaped line separator and a backslash: byte counts differ from string lengths.
const event = (i: number) => ({ type: "bid", seat: i % 4, amount: i, n: i, note: "é \u2028 \\ 🐉" });

const text = (b: LogsBytes) => b.json().toString("utf8");

describe("kept logs", () => {
  it("extended change by change in place (through many regrowths), equals JSON.stringify of both logs", () => {
    const kept = new KeptLogs();
    const a: unknown[] = [];
    const l: unknown[] = [];
    // The first write: the chunk holds everything.
    a.push(action(0));
    l.push(event(0), event(1));
    let bytes = LogsBytes.of(JSON.stringify(a), JSON.stringify(l));
    expect(text(bytes)).toBe(JSON.stringify({ a, l }));
    kept.keep("r", 1, a.length, l.length, bytes);
    for (let v = 2; v <= 1200; v++) {
      const added = { a: v % 5 === 0 ? [] : [action(v)], l: Array.from({ length: v % 3 }, (_, i) => event(v * 10 + i)) };
      const next = kept.extend("r", v - 1, a.length, l.length, JSON.stringify(added.a), JSON.stringify(added.l));
      expect(next).not.toBeNull();
      a.push(...added.a);
      l.push(...added.l);
      bytes = next!;
      expect(text(bytes)).toBe(JSON.stringify({ a, l }));
      kept.keep("r", v, a.length, l.length, bytes);
    }
    expect(bytes.json().length).toBeGreaterThan(64 * 1024); // past the first shared buffer too
  });

  it("starts from empty lists, and from one empty list", () => {
    expect(text(LogsBytes.of("[]", "[]"))).toBe('{"a":[],"l":[]}');
    const b = LogsBytes.of("[]", "[1]");
    b.add("[2]", "[]");
    expect(text(b)).toBe('{"a":[2],"l":[1]}');
  });

  it("extends only the very version and log lengths it kept", () => {
    const kept = new KeptLogs();
    const keep = () => kept.keep("r", 5, 3, 7, LogsBytes.of("[1,2,3]", "[4,5,6,7,8,9,10]"));
    keep();
    expect(kept.extend("r", 4, 3, 7, "[11]", "[]")).toBeNull(); // another version
    expect(kept.extend("r", 5, 2, 7, "[11]", "[]")).toBeNull(); // other lengths
    expect(kept.extend("r", 5, 3, 6, "[11]", "[]")).toBeNull();
    expect(kept.extend("other", 5, 3, 7, "[11]", "[]")).toBeNull();
    expect(text(kept.extend("r", 5, 3, 7, "[11]", "[]")!)).toBe('{"a":[1,2,3,11],"l":[4,5,6,7,8,9,10]}');
    keep();
    kept.forget("r");
    expect(kept.extend("r", 5, 3, 7, "[11]", "[]")).toBeNull();
  });

  it("hands a kept version to one change only: a second change built on it gets null", () => {
    const kept = new KeptLogs();
    kept.keep("r", 5, 1, 1, LogsBytes.of("[1]", "[2]"));
    const first = kept.extend("r", 5, 1, 1, "[3]", "[]");
    expect(first).not.toBeNull();
    expect(kept.extend("r", 5, 1, 1, "[4]", "[]")).toBeNull();
    expect(text(first!)).toBe('{"a":[1,3],"l":[2]}');
    kept.keep("r", 6, 2, 1, first!);
    expect(kept.size).toBe(1);
  });

  it("keeps at most `limit` rooms, dropping the least recently written", () => {
    const kept = new KeptLogs(2);
    kept.keep("a", 1, 0, 0, LogsBytes.of("[]", "[]"));
    kept.keep("b", 1, 0, 0, LogsBytes.of("[]", "[]"));
    kept.keep("a", 2, 0, 0, LogsBytes.of("[]", "[]"));
    kept.keep("c", 1, 0, 0, LogsBytes.of("[]", "[]"));
    expect(kept.size).toBe(2);
    expect(kept.extend("b", 1, 0, 0, "[]", "[]")).toBeNull();
    expect(kept.extend("a", 2, 0, 0, "[]", "[]")).not.toBeNull();
  });
});
