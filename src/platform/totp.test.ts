import { describe, expect, it } from "vitest";
import { base32, fromBase32, matchingStep, newTotpSecret, otpauthUri, stepAt, totpCode, typedCode } from "./totp.js";

// RFC 6238, Appendix B: the SHA-1 seed "12345678901234567890" and its eight-digit codes.
const RFC_SECRET = base32(Buffer.from("12345678901234567890", "ascii"));
const RFC: Array<[number, string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("totp", () => {
  it("makes RFC 6238's SHA-1 test codes", () => {
    expect(RFC_SECRET).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    for (const [seconds, code] of RFC) {
      expect(totpCode(RFC_SECRET, stepAt(seconds * 1000), 8)).toBe(code);
      expect(totpCode(RFC_SECRET, stepAt(seconds * 1000))).toBe(code.slice(2));
    }
  });

  it("base32 round-trips, and new secrets are 160 bits", () => {
    for (const n of [0, 1, 5, 19, 20, 33]) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 255));
      expect(fromBase32(base32(bytes))).toEqual(bytes);
    }
    const s = newTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    expect(fromBase32(s)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(s);
    expect(fromBase32(s.toLowerCase().replace(/(.{4})/g, "$1 "))).toEqual(fromBase32(s));
  });

  it("takes a code of the step before, now or after, once, and nothing else", () => {
    const now = 1_800_000_015_000;
    const at = stepAt(now);
    for (const d of [-1, 0, 1]) expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + d), now, null)).toBe(at + d);
    for (const d of [-2, 2]) expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + d), now, null)).toBeNull();
    // Used already: that step, and any before it, are refused.
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at), now, at)).toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at - 1), now, at)).toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + 1), now, at)).toBe(at + 1);
    // As typed: spaces fine; anything but six digits refused.
    const code = totpCode(RFC_SECRET, at);
    expect(matchingStep(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now, null)).toBe(at);
    for (const bad of [undefined, 123456, "12345", "1234567", "12345a", "", "x".repeat(50)]) expect(typedCode(bad)).toBeNull();
  });

  it("names the issuer and account in the URI apps read", () => {
    expect(otpauthUri("ABC", "Ann Lee")).toBe("otpauth://totp/Goblin%20Bazaar%3AAnn%20Lee?secret=ABC&issuer=Goblin%20Bazaar&algorithm=SHA1&digits=6&period=30");
  });
});
