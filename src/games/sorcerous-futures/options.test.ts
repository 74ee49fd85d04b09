import { describe, expect, it } from "vitest";
import { sorcerousFutures as game } from "./index.js";

describe("parseOptions", () => {
  it("accepts {}, undefined, null, extended and match", () => {
    expect(game.parseOptions({})).toEqual({ ok: true, value: { match: 1 } });
    expect(game.parseOptions(undefined)).toEqual({ ok: true, value: { match: 1 } });
    expect(game.parseOptions(null)).toEqual({ ok: true, value: { match: 1 } });
    expect(game.parseOptions({ match: 3 })).toEqual({ ok: true, value: { match: 3 } });
    expect(game.parseOptions({ extended: "courts" })).toEqual({ ok: true, value: { match: 1, extended: "courts" } });
    expect(game.parseOptions({ extended: "pawns", match: 1 })).toEqual({ ok: true, value: { match: 1, extended: "pawns" } });
  });

  it("rejects unknown keys, bad values and non-objects with BAD_OPTIONS", () => {
    for (const raw of [
      { speed: "fast" },
      { extended: "excuse" },
      { extended: true },
      { extended: null },
      { match: 2 },
      { match: "3" },
      { match: 3, turbo: 1 },
      [],
      [1],
      "x",
      3,
      true,
    ]) {
      const r = game.parseOptions(raw);
      expect(r.ok ? "ok" : r.error.code, JSON.stringify(raw)).toBe("BAD_OPTIONS");
    }
  });

  it("extended is used only with 5 players (default Pawns there)", () => {
    expect(game.setup({ players: 5, options: { match: 1 }, seed: "a" }).state.extended).toBe("pawns");
    expect(game.setup({ players: 5, options: { extended: "courts" }, seed: "a" }).state.extended).toBe("courts");
    expect(game.setup({ players: 4, options: { extended: "courts" }, seed: "a" }).state.extended).toBeNull();
  });

  it("setup refuses player counts outside 3-5", () => {
    for (const players of [2, 6, 4.5]) expect(() => game.setup({ players, options: {}, seed: "a" })).toThrow(RangeError);
  });

  it("has the right identity", () => {
    expect(game.id).toBe("sorcerous-futures");
    expect(game.name).toBe("Sorcerous Futures");
    expect([game.minPlayers, game.maxPlayers]).toEqual([3, 5]);
  });
});
