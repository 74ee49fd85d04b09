/**
 * Counting limits for logins and registrations: fixed windows keyed by what is limited
 * ("login-fail:name:<nameKey>", "register:addr:<ip>", ...). Two stores with the same semantics:
 * Redis (shared by every node; keys expire by themselves) and in-process (one node). Both take
 * the time from an injected clock: the window a moment falls in is part of the key, so Redis's
 * own clock only decides when an old key is deleted, never whether a count applies.
 */
import type { Redis } from "ioredis";
import { AppError } from "./errors.js";
import { waitInWords } from "../protocol/durations.js";

export interface Count {
  count: number;
  /** Epoch ms when the window ends and the count starts again from zero. */
  resetAt: number;
}

export interface RateLimiter {
  /** The count in the current window. */
  count(key: string, windowMs: number): Promise<Count>;
  /** Adds one and returns the new count. */
  add(key: string, windowMs: number): Promise<Count>;
  /** Forgets the current window's count (a successful login clears its name's failures). */
  clear(key: string, windowMs: number): Promise<void>;
}

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const windowOf = (now: number, windowMs: number) => Math.floor(now / windowMs);

export class MemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, { n: number; resetAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  private slot(key: string, windowMs: number): { id: string; resetAt: number } {
    const w = windowOf(this.now(), windowMs);
    return { id: `${key}|${windowMs}|${w}`, resetAt: (w + 1) * windowMs };
  }

  private sweep(): void {
    if (this.counts.size < 10_000) return;
    const now = this.now();
    for (const [k, v] of this.counts) if (v.resetAt <= now) this.counts.delete(k);
  }

  async count(key: string, windowMs: number): Promise<Count> {
    const s = this.slot(key, windowMs);
    return { count: this.counts.get(s.id)?.n ?? 0, resetAt: s.resetAt };
  }

  async add(key: string, windowMs: number): Promise<Count> {
    this.sweep();
    const s = this.slot(key, windowMs);
    const n = (this.counts.get(s.id)?.n ?? 0) + 1;
    this.counts.set(s.id, { n, resetAt: s.resetAt });
    return { count: n, resetAt: s.resetAt };
  }

  async clear(key: string, windowMs: number): Promise<void> {
    this.counts.delete(this.slot(key, windowMs).id);
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  private slot(key: string, windowMs: number): { id: string; resetAt: number } {
    const w = windowOf(this.now(), windowMs);
    return { id: `${this.prefix}rl:${key}:${windowMs}:${w}`, resetAt: (w + 1) * windowMs };
  }

  async count(key: string, windowMs: number): Promise<Count> {
    const s = this.slot(key, windowMs);
    return { count: Number((await this.redis.get(s.id)) ?? 0), resetAt: s.resetAt };
  }

  async add(key: string, windowMs: number): Promise<Count> {
    const s = this.slot(key, windowMs);
    // Kept two windows (by Redis's clock), so a test clock ahead of or behind Redis's still finds it.
    const [[e1, n]] = (await this.redis.multi().incr(s.id).pexpire(s.id, 2 * windowMs).exec()) as [[Error | null, number], unknown];
    if (e1) throw e1;
    return { count: n, resetAt: s.resetAt };
  }

  async clear(key: string, windowMs: number): Promise<void> {
    await this.redis.del(this.slot(key, windowMs).id);
  }
}

/** RATE_LIMITED, with when to try again: in the message, and for HTTP's Retry-After header. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(waitMs: number, what: string) {
    const secs = Math.max(1, Math.ceil(waitMs / 1000));
    // The wait in words ("in 45 seconds", "in about 29 minutes": durations.ts waitInWords); HTTP's
    // Retry-After header keeps the whole seconds.
    super("RATE_LIMITED", `Too many ${what}; try again in ${waitInWords(waitMs)}.`);
    this.retryAfterSeconds = secs;
  }
}

/** RATE_LIMITED if any of the limits is reached (the message says when to try again), else nothing. */
export async function enforce(limiter: RateLimiter, limits: readonly Limit[], now: number, what: string): Promise<void> {
  let wait = 0;
  for (const l of limits) {
    const c = await limiter.count(l.key, l.windowMs);
    if (c.count >= l.max) wait = Math.max(wait, c.resetAt - now);
  }
  if (wait > 0) throw new RateLimitedError(wait, what);
}

/** Counts one attempt against each limit. */
export async function record(limiter: RateLimiter, limits: readonly Limit[]): Promise<void> {
  for (const l of limits) await limiter.add(l.key, l.windowMs);
}

const MIN = 60_000;
/** The limits the account routes apply (docs/protocol.md, Accounts and sessions). */
export const ACCOUNT_LIMITS = {
  /** Failed logins per account name. */
  loginFailuresPerName: { max: 10, windowMs: 15 * MIN },
  /** Failed logins per address (many names tried from one place). */
  loginFailuresPerAddress: { max: 30, windowMs: 15 * MIN },
  /** Registrations per address. */
  registrationsPerAddress: { max: 5, windowMs: 60 * MIN },
} as const;
