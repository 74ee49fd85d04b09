import { describe, expect, it } from "vitest";
import { goblinTeeth as game } from "./index.js";

describe("parseOptions", () => {
  it("accepts {}, undefined, null and advanced", () => {
    expect(game.parseOptions({})).toEqual({ ok: true, value: { advanced: false } });
    expect(game.parseOptions(undefined)).toEqual({ ok: true, value: { advanced: false } });
    expect(game.parseOptions(null)).toEqual({ ok: true, value: { advanced: false } });
    expect(game.parseOptions({ advanced: true })).toEqual({ ok: true, value: { advanced: true } });
    expect(game.parseOptions({ advanced: false })).toEqual({ ok: true, value: { advanced: false } });
  });

  it("rejects unknown keys, bad values and non-objects with BAD_OPTIONS", () => {
    for (const raw of [{ speed: "fast" }, { advanced: "yes" }, { advanced: 1 }, { advanced: null }, { advanced: true, turbo: 1 }, [], [1], "x", 3, true]) {
      const r = game.parseOptions(raw);
      expect(r.ok ? "ok" : r.error.code, JSON.stringify(raw)).toBe("BAD_OPTIONS");
      if (!r.ok) expect(r.error.message.length).toBeGreaterThan(10);
    }
  });

  it("has the right identity and refuses player counts outside 2-5", () => {
    expect(game.id).toBe("goblin-teeth");
    expect(game.name).toBe("Goblin Teeth");
    expect([game.minPlayers, game.maxPlayers]).toEqual([2, 5]);
    for (const players of [1, 6, 2.5]) expect(() => game.setup({ players, options: {}, seed: "a" })).toThrow(RangeError);
  });
});
