/**
 * Following (src/platform/follows.ts; docs/protocol.md, "Following") over HTTP on both back ends,
 * and across two nodes: an account follows others and sees which are online (a device connected
 * now, on any node), online first, and the game each plays now; a block either way shows the other
 * as offline, and so does an account that hides its online status; unfollowing,
 * the limits of who may follow whom, and the data download and erasure of follows.
 */
import { describe, expect, it } from "vitest";
import { account, call } from "./support/accounts.js";
import { backends, guest, REDIS_URL, TestClient, until, useTestServer, useTwoNodes } from "./support/harness.js";

type Reply = Awaited<ReturnType<typeof call>>;

describe.each(backends())("following ($name)", (backend) => {
  const clock = { t: Date.UTC(2026, 10, 25, 12, 0, 0) };
  const srv = useTestServer(backend, { clock: () => clock.t });

  it("lists whom an account follows, online first; a block either way shows as offline; unfollow", async () => {
    const url = srv.server.url;
    const [fan, ada, bea, cid] = await Promise.all(["Fanfare", "Adalind", "Beatrix", "Cidwell"].map((n) => account(url, n)));
    const list = async () => (await call(url, "GET", "/api/follows", fan.token)).body.follows as Array<{ name: string; online: boolean; since: number; playing: unknown }>;
    expect(await list()).toEqual([]);
    for (const n of ["adalind", "Beatrix", " CIDWELL "]) expect((await call(url, "POST", "/api/follow", fan.token, { name: n })).status).toBe(200);
    // Again: nothing changes (the first time stays).
    clock.t += 60_000;
    expect((await call(url, "POST", "/api/follow", fan.token, { name: "Adalind" })).body).toEqual({ ok: true, followed: { id: ada.player.id, name: "Adalind", since: clock.t - 60_000 } });
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Adalind", false], ["Beatrix", false], ["Cidwell", false]]);

    // Beatrix and Cidwell connect: online, first.
    const b = await new TestClient(url, bea.token).ready();
    const c = await new TestClient(url, cid.token).ready();
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Beatrix", true], ["Cidwell", true], ["Adalind", false]]);
    // Beatrix starts a game (with two bots): the list says where, to watch it; the others play nothing.
    const roomId = (await b.call("room:create", { game: "goblin-market", seats: 3, ranked: false, bots: 2 })).roomId as string;
    expect((await list()).find((f) => f.name === "Beatrix")!.playing).toBeNull(); // open, not under way
    expect((await b.call("room:start", { roomId })).ok).toBe(true);
    expect((await list()).map((f) => [f.name, f.playing])).toEqual([["Beatrix", { roomId, game: "goblin-market" }], ["Cidwell", null], ["Adalind", null]]);
    // A turn-based game under way (it lasts days) is not where one plays now.
    const days = await c.call("room:create", { game: "goblin-market", seats: 3, ranked: false, bots: 2, clock: "turn-1d" });
    expect((days.state as { status: string }).status).toBe("playing");
    expect((await list()).find((f) => f.name === "Cidwell")!.playing).toBeNull();
    // A block either way hides it.
    expect((await call(url, "POST", "/api/block", bea.token, { name: "Fanfare" })).status).toBe(200);
    expect((await call(url, "POST", "/api/block", fan.token, { name: "Cidwell" })).status).toBe(200);
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Adalind", false], ["Beatrix", false], ["Cidwell", false]]);
    expect((await call(url, "POST", "/api/unblock", bea.token, { name: "Fanfare" })).status).toBe(200);
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Beatrix", true], ["Adalind", false], ["Cidwell", false]]);
    // Beatrix hides her online status: offline and in no game to everyone who follows her; shown again, back.
    expect((await call(url, "GET", "/api/me", bea.token)).body.showOnline).toBe(true);
    expect(await call(url, "POST", "/api/me/online", bea.token, { on: false })).toEqual({ status: 200, body: { ok: true, showOnline: false } });
    expect((await call(url, "GET", "/api/me", bea.token)).body.showOnline).toBe(false);
    expect((await list()).map((f) => [f.name, f.online, f.playing])).toEqual([["Adalind", false, null], ["Beatrix", false, null], ["Cidwell", false, null]]);
    expect((await call(url, "GET", "/api/me/data", bea.token)).body.data.account.showOnline).toBe(false);
    expect(await call(url, "POST", "/api/me/online", bea.token, { on: true })).toEqual({ status: 200, body: { ok: true, showOnline: true } });
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Beatrix", true], ["Adalind", false], ["Cidwell", false]]);
    for (const body of [{}, { on: "no" }, { on: 1 }]) expect([(await call(url, "POST", "/api/me/online", bea.token, body)).body.error?.code]).toEqual(["BAD_REQUEST"]);
    expect((await call(url, "POST", "/api/me/online", (await guest(url, "Gert")).token, { on: false })).body.error?.code).toBe("ACCOUNT_REQUIRED");
    // Offline again when the last device goes.
    b.close();
    await until(async () => !(await list()).find((f) => f.name === "Beatrix")!.online || undefined, "Beatrix offline");
    expect(await call(url, "POST", "/api/unfollow", fan.token, { name: "Beatrix" })).toEqual({ status: 200, body: { ok: true, id: bea.player.id, name: "Beatrix", unfollowed: true } });
    expect((await call(url, "POST", "/api/unfollow", fan.token, { name: "Beatrix" })).body.unfollowed).toBe(false);
    expect((await list()).map((f) => f.name)).toEqual(["Adalind", "Cidwell"]);

    // What may not be followed, and who may not follow.
    const g = await guest(url, "Gustave Guest");
    const code = (r: Reply) => [r.status, r.body.error?.code];
    expect(code(await call(url, "POST", "/api/follow", fan.token, { name: "Fanfare" }))).toEqual([400, "BAD_FOLLOW"]);
    expect(code(await call(url, "POST", "/api/follow", fan.token, { name: "Gustave Guest" }))).toEqual([404, "NO_SUCH_ACCOUNT"]);
    expect(code(await call(url, "POST", "/api/follow", fan.token, { name: ["x"] }))).toEqual([404, "NO_SUCH_ACCOUNT"]);
    expect(code(await call(url, "POST", "/api/follow", g.token, { name: "Adalind" }))).toEqual([403, "ACCOUNT_REQUIRED"]);
    expect(code(await call(url, "GET", "/api/follows", g.token))).toEqual([403, "ACCOUNT_REQUIRED"]);

    // The follower's data download lists them; an erased follower's rows go, and so do an erased account's followers'.
    const data = (await call(url, "GET", "/api/me/data", fan.token)).body.data;
    expect(data.follows.map((f: { name: string }) => f.name)).toEqual(["Adalind", "Cidwell"]);
    expect((await call(url, "POST", "/api/me/erase", ada.token, { password: "password of Adalind" })).status).toBe(200);
    expect((await list()).map((f) => f.name)).toEqual(["Cidwell"]);
    expect(await srv.db.prisma.follow.count({ where: { OR: [{ playerId: ada.player.id }, { followedId: ada.player.id }] } })).toBe(0);
    c.close();
  });
});

describe.skipIf(!REDIS_URL)("following across two nodes", () => {
  const nodes = useTwoNodes();

  it("sees a followed account online through a device on the other node", async () => {
    const { a, b } = nodes;
    const [fan, far] = await Promise.all([account(a.url, "NodeFan"), account(a.url, "NodeFar")]);
    expect((await call(a.url, "POST", "/api/follow", fan.token, { name: "NodeFar" })).status).toBe(200);
    const online = async () => ((await call(a.url, "GET", "/api/follows", fan.token)).body.follows as Array<{ online: boolean }>)[0]!.online;
    expect(await online()).toBe(false);
    const c = await new TestClient(b.url, far.token).ready();
    expect(await online()).toBe(true);
    c.close();
    await until(async () => !(await online()) || undefined, "offline once its device on node B goes");
  });
});
