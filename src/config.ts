/**
 * Every setting the server reads from the environment, in one place. The README's
 * configuration table mirrors this file.
 */
import { parseSecretKey } from "./platform/secret-box.js";
import { hostname } from "node:os";
import { LOBBY_RESYNC_MS } from "./platform/lobby-mirror.js";

export interface Config {
  port: number;
  host: string;
  /** Postgres URL; unset = embedded PGlite in pgliteDir. */
  databaseUrl?: string;
  pgliteDir: string;
  /** Redis URL; unset = in-process room store (single node only). */
  redisUrl?: string;
  /**
   * Without Redis: the file the in-process room store keeps every room and deadline in, so a
   * restart resumes every game (platform/room-journal.ts); unset = in memory only, lost on restart.
   */
  roomsFile?: string;
  /** Prefix of every Redis key this server uses (rooms, adapter stream, token secret). */
  redisPrefix?: string;
  /** HMAC secret for guest tokens; unset = generated once and kept in dataDir. */
  tokenSecret?: string;
  /** TOTP_KEY: 32 bytes that seal two-step login secrets at rest (platform/secret-box.ts); unset = stored as they are. */
  totpKey?: Buffer;
  dataDir: string;
  logLevel: string;
  /** "pretty": one readable line per entry (the default in a terminal outside production); "json": pino's JSON lines. */
  logFormat: "pretty" | "json";
  /** Performance switches (docs/performance.md), for measuring each mechanism against its absence. */
  keptLogs: "on" | "off";
  sharedLogs: "on" | "off";
  /** On SIGTERM/SIGINT the node drains (stops taking connections, finishes moves, hands clients over) within this many ms, then exits. */
  drainTimeoutMs: number;
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
  /** Sockets one client address (an IPv6 /64) may hold open at once, on all nodes together; 0: no limit (transport/socket-quotas.ts). */
  maxConnectionsPerAddress: number;
  /** Subscriptions (the lobby, each room watched) one socket may hold at once; 0: no limit. */
  maxSubscriptionsPerSocket: number;
  /** Open (not started) rooms one player may host at once, made with room:create; 0: no limit. */
  maxOpenRoomsPerPlayer: number;
  /** Turn-based games (open or in play) one player may sit in at once; 0: no limit. */
  maxTurnBasedGames: number;
  /** How often each node reads the store's lobby lists whole, healing its own lobby (platform/lobby-mirror.ts), ms; 0: only at start. */
  lobbyResyncMs: number;
  /** Days of vacation from turn-based games an account may take in any 365 days (platform/vacations.ts). */
  vacationDays: number;
  /** A socket whose unsent outgoing data passes this many bytes (a reader that stopped reading) is disconnected; 0: never. */
  slowReaderMaxBytes: number;
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
  /** Requests a minute one client address may make to the /api routes (not health, readiness); 0: no limit (transport/http-quotas.ts). */
  httpRatePerMinute: number;
  /** Requests a minute one address may make to POST /api/guest, /api/register, /api/login and /api/recover together; 0: no limit. */
  httpIdentityRatePerMinute: number;
  /** New guest identities (POST /api/guest) one address may get an hour; 0: no limit. */
  guestsPerHour: number;
  /** "on": GET /metrics serves Prometheus metrics (transport/metrics.ts); "off": there is no such route. */
  metrics: "on" | "off";
  /** Set: GET /metrics requires `Authorization: Bearer <it>`, from anywhere. Unset: it answers loopback clients only. */
  metricsToken?: string;
  /** Set: the operators' routes (/api/admin/*, transport/admin-routes.ts) exist and require `Authorization: Bearer <it>`. Unset: they do not exist. */
  adminToken?: string;
  /**
   * Web Push (platform/push.ts): VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT, all three
   * or none. Unset: no notifications to closed pages (the browser's own, while a page is open, work without).
   */
  push?: PushKeys;
  /** PUSH_SERVICES: the URL prefixes a push subscription's endpoint must start with (the browsers' push services). */
  pushServices: string[];
}

