import { describe, expect, it } from "vitest";
import { aucteraden as game } from "./index.js";

describe("parseOptions", () => {
  it("accepts {}, undefined, null and extended true/false; the default is the standard Decktet", () => {
    expect(game.parseOptions({})).toEqual({ ok: true, value: { extended: false } });
    expect(game.parseOptions(undefined)).toEqual({ ok: true, value: { extended: false } });
    expect(game.parseOptions(null)).toEqual({ ok: true, value: { extended: false } });
    expect(game.parseOptions({ extended: undefined })).toEqual({ ok: true, value: { extended: false } });
    expect(game.parseOptions({ extended: true })).toEqual({ ok: true, value: { extended: true } });
    expect(game.parseOptions({ extended: false })).toEqual({ ok: true, value: { extended: false } });
  });

  it("rejects unknown keys, bad values and non-objects with BAD_OPTIONS", () => {
    for (const raw of [{ speed: "fast" }, { extended: "yes" }, { extended: 1 }, { extended: null }, { extended: true, seed: "x" }, [], [1], "x", 3, true]) {
      const r = game.parseOptions(raw);
      expect(r.ok ? "ok" : r.error.code, JSON.stringify(raw)).toBe("BAD_OPTIONS");
      if (!r.ok) expect(r.error.message.length).toBeGreaterThan(0);
    }
  });

  it("setup is for exactly one player", () => {
    for (const players of [0, 2, 3, 1.5]) expect(() => game.setup({ players, options: { extended: false }, seed: "a" })).toThrow(RangeError);
  });

  it("has the right identity", () => {
    expect(game.id).toBe("aucteraden");
    expect(game.name).toBe("Aucteraden");
    expect([game.minPlayers, game.maxPlayers]).toEqual([1, 1]);
  });
});
