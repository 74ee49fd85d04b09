import { describe, expect, it } from "vitest";
import { appendLog, visibleLog } from "./log.js";

describe("event log", () => {
  it("numbers entries and filters private ones per viewer", () => {
    let log = appendLog([], { type: "public" });
    log = appendLog(log, { type: "secret", to: [1], card: "pact" });
    log = appendLog(log, { type: "public-2" });
    expect(log.map((e) => e.n)).toEqual([1, 2, 3]);
    expect(visibleLog(log, { kind: "seat", seat: 1 }).map((e) => e.type)).toEqual(["public", "secret", "public-2"]);
    expect(visibleLog(log, { kind: "seat", seat: 0 }).map((e) => e.type)).toEqual(["public", "public-2"]);
    expect(visibleLog(log, { kind: "spectator" }).map((e) => e.type)).toEqual(["public", "public-2"]);
  });
});
