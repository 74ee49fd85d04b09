/** The counting limits behind login and registration, in-process and in Redis, on an injected clock. */
import { describe, expect, it } from "vitest";
import { storeKinds } from "../../test/support/store-kinds.js";
import { AppError } from "./errors.js";
import { enforce, MemoryRateLimiter, RateLimitedError, record, RedisRateLimiter, type Limit, type RateLimiter } from "./rate-limit.js";
import { waitInWords } from "../protocol/durations.js";

type Make = (now: () => number) => RateLimiter;
const kinds = storeKinds<Make>(
  { memory: () => (now) => new MemoryRateLimiter(now), redis: (r, prefix) => (now) => new RedisRateLimiter(r, prefix, now) },
  { memory: "memory", redis: "redis" },
);
if (kinds.length === 1) console.log("rate-limit tests: no Redis available, Redis variant SKIPPED");

async function refusal(p: Promise<unknown>): Promise<AppError | null> {
  try {
    await p;
    return null;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
}

describe.each(kinds)("rate limits ($name)", (kind) => {
  const make: Make = (now) => kind.group()()(now);
  it("counts within a window, refuses at the limit with the wait in seconds, and starts again in the next window", async () => {
    let t = 16_666_667 * 60_000; // a window boundary for 60 s windows
    const limiter = make(() => t);
    const limit: Limit = { key: "login-fail:name:ann", max: 3, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) {
      expect(await refusal(enforce(limiter, [limit], t, "tries"))).toBeNull();
      await record(limiter, [limit]);
    }
    t += 20_000;
    const e = await refusal(enforce(limiter, [limit], t, "tries"));
    expect(e?.code).toBe("RATE_LIMITED");
    expect(e?.message).toBe("Too many tries; try again in 40 seconds.");
    // Other keys are not affected.
    expect(await refusal(enforce(limiter, [{ ...limit, key: "login-fail:name:bob" }], t, "tries"))).toBeNull();
    t += 40_000; // the next window
    expect(await refusal(enforce(limiter, [limit], t, "tries"))).toBeNull();
    expect((await limiter.count(limit.key, limit.windowMs)).count).toBe(0);
  });

  it("says a long wait in words (minutes, hours), keeping Retry-After in whole seconds", async () => {
    const hour = 3_600_000;
    let t = 555_555 * hour; // an hour's window boundary
    const limiter = make(() => t);
    const limit: Limit = { key: "register:addr:x", max: 1, windowMs: hour };
    await record(limiter, [limit]);
    t += hour - 1_722_000; // 1722 s left in the hour
    const e = await refusal(enforce(limiter, [limit], t, "registrations from your address"));
    expect(e?.message).toBe("Too many registrations from your address; try again in about 29 minutes.");
    expect((e as RateLimitedError).retryAfterSeconds).toBe(1722);
  });

  it("refuses when any of several limits is reached, and clear() forgets a key's window", async () => {
    const t = 2_000_000_000_000;
    const limiter = make(() => t);
    const byName: Limit = { key: "n", max: 10, windowMs: 900_000 };
    const byAddr: Limit = { key: "a", max: 2, windowMs: 900_000 };
    await record(limiter, [byName, byAddr]);
    await record(limiter, [byName, byAddr]);
    expect((await refusal(enforce(limiter, [byName, byAddr], t, "tries")))?.code).toBe("RATE_LIMITED");
    await limiter.clear("a", 900_000);
    expect(await refusal(enforce(limiter, [byName, byAddr], t, "tries"))).toBeNull();
    expect((await limiter.count("n", 900_000)).count).toBe(2);
  });
});

describe("waits in words", () => {
  it("says seconds while short, then about the minutes, then about the hours", () => {
    expect([1, 999, 1000, 1001, 45_000, 99_000].map(waitInWords)).toEqual(["1 second", "1 second", "1 second", "2 seconds", "45 seconds", "99 seconds"]);
    expect([100_000, 1_722_000, 60 * 60_000, 99 * 60_000].map(waitInWords)).toEqual(["about 2 minutes", "about 29 minutes", "about 60 minutes", "about 99 minutes"]);
    expect([100 * 60_000, 2 * 3_600_000, 24 * 3_600_000].map(waitInWords)).toEqual(["about 2 hours", "about 2 hours", "about 24 hours"]);
    const e = new RateLimitedError(2 * 3_600_000, "tries");
    expect([e.message, e.retryAfterSeconds]).toEqual(["Too many tries; try again in about 2 hours.", 7200]);
  });
});
