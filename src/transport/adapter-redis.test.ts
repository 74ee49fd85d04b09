/** The adapter's client: a PUBLISH that fails because the connection closed is logged, not an unhandled rejection. */
import { describe, expect, it } from "vitest";
import { adapterRedis } from "./adapter-redis.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

describe("the streams adapter's Redis client", () => {
  it("a publish dropped by its caller on a closed connection is logged, not left unhandled", async () => {
    const logged: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const redis = adapterRedis(REDIS_URL, { debug: (o: unknown) => void logged.push(o) } as never);
      await redis.ping();
      redis.disconnect();
      // As the adapter does: publish and drop the promise.
      void redis.publish("gb-test-channel", "x");
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      expect(logged).toHaveLength(1);
      // Whoever does wait still sees the failure.
      await expect(redis.publish("gb-test-channel", "y")).rejects.toThrow(/closed/i);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