export interface PushKeys {
  /** The VAPID public key, base64url (65 bytes: an uncompressed P-256 point). */
  publicKey: string;
  /** The VAPID private key, base64url (32 bytes). */
  privateKey: string;
  /** Who runs the server, for the push services: "mailto:..." or "https://...". */
  subject: string;
}

/** The push services of Chrome and Edge (FCM), Firefox, Safari and Windows; `*.` matches any subdomain. */
export const DEFAULT_PUSH_SERVICES = ["https://fcm.googleapis.com/", "https://updates.push.services.mozilla.com/", "https://web.push.apple.com/", "https://*.notify.windows.com/"];

function trustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === "" || value === "false" || value === "off") return false;
  if (value === "true" || value === "on") return true;
  const bad = value.split(",").map((a) => a.trim()).filter((a) => !/^[0-9A-Fa-f.:]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(a));
  if (bad.length > 0) problem(`TRUST_PROXY must be true, false, or a comma-separated list of addresses or subnets, got "${bad[0]!.slice(0, 80)}"`);
  return value;
}

/** Every problem found in the environment, each naming its variable (all reported at once). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

/** Problems found by the loadConfig call under way (null outside one: a problem throws at once). */
let problems: string[] | null = null;

function problem(message: string): void {
  if (problems) problems.push(message);
  else throw new ConfigError([message]);
}

function int(name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    problem(`${name} must be a whole number from 0 to ${max}, got "${value}"`);
    return fallback;
  }
  return n;
}

function oneOf<const T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === "") return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    problem(`${name} must be one of ${allowed.join(", ")}, got "${value}"`);
    return fallback;
  }
  return value as T;
}

/** A URL with one of the given schemes (its password is never repeated in the message). */
function url(name: string, value: string | undefined, schemes: readonly string[]): string | undefined {
  const v = opt(value);
  if (v === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(v);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !schemes.includes(parsed.protocol.slice(0, -1))) {
    problem(`${name} must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`);
    return undefined;
  }
  return v;
}

/** A name safe in logs, Redis keys and metrics labels. */
function word(name: string, value: string | undefined, fallback: string, pattern = /^[A-Za-z0-9._:-]{1,64}$/): string {
  if (value === undefined || value === "") return fallback;
  if (!pattern.test(value)) {
    problem(`${name} may hold only letters, digits and . _ : - (1 to 64 characters), got "${value.slice(0, 80)}"`);
    return fallback;
  }
  return value;
}

/** HOST: an IPv4 or IPv6 address, or a host name, to listen on. */
function host(value: string | undefined): string {
  if (value === undefined || value === "") return "127.0.0.1";
  if (!/^[A-Za-z0-9.:%-]{1,255}$/.test(value)) {
    problem(`HOST must be an address or host name to listen on (127.0.0.1, 0.0.0.0, ::), got "${value.slice(0, 80)}"`);
    return "127.0.0.1";
  }
  return value;
}

/** TOKEN_SECRET signs every token: a short one could be guessed. */
function secret(value: string | undefined): string | undefined {
  const v = opt(value);
  if (v !== undefined && v.length < 16) problem("TOKEN_SECRET must be at least 16 characters long (for instance `openssl rand -hex 32`)");
  return v;
}

/** TOTP_KEY: 32 random bytes, as 64 hexadecimal digits or base64. */
function totpKey(value: string | undefined): Buffer | undefined {
  const v = opt(value);
  if (v === undefined) return undefined;
  const key = parseSecretKey(v);
  if (!key) problem("TOTP_KEY must be 32 random bytes, as 64 hexadecimal digits or in base64 (for instance `openssl rand -hex 32`)");
  return key ?? undefined;
}

