/**
 * The OpenAPI document (GET /api/openapi.json, src/transport/openapi.ts): an OpenAPI 3.x document
 * of exactly the /api routes the server has registered, each with a summary, tags, a 200 reply
 * schema and schemas for every input it takes; `security` (bearer) exactly on the routes that
 * read the Authorization header. The schemas are live (src/transport/validation.ts): a bad input
 * on any route is refused by validation with our {ok:false,error} shape and that input's own code
 * (BAD_LIMIT, BAD_ROOM_ID, WEAK_PASSWORD, ...), bodies are taken as sent (never coerced), and
 * replies keep every property clients read.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import type { RunningServer } from "../src/server.js";
import { backends, guest, newPrefix, openTestDatabase, startTestServer } from "./support/harness.js";
import { account } from "./support/accounts.js";
import { gamesList } from "../src/transport/socket.js";

const ADMIN = "openapi-test-admin-token-" + "a".repeat(20);

type Op = {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, any>;
  parameters?: Array<{ in: string; name: string; schema?: any }>;
  requestBody?: { content: Record<string, { schema: any }> };
};

/** "METHOD /path" of every route Fastify has, from its route tree (HEAD left out: Fastify adds one per GET). */
function registeredRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const at = line.indexOf("── ");
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const m = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3).trimEnd())!;
    const path = (depth > 0 ? stack[depth - 1] : "") + m[1];
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[2] ?? "").split(",").map((x) => x.trim()).filter((x) => x && x !== "HEAD")) out.push(`${method} ${path}`);
  }
  return out;
}


/** A valid query for each route that needs one, so that the checks below reach its Authorization header. */
const SAMPLE_QUERY: Record<string, string> = { "GET /api/players": "?q=ab&for=invite" };

