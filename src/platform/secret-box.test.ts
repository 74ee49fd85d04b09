import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, parseSecretKey, SecretBox } from "./secret-box.js";

const KEY = randomBytes(32);
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

describe("two-step login secrets sealed at rest (secret-box.ts)", () => {
  it("reads TOTP_KEY as 64 hex digits or base64 / base64url of 32 bytes, and nothing else", () => {
    expect(parseSecretKey(KEY.toString("hex"))).toEqual(KEY);
    expect(parseSecretKey(KEY.toString("base64"))).toEqual(KEY);
    expect(parseSecretKey(KEY.toString("base64url"))).toEqual(KEY);
    for (const bad of ["", "short", KEY.toString("hex").slice(2), randomBytes(16).toString("base64"), "x".repeat(64)]) expect(parseSecretKey(bad), bad).toBeNull();
  });

  it("seals a secret so that only its own account's box opens it; each seal differs", () => {
    const box = new SecretBox(KEY);
    const a = box.seal(SECRET, "p_ann");
    const b = box.seal(SECRET, "p_ann");
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain(SECRET);
    expect(a).not.toBe(b); // a fresh IV each time
    expect(box.open(a, "p_ann")).toBe(SECRET);
    expect(box.open(b, "p_ann")).toBe(SECRET);
    // Copied to another account, it does not open.
    expect(() => box.open(a, "p_bob")).toThrow();
    // Nor with another key, nor changed by one character.
    expect(() => new SecretBox(randomBytes(32)).open(a, "p_ann")).toThrow();
    const body = a.split(":")[2]!;
    const flipped = a.replace(body, (body[0] === "A" ? "B" : "A") + body.slice(1));
    expect(() => box.open(flipped, "p_ann")).toThrow();
    expect(() => box.open("enc1:broken", "p_ann")).toThrow(/malformed/);
  });

  it("without a key stores secrets as they are, reads plain ones either way, and cannot open sealed ones", () => {
    const none = new SecretBox(null);
    expect(none.sealing).toBe(false);
    expect(none.seal(SECRET, "p_ann")).toBe(SECRET);
    expect(none.open(SECRET, "p_ann")).toBe(SECRET);
    expect(new SecretBox(KEY).open(SECRET, "p_ann")).toBe(SECRET);
    expect(() => none.open(new SecretBox(KEY).seal(SECRET, "p_ann"), "p_ann")).toThrow(/TOTP_KEY is not set/);
  });
});
