/**
 * HTTP quotas per client address (docs/protocol.md, "HTTP"): Fastify's `req.ip`, the socket's
 * peer or, with TRUST_PROXY, the X-Forwarded-For client (an IPv6 address counts by its /64).
 *
 *   - every /api route: HTTP_RATE_PER_MINUTE requests a minute (never GET /api/health and
 *     /api/ready, which balancers and monitors poll, nor GET /api/openapi.json, built once and
 *     cached; nor anything outside /api: the web client's files, /metrics);
 *   - POST /api/guest, /api/register, /api/login and /api/recover together: HTTP_IDENTITY_RATE_PER_MINUTE a
 *     minute (instead of the general budget);
 *   - new guest identities (POST /api/guest without a guest token to rename): GUESTS_PER_HOUR an
 *     hour. Registrations (5 an hour) and failed logins have their own limits (accounts.ts).
 *
 * A limit of 0 is no limit. A refusal is RATE_LIMITED (429) with a Retry-After header and the
 * wait in its message. The counts are @fastify/rate-limit's, kept in a RateLimiter
 * (platform/rate-limit.ts): in Redis when the server has one, so every node counts the same
 * requests, else in this process; fixed windows by the server's clock, which tests move.
 */
import rateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import { enforce, RateLimitedError, record, type Limit, type RateLimiter } from "../platform/rate-limit.js";

export interface HttpQuotaSettings {
  /** Requests a minute per address to an /api route (0: no limit). */
  httpRatePerMinute: number;
  /** Requests a minute per address to POST /api/guest, /api/register, /api/login and /api/recover together (0: no limit). */
  httpIdentityRatePerMinute: number;
  /** New guest identities an hour per address (0: no limit). */
  guestsPerHour: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Routes never limited: what load balancers and monitors poll, and the (cached) OpenAPI document. */
export const UNLIMITED_ROUTES: ReadonlySet<string> = new Set(["/api/health", "/api/ready", "/api/openapi.json"]);

/** The identity routes' shared budget (their `config.rateLimit`). */
const IDENTITY_GROUP = "identity";

type Counted = { current: number; ttl: number };

/**
 * @fastify/rate-limit's store interface over a RateLimiter: `child` gives a route with its own
 * `config.rateLimit` its own counts (its group's, when it names one).
 */
function storeOver(limiter: RateLimiter, now: () => number, log: FastifyBaseLogger) {
  return class QuotaStore {
    constructor(
      _params: unknown,
      private readonly scope = "api",
    ) {}

    incr(key: string, done: (e: Error | null, counted?: Counted) => void, windowMs: number): void {
      limiter.add(`http:${this.scope}:${key}`, windowMs).then(
        (c) => done(null, { current: c.count, ttl: Math.max(0, c.resetAt - now()) }),
        (e: Error) => {
          // A quota store that fails lets the request through (skipOnError): Redis trouble must not close the API.
          log.warn({ err: e }, "HTTP quota count failed; request let through");
          done(e);
        },
      );
    }

    child(route: { groupId?: string; routeInfo: { method: string; url: string } }): QuotaStore {
      return new QuotaStore(undefined, route.groupId ?? `${route.routeInfo.method}:${route.routeInfo.url}`);
    }
  };
}

export class HttpQuotas {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly settings: HttpQuotaSettings,
    private readonly now: () => number,
    /** Told of each refusal (the RATE_LIMITED count of GET /metrics). */
    private readonly onRefused: () => void = () => {},
  ) {}

  /** Registers the limits on the routes added after it (call before the routes). */
  async register(app: FastifyInstance): Promise<void> {
    const { httpRatePerMinute, httpIdentityRatePerMinute } = this.settings;
    const maxOf = (req: FastifyRequest) => (req.routeOptions.config.rateLimit ? httpIdentityRatePerMinute : httpRatePerMinute);
    await app.register(rateLimit, {
      global: true,
      max: httpRatePerMinute,
      timeWindow: MINUTE,
      hook: "onRequest",
      skipOnError: true,
      store: storeOver(this.limiter, this.now, app.log) as unknown as RateLimitOptions["store"],
      allowList: (req) => {
        const url = req.routeOptions.url ?? "";
        return !url.startsWith("/api/") || UNLIMITED_ROUTES.has(url) || maxOf(req) === 0;
      },
      errorResponseBuilder: (_req, ctx) => new RateLimitedError(ctx.ttl, "requests from your address"),
      onExceeded: () => this.onRefused(),
    });
  }

  /** The `config` of a route that takes the identity budget (guest, register, login, recover). */
  get identityRoute(): { rateLimit: RateLimitOptions } {
    return {
      rateLimit: {
        max: this.settings.httpIdentityRatePerMinute,
        timeWindow: MINUTE,
        groupId: IDENTITY_GROUP,
        errorResponseBuilder: (_req, ctx) => new RateLimitedError(ctx.ttl, "sign-in and new-identity requests from your address"),
      },
    };
  }

  private guestLimits(address: string): Limit[] {
    return this.settings.guestsPerHour === 0 ? [] : [{ key: `guest:addr:${address.slice(0, 64)}`, max: this.settings.guestsPerHour, windowMs: HOUR }];
  }

  /** RATE_LIMITED when this address has had its new guest identities this hour. */
  async checkNewGuest(address: string): Promise<void> {
    try {
      await enforce(this.limiter, this.guestLimits(address), this.now(), "new guest identities from your address");
    } catch (e) {
      if (e instanceof RateLimitedError) this.onRefused();
      throw e;
    }
  }

  /** Counts a new guest identity given to this address. */
  async countNewGuest(address: string): Promise<void> {
    await record(this.limiter, this.guestLimits(address));
  }
}
