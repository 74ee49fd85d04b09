/**
 * Identity tokens, signed with HMAC-SHA256. A guest token holds a player id and display name
 * ({p, n, t}); an account token holds a player id and the id of its login session ({p, s, t}),
 * and is only good while that session is not revoked (checked by Accounts.verify, accounts.ts,
 * which also takes the name from the account, never from the token). Tokens survive reconnects
 * and reloads; seats belong to the player id, never to a socket.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { err } from "./errors.js";
import { hasInvisible } from "./name-skeleton.js";
import { ERASED_NAME } from "../protocol/wire.js";

export interface Player {
  id: string;
  name: string;
  /**
   * A registered account (ranked rooms and the rated daily attempt need one). Set by the server
   * from a verified account token only (Accounts.verify), never from anything a client sends.
   */
  account?: boolean;
}

/** What a correctly signed token says; an account token's session still has to be checked. */
export type TokenClaims = { kind: "guest"; id: string; name: string } | { kind: "account"; id: string; session: string };

/** Case-insensitive key of a display name (NFC, lower case): account names are unique by it. */
export function nameKey(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

const NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N} _.'-]{0,23}$/u;
/** A character a name may hold (NAME_RE). */
const NAME_CHAR = /[\p{L}\p{N} _.'-]/u;
/** The longest name, in characters (code points, as NAME_RE counts). */
const NAME_MAX = 24;

/** The name rule in words: the refusal of a name that is no text or empty (and of the HTTP schema). */
export const NAME_RULE = "Choose a name of 1 to 24 characters: letters, digits, spaces and _ . ' -, starting with a letter or digit.";

/** A character as a refusal names it: quoted, or by its code point when it shows nothing by itself (a mark, a control). */
function shown(ch: string): string {
  return /[\p{M}\p{C}\p{Z}]/u.test(ch) ? `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}` : `"${ch}"`;
}

/** Why `name` (tidied) breaks NAME_RE, in words: the first character not allowed, the first one, or the length. */
function nameRuleBroken(name: string): string {
  if (name === "") return NAME_RULE;
  const chars = [...name];
  const bad = chars.find((ch) => !NAME_CHAR.test(ch));
  if (bad !== undefined) return `A name may have letters, digits, spaces and _ . ' - only: ${shown(bad)} is not allowed.`;
  if (!/[\p{L}\p{N}]/u.test(chars[0]!)) return `A name must start with a letter or digit, not ${shown(chars[0]!)}.`;
  return `A name may have ${NAME_MAX} characters at most; this one has ${chars.length}.`;
}

/**
 * The scripts a name's letters are told apart by. A letter of none of them counts as "other"
 * (a name in one rarer script is fine; mixing it with one of these is not).
 */
const SCRIPTS = ["Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Thai", "Ethiopic", "Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"].map(
  (name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const,
);
/** Scripts that are written together: Japanese, Chinese and Korean with Latin (UTS #39, "highly restrictive"). */
const WRITTEN_TOGETHER = [new Set(["Latin", "Han", "Hiragana", "Katakana"]), new Set(["Latin", "Han", "Bopomofo"]), new Set(["Latin", "Han", "Hangul"])];

/** The scripts of the letters of `name` (digits, spaces and punctuation belong to none). */
export function scriptsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const ch of name) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? "other");
  }
  return found;
}

/**
 * A display name: 1-24 letters, digits, spaces and `_ . ' -`, starting with a letter or digit, in
 * one script (or the scripts written together: Japanese, Chinese, Korean with Latin). Mixing
 * scripts is how a name imitates another: "Lаura" with a Cyrillic "а" reads as "Laura" but is a
 * different account. Nor may it hold a letter that draws nothing (a Hangul filler): "Laura" with one
 * at its end would read as "Laura" too. Look-alikes written in one script (an all-Cyrillic "Аре"
 * beside "Ape") pass here and are refused where names are checked against accounts
 * (Accounts.nameHolder, by skeleton: name-skeleton.ts).
 */
export function validateName(raw: unknown): string {
  if (typeof raw !== "string") throw err("BAD_NAME", NAME_RULE);
  const name = raw.normalize("NFC").trim().replace(/\s+/g, " ");
  // Invisible characters first: the character rule would name one that cannot be seen.
  if (hasInvisible(name)) throw err("BAD_NAME", "Choose a name without invisible characters: they make it look like someone else's.");
  if (!NAME_RE.test(name)) throw err("BAD_NAME", nameRuleBroken(name));
  if (name.toLowerCase() === ERASED_NAME.toLowerCase()) throw err("BAD_NAME", `"${ERASED_NAME}" stands for players who erased their data; choose another name.`);
  const scripts = scriptsOf(name);
  if (scripts.size > 1 && !WRITTEN_TOGETHER.some((set) => [...scripts].every((x) => set.has(x)))) {
    throw err("BAD_NAME", `Write a name in one alphabet: this one mixes ${[...scripts].join(" and ")} letters, which can make it look like someone else's.`);
  }
  return name;
}

export function newPlayerId(): string {
  return "p_" + randomBytes(12).toString("base64url");
}

export class TokenIssuer {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error("TOKEN_SECRET must be at least 16 characters");
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }

  /** A guest token. */
  issue(player: Player): string {
    const body = Buffer.from(JSON.stringify({ p: player.id, n: player.name, t: Date.now() })).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** An account token: the player and their login session (no name: that comes from the account). */
  issueSession(playerId: string, sessionId: string): string {
    const body = Buffer.from(JSON.stringify({ p: playerId, s: sessionId, t: Date.now() })).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** What a token we signed says, or null when it is malformed or not signed by us. */
  decode(token: unknown): TokenClaims | null {
    if (typeof token !== "string" || token.length > 512) return null;
    const dot = token.indexOf(".");
    if (dot <= 0) return null;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(body));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
    try {
      const data = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p?: unknown; n?: unknown; s?: unknown };
      if (typeof data.p !== "string") return null;
      if (typeof data.s === "string") return { kind: "account", id: data.p, session: data.s };
      if (typeof data.n === "string") return { kind: "guest", id: data.p, name: data.n };
      return null;
    } catch {
      return null;
    }
  }

  /**
   * The player in a GUEST token, signature only, or null. Account tokens are null here: they
   * need the session check and the account's name, which only Accounts.verify (async) does.
   * @deprecated for new code: use Accounts.verify, which also refuses a guest token whose player
   * has since registered.
   */
  verify(token: unknown): Player | null {
    const c = this.decode(token);
    return c && c.kind === "guest" ? { id: c.id, name: c.name } : null;
  }

}
