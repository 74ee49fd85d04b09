/**
 * Notifications to closed pages (docs/protocol.md, "Notifications to closed pages"): an account's
 * browser subscribes, and when a turn-based game makes it their turn while none of their pages is
 * open, the server sends the notice to the browser's push service. A push service of our own on
 * this machine receives it, and this test reads it as a browser would, by the RFCs alone (no code
 * of the library the server sends with): the VAPID signature (RFC 8292) checks with the server's
 * public key, and the body decrypts (RFC 8291, aes128gcm) with the browser's keys to the notice.
 * Players with a page open get none; a subscription the push service says is gone is forgotten;
 * bad subscriptions are refused; a server without VAPID keys says so.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RoomView } from "../src/protocol/wire.js";
import { account, call } from "./support/accounts.js";
import { backends, guest, TestClient, until, useTestServer } from "./support/harness.js";
import { browserKeys, decrypt, pushService, vapidClaims, vapidKeys } from "./support/push-service.js";

const service = await pushService();
afterAll(() => service.close());
const vapid = { ...vapidKeys(), subject: "mailto:operators@bazaar.example" };

describe.each(backends())("notifications to closed pages ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 26, 9, 0, 0);
  const t = useTestServer(backend, { clock: () => now, config: { push: vapid, pushServices: [service.url] } });
  const api = (method: "GET" | "POST", path: string, token: string, body?: unknown) => call(t.server.url, method, path, token, body);
  /** Waits until the server holds no connection of the player. */
  const offline = (id: string) =>
    until(async () => (await t.server.io.fetchSockets()).every((s) => (s.data as { player?: { id: string } | null }).player?.id !== id), "the player's pages closed");

  it("a turn in a turn-based game reaches the browser of a player with no page open, signed and encrypted for it alone", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [ada, bea, cy] = await Promise.all(["Ada", "Bea", "Cy"].map((n) => account(t.server.url, `${n}${run}`)));
    expect((await (await fetch(`${t.server.url}/api/push`)).json())).toEqual({ ok: true, publicKey: vapid.publicKey });
    const adaKeys = browserKeys();
    const beaKeys = browserKeys();
    const sub = await api("POST", "/api/push/subscribe", ada!.token, { endpoint: `${service.url}ada-${run}`, expirationTime: null, keys: adaKeys.json });
    expect(sub).toEqual({ status: 200, body: { ok: true, subscriptions: 1 } });
    expect((await api("POST", "/api/push/subscribe", bea!.token, { endpoint: `${service.url}bea-${run}`, keys: beaKeys.json })).status).toBe(200);

    // Ada opens a turn-based Sorcerous Futures room (its first step is everyone's) and closes her page.
    const adaPage = await new TestClient(t.server.url, ada!.token).ready();
    const roomId = (await adaPage.call("room:create", { game: "sorcerous-futures", seats: 3, clock: "turn-1d" })).roomId as string;
    adaPage.close();
    await offline(ada!.player.id);
    const before = service.received.length;
    const pages = await Promise.all([bea, cy].map((p) => new TestClient(t.server.url, p!.token).ready()));
    expect((await pages[0]!.call("room:join", { roomId })).ok).toBe(true);
    const started = await pages[1]!.call("room:join", { roomId });
    expect((started.state as RoomView).status).toBe("playing");

    // One notice, to Ada's browser only: Bea has a page open.
    const got = await until(() => service.received.slice(before).find((r) => r.path === `/ada-${run}`), "Ada's notice at the push service");
    expect(got.headers.ttl).toBe("86400");
    expect(got.headers.topic).toBe(roomId);
    expect(got.headers["content-encoding"]).toBe("aes128gcm");
    const claims = vapidClaims(String(got.headers.authorization), vapid.publicKey);
    expect(claims).toMatchObject({ aud: service.url.replace(/\/$/, ""), sub: vapid.subject });
    expect(JSON.parse(decrypt(got.body, adaKeys))).toEqual({
      title: "Your turn — Sorcerous Futures",
      body: `Your turn against Bea${run}, Cy${run}. You have 1 day.`,
      path: `/room/${roomId}`,
      tag: `turn-${roomId}`,
    });
    // Nobody else's key opens it.
    expect(() => decrypt(got.body, beaKeys)).toThrow();
    await new Promise((r) => setTimeout(r, 200));
    expect(service.received.slice(before).map((r) => r.path)).toEqual([`/ada-${run}`]);

    // Her data download names the push service, not the endpoint (that browser's secret).
    const data = (await api("GET", "/api/me/data", ada!.token)).body.data;
    expect(data.pushSubscriptions).toEqual([{ service: new URL(service.url).host, since: new Date(now).toISOString() }]);
    for (const p of pages) p.close();
  });

  it("a subscription the push service says is gone is forgotten; unsubscribing forgets one", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [dee, eli, fay] = await Promise.all(["Dee", "Eli", "Fay"].map((n) => account(t.server.url, `${n}${run}`)));
    expect((await api("POST", "/api/push/subscribe", dee!.token, { endpoint: `${service.url}gone/dee-${run}`, keys: browserKeys().json })).status).toBe(200);
    expect((await api("POST", "/api/push/subscribe", dee!.token, { endpoint: `${service.url}kept-${run}`, keys: browserKeys().json })).body.subscriptions).toBe(2);
    expect((await api("POST", "/api/push/unsubscribe", dee!.token, { endpoint: `${service.url}kept-${run}` })).body).toEqual({ ok: true, unsubscribed: true });
    expect((await api("POST", "/api/push/unsubscribe", dee!.token, { endpoint: `${service.url}kept-${run}` })).body).toEqual({ ok: true, unsubscribed: false });
    const deePage = await new TestClient(t.server.url, dee!.token).ready();
    const roomId = (await deePage.call("room:create", { game: "sorcerous-futures", seats: 3, clock: "turn-3d" })).roomId as string;
    deePage.close();
    await offline(dee!.player.id);
    const pages = await Promise.all([eli, fay].map((p) => new TestClient(t.server.url, p!.token).ready()));
    for (const p of pages) expect((await p.call("room:join", { roomId })).ok).toBe(true);
    const gone = await until(() => service.received.find((r) => r.path === `/gone/dee-${run}`), "the push to the gone subscription");
    expect(gone.headers.ttl).toBe(String(3 * 86400));
    await until(async () => (await t.db.prisma.pushSubscription.count({ where: { playerId: dee!.player.id } })) === 0, "the gone subscription forgotten");
    for (const p of pages) p.close();
  });

  it("an invitation to a turn-based room waits for an account that is offline: a notice to its closed pages, then in Your games until it answers", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [ivy, jon, kit] = await Promise.all(["Ivy", "Jon", "Kit"].map((n) => account(t.server.url, `${n}${run}`)));
    const jonKeys = browserKeys();
    expect((await api("POST", "/api/push/subscribe", jon!.token, { endpoint: `${service.url}jon-${run}`, keys: jonKeys.json })).status).toBe(200);
    const host = await new TestClient(t.server.url, ivy!.token).ready();
    const live = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    // A room of one sitting still wants its invitee online now.
    expect((await host.call("room:invite", { roomId: live, name: `Jon${run}` })).error?.code).toBe("NOT_ONLINE");
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    for (const name of [`Jon${run}`, `Kit${run}`]) expect(await host.call("room:invite", { roomId, name })).toMatchObject({ ok: true, kept: true });
    const got = await until(() => service.received.find((r) => r.path === `/jon-${run}`), "Jon's notice");
    expect(got.headers.ttl).toBe(String(3 * 86400));
    expect(JSON.parse(decrypt(got.body, jonKeys))).toEqual({
      title: `Ivy${run} invites you to Goblin Market`,
      body: "A turn-based game: it starts once every seat is taken. The invitation waits in Your games.",
      path: `/room/${roomId}`,
      tag: `invite-${roomId}`,
    });

    // Jon comes by: the invitation is in his lobby's Your games; Kit's too, and Kit declines.
    const jonPage = await new TestClient(t.server.url, jon!.token).ready();
    const kitPage = await new TestClient(t.server.url, kit!.token).ready();
    const sub = await jonPage.call("lobby:subscribe", {});
    expect(sub.invited).toEqual([{ room: expect.objectContaining({ id: roomId, status: "open" }), from: { id: ivy!.player.id, name: `Ivy${run}`, account: true }, at: now }]);
    expect(((await kitPage.call("lobby:mine", {})).invited as Array<{ room: { id: string } }>).map((i) => i.room.id)).toEqual([roomId]);
    expect((await kitPage.call("room:decline", { roomId })).ok).toBe(true);
    expect((await kitPage.call("lobby:mine", {})).invited).toEqual([]);
    expect((await kitPage.call("room:decline", { roomId })).error?.code).toBe("NOT_INVITED");
    // Nobody else sees who is invited: not the lobby, not the room's view.
    expect(JSON.stringify((await kitPage.call("lobby:list", {})).open)).not.toContain(jon!.player.id);
    expect(JSON.stringify((await kitPage.call("room:sync", { roomId })).state)).not.toContain(jon!.player.id);
    // Jon takes a seat: the invitation is answered.
    expect((await jonPage.call("room:join", { roomId })).ok).toBe(true);
    expect((await jonPage.call("lobby:mine", {})).invited).toEqual([]);
    expect(((await jonPage.call("lobby:mine", {})).mine as Array<{ id: string }>).map((r) => r.id)).toContain(roomId);
    for (const c of [host, jonPage, kitPage]) c.close();
  });

  it("refuses guests, endpoints of other services and bad keys, changing nothing", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const gil = await account(t.server.url, `Gil${run}`);
    const g = await guest(t.server.url, `Guest${run}`);
    const keys = browserKeys().json;
    expect((await api("POST", "/api/push/subscribe", g.token, { endpoint: `${service.url}g`, keys })).body.error.code).toBe("ACCOUNT_REQUIRED");
    for (const endpoint of ["http://127.0.0.2:9/x", "https://evil.example/push", "file:///etc/passwd", `${service.url.replace("http://", "http://user:pw@")}x`]) {
      const r = await api("POST", "/api/push/subscribe", gil.token, { endpoint, keys });
      expect([r.status, r.body.error.code], endpoint).toEqual([400, "BAD_PUSH_SUBSCRIPTION"]);
    }
    for (const bad of [{ p256dh: keys.p256dh.slice(4), auth: keys.auth }, { p256dh: keys.p256dh, auth: "short" }, { p256dh: "not base64!", auth: keys.auth }, { auth: keys.auth }]) {
      const r = await api("POST", "/api/push/subscribe", gil.token, { endpoint: `${service.url}gil`, keys: bad });
      expect([r.status, r.body.error.code], JSON.stringify(bad)).toEqual([400, "BAD_PUSH_SUBSCRIPTION"]);
    }
    expect(await t.db.prisma.pushSubscription.count({ where: { playerId: gil.player.id } })).toBe(0);
  });
});

describe("a server without VAPID keys", () => {
  const t = useTestServer(backends()[0]!);

  it("says it sends no notifications to closed pages, and refuses subscriptions with PUSH_OFF", async () => {
    expect(await (await fetch(`${t.server.url}/api/push`)).json()).toEqual({ ok: true, publicKey: null });
    const a = await account(t.server.url, "Hal");
    const r = await call(t.server.url, "POST", "/api/push/subscribe", a.token, { endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: browserKeys().json });
    expect([r.status, r.body.error.code]).toEqual([503, "PUSH_OFF"]);
  });
});