describe("GET /api/openapi.json", () => {
  let server: RunningServer;
  let db: Database;
  let dispose: () => Promise<void>;
  let doc: any;

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    // With ADMIN_TOKEN, so the operators' routes are in the document and checked like the rest.
    server = await startTestServer(backends()[0]!, db, newPrefix(), "node-a", undefined, { config: { adminToken: ADMIN } });
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    doc = await res.json();
  });
  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  const operations = (): Array<[string, Op]> =>
    Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, op] as [string, Op]),
    );

  it("is an OpenAPI 3 document of Goblin Bazaar at the package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: "Goblin Bazaar", version: pkg.version });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("lists exactly the /api routes the server has", () => {
    const routes = registeredRoutes(server.app.printRoutes({ commonPrefix: false })).filter((r) => r.split(" ")[1]!.startsWith("/api/"));
    // The parse found the routes (a sample of each file), so an empty or broken tree cannot pass.
    expect(routes).toEqual(expect.arrayContaining(["GET /api/health", "POST /api/logout-all", "GET /api/players/:name/games", "GET /api/replay/:id", "GET /api/daily/:game/board", "GET /api/openapi.json"]));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(operations().map(([k]) => k).sort()).toEqual([...routes].sort());
  });

  it("gives every route a summary, tags, its path parameters, a 200 reply and {ok:false,error} refusals", () => {
    for (const [key, op] of operations()) {
      expect(op.summary, key).toMatch(/\S/);
      expect(op.tags?.length, key).toBeGreaterThan(0);
      for (const [, name] of key.matchAll(/:(\w+)/g)) expect(op.parameters?.some((p) => p.in === "path" && p.name === name), `${key} :${name}`).toBe(true);
      const ok = op.responses?.["200"]?.content?.["application/json"]?.schema;
      expect(ok, key).toBeTruthy();
      if (key !== "GET /api/openapi.json") expect(ok.properties.ok, key).toMatchObject({ type: "boolean" });
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        if (status === "200") continue;
        const s = r.content["application/json"].schema;
        expect(s.required, `${key} ${status}`).toEqual(["ok", "error"]);
        expect(s.properties.error.required, `${key} ${status}`).toEqual(["code", "message"]);
      }
    }
  });

  it("marks bearer security on exactly the routes that read the Authorization header", async () => {
    const sample: Record<string, string> = { game: "goblin-market", id: "r1", name: "nobody" };
    for (const [key, op] of operations()) {
      const [method, path] = key.split(" ") as [string, string];
      const url = server.url + path.replace(/:(\w+)/g, (_, p: string) => sample[p]!) + (SAMPLE_QUERY[key] ?? "");
      const res = await fetch(url, {
        method,
        headers: { authorization: "Bearer forged.token", ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(method === "POST" ? { body: "{}" } : {}),
      });
      const body = (await res.json()) as { error?: { code: string } };
      const secured = (op.security ?? []).some((s) => Object.keys(s as object).includes("bearerAuth"));
      // A route that reads the header refuses a forged token; one that does not, never says BAD_TOKEN for it.
      expect({ key, code: body.error?.code ?? "ok" }).toEqual({ key, code: secured ? "BAD_TOKEN" : expect.not.stringMatching(/^BAD_TOKEN$/) });
      if (secured) expect(op.responses?.["401"], key).toBeTruthy();
    }
  });

  it("documents a schema for every input a route takes, and a 429 where the quotas limit it", () => {
    for (const [key, op] of operations()) {
      const unlimited = ["GET /api/health", "GET /api/ready", "GET /api/openapi.json"].includes(key);
      expect(op.responses?.["429"] !== undefined, key).toBe(!unlimited);
      for (const p of op.parameters ?? []) expect(p.schema?.type, `${key} ${p.in} ${p.name}`).toBeTruthy();
      // The Authorization header is the bearerAuth scheme, never a header parameter (OpenAPI ignores those).
      expect(op.parameters?.some((p) => p.in === "header" && p.name.toLowerCase() === "authorization") ?? false, key).toBe(false);
      const body = op.requestBody?.content["application/json"]?.schema;
      if (key.startsWith("POST ") && body) expect(body.type, key).toBe("object");
    }
  });

  /**
   * A bad input of every route that takes one, refused by validation with the code its handler
   * used to answer: every route with an input in the document must be here.
   */
  it("validates every route's inputs, refusing each bad one with its own code", async () => {
    const acct = await account(server.url, "Valda");
    const g = await guest(server.url, "Vic");
    type Case = [route: string, method: "GET" | "POST", path: string, body: unknown, token: string | undefined, status: number, code: string];
    const cases: Case[] = [
      ["GET /api/games/:game/leaderboard", "GET", "/api/games/chess/leaderboard", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/rooms/live", "GET", "/api/rooms/live?game=chess", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/rooms/live", "GET", "/api/rooms/live?before=now", undefined, undefined, 400, "BAD_CURSOR"],
      ["GET /api/rooms/live", "GET", "/api/rooms/live?limit=1&limit=2", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/rooms/waiting", "GET", "/api/rooms/waiting?game=chess", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/rooms/waiting", "GET", "/api/rooms/waiting?before=1.2", undefined, undefined, 400, "BAD_CURSOR"],
      ["GET /api/rooms/waiting", "GET", "/api/rooms/waiting?limit=99", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/players", "GET", "/api/players", undefined, undefined, 400, "BAD_QUERY"],
      ["GET /api/players", "GET", "/api/players?q=a", undefined, undefined, 400, "BAD_QUERY"],
      ["GET /api/players", "GET", `/api/players?q=${"x".repeat(25)}`, undefined, undefined, 400, "BAD_QUERY"],
      ["GET /api/players", "GET", "/api/players?q=%20a%20", undefined, undefined, 400, "BAD_QUERY"],
      ["GET /api/players", "GET", "/api/players?q=ab&limit=21", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/games/:game/ratings", "GET", "/api/games/chess/ratings?players=p_a", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/games/:game/ratings", "GET", "/api/games/goblin-market/ratings", undefined, undefined, 400, "BAD_PLAYERS"],
      ["GET /api/games/:game/ratings", "GET", `/api/games/goblin-market/ratings?players=${Array.from({ length: 9 }, (_, i) => `p${i}`).join(",")}`, undefined, undefined, 400, "BAD_PLAYERS"],
      ["GET /api/games/:game/ratings", "GET", "/api/games/goblin-market/ratings?players=a,,b", undefined, undefined, 400, "BAD_PLAYERS"],
      ["GET /api/players/:name", "GET", `/api/players/${"n".repeat(81)}`, undefined, undefined, 404, "NOT_FOUND"],
      ["GET /api/players/:name/versus/:other", "GET", `/api/players/Valda/versus/${"n".repeat(81)}`, undefined, undefined, 404, "NOT_FOUND"],
      ["GET /api/players/:name/games", "GET", "/api/players/Valda/games?limit=0", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/players/:name/games", "GET", "/api/players/Valda/games?limit=1&limit=2", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/players/:name/games", "GET", "/api/players/Valda/games?limit=2.5", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/players/:name/games", "GET", "/api/players/Valda/games?game=chess", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/players/:name/games", "GET", `/api/players/Valda/games?with=${"n".repeat(81)}`, undefined, undefined, 404, "NOT_FOUND"],
      ["GET /api/finished/:id", "GET", "/api/finished/not%20a%20room", undefined, undefined, 400, "BAD_ROOM_ID"],
      ["GET /api/daily/:game/board", "GET", "/api/daily/aucteraden/board?day=yesterday", undefined, undefined, 400, "BAD_DAY"],
      ["GET /api/daily/:game/board", "GET", "/api/daily/aucteraden/board?limit=1001", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/daily/:game/board", "GET", "/api/daily/chess/board", undefined, undefined, 400, "UNKNOWN_GAME"],
      ["GET /api/daily/:game/best", "GET", "/api/daily/aucteraden/best?limit=many", undefined, undefined, 400, "BAD_LIMIT"],
      ["GET /api/replay/:id", "GET", "/api/replay/r1?viewer=god", undefined, undefined, 400, "BAD_VIEWER"],
      ["GET /api/replay/:id", "GET", "/api/replay/r1?from=-1", undefined, undefined, 400, "BAD_RANGE"],
      ["GET /api/replay/:id", "GET", "/api/replay/r1?to=end", undefined, undefined, 400, "BAD_RANGE"],
      ["GET /api/replay/:id", "GET", "/api/replay/r*1", undefined, undefined, 400, "BAD_ROOM_ID"],
      // Bodies are taken as sent: a number is not a name (not coerced to "123"), nor a password.
      ["POST /api/guest", "POST", "/api/guest", { name: 123 }, undefined, 400, "BAD_NAME"],
      ["POST /api/guest", "POST", "/api/guest", {}, undefined, 400, "BAD_NAME"],
      ["POST /api/guest", "POST", "/api/guest", ["Orla"], undefined, 400, "BAD_REQUEST"],
      ["POST /api/guest", "POST", "/api/guest", { name: "Orla", token: 42 }, undefined, 401, "BAD_TOKEN"],
      ["POST /api/register", "POST", "/api/register", { name: "Orla", password: 12345678 }, undefined, 400, "WEAK_PASSWORD"],
      ["POST /api/register", "POST", "/api/register", { name: null, password: "long enough" }, undefined, 400, "BAD_NAME"],
      ["POST /api/login", "POST", "/api/login", { name: "Valda", password: ["x"] }, undefined, 401, "BAD_LOGIN"],
      ["POST /api/password", "POST", "/api/password", { old: "password of Valda", new: "short" }, acct.token, 400, "WEAK_PASSWORD"],
      ["POST /api/password", "POST", "/api/password", { new: "a long new password" }, acct.token, 401, "BAD_LOGIN"],
      ["POST /api/rename", "POST", "/api/rename", { name: false }, acct.token, 400, "BAD_NAME"],
      ["POST /api/rename", "POST", "/api/rename", "Valda", acct.token, 400, "BAD_REQUEST"],
      ["POST /api/account/close", "POST", "/api/account/close", { password: 12345678 }, acct.token, 401, "BAD_LOGIN"],
      ["POST /api/me/erase", "POST", "/api/me/erase", { password: 12345678 }, acct.token, 401, "BAD_LOGIN"],
      ["POST /api/sessions/end", "POST", "/api/sessions/end", { session: ["s"] }, acct.token, 404, "NO_SUCH_SESSION"],
      ["POST /api/me/invitations", "POST", "/api/me/invitations", { on: "no" }, acct.token, 400, "BAD_REQUEST"],
      ["POST /api/me/online", "POST", "/api/me/online", { on: "no" }, acct.token, 400, "BAD_REQUEST"],
      ["POST /api/vacation", "POST", "/api/vacation", { days: 1.5 }, acct.token, 400, "BAD_DAYS"],
      ["POST /api/vacation", "POST", "/api/vacation", {}, acct.token, 400, "BAD_DAYS"],
      ["POST /api/note", "POST", "/api/note", { player: "p_x", text: "x".repeat(1001) }, acct.token, 400, "BAD_NOTE"],
      ["POST /api/note", "POST", "/api/note", { player: ["p_x"], text: "x" }, acct.token, 404, "NO_SUCH_PLAYER"],
      ["POST /api/push/subscribe", "POST", "/api/push/subscribe", { endpoint: 5, keys: {} }, acct.token, 400, "BAD_PUSH_SUBSCRIPTION"],
      ["POST /api/push/subscribe", "POST", "/api/push/subscribe", { endpoint: "https://fcm.googleapis.com/x", keys: "k" }, acct.token, 400, "BAD_PUSH_SUBSCRIPTION"],
      ["POST /api/push/unsubscribe", "POST", "/api/push/unsubscribe", { endpoint: ["x"] }, acct.token, 400, "BAD_PUSH_SUBSCRIPTION"],
      ["POST /api/two-factor/setup", "POST", "/api/two-factor/setup", { password: 5 }, acct.token, 401, "BAD_LOGIN"],
      ["POST /api/two-factor/enable", "POST", "/api/two-factor/enable", { code: 123456 }, acct.token, 401, "BAD_TOTP"],
      ["POST /api/two-factor/disable", "POST", "/api/two-factor/disable", { password: "x", code: [1] }, acct.token, 401, "BAD_TOTP"],
      ["POST /api/login", "POST", "/api/login", { name: "Valda", password: "x", code: 42 }, undefined, 401, "BAD_TOTP"],
      ["POST /api/me/erase", "POST", "/api/me/erase", { name: ["Valda"] }, acct.token, 400, "BAD_CONFIRMATION"],
      ["POST /api/reports", "POST", "/api/reports", { name: "Valda", reason: "rude", text: "Rude." }, acct.token, 400, "BAD_REPORT"],
      ["POST /api/reports", "POST", "/api/reports", { name: "Valda", reason: "abuse", text: 7 }, acct.token, 400, "BAD_REPORT"],
      ["POST /api/reports", "POST", "/api/reports", { name: "Valda", reason: "abuse", text: "Rude.", room: 7 }, acct.token, 400, "BAD_ROOM_ID"],
      ["POST /api/recover", "POST", "/api/recover", { name: "Valda", code: 12, password: "a long password" }, undefined, 401, "BAD_RECOVERY"],
      ["POST /api/recover", "POST", "/api/recover", { name: "Valda", code: "x", password: "short" }, undefined, 400, "WEAK_PASSWORD"],
      ["POST /api/recovery-code", "POST", "/api/recovery-code", { password: null }, acct.token, 401, "BAD_LOGIN"],
      ["POST /api/block", "POST", "/api/block", { name: 5 }, acct.token, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/follow", "POST", "/api/follow", { name: 5 }, acct.token, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/unfollow", "POST", "/api/unfollow", { name: null }, acct.token, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/unblock", "POST", "/api/unblock", {}, acct.token, 404, "NO_SUCH_ACCOUNT"],
      ["GET /api/admin/rooms/:id/chat", "GET", "/api/admin/rooms/not%20a%20room/chat", undefined, ADMIN, 400, "BAD_ROOM_ID"],
      ["POST /api/admin/rooms/:id/chat/:n/remove", "POST", "/api/admin/rooms/r1/chat/first/remove", {}, ADMIN, 404, "NO_SUCH_MESSAGE"],
      ["GET /api/admin/reports", "GET", "/api/admin/reports?limit=0", undefined, ADMIN, 400, "BAD_LIMIT"],
      ["POST /api/admin/reports/:id/resolve", "POST", "/api/admin/reports/r1/resolve", { note: 5 }, ADMIN, 400, "BAD_REASON"],
      ["GET /api/admin/accounts/:name", "GET", "/api/admin/accounts/Nobody", undefined, ADMIN, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/admin/accounts/:name/close", "POST", "/api/admin/accounts/Valda/close", { reason: ["x"] }, ADMIN, 400, "BAD_REASON"],
      ["POST /api/admin/accounts/:name/reopen", "POST", "/api/admin/accounts/Nobody/reopen", {}, ADMIN, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/admin/accounts/:name/forgive-leaves", "POST", "/api/admin/accounts/Nobody/forgive-leaves", {}, ADMIN, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/admin/accounts/:name/silence", "POST", "/api/admin/accounts/Valda/silence", { minutes: "10", reason: "x" }, ADMIN, 400, "BAD_DURATION"],
      ["POST /api/admin/accounts/:name/silence", "POST", "/api/admin/accounts/Valda/silence", { minutes: 10, reason: 7 }, ADMIN, 400, "BAD_REASON"],
      ["POST /api/admin/accounts/:name/unsilence", "POST", "/api/admin/accounts/Nobody/unsilence", {}, ADMIN, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/admin/accounts/:name/refund-ratings", "POST", "/api/admin/accounts/Nobody/refund-ratings", {}, ADMIN, 404, "NO_SUCH_ACCOUNT"],
      ["POST /api/admin/accounts/:name/erase", "POST", "/api/admin/accounts/Nobody/erase", {}, ADMIN, 404, "NO_SUCH_ACCOUNT"],
    ];
    for (const [route, method, path, body, token, status, code] of cases) {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const reply = (await res.json()) as any;
      expect({ route, path, status: res.status, reply }).toEqual({ route, path, status, reply: { ok: false, error: { code, message: expect.stringMatching(/\S/) } } });
    }
    // Each route that takes an input (path, query or body) has a case above.
    const withInputs = operations().filter(([, op]) => (op.parameters?.length ?? 0) > 0 || op.requestBody).map(([k]) => k);
    expect([...new Set(cases.map((c) => c[0]))].sort()).toEqual(withInputs.sort());
    // A guest token is no account's: the requester is checked before the body (nothing learnt of it).
    const asGuest = await fetch(`${server.url}/api/rename`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${g.token}` }, body: "{}" });
    expect(((await asGuest.json()) as any).error.code).toBe("ACCOUNT_REQUIRED");
  });

  it("validates the Authorization header of every route that reads it", async () => {
    for (const [key, op] of operations()) {
      if (!(op.security ?? []).some((s) => Object.keys(s as object).includes("bearerAuth"))) continue;
      const [method, path] = key.split(" ") as [string, string];
      const res = await fetch(server.url + path.replace(/:(\w+)/g, (_, p: string) => ({ game: "aucteraden", id: "r1", name: "Valda" })[p]!) + (SAMPLE_QUERY[key] ?? ""), {
        method,
        headers: { authorization: "Basic dXNlcjpwYXNz", ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(method === "POST" ? { body: "{}" } : {}),
      });
      expect({ key, status: res.status, body: await res.json() }).toEqual({ key, status: 401, body: { ok: false, error: { code: "BAD_TOKEN", message: expect.any(String) } } });
    }
  });

  it("coerces the query's numbers, and keeps every property of a reply", async () => {
    const page = (await fetch(`${server.url}/api/players/Valda/games?limit=5`).then((r) => r.json())) as any;
    expect(page).toEqual({ ok: true, games: [], next: null });
    const post = (path: string, body: unknown) =>
      fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    // Unknown body properties are dropped, not refused; the reply is whole.
    const g = await post("/api/guest", { name: "Orla", colour: "green" });
    expect(g.status).toBe(200);
    expect(Object.keys(g.body).sort()).toEqual(["ok", "player", "token"]);
    expect(Object.keys(g.body.player).sort()).toEqual(["id", "name"]);
    const health = await fetch(`${server.url}/api/health`).then((r) => r.json() as Promise<any>);
    expect(health).toEqual({ ok: true, node: "node-a", rooms: "memory", db: "pglite" });
    // The games' options and clock presets are open objects in the schema: every property stays.
    const games = (await fetch(`${server.url}/api/games`).then((r) => r.json())) as any;
    expect(games).toEqual({ ok: true, games: JSON.parse(JSON.stringify(gamesList())) });
  });
});
