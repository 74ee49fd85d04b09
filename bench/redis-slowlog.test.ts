import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { slowCommandsSince, slowLogMark } from "./redis-slowlog.js";

const url = process.env.GB_TEST_REDIS_URL;

describe.runIf(url)("Redis slow log around a window", () => {
  const redis = new Redis(url!);
  afterAll(() => redis.quit());

  it("counts only the entries added after the mark, with the longest, without resetting the log", async () => {
    const [, threshold] = (await redis.config("GET", "slowlog-log-slower-than")) as [string, string];
    const thresholdMs = Number(threshold) / 1000;
    expect(thresholdMs).toBeGreaterThan(0);
    const mark = await slowLogMark(redis);
    expect(mark).not.toBeNull();
    const before = await slowCommandsSince(redis, mark);
    expect(before).toEqual({ count: 0, longestMs: 0, thresholdMs });
    // A script that keeps Redis busy for twice the threshold (by Redis's own clock).
    const busy = "local s = redis.call('TIME'); local t0 = s[1] * 1e6 + s[2]; repeat s = redis.call('TIME') until s[1] * 1e6 + s[2] - t0 >= tonumber(ARGV[1]) return 1";
    await redis.eval(busy, 0, String(2 * thresholdMs * 1000));
    const after = await slowCommandsSince(redis, mark);
    // Ours, and any other test's command that was slow meanwhile (tests share this Redis).
    expect(after!.count).toBeGreaterThanOrEqual(1);
    expect(after!.longestMs).toBeGreaterThanOrEqual(2 * thresholdMs);
    expect(after!.longestMs).toBeLessThan(2 * thresholdMs + 1000);
    // A new mark leaves the earlier entry out; the entry is still in the log.
    expect(await slowCommandsSince(redis, await slowLogMark(redis))).toEqual({ count: 0, longestMs: 0, thresholdMs });
    expect(Number(await redis.call("SLOWLOG", "LEN"))).toBeGreaterThan(0);
  });
});
