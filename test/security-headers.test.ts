/**
 * Every HTTP reply carries the security headers (src/transport/security-headers.ts): the page,
 * a deep link served as the page, its assets, the API's answers, its refusals and its 404s. The
 * browser tests then run the real client under that policy (test/browser/content-security.test.ts
 * checks that it never trips it).
 */
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "../src/transport/security-headers.js";
import { useClientDirServer } from "./support/harness.js";

describe("security headers", () => {
  const t = useClientDirServer({ "index.html": "<!doctype html><title>t</title>", "assets/app.js": "console.log(1)" });

  it("are on the page, its assets, the API's answers, refusals and 404s", async () => {
    const requests: [string, RequestInit | undefined, number][] = [
      ["/", undefined, 200],
      ["/room/abcdefgh", undefined, 200],
      ["/assets/app.js", undefined, 200],
      ["/api/health", undefined, 200],
      ["/api/games", undefined, 200],
      ["/api/no-such-route", undefined, 404],
      ["/api/guest", { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }, 400],
      ["/api/me", { headers: { authorization: "Bearer forged" } }, 401],
    ];
    for (const [path, init, status] of requests) {
      const res = await fetch(t.server.url + path, init);
      expect(res.status, path).toBe(status);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), `${name} on ${path}`).toBe(value);
    }
  });

  it("let the page run only its own scripts and talk only to this server, and no other site frame it", () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("connect-src")).toEqual(["'self'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    // No inline script or eval anywhere in the policy.
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });
});
