/**
 * The Redis client of the Socket.IO streams adapter. The adapter sends its Pub/Sub messages
 * (fetchSockets requests, used for presence, and the answers to other nodes' requests) without
 * handling a failed PUBLISH: when the connection closes under one, as it does when a node stops,
 * that is an unhandled rejection, and an unhandled rejection ends a Node process (seen in CI as
 * "Connection is closed" while a node was stopped). This wraps our own client's `publish` (its
 * public method, on our instance) so a failure is logged instead; whoever waits for an answer
 * still sees it missing through its own timeout.
 */
import { Redis } from "ioredis";
import type { Logger } from "../logger.js";

export function adapterRedis(url: string, log: Pick<Logger, "debug">): Redis {
  const redis = new Redis(url);
  const publish = redis.publish.bind(redis) as (...args: unknown[]) => Promise<unknown>;
  (redis as unknown as { publish: (...args: unknown[]) => Promise<unknown> }).publish = (...args) => {
    const sent = publish(...args);
    sent.catch((e: unknown) => log.debug({ err: e }, "the adapter's publish failed (the connection closed?)"));
    return sent;
  };
  return redis;
}