/** METRICS_TOKEN and ADMIN_TOKEN are compared with an Authorization header: long enough not to be guessed, one header-safe word. */
function bearerSecret(name: string, value: string | undefined, min = 16): string | undefined {
  const v = opt(value);
  if (v !== undefined && !new RegExp(`^[A-Za-z0-9._~+/=-]{${min},256}$`).test(v)) {
    problem(`${name} must be ${min} to 256 letters, digits or . _ ~ + / = - (for instance \`openssl rand -hex 32\`)`);
  }
  return v;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** ROOMS_FILE: a path, "off" (rooms in memory only) or unset (in DATA_DIR). */
function roomsFile(value: string | undefined, dataDir: string): string | undefined {
  if (value === "off") return undefined;
  if (value === undefined || value === "") return `${dataDir}/rooms.journal`;
  if (value.includes("\0") || value.endsWith("/")) {
    problem(`ROOMS_FILE must be the path of a file, or "off" to keep rooms in memory only, got "${value.slice(0, 80)}"`);
    return `${dataDir}/rooms.journal`;
  }
  return value;
}

/** VAPID_*: all three or none; the keys as `npm run vapid-keys` prints them. */
function pushKeys(env: NodeJS.ProcessEnv): PushKeys | undefined {
  const publicKey = opt(env.VAPID_PUBLIC_KEY);
  const privateKey = opt(env.VAPID_PRIVATE_KEY);
  const subject = opt(env.VAPID_SUBJECT);
  if (publicKey === undefined && privateKey === undefined && subject === undefined) return undefined;
  const missing = ([["VAPID_PUBLIC_KEY", publicKey], ["VAPID_PRIVATE_KEY", privateKey], ["VAPID_SUBJECT", subject]] as const).filter(([, v]) => v === undefined).map(([k]) => k);
  if (missing.length > 0) {
    problem(`VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT go together (npm run vapid-keys makes a pair); ${missing.join(" and ")} unset`);
    return undefined;
  }
  const bytes = (v: string) => (/^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, "base64url") : Buffer.alloc(0));
  const pub = bytes(publicKey!);
  if (pub.length !== 65 || pub[0] !== 4) problem("VAPID_PUBLIC_KEY must be a P-256 public key in base64url, 65 bytes (npm run vapid-keys makes a pair)");
  if (bytes(privateKey!).length !== 32) problem("VAPID_PRIVATE_KEY must be a P-256 private key in base64url, 32 bytes (npm run vapid-keys makes a pair)");
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject!)) problem(`VAPID_SUBJECT must be a "mailto:" address or an "https://" URL where the push services can reach you, got "${subject!.slice(0, 80)}"`);
  return { publicKey: publicKey!, privateKey: privateKey!, subject: subject! };
}

/** PUSH_SERVICES: comma-separated URL prefixes (https, or http for a service on this machine in tests). */
function pushServices(value: string | undefined): string[] {
  const v = opt(value);
  if (v === undefined) return DEFAULT_PUSH_SERVICES;
  const list = v.split(",").map((x) => x.trim()).filter(Boolean);
  const bad = list.filter((x) => !/^(https:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d+)?\/|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/)/.test(x));
  if (list.length === 0 || bad.length > 0) problem(`PUSH_SERVICES must be URL prefixes such as https://fcm.googleapis.com/ (http only for 127.0.0.1 or localhost), comma-separated, got "${(bad[0] ?? v).slice(0, 80)}"`);
  return list;
}

