import { describe, expect, it } from "vitest";
import { goblinMarket } from "./index.js";

describe("parseOptions", () => {
  it("accepts {}, undefined and null", () => {
    expect(goblinMarket.parseOptions({})).toEqual({ ok: true, value: {} });
    expect(goblinMarket.parseOptions(undefined)).toEqual({ ok: true, value: {} });
    expect(goblinMarket.parseOptions(null)).toEqual({ ok: true, value: {} });
  });

  it("rejects unknown keys and non-objects with BAD_OPTIONS", () => {
    for (const raw of [{ speed: "fast" }, { coins: 20 }, [], [1], "x", 3, true]) {
      const r = goblinMarket.parseOptions(raw);
      expect(r.ok ? "ok" : r.error.code).toBe("BAD_OPTIONS");
    }
  });

  it("has the right identity", () => {
    expect(goblinMarket.id).toBe("goblin-market");
    expect(goblinMarket.name).toBe("Goblin Market");
  });
});
