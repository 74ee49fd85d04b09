/**
 * Private notes on players (src/platform/notes.ts; docs/protocol.md, "Notes on players") over HTTP
 * on both back ends: an account writes a note about another player (an account or a guest, by
 * player id), rewrites it, lists its notes newest first, deletes one with an empty text; nobody else
 * reads them (each account lists its own only); the bad inputs and who may not write; the writer's
 * data download holds them; erasing either the writer or the player noted removes the note.
 */
import { describe, expect, it } from "vitest";
import { account, call } from "./support/accounts.js";
import { backends, guest, useTestServer } from "./support/harness.js";

type Reply = Awaited<ReturnType<typeof call>>;

describe.each(backends())("notes on players ($name)", (backend) => {
  const clock = { t: Date.UTC(2026, 10, 26, 12, 0, 0) };
  const srv = useTestServer(backend, { clock: () => clock.t });

  it("writes, rewrites, lists and deletes an account's own notes; nobody else sees them; download and erasure", async () => {
    const url = srv.server.url;
    const [nia, obe, pax] = await Promise.all(["Nialla", "Oberon", "Paxton"].map((n) => account(url, n)));
    const g = await guest(url, "Quince Guest");
    // The guest has finished a game here, so it is a recorded player (a Player row).
    await srv.db.prisma.player.create({ data: { id: g.player.id, name: "Quince Guest", lastSeenAt: new Date(clock.t) } });
    const list = async (token = nia.token) => (await call(url, "GET", "/api/notes", token)).body.notes as Array<Record<string, unknown>>;
    expect(await list()).toEqual([]);

    const w1 = await call(url, "POST", "/api/note", nia.token, { player: obe.player.id, text: "  Stalls in the endgame; bids high on Knots.  " });
    expect(w1).toEqual({ status: 200, body: { ok: true, note: { id: obe.player.id, name: "Oberon", profile: "/player/Oberon", text: "Stalls in the endgame; bids high on Knots.", at: clock.t } } });
    clock.t += 60_000;
    expect((await call(url, "POST", "/api/note", nia.token, { player: g.player.id, text: "Friendly guest." })).body.note).toMatchObject({ name: "Quince Guest", profile: `/player/id:${g.player.id}` });
    clock.t += 60_000;
    // Rewritten: the new text, newest first.
    expect((await call(url, "POST", "/api/note", nia.token, { player: obe.player.id, text: "Good player." })).status).toBe(200);
    expect((await list()).map((n) => [n.name, n.text, n.at])).toEqual([["Oberon", "Good player.", clock.t], ["Quince Guest", "Friendly guest.", clock.t - 60_000]]);
    // Each account sees its own only: Oberon, noted, lists none, and is not told.
    expect(await list(obe.token)).toEqual([]);
    expect((await call(url, "POST", "/api/note", pax.token, { player: obe.player.id, text: "Paxton's own view." })).status).toBe(200);
    expect((await list()).map((n) => n.text)).toEqual(["Good player.", "Friendly guest."]);
    expect((await list(pax.token)).map((n) => n.text)).toEqual(["Paxton's own view."]);

    // An empty text deletes it.
    expect((await call(url, "POST", "/api/note", nia.token, { player: g.player.id, text: "   " })).body).toEqual({ ok: true, note: null });
    expect((await list()).map((n) => n.name)).toEqual(["Oberon"]);

    // Bad inputs, and who may not write.
    const code = (r: Reply) => [r.status, r.body.error?.code];
    expect(code(await call(url, "POST", "/api/note", nia.token, { player: nia.player.id, text: "me" }))).toEqual([400, "BAD_NOTE"]);
    expect(code(await call(url, "POST", "/api/note", nia.token, { player: obe.player.id, text: "x".repeat(1001) }))).toEqual([400, "BAD_NOTE"]);
    expect(code(await call(url, "POST", "/api/note", nia.token, { player: obe.player.id, text: 7 }))).toEqual([400, "BAD_NOTE"]);
    expect(code(await call(url, "POST", "/api/note", nia.token, { player: "p_nobody", text: "who?" }))).toEqual([404, "NO_SUCH_PLAYER"]);
    expect(code(await call(url, "POST", "/api/note", nia.token, { player: 5, text: "who?" }))).toEqual([404, "NO_SUCH_PLAYER"]);
    expect(code(await call(url, "POST", "/api/note", g.token, { player: obe.player.id, text: "hi" }))).toEqual([403, "ACCOUNT_REQUIRED"]);
    expect(code(await call(url, "GET", "/api/notes", g.token))).toEqual([403, "ACCOUNT_REQUIRED"]);
    expect((await list()).map((n) => n.text)).toEqual(["Good player."]); // untouched

    // The writer's download holds its notes; the player noted's does not.
    expect((await call(url, "GET", "/api/me/data", nia.token)).body.data.notes).toEqual([{ about: "Oberon", text: "Good player.", updatedAt: new Date(clock.t).toISOString() }]);
    expect((await call(url, "GET", "/api/me/data", obe.token)).body.data.notes).toEqual([]);
    // Erasing the player noted removes the notes about them; erasing a writer, theirs.
    expect((await call(url, "POST", "/api/me/erase", obe.token, { password: "password of Oberon" })).status).toBe(200);
    expect(await list()).toEqual([]);
    expect(await list(pax.token)).toEqual([]);
    expect((await call(url, "POST", "/api/note", pax.token, { player: nia.player.id, text: "Kind." })).status).toBe(200);
    expect((await call(url, "POST", "/api/me/erase", pax.token, { password: "password of Paxton" })).status).toBe(200);
    expect(await srv.db.prisma.note.count({ where: { OR: [{ playerId: pax.player.id }, { aboutId: pax.player.id }, { aboutId: obe.player.id }] } })).toBe(0);
  });
});
