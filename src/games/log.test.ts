import { describe, expect, it } from "vitest";
import { appendEvents, visibleLog } from "./log.js";

describe("event log", () => {
  it("numbers entries and filters private ones per viewer", () => {
    let log = appendEvents([], [{ type: "public" }]);
    log = appendEvents(log, [{ type: "secret", to: [1], card: "pact" }]);
    log = appendEvents(log, [{ type: "public-2" }]);
    expect(log.map((e) => e.n)).toEqual([1, 2, 3]);
    expect(visibleLog(log, { kind: "seat", seat: 1 }).map((e) => e.type)).toEqual(["public", "secret", "public-2"]);
    expect(visibleLog(log, { kind: "seat", seat: 0 }).map((e) => e.type)).toEqual(["public", "public-2"]);
    expect(visibleLog(log, { kind: "spectator" }).map((e) => e.type)).toEqual(["public", "public-2"]);
  });

  it("appends a step's events in one copy, numbered in order, leaving the input as it was", () => {
    const before = appendEvents([], [{ type: "a" }]);
    const frozen = Object.freeze(before.slice());
    const after = appendEvents(frozen, [{ type: "b", seat: 2 }, { type: "c" }]);
    expect(after.map((e) => [e.type, e.n])).toEqual([["a", 1], ["b", 2], ["c", 3]]);
    expect(after[1]).toEqual({ type: "b", seat: 2, n: 2 });
    expect(frozen).toHaveLength(1);
    expect(appendEvents(frozen, [])).toEqual(frozen);
    expect(appendEvents(frozen, [])).not.toBe(frozen);
  });
});
