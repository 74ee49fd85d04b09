/**
 * Finding players by the start of their name (GET /api/players?q=; docs/protocol.md, "Finding
 * players"), on both databases: case-insensitive, the exact name first, then the shortest, then
 * alphabetically; closed accounts and guests are not found; LIKE's wildcards in the query are
 * plain characters; bad queries are refused with BAD_QUERY or BAD_LIMIT.
 */
import { describe, expect, it } from "vitest";
import { account, call } from "./support/accounts.js";
import { backends, guest, useTestServer } from "./support/harness.js";

describe.each(backends())("finding players ($name)", (backend) => {
  const t = useTestServer(backend);
  const find = async (q: string, limit?: number) => {
    const res = await fetch(`${t.server.url}/api/players?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ""}`);
    const body = (await res.json()) as { ok: boolean; players?: Array<{ name: string; profile: string }>; error?: { code: string } };
    return { status: res.status, body, names: body.players?.map((p) => p.name) };
  };

  it("finds accounts by the start of their name, the exact one first, then the shortest", async () => {
    for (const n of ["Adalind", "Ada", "Adam", "Bertrand", "Ädelheid", "A_b", "Axel"]) await account(t.server.url, n);
    await guest(t.server.url, "Adagio"); // a guest: no account, not found
    expect((await find("ad")).names).toEqual(["Ada", "Adam", "Adalind"]);
    expect((await find("ADA")).names).toEqual(["Ada", "Adam", "Adalind"]);
    expect((await find("adal")).names).toEqual(["Adalind"]);
    expect((await find("ad", 2)).names).toEqual(["Ada", "Adam"]);
    // Names compare as they are stored (NFC, lower case): "Ä" whether typed composed or not.
    expect((await find("Ä")).status).toBe(400);
    expect((await find("äd")).names).toEqual(["Ädelheid"]);
    expect((await find("A\u0308d")).names).toEqual(["Ädelheid"]);
    // LIKE's wildcards are plain characters: "a_" is only A_b, "%" finds nobody.
    expect((await find("a_")).names).toEqual(["A_b"]);
    expect((await find("%%")).names).toEqual([]);
    expect((await find("zz")).names).toEqual([]);
    const ada = await find("ada", 1);
    expect(ada.body).toEqual({ ok: true, players: [{ name: "Ada", profile: "/player/Ada" }] });
  });

  it("leaves closed accounts out", async () => {
    const quitter = await account(t.server.url, "Quillon");
    await account(t.server.url, "Quince");
    expect((await find("qui")).names).toEqual(["Quince", "Quillon"]);
    expect((await call(t.server.url, "POST", "/api/account/close", quitter.token, { password: "password of Quillon" })).status).toBe(200);
    expect((await find("qui")).names).toEqual(["Quince"]);
  });

  it("for an invitation, leaves out the asker and those the asker blocks, and nothing the asker may not know", async () => {
    const url = t.server.url;
    const me = await account(url, "Inez");
    const names = ["Inga", "Ingrid", "Inka", "Inola"];
    const them = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await account(url, n)] as const)));
    expect((await call(url, "POST", "/api/me/invitations", them.Inga!.token, { on: false })).status).toBe(200);
    expect((await call(url, "POST", "/api/block", them.Ingrid!.token, { name: "Inez" })).status).toBe(200);
    expect((await call(url, "POST", "/api/block", me.token, { name: "Inka" })).status).toBe(200);
    const search = async (token: string | null, extra = "&for=invite") => {
      const res = await fetch(`${url}/api/players?q=in${extra}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
      const body = (await res.json()) as { players?: Array<{ name: string }>; error?: { code: string } };
      return body.players?.map((p) => p.name) ?? body.error?.code;
    };
    const everyone = ["Inez", "Inga", "Inka", "Inola", "Ingrid"];
    expect(await search(null, "")).toEqual(everyone);
    // Inga's switch and Ingrid's block of Inez stay theirs: an invitation's refusal says them, in one message.
    expect(await search(me.token)).toEqual(["Inga", "Inola", "Ingrid"]);
    expect(await search(null)).toEqual(everyone);
    // Ingrid blocks Inez: not suggested to her.
    expect(await search(them.Ingrid!.token)).toEqual(["Inga", "Inka", "Inola"]);
    expect(await search((await guest(url, "Ivo")).token)).toEqual(everyone);
    expect(await search(me.token, "&for=follow")).toBe("BAD_QUERY");
  });

  it("refuses a query too short or too long, and a bad limit", async () => {
    for (const q of ["", "a", "  b ", "x".repeat(25)]) expect((await find(q)).body.error?.code, JSON.stringify(q)).toBe("BAD_QUERY");
    expect((await find("ab", 21)).body.error?.code).toBe("BAD_LIMIT");
  });
});
