/**
 * Following (src/platform/follows.ts; docs/protocol.md, "Following") over HTTP on both back ends,
 * and across two nodes: an account follows others and sees which are online (a device connected
 * now, on any node), online first, and the game each plays now; an account that hides its online
 * status shows as offline; a block ends following both ways and refuses a follow either way; unfollowing,
 * the limits of who may follow whom, and the data download and erasure of follows.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { account, call } from "./support/accounts.js";
import { backends, guest, REDIS_URL, TestClient, until, useTestServer, useTwoNodes } from "./support/harness.js";

type Reply = Awaited<ReturnType<typeof call>>;

describe.each(backends())("following ($name)", (backend) => {
  const clock = { t: Date.UTC(2026, 10, 25, 12, 0, 0) };
  const srv = useTestServer(backend, { clock: () => clock.t });

  it("lists whom an account follows, online first; one that hides its online status shows as offline; unfollow", async () => {
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
    // Beatrix hides her online status: offline and in no game to everyone who follows her; shown again, back.
    expect((await call(url, "GET", "/api/me", bea.token)).body.showOnline).toBe(true);
    expect(await call(url, "POST", "/api/me/online", bea.token, { on: false })).toEqual({ status: 200, body: { ok: true, showOnline: false } });
    expect((await call(url, "GET", "/api/me", bea.token)).body.showOnline).toBe(false);
    expect((await list()).map((f) => [f.name, f.online, f.playing])).toEqual([["Cidwell", true, null], ["Adalind", false, null], ["Beatrix", false, null]]);
    expect((await call(url, "GET", "/api/me/data", bea.token)).body.data.account.showOnline).toBe(false);
    expect(await call(url, "POST", "/api/me/online", bea.token, { on: true })).toEqual({ status: 200, body: { ok: true, showOnline: true } });
    expect((await list()).map((f) => [f.name, f.online])).toEqual([["Beatrix", true], ["Cidwell", true], ["Adalind", false]]);
    for (const body of [{}, { on: "no" }, { on: 1 }]) expect([(await call(url, "POST", "/api/me/online", bea.token, body)).body.error?.code]).toEqual(["BAD_REQUEST"]);
    expect((await call(url, "POST", "/api/me/online", (await guest(url, "Gert")).token, { on: false })).body.error?.code).toBe("ACCOUNT_REQUIRED");
    // Offline again when the last device goes.
    b.close();
    await until(async () => !(await list()).find((f) => f.name === "Beatrix")!.online || undefined, "Beatrix offline");
    expect(await call(url, "POST", "/api/unfollow", fan.token, { name: "Beatrix" })).toEqual({ status: 200, body: { ok: true, id: bea.player.id, name: "Beatrix", unfollowed: true } });
    expect((await call(url, "POST", "/api/unfollow", fan.token, { name: "Beatrix" })).body.unfollowed).toBe(false);
    expect((await list()).map((f) => f.name)).toEqual(["Cidwell", "Adalind"]);

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

  it("a block ends following both ways, as on Lichess; neither may follow the other while it stands, and an unblock brings no follow back", async () => {
    const url = srv.server.url;
    const [hes, ivo, jun] = await Promise.all(["Hestia", "Ivonne", "Junia"].map((n) => account(url, n)));
    const names = async (who: { token: string }) => ((await call(url, "GET", "/api/follows", who.token)).body.follows as Array<{ name: string }>).map((f) => f.name);
    const follow = (who: { token: string }, name: string) => call(url, "POST", "/api/follow", who.token, { name });
    for (const [who, name] of [[hes, "Ivonne"], [hes, "Junia"], [ivo, "Hestia"], [jun, "Hestia"]] as const) expect((await follow(who, name)).status).toBe(200);
    // Hestia blocks Ivonne: she no longer follows Ivonne, nor Ivonne her; Junia, not in it, still follows Hestia.
    expect((await call(url, "POST", "/api/block", hes.token, { name: "Ivonne" })).status).toBe(200);
    expect([await names(hes), await names(ivo), await names(jun)]).toEqual([["Junia"], [], ["Hestia"]]);
    // Neither may follow the other while it stands, each told whose block it is.
    const refused = (r: Reply) => [r.status, r.body.error?.code, r.body.error?.message];
    expect(refused(await follow(hes, "ivonne"))).toEqual([403, "BLOCKED", "You block Ivonne; unblock them to follow them."]);
    expect(refused(await follow(ivo, "Hestia"))).toEqual([403, "BLOCKED", "You cannot follow Hestia: they have blocked you."]);
    expect(await srv.db.prisma.follow.count({ where: { OR: [{ playerId: hes.player.id, followedId: ivo.player.id }, { playerId: ivo.player.id, followedId: hes.player.id }] } })).toBe(0);
    // The unblock brings neither follow back; both may follow again.
    expect((await call(url, "POST", "/api/unblock", hes.token, { name: "Ivonne" })).status).toBe(200);
    expect([await names(hes), await names(ivo)]).toEqual([["Junia"], []]);
    expect((await follow(ivo, "Hestia")).status).toBe(200);
    expect((await follow(hes, "Ivonne")).status).toBe(200);

    // Follows that stood across a block from before blocks ended them: the migration removes them, and only them.
    expect((await call(url, "POST", "/api/block", jun.token, { name: "Hestia" })).status).toBe(200);
    await srv.db.prisma.follow.createMany({ data: [{ playerId: jun.player.id, followedId: hes.player.id, createdAt: new Date(clock.t) }, { playerId: hes.player.id, followedId: jun.player.id, createdAt: new Date(clock.t) }] });
    const sql = readFileSync(new URL("../prisma/migrations/20261217000000_blocks_end_follows/migration.sql", import.meta.url), "utf8");
    await srv.db.prisma.$executeRawUnsafe(sql);
    expect([await names(hes), await names(ivo), await names(jun)]).toEqual([["Ivonne"], ["Hestia"], []]);
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
