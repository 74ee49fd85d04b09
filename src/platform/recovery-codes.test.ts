import { describe, expect, it } from "vitest";
import { codeMatches, newRecoveryCode, normalizeCode } from "./recovery-codes.js";

describe("recovery codes", () => {
  it("are four groups of five base32 letters, different each time, and only their hash is kept", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { code, hash } = newRecoveryCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
      expect(hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
      expect(hash).not.toContain(code.replace(/-/g, ""));
      seen.add(code);
    }
    expect(seen.size).toBe(200);
  });

  it("are read back forgivingly: case, spaces, dashes, O for 0, I and L for 1", () => {
    const { code, hash } = newRecoveryCode();
    expect(codeMatches(code, hash)).toBe(true);
    expect(codeMatches(code.toLowerCase().replace(/-/g, " "), hash)).toBe(true);
    expect(codeMatches(` ${code.replace(/-/g, "")} `, hash)).toBe(true);
    expect(normalizeCode("7kq2m-x9d4p-0o0o0-1il1l")).toBe("7KQ2MX9D4P0000011111");
    // One letter off, too short, not a string, no stored hash: no.
    const last = code.at(-1) === "Z" ? "Y" : "Z";
    expect(codeMatches(code.slice(0, -1) + last, hash)).toBe(false);
    expect(codeMatches(code.slice(0, -2), hash)).toBe(false);
    expect(codeMatches(12345, hash)).toBe(false);
    expect(codeMatches(code, null)).toBe(false);
    expect(normalizeCode("UUUUU-UUUUU-UUUUU-UUUUU")).toBeNull();
  });
});
