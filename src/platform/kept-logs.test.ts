import { describe, expect, it } from "vitest";
import { BufferShelf, KeptLogs, LogsBytes, shelf } from "./kept-logs.js";

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

  it("gives the buffers of dropped logs back to the shelf, and a released one cannot be used", () => {
    const kept = new KeptLogs(1);
    const a = LogsBytes.of("[1]", "[2]");
    const b = LogsBytes.of("[1]", "[2]");
    kept.keep("a", 1, 1, 1, a);
    const before = shelf.bytes;
    kept.keep("b", 1, 1, 1, b); // "a" is dropped: over the limit
    expect(shelf.bytes).toBe(before + 512 + 2048);
    kept.forget("b");
    expect(shelf.bytes).toBe(before + 2 * (512 + 2048));
    expect(() => a.json()).toThrow(/after release/);
    const gone = LogsBytes.of("[1]", "[2]");
    gone.release();
    expect(() => gone.json()).toThrow(/after release/);
    expect(() => gone.add("[3]", "[]")).toThrow(/after release/);
  });

  it("reuses released buffers without mixing rooms' bytes (rooms ending and starting in turn)", () => {
    const kept = new KeptLogs();
    const logs = new Map<string, { a: unknown[]; l: unknown[]; v: number }>();
    let next = 0;
    const start = () => {
      const id = `g${next++}`;
      const a = [action(next)];
      const l = [event(next)];
      kept.keep(id, 1, 1, 1, LogsBytes.of(JSON.stringify(a), JSON.stringify(l)));
      logs.set(id, { a, l, v: 1 });
    };
    for (let i = 0; i < 5; i++) start();
    for (let step = 0; step < 3000; step++) {
      const ids = [...logs.keys()];
      const id = ids[step % ids.length]!;
      const g = logs.get(id)!;
      const added = { a: [action(step)], l: Array.from({ length: 1 + (step % 4) }, (_, i) => event(step * 10 + i)) };
      const b = kept.extend(id, g.v, g.a.length, g.l.length, JSON.stringify(added.a), JSON.stringify(added.l))!;
      g.a.push(...added.a);
      g.l.push(...added.l);
      g.v++;
      expect(text(b)).toBe(JSON.stringify({ a: g.a, l: g.l }));
      if (step % 97 === 96) {
        b.release(); // the game ended: its change drops the logs
        logs.delete(id);
        start();
      } else kept.keep(id, g.v, g.a.length, g.l.length, b);
    }
    for (const [id, g] of logs) expect(text(kept.extend(id, g.v, g.a.length, g.l.length, "[]", "[]")!)).toBe(JSON.stringify({ a: g.a, l: g.l }));
  });
});

describe("BufferShelf", () => {
  it("hands out powers of two, reuses what is given back, and holds at most its limit", () => {
    const s = new BufferShelf(4096);
    const a = s.take(100);
    expect(a.length).toBe(512);
    expect(s.take(513).length).toBe(1024);
    expect(s.take(2048).length).toBe(2048);
    s.give(a);
    expect(s.bytes).toBe(512);
    expect(s.take(300)).toBe(a);
    expect(s.bytes).toBe(0);
    s.give(Buffer.allocUnsafeSlow(3000)); // not one of its sizes
    expect(s.bytes).toBe(0);
    s.give(s.take(4096));
    s.give(s.take(512)); // over the limit: left to the collector
    expect(s.bytes).toBe(4096);
  });
});
