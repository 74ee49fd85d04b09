/**
 * Web Push (docs/protocol.md, "Notifications to closed pages"): an account's browsers subscribe
 * through their service worker (client/public/notify-sw.js), and the server sends them a notice
 * while none of the account's pages is open, through the browser's own push service (RFC 8030),
 * encrypted for that browser (RFC 8291) and signed with the server's VAPID key (RFC 8292) by the
 * `web-push` library, and sent here (fetch, a 10 s limit, no redirects). Today's one notice: your turn in a turn-based game (socket.ts sends it).
 *
 * Subscriptions are stored per account (table PushSubscription, keyed by the push service's
 * endpoint); a push service that answers 404 or 410 has dropped one, and it is deleted. An endpoint
 * must start with one of PUSH_SERVICES (the browsers' push services), so no one can make the
 * server send requests elsewhere. Without VAPID keys (config) nothing is sent and subscribing is
 * refused with PUSH_OFF.
 */
import webpush from "web-push";
import type { PushKeys } from "../config.js";
import type { Database } from "../db/client.js";
import type { Logger } from "../logger.js";
import type { Verified } from "./accounts.js";
import { err } from "./errors.js";

/** The most browsers one account keeps subscribed (the oldest goes when another subscribes). */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
/** The longest endpoint taken, in characters. */
export const ENDPOINT_MAX = 1000;

/** What a browser's service worker shows (its `push` handler reads this JSON). */
export interface PushNotice {
  title: string;
  body: string;
  /** The site's path a click opens. */
  path: string;
  /** Replaces an earlier notice of the same tag on the device. */
  tag: string;
}

/** What a browser's PushSubscription.toJSON() gives (keys base64url). */
export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

function base64urlBytes(v: unknown): Buffer | null {
  return typeof v === "string" && /^[A-Za-z0-9_-]+={0,2}$/.test(v) ? Buffer.from(v.replace(/=+$/, ""), "base64url") : null;
}

/** Whether an endpoint is one of `services` (URL prefixes; a host "*.x" matches any subdomain of x). */
export function endpointAllowed(endpoint: string, services: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return services.some((prefix) => {
    const wild = prefix.match(/^(https?):\/\/\*\.([^/]+)(\/.*)$/);
    if (!wild) return endpoint.startsWith(prefix);
    const [, scheme, host, path] = wild;
    return url.protocol === `${scheme}:` && url.host.endsWith(`.${host}`) && url.pathname.startsWith(path!);
  });
}

export class PushNotices {
  constructor(
    private readonly db: Database,
    private readonly keys: PushKeys | undefined,
    private readonly services: readonly string[],
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The VAPID public key browsers subscribe with (base64url), or null: push is off. */
  get publicKey(): string | null {
    return this.keys?.publicKey ?? null;
  }

  /** Stores a browser's subscription for the account (moving it from another account it was for). */
  async subscribe(v: Verified, input: unknown): Promise<{ subscriptions: number }> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Notifications to closed pages are for accounts: register (keeping this guest's games) or log in.");
    if (!this.keys) throw err("PUSH_OFF", "This server sends no notifications to closed pages (its operators have not set it up); notifications while a page is open still work.");
    const sub = input as Partial<SubscriptionInput> | null;
    const endpoint = sub?.endpoint;
    if (typeof endpoint !== "string" || endpoint.length > ENDPOINT_MAX || !endpointAllowed(endpoint, this.services)) {
      throw err("BAD_PUSH_SUBSCRIPTION", "That is not a subscription of a browser's push service.");
    }
    const p256dh = base64urlBytes(sub?.keys?.p256dh);
    const auth = base64urlBytes(sub?.keys?.auth);
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 4 || !auth || auth.length !== 16) {
      throw err("BAD_PUSH_SUBSCRIPTION", "A subscription's keys are a P-256 public key (65 bytes) and a 16-byte secret, in base64url.");
    }
    const row = { playerId: v.player.id, p256dh: p256dh.toString("base64url"), auth: auth.toString("base64url"), createdAt: new Date(this.now()) };
    const prisma = this.db.prisma;
    await prisma.pushSubscription.upsert({ where: { endpoint }, create: { endpoint, ...row }, update: row });
    const mine = await prisma.pushSubscription.findMany({ where: { playerId: v.player.id }, orderBy: [{ createdAt: "desc" }, { endpoint: "asc" }], select: { endpoint: true } });
    const extra = mine.slice(MAX_PUSH_SUBSCRIPTIONS).map((r) => r.endpoint);
    if (extra.length > 0) await prisma.pushSubscription.deleteMany({ where: { endpoint: { in: extra } } });
    return { subscriptions: Math.min(mine.length, MAX_PUSH_SUBSCRIPTIONS) };
  }

  /** Forgets a browser's subscription (only the account's own); false: it had none of that endpoint. */
  async unsubscribe(v: Verified, endpoint: unknown): Promise<boolean> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Notifications to closed pages are for accounts.");
    if (typeof endpoint !== "string" || endpoint.length > ENDPOINT_MAX) throw err("BAD_PUSH_SUBSCRIPTION", "That is not a subscription of a browser's push service.");
    const { count } = await this.db.prisma.pushSubscription.deleteMany({ where: { endpoint, playerId: v.player.id } });
    return count > 0;
  }

  /**
   * Sends a notice to every browser the player subscribed; `ttlSeconds`: how long a push service
   * keeps it for a device that is offline; `topic`: a newer notice of the same topic replaces an
   * undelivered one. Returns how many push services took it. Never throws (logged).
   */
  async send(playerId: string, notice: PushNotice, ttlSeconds: number, topic?: string): Promise<number> {
    if (!this.keys) return 0;
    let subs: Array<{ endpoint: string; p256dh: string; auth: string }>;
    try {
      subs = await this.db.prisma.pushSubscription.findMany({ where: { playerId }, select: { endpoint: true, p256dh: true, auth: true } });
    } catch (e) {
      this.log.warn({ err: e, player: playerId }, "could not read push subscriptions");
      return 0;
    }
    const payload = JSON.stringify(notice);
    const keys = this.keys;
    const results = await Promise.all(
      subs.map(async (s) => {
        try {
          // The library encrypts and signs (RFC 8291, 8292); the request goes out here, so that it
          // has a time limit and follows no redirect.
          const req = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
            vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
            TTL: Math.max(0, Math.round(ttlSeconds)),
            urgency: "normal",
            contentEncoding: "aes128gcm",
            ...(topic ? { topic } : {}),
          });
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
          const res = await fetch(req.endpoint, { method: req.method, headers, body: req.body ?? null, redirect: "manual", signal: AbortSignal.timeout(10_000) });
          await res.arrayBuffer().catch(() => null);
          if (res.status >= 200 && res.status < 300) return 1;
          if (res.status === 404 || res.status === 410) {
            // The browser unsubscribed, or the push service dropped it: forget it.
            await this.db.prisma.pushSubscription.deleteMany({ where: { endpoint: s.endpoint } }).catch(() => {});
          } else {
            this.log.warn({ player: playerId, status: res.status, service: new URL(s.endpoint).host }, "a push service refused a notice");
          }
          return 0;
        } catch (e) {
          this.log.warn({ err: e, player: playerId, service: new URL(s.endpoint).host }, "could not reach a push service");
          return 0;
        }
      }),
    );
    return results.reduce<number>((a, b) => a + b, 0);
  }
}
