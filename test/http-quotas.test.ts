/**
 * HTTP quotas per client address (src/transport/http-quotas.ts), on an injected clock: the general
 * budget of the /api routes, the identity budget of POST /api/guest, /api/register and
 * /api/login, and new guest identities an hour. Each refuses with RATE_LIMITED (429, Retry-After,
 * the wait in the message) and lets the address in again once its window has passed; health,
 * readiness and the OpenAPI document are never limited; with Redis, every node counts the same
 * requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, type Config } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import type { RunningServer } from "../src/server.js";
import { backends, newPrefix, openTestDatabase, startTestServer } from "./support/harness.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const QUOTAS = { httpRatePerMinute: 5, httpIdentityRatePerMinute: 4, guestsPerHour: 2 } satisfies Partial<Config>;

interface Reply {
  status: number;
  body: { ok: boolean; error?: { code: string; message: string }; [k: string]: any };
  retryAfter: string | null;
}

describe.each(backends())("HTTP quotas ($name)", (backend) => {
  let db: Database;
  let dispose: () => Promise<void>;
  const servers: RunningServer[] = [];
  let server: RunningServer;
  // On a minute's (and an hour's) start, so each window's end is known.
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const clock = () => now;
  let addrSeq = 0;
  const freshAddress = () => `10.9.${Math.floor(++addrSeq / 250)}.${addrSeq % 250}`;

  async function start(prefix: string, nodeId: string, quotas: Partial<Config> = QUOTAS): Promise<RunningServer> {
    const s = await startTestServer(backend, db, prefix, nodeId, clock, { config: quotas });
    servers.push(s);
    return s;
  }

  /** A request from `address` (test servers trust X-Forwarded-For: the address quotas count by). */
  async function call(address: string, method: "GET" | "POST", path: string, body?: unknown, on = server, token?: string): Promise<Reply> {
    const headers: Record<string, string> = { "x-forwarded-for": address };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(on.url + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json()) as Reply["body"], retryAfter: res.headers.get("retry-after") };
  }

  /** `words`: the wait as the message says it (long waits in minutes or hours); Retry-After stays whole seconds. */
  function expectLimited(r: Reply, retryAfterSeconds: number, what: RegExp, words = `${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`): void {
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ ok: false, error: { code: "RATE_LIMITED", message: expect.stringMatching(what) } });
    expect(r.body.error!.message).toContain(`try again in ${words}.`);
    expect(r.retryAfter).toBe(String(retryAfterSeconds));
  }

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(backend.realPg));
    server = await start(newPrefix(), "node-a");
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await dispose?.();
  });

  it("limits an address's /api requests a minute, never health or readiness, and lets it in again the next minute", async () => {
    now += 30_000; // half a minute into the window: 30 s to wait
    const a = freshAddress();
    const b = freshAddress();
    for (let i = 0; i < QUOTAS.httpRatePerMinute; i++) expect((await call(a, "GET", i % 2 ? "/api/rooms" : "/api/games")).status).toBe(200);
    expectLimited(await call(a, "GET", "/api/rooms"), 30, /^Too many requests from your address; try again in 30 seconds/);
    expectLimited(await call(a, "GET", "/api/daily"), 30, /requests from your address/);
    // Another address has its own budget; health and readiness answer the limited address still.
    expect((await call(b, "GET", "/api/rooms")).status).toBe(200);
    for (let i = 0; i < 3 * QUOTAS.httpRatePerMinute; i++) {
      expect((await call(a, "GET", "/api/health")).status).toBe(200);
      expect((await call(a, "GET", "/api/ready")).status).not.toBe(429);
    }
    now += 29_999;
    expectLimited(await call(a, "GET", "/api/rooms"), 1, /try again in 1 second\.$/);
    now += 1;
    expect((await call(a, "GET", "/api/rooms")).status).toBe(200);
    // Each refusal is counted for GET /metrics (which answers this machine's clients).
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^goblin_bazaar_rate_limited_total\{scope="http"\} 3$/m);
  });

  it("limits every /api route but health, readiness and the OpenAPI document", async () => {
    const res = await fetch(`${server.url}/api/openapi.json`, { headers: { "x-forwarded-for": freshAddress() } });
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const sample: Record<string, string> = { game: "aucteraden", id: "r1", name: "nobody" };
    const identity = ["POST /api/guest", "POST /api/register", "POST /api/login", "POST /api/recover"];
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops).map((m) => m.toUpperCase() as "GET" | "POST")) {
        const key = `${method} ${path.replace(/\{(\w+)\}/g, ":$1")}`;
        const url = path.replace(/\{(\w+)\}/g, (_, p: string) => sample[p]!);
        const from = freshAddress();
        const budget = identity.includes(key) ? QUOTAS.httpIdentityRatePerMinute : QUOTAS.httpRatePerMinute;
        // Whatever each answers (most refuse the empty body or the unknown id), it counts.
        for (let i = 0; i < budget; i++) expect((await call(from, method, url, method === "POST" ? {} : undefined)).status, key).not.toBe(429);
        const last = await call(from, method, url, method === "POST" ? {} : undefined);
        if (["GET /api/health", "GET /api/ready", "GET /api/openapi.json"].includes(key)) expect(last.status, key).not.toBe(429);
        else expect({ key, code: last.body.error?.code }).toEqual({ key, code: "RATE_LIMITED" });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it("gives guest, register and login one tighter budget a minute, apart from the general one", async () => {
    now = Math.ceil((now + 1) / MIN) * MIN; // a minute's start
    const a = freshAddress();
    expect((await call(a, "POST", "/api/guest", { name: "Quota Quinn" })).status).toBe(200);
    expect((await call(a, "POST", "/api/login", { name: "Nobody Here", password: "not a password" })).body.error?.code).toBe("BAD_LOGIN");
    expect((await call(a, "POST", "/api/register", { name: "Quota Rae", password: "rae's password" })).status).toBe(200);
    expect((await call(a, "POST", "/api/login", { name: "Quota Rae", password: "rae's password" })).status).toBe(200);
    expectLimited(await call(a, "POST", "/api/login", { name: "Quota Rae", password: "rae's password" }), 60, /^Too many sign-in and new-identity requests from your address/);
    expectLimited(await call(a, "POST", "/api/guest", { name: "Quota Sol" }), 60, /sign-in/);
    // The general budget is apart: the same address may still read the API.
    expect((await call(a, "GET", "/api/rooms")).status).toBe(200);
    now += MIN;
    expect((await call(a, "POST", "/api/login", { name: "Quota Rae", password: "rae's password" })).status).toBe(200);
  });

  it("limits new guest identities an hour per address; renaming your guest is not a new one", async () => {
    now = Math.ceil((now + 1) / HOUR) * HOUR + 15 * MIN; // a quarter past: 45 minutes left in the hour
    const a = freshAddress();
    const first = await call(a, "POST", "/api/guest", { name: "Hourly Ann" });
    expect(first.status).toBe(200);
    expect((await call(a, "POST", "/api/guest", { name: "Hourly Bo" })).status).toBe(200);
    expectLimited(await call(a, "POST", "/api/guest", { name: "Hourly Cy" }), 45 * 60, /^Too many new guest identities from your address/, "about 45 minutes");
    // A refused request is not counted, a rename is allowed, and another address is not limited.
    const renamed = await call(a, "POST", "/api/guest", { name: "Hourly Ann Two", token: first.body.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body.player.id).toBe(first.body.player.id);
    expect((await call(freshAddress(), "POST", "/api/guest", { name: "Hourly Di" })).status).toBe(200);
    now += 45 * MIN; // the next hour (and minute)
    expect((await call(a, "POST", "/api/guest", { name: "Hourly Cy" })).status).toBe(200);
  });

  it("takes 0 as no limit", async () => {
    const unlimited = await start(newPrefix(), "node-free", { httpRatePerMinute: 0, httpIdentityRatePerMinute: 0, guestsPerHour: 0 });
    const a = freshAddress();
    for (let i = 0; i < 3 * QUOTAS.httpRatePerMinute; i++) {
      expect((await call(a, "GET", "/api/rooms", undefined, unlimited)).status).toBe(200);
      expect((await call(a, "POST", "/api/guest", { name: `Free ${i}` }, unlimited)).status).toBe(200);
    }
  });

  it.runIf(backend.redis)("counts every node's requests when the nodes share Redis", async () => {
    const prefix = newPrefix();
    const [n1, n2] = [await start(prefix, "node-q1"), await start(prefix, "node-q2")];
    now = Math.ceil((now + 1) / MIN) * MIN;
    const a = freshAddress();
    for (let i = 0; i < QUOTAS.httpRatePerMinute; i++) expect((await call(a, "GET", "/api/rooms", undefined, i % 2 ? n1 : n2)).status).toBe(200);
    expectLimited(await call(a, "GET", "/api/rooms", undefined, n1), 60, /requests from your address/);
    expectLimited(await call(a, "GET", "/api/rooms", undefined, n2), 60, /requests from your address/);
    now += MIN;
    expect((await call(a, "GET", "/api/rooms", undefined, n2)).status).toBe(200);
  });
});

describe("HTTP quota settings", () => {
  it("reads them from the environment, 0 meaning no limit, and refuses what is not a count", () => {
    expect(loadConfig({})).toMatchObject({ httpRatePerMinute: 300, httpIdentityRatePerMinute: 30, guestsPerHour: 60 });
    expect(loadConfig({ HTTP_RATE_PER_MINUTE: "0", HTTP_IDENTITY_RATE_PER_MINUTE: "12", GUESTS_PER_HOUR: "7" })).toMatchObject({ httpRatePerMinute: 0, httpIdentityRatePerMinute: 12, guestsPerHour: 7 });
    for (const name of ["HTTP_RATE_PER_MINUTE", "HTTP_IDENTITY_RATE_PER_MINUTE", "GUESTS_PER_HOUR"]) {
      for (const bad of ["-1", "lots", "2.5"]) {
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(ConfigError);
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
      }
    }
  });
});
