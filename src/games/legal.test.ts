import { describe, expect, it } from "vitest";
import { matchesLegal, randomLegalAction } from "./legal.js";
import type { LegalAction } from "./types.js";

const legal: LegalAction[] = [
  { type: "bid", params: { amount: { kind: "int", min: 3, max: 7 } } },
  { type: "pass" },
  { type: "take-one", params: { card: { kind: "choice", options: ["pact", "sea"] } } },
];

describe("legal action templates", () => {
  it("match concrete actions within their bounds only", () => {
    expect(matchesLegal(legal, { type: "bid", amount: 3 })).toBe(true);
    expect(matchesLegal(legal, { type: "bid", amount: 8 })).toBe(false);
    expect(matchesLegal(legal, { type: "bid", amount: 3.5 })).toBe(false);
    expect(matchesLegal(legal, { type: "bid" })).toBe(false);
    expect(matchesLegal(legal, { type: "pass" })).toBe(true);
    expect(matchesLegal(legal, { type: "pass", extra: 1 })).toBe(false);
    expect(matchesLegal(legal, { type: "take-one", card: "sea" })).toBe(true);
    expect(matchesLegal(legal, { type: "take-one", card: "end" })).toBe(false);
    expect(matchesLegal(legal, { type: "fly" })).toBe(false);
  });

  it("random picks are always legal and cover every template", () => {
    let s = 1;
    const random = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 0x100000000);
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const a = randomLegalAction(legal, random)!;
      expect(matchesLegal(legal, a)).toBe(true);
      seen.add(a.type === "bid" ? `bid${a.amount}` : a.type === "take-one" ? `one-${a.card}` : a.type);
    }
    expect(seen.size).toBe(5 + 1 + 2);
    expect(randomLegalAction([], random)).toBeNull();
  });
  it("rejects parameters whose names are inherited object properties", () => {
    const legal: LegalAction[] = [{ type: "pass" }, { type: "bid", params: { amount: { kind: "int", min: 1, max: 3 } } }];
    expect(matchesLegal(legal, { type: "pass", constructor: 1 })).toBe(false);
    expect(matchesLegal(legal, { type: "bid", amount: 2, toString: "x" })).toBe(false);
    expect(matchesLegal(legal, { type: "bid", amount: 2 })).toBe(true);
  });
});
