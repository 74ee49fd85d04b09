/**
 * Recovery codes (docs/protocol.md, "Recovery codes"): accounts hold no email, so a forgotten
 * password is recovered with a code the player was shown once and kept. A code is 100 random bits
 * in 20 letters of Crockford's base32 (no I, L, O or U), shown in four groups of five
 * ("7KQ2M-X9D4P-...") and read back forgivingly: any case, any spaces or dashes, O for 0 and I or L
 * for 1. Only its SHA-256 is stored ("sha256$<hex>"): with 100 random bits there is nothing for a
 * slow hash to protect, unlike a password a person chose. A code works once: recovering with it
 * sets a new password and a new code.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 20;

/** A new code (as shown) and the hash to store. */
export function newRecoveryCode(): { code: string; hash: string } {
  const bytes = randomBytes(LENGTH);
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  const raw = [...bytes].map((b) => ALPHABET[b & 31]).join("");
  return { code: raw.match(/.{5}/g)!.join("-"), hash: hashOf(raw) };
}

/** The code's 20 letters as typed by a person, or null when it cannot be one. */
export function normalizeCode(typed: unknown): string | null {
  if (typeof typed !== "string" || typed.length > 100) return null;
  const raw = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return raw.length === LENGTH && [...raw].every((c) => ALPHABET.includes(c)) ? raw : null;
}

function hashOf(raw: string): string {
  return "sha256$" + createHash("sha256").update(raw).digest("hex");
}

/** Whether `typed` is the code whose hash is `stored` (constant time in the hash). */
export function codeMatches(typed: unknown, stored: string | null): boolean {
  const raw = normalizeCode(typed);
  if (raw === null || stored === null) return false;
  const a = Buffer.from(hashOf(raw));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
