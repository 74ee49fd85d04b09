/**
 * Every setting the server reads from the environment, in one place. The README's
 * configuration table mirrors this file.
 */
import { hostname } from "node:os";

export interface Config {
  port: number;
  host: string;
  /** Postgres URL; unset = embedded PGlite in pgliteDir. */
  databaseUrl?: string;
  pgliteDir: string;
  /** Redis URL; unset = in-process room store (single node only). */
  redisUrl?: string;
  /** Prefix of every Redis key this server uses (rooms, adapter stream, token secret). */
  redisPrefix?: string;
  /** HMAC secret for guest tokens; unset = generated once and kept in dataDir. */
  tokenSecret?: string;
  dataDir: string;
  logLevel: string;
  /** Delay before a bot seat acts, ms. */
  botDelayMs: number;
  /** An open room whose host has been away this long is closed, ms. */
  hostAwayMs: number;
  /** How often an open room is checked for its host, ms. */
  openCheckMs: number;
  /** How often each node looks for due timers (clocks, bots, idle rooms) in the room store, ms. */
  timerPollMs: number;
  /** How often each node runs a quick play round (leases, accept deadlines, forming tables), ms. */
  queueTickMs: number;
  /** Largest accepted event payload, bytes (larger ones get PAYLOAD_TOO_LARGE). */
  maxPayloadBytes: number;
  /** Events per second a socket may send before RATE_LIMITED. */
  rateLimitPerSecond: number;
  /** Name of this node in logs. */
  nodeId: string;
  /** Folder with the built web client; served at / when it exists. */
  clientDir?: string;
  /**
   * "on": the fast paths through dependencies' private internals (transport/internals.ts) that
   * pass their start-up check; "off": none, public APIs only.
   */
  fastPaths: "on" | "off";
  /**
   * Fastify's trustProxy: false (default) takes the client address from the connection; true
   * trusts X-Forwarded-For (set it only behind a proxy that sets that header), anything else
   * is a comma-separated list of the proxies' addresses or subnets whose X-Forwarded-For is
   * trusted. The address is what login and registration limits count by.
   */
  trustProxy: boolean | string;
}

function trustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === "" || value === "false" || value === "off") return false;
  if (value === "true" || value === "on") return true;
  return value;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative whole number, got "${value}"`);
  return n;
}

function oneOf<const T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === "") return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

function opt(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR || "./data";
  return {
    port: int("PORT", env.PORT, 3000),
    host: env.HOST || "0.0.0.0",
    databaseUrl: opt(env.DATABASE_URL),
    pgliteDir: env.PGLITE_DIR || `${dataDir}/pglite`,
    redisUrl: opt(env.REDIS_URL),
    redisPrefix: env.REDIS_PREFIX || "gb:",
    tokenSecret: opt(env.TOKEN_SECRET),
    dataDir,
    logLevel: env.LOG_LEVEL || "info",
    botDelayMs: int("BOT_DELAY_MS", env.BOT_DELAY_MS, 600),
    hostAwayMs: int("HOST_AWAY_MS", env.HOST_AWAY_MS, 300_000),
    openCheckMs: int("OPEN_CHECK_MS", env.OPEN_CHECK_MS, 600_000),
    timerPollMs: int("TIMER_POLL_MS", env.TIMER_POLL_MS, 250),
    queueTickMs: int("QUEUE_TICK_MS", env.QUEUE_TICK_MS, 1000),
    maxPayloadBytes: int("MAX_PAYLOAD_BYTES", env.MAX_PAYLOAD_BYTES, 8192),
    rateLimitPerSecond: int("RATE_LIMIT_PER_SECOND", env.RATE_LIMIT_PER_SECOND, 30),
    nodeId: env.NODE_ID || `${hostname()}-${process.pid}`,
    clientDir: opt(env.CLIENT_DIR),
    fastPaths: oneOf("FAST_PATHS", env.FAST_PATHS, ["on", "off"], "on"),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
