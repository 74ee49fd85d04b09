/**
 * The OpenAPI document (GET /api/openapi.json, src/transport/openapi.ts): an OpenAPI 3.x document
 * of exactly the /api routes the server has registered, each with a summary, tags and a 200
 * reply; `security` (bearer) exactly on the routes that read the Authorization header; and the
 * route schemas only document: inputs are still checked by the handlers, with their own codes.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import type { RunningServer } from "../src/server.js";
import { backends, newPrefix, openTestDatabase, startTestServer } from "./support/harness.js";

type Op = { summary?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, any>; parameters?: Array<{ in: string; name: string }> };

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

describe("GET /api/openapi.json", () => {
  let server: RunningServer;
  let db: Database;
  let dispose: () => Promise<void>;
  let doc: any;

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    server = await startTestServer(backends()[0]!, db, newPrefix());
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
      const url = server.url + path.replace(/:(\w+)/g, (_, p: string) => sample[p]!);
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

  it("documents, and leaves checking to the handlers: their own codes, no coercion", async () => {
    const post = (path: string, body: unknown) =>
      fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    // The document says name is a string; a number is still the handler's BAD_NAME (not coerced to "123").
    expect(await post("/api/guest", { name: 123 })).toMatchObject({ status: 400, body: { ok: false, error: { code: "BAD_NAME" } } });
    expect(await post("/api/register", { name: "Orla", password: 12345678 })).toMatchObject({ status: 400, body: { error: { code: "WEAK_PASSWORD" } } });
    const page = await fetch(`${server.url}/api/players/nobody/games?limit=1&limit=2`).then((r) => r.json() as Promise<any>);
    expect(page.error.code).toBe("BAD_LIMIT");
    // Replies are sent whole, not cut to the documented properties.
    const guest = await post("/api/guest", { name: "Orla" });
    expect(guest.status).toBe(200);
    expect(Object.keys(guest.body).sort()).toEqual(["ok", "player", "token"]);
    const health = await fetch(`${server.url}/api/health`).then((r) => r.json() as Promise<any>);
    expect(health).toEqual({ ok: true, node: "node-a", rooms: "memory", db: "pglite" });
  });
});
