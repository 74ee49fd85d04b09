/**
 * Password hashing with scrypt (node:crypto), memory-hard. Stored as
 * "scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>": verification reads the parameters from
 * the stored string, so raising them later leaves old hashes valid (`needsRehash` says when a
 * successful login should store a fresh hash under the current parameters).
 *
 * A new password must not be one of the most common ones (as NIST SP 800-63B asks, and Lichess
 * does): the 17,950 of 8 characters or more among zxcvbn's 49,233 most common passwords (the
 * `@zxcvbn-ts/language-common` package, pinned), compared case-insensitively, nor the account's own
 * name or the site's. Passwords chosen before the rule keep working.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { createRequire } from "node:module";
import { err } from "./errors.js";

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** 2^15 x 8 x 128 bytes = 32 MiB of memory per hash; about 50-100 ms of one core. */
export const CURRENT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

let common: Set<string> | null = null;

/** Whether `password` is one of the most common passwords (any case). The list loads on first use: new passwords are rare. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    (createRequire(import.meta.url)("@zxcvbn-ts/language-common/src/passwords.json") as string[]).filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase()),
  );
  return common.has(password.normalize("NFC").toLowerCase());
}

const folded = (s: string) => s.normalize("NFKC").toLowerCase().replace(/[\s_.'-]/g, "");

/** A new password as given (never trimmed or normalised), or WEAK_PASSWORD: too short or long, too common, or the account's name. */
export function checkPassword(raw: unknown, context: { name?: string } = {}): string {
  if (typeof raw !== "string" || [...raw].length < PASSWORD_MIN || [...raw].length > PASSWORD_MAX) {
    throw err("WEAK_PASSWORD", `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  }
  if (isCommonPassword(raw)) throw err("WEAK_PASSWORD", "That password is one of the most common ones, the first that anyone guessing tries. Choose another.");
  const mine = folded(raw);
  if ((context.name !== undefined && mine === folded(context.name)) || mine === "goblinbazaar") {
    throw err("WEAK_PASSWORD", "A password must not be your name or the site's. Choose another.");
  }
  return raw;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // maxmem must exceed 128 * N * r bytes (the default, 32 MiB, is exactly N=2^15, r=8: too small).
  const opts: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize("NFC"), salt, KEY_BYTES, opts, (e, key) => (e ? reject(e) : resolve(key))));
}

export async function hashPassword(password: string, params: ScryptParams = CURRENT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Bounds keep a corrupted row from asking for gigabytes.
  if (!Number.isInteger(N) || N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0) return null;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const key = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { params: { N, r, p }, salt, key };
}

/** Whether `password` matches `stored` (constant-time compare of the derived keys). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash uses weaker parameters than today's. */
export function needsRehash(stored: string, params: ScryptParams = CURRENT): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

/** A hash of a password nobody has, to spend the same time on an unknown name as on a wrong password. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  return (decoy ??= hashPassword(randomBytes(16).toString("hex")));
}
