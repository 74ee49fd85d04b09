/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps make them:
 * HMAC-SHA1 of the number of 30-second steps since the epoch, six digits. Pure: the time is
 * passed in. The secret is 20 random bytes (160 bits, RFC 4226's recommendation), shown to the
 * player in RFC 4648 base32 (the form apps take) and as an `otpauth://` URI for a QR code.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TOTP_STEP_MS = 30_000;
export const TOTP_DIGITS = 6;
/** Codes of this many steps before or after now are taken too (a phone's clock a little off). */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = "Goblin Bazaar";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function fromBase32(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const v = BASE32.indexOf(c);
    if (v < 0) throw new Error("not base32");
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret, in base32 (32 letters). */
export function newTotpSecret(): string {
  return base32(randomBytes(20));
}

/** The step a time falls in. */
export function stepAt(now: number): number {
  return Math.floor(now / TOTP_STEP_MS);
}

/** The code of `step` for a base32 secret (RFC 4226's dynamic truncation), `digits` long. */
export function totpCode(secret: string, step: number, digits = TOTP_DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", fromBase32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(n).padStart(digits, "0");
}

/** A code as typed: six digits, spaces allowed ("123 456"); null for anything else. */
export function typedCode(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length > 20) return null;
  const digits = raw.replace(/\s/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The step whose code `raw` is, within TOTP_WINDOW of `now` and after `lastStep` (a code is good
 * once: the step of the last one taken is kept), or null.
 */
export function matchingStep(secret: string, raw: unknown, now: number, lastStep: number | null): number | null {
  const code = typedCode(raw);
  if (code === null) return null;
  const at = stepAt(now);
  for (let step = at - TOTP_WINDOW; step <= at + TOTP_WINDOW; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    const want = Buffer.from(totpCode(secret, step));
    if (timingSafeEqual(want, Buffer.from(code))) return step;
  }
  return null;
}

/** The URI an authenticator app reads from a QR code. */
export function otpauthUri(secret: string, account: string): string {
  const label = encodeURIComponent(`${TOTP_ISSUER}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(TOTP_ISSUER)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_MS / 1000}`;
}
