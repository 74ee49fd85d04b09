/** Password hashing: scrypt, parameters read from the stored string, constant-time verification. */
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.js";
import { checkPassword, CURRENT, hashPassword, isCommonPassword, needsRehash, verifyPassword } from "./passwords.js";

describe("passwords", () => {
  it("stores scrypt$N$r$p$salt$hash and verifies only the right password", async () => {
    const h = await hashPassword("correct horse battery");
    expect(h).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("correct horse battery", h)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h)).toBe(false);
    expect(await verifyPassword("", h)).toBe(false);
    // A fresh salt every time.
    expect(await hashPassword("correct horse battery")).not.toBe(h);
  });

  it("reads the parameters from the stored hash, so older (weaker) hashes still verify and ask to be redone", async () => {
    const old = await hashPassword("old but gold", { N: 2 ** 10, r: 8, p: 1 });
    expect(old.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("old but gold", old)).toBe(true);
    expect(await verifyPassword("old but bold", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("x".repeat(8)))).toBe(false);
    expect(CURRENT.N).toBeGreaterThanOrEqual(2 ** 15);
  });

  it("refuses malformed or absurd stored hashes without throwing", async () => {
    const good = await hashPassword("password1");
    const parts = good.split("$");
    for (const bad of ["", "bcrypt$x", good.replace("scrypt", "scrypx"), ["scrypt", "3", ...parts.slice(2)].join("$"), ["scrypt", String(2 ** 30), ...parts.slice(2)].join("$"), parts.slice(0, 5).join("$")]) {
      expect(await verifyPassword("password1", bad)).toBe(false);
      expect(needsRehash(bad)).toBe(true);
    }
  });

  it("accepts 8 to 200 characters as given, else WEAK_PASSWORD", () => {
    const code = (v: unknown) => {
      try {
        checkPassword(v);
        return "ok";
      } catch (e) {
        return (e as AppError).code;
      }
    };
    expect(code("1234567")).toBe("WEAK_PASSWORD");
    expect(code("9Kv4-qui")).toBe("ok");
    expect(code("x".repeat(200))).toBe("ok");
    expect(code("x".repeat(201))).toBe("WEAK_PASSWORD");
    expect(code(12345678)).toBe("WEAK_PASSWORD");
    expect(code(undefined)).toBe("WEAK_PASSWORD");
    expect(checkPassword("  spaced  ")).toBe("  spaced  ");
  });

  it("refuses the most common passwords in any case, and the account's own name or the site's", () => {
    const code = (v: unknown, name?: string) => {
      try {
        checkPassword(v, name === undefined ? {} : { name });
        return "ok";
      } catch (e) {
        return `${(e as AppError).code}: ${(e as AppError).message}`;
      }
    };
    for (const common of ["12345678", "password", "PassWord", "iloveyou", "qwertyuiop", "trustno1", "sunshine1"]) {
      expect(code(common)).toMatch(/^WEAK_PASSWORD: That password is one of the most common ones/);
      expect(isCommonPassword(common)).toBe(true);
    }
    // Short ones in the list are refused for length already; a rare one passes.
    expect(isCommonPassword("goblin market auctions at dusk")).toBe(false);
    expect(code("goblin market auctions at dusk")).toBe("ok");
    expect(code("Quill Feather", "Quill Feather")).toMatch(/^WEAK_PASSWORD: A password must not be your name/);
    expect(code("quillfeather", "Quill Feather")).toMatch(/^WEAK_PASSWORD: A password must not be your name/);
    expect(code("Goblin Bazaar")).toMatch(/^WEAK_PASSWORD: A password must not be your name or the site's/);
    expect(code("quillfeather2", "Quill Feather")).toBe("ok");
  });
});