function opt(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads and checks every setting. Throws a ConfigError listing every bad value, each naming its
 * variable, so an operator fixes them all in one go.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  problems = [];
  try {
    const config = readConfig(env);
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } finally {
    problems = null;
  }
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const dataDir = env.DATA_DIR || "./data";
  return {
    port: int("PORT", env.PORT, 3000, 65535),
    host: host(env.HOST),
    databaseUrl: url("DATABASE_URL", env.DATABASE_URL, ["postgres", "postgresql"]),
    pgliteDir: env.PGLITE_DIR || `${dataDir}/pglite`,
    redisUrl: url("REDIS_URL", env.REDIS_URL, ["redis", "rediss"]),
    roomsFile: roomsFile(env.ROOMS_FILE, dataDir),
    redisPrefix: word("REDIS_PREFIX", env.REDIS_PREFIX, "gb:"),
    tokenSecret: secret(env.TOKEN_SECRET),
    totpKey: totpKey(env.TOTP_KEY),
    dataDir,
    logLevel: oneOf("LOG_LEVEL", env.LOG_LEVEL, LOG_LEVELS, "info"),
    logFormat: oneOf("LOG_FORMAT", env.LOG_FORMAT, ["pretty", "json"], env.NODE_ENV !== "production" && process.stdout.isTTY ? "pretty" : "json"),
    drainTimeoutMs: int("DRAIN_TIMEOUT_MS", env.DRAIN_TIMEOUT_MS, 10_000),
    keptLogs: oneOf("KEPT_LOGS", env.KEPT_LOGS, ["on", "off"], "on"),
    sharedLogs: oneOf("SHARED_LOGS", env.SHARED_LOGS, ["on", "off"], "on"),
    botDelayMs: int("BOT_DELAY_MS", env.BOT_DELAY_MS, 600),
    hostAwayMs: int("HOST_AWAY_MS", env.HOST_AWAY_MS, 300_000),
    openCheckMs: int("OPEN_CHECK_MS", env.OPEN_CHECK_MS, 600_000),
    timerPollMs: int("TIMER_POLL_MS", env.TIMER_POLL_MS, 250),
    queueTickMs: int("QUEUE_TICK_MS", env.QUEUE_TICK_MS, 1000),
    maxPayloadBytes: int("MAX_PAYLOAD_BYTES", env.MAX_PAYLOAD_BYTES, 8192),
    rateLimitPerSecond: int("RATE_LIMIT_PER_SECOND", env.RATE_LIMIT_PER_SECOND, 30),
    maxConnectionsPerAddress: int("MAX_CONNECTIONS_PER_ADDRESS", env.MAX_CONNECTIONS_PER_ADDRESS, 64),
    maxSubscriptionsPerSocket: int("MAX_SUBSCRIPTIONS_PER_SOCKET", env.MAX_SUBSCRIPTIONS_PER_SOCKET, 20),
    maxOpenRoomsPerPlayer: int("MAX_OPEN_ROOMS_PER_PLAYER", env.MAX_OPEN_ROOMS_PER_PLAYER, 5),
    maxTurnBasedGames: int("MAX_TURN_BASED_GAMES", env.MAX_TURN_BASED_GAMES, 30),
    lobbyResyncMs: int("LOBBY_RESYNC_MS", env.LOBBY_RESYNC_MS, LOBBY_RESYNC_MS),
    vacationDays: int("VACATION_DAYS", env.VACATION_DAYS, 30, 365), // vacations.ts DEFAULT_VACATION_DAYS, MAX_VACATION_DAYS
    slowReaderMaxBytes: int("SLOW_READER_MAX_BYTES", env.SLOW_READER_MAX_BYTES, 1_048_576),
    nodeId: word("NODE_ID", env.NODE_ID, `${hostname()}-${process.pid}`),
    clientDir: opt(env.CLIENT_DIR),
    fastPaths: oneOf("FAST_PATHS", env.FAST_PATHS, ["on", "off"], "on"),
    trustProxy: trustProxy(env.TRUST_PROXY),
    httpRatePerMinute: int("HTTP_RATE_PER_MINUTE", env.HTTP_RATE_PER_MINUTE, 300, 1_000_000),
    httpIdentityRatePerMinute: int("HTTP_IDENTITY_RATE_PER_MINUTE", env.HTTP_IDENTITY_RATE_PER_MINUTE, 30, 1_000_000),
    guestsPerHour: int("GUESTS_PER_HOUR", env.GUESTS_PER_HOUR, 60, 1_000_000),
    metrics: oneOf("METRICS", env.METRICS, ["on", "off"], "on"),
    metricsToken: bearerSecret("METRICS_TOKEN", env.METRICS_TOKEN),
    // Closes accounts: longer than the metrics' token.
    adminToken: bearerSecret("ADMIN_TOKEN", env.ADMIN_TOKEN, 32),
    push: pushKeys(env),
    pushServices: pushServices(env.PUSH_SERVICES),
  };
}
