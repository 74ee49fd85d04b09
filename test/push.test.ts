/**
 * Notifications to closed pages (docs/protocol.md, "Notifications to closed pages"): an account's
 * browser subscribes, and when a turn-based game makes it their turn while none of their pages is
 * open, the server sends the notice to the browser's push service. A push service of our own on
 * this machine receives it, and this test reads it as a browser would, by the RFCs alone (no code
 * of the library the server sends with): the VAPID signature (RFC 8292) checks with the server's
 * public key, and the body decrypts (RFC 8291, aes128gcm) with the browser's keys to the notice.
 * Players with a page open get none; a notice is owed in the room until a node's timers send it,
 * so another node sends it when the one that made the change dies, and one no longer due (a turn
 * taken, an invitation declined or withdrawn) is not sent; a subscription the push service says is gone is
 * forgotten; bad subscriptions are refused; a server without VAPID keys says so.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RoomView } from "../src/protocol/wire.js";
import { account, call } from "./support/accounts.js";
import { backends, guest, newPrefix, PG_URL, REDIS_URL, startTestServer, TestClient, twoNodeDatabases, until, useTestServer } from "./support/harness.js";
import type { RunningServer } from "../src/server.js";
import type { Player } from "../src/platform/identity.js";
import { CHAT_NOTICE_DELAY_MS, gameState } from "../src/platform/room.js";
import { findGame } from "../src/games/registry.js";
import { randomLegalAction } from "../src/games/legal.js";
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
    // The change owes the notices; the timers send them (whichever node's: the next test).
    await t.server.timers.tick();

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
    await t.server.timers.tick();
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
    await t.server.timers.tick();
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

  it("an invitation to a table of one sitting for invited players reaches an invitee with no page open (for an hour); one with a page open gets none; the game owes no turn notices", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [ivy, jon, kit] = await Promise.all(["Ivy", "Jon", "Kit"].map((n) => account(t.server.url, `${n}${run}`)));
    const keys = { jon: browserKeys(), kit: browserKeys() };
    for (const [p, k] of [[jon, keys.jon], [kit, keys.kit]] as const) {
      expect((await api("POST", "/api/push/subscribe", p!.token, { endpoint: `${service.url}table-${p!.player.name}`, keys: k.json })).status).toBe(200);
    }
    const host = await new TestClient(t.server.url, ivy!.token).ready();
    const kitPage = await new TestClient(t.server.url, kit!.token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, invitedOnly: true })).roomId as string;
    expect(await host.call("room:invite", { roomId, name: `Jon${run}` })).toMatchObject({ ok: true, kept: true, admitted: true, online: false });
    expect(await host.call("room:invite", { roomId, name: `Kit${run}` })).toMatchObject({ ok: true, kept: true });
    expect((await t.server.service.get(roomId)).pushOwed?.map((o) => [o.playerId, o.kind])).toEqual([
      [jon!.player.id, "invite"],
      [kit!.player.id, "invite"],
    ]);
    const before = service.received.length;
    await t.server.timers.tick();
    const got = await until(() => service.received.slice(before).find((r) => r.path === `/table-Jon${run}`), "Jon's notice");
    expect(got.headers.ttl).toBe("3600");
    expect(JSON.parse(decrypt(got.body, keys.jon))).toEqual({
      title: `Ivy${run} invites you to Goblin Market`,
      body: "A table for invited players, to play now (Standard clock): take your seat while it is open. The invitation waits in Your games.",
      path: `/room/${roomId}`,
      tag: `invite-${roomId}`,
    });
    await until(async () => (await t.server.service.get(roomId)).pushOwed === undefined, "the owed notices settled");
    await new Promise((r) => setTimeout(r, 200));
    // Kit had a page open: nothing for Kit.
    expect(service.received.slice(before).map((r) => r.path)).toEqual([`/table-Jon${run}`]);

    // Jon comes and sits, Kit too: the game starts, and a game of one sitting owes no turn notices.
    const jonPage = await new TestClient(t.server.url, jon!.token).ready();
    expect((await jonPage.call("room:join", { roomId })).ok).toBe(true);
    expect((await kitPage.call("room:join", { roomId })).ok).toBe(true);
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    expect((await t.server.service.get(roomId)).status).toBe("playing");
    expect((await t.server.service.get(roomId)).pushOwed).toBeUndefined();
    for (const c of [host, jonPage, kitPage]) c.close();
  });

  it("a notice owed is sent only if still due when the timers come to it: a turn already taken, an invitation declined, owe nothing", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [lee, mo, ned] = await Promise.all(["Lee", "Mo", "Ned"].map((n) => account(t.server.url, `${n}${run}`)));
    for (const p of [lee, mo]) expect((await api("POST", "/api/push/subscribe", p!.token, { endpoint: `${service.url}late-${p!.player.name}`, keys: browserKeys().json })).status).toBe(200);
    const page = await new TestClient(t.server.url, lee!.token).ready();
    const roomId = (await page.call("room:create", { game: "sorcerous-futures", seats: 3, bots: 1, clock: "turn-1d" })).roomId as string;
    // Mo, invited while away, declines before any notice went out.
    const invited = await page.call("room:invite", { roomId, name: `Mo${run}` });
    expect(invited, JSON.stringify(invited)).toMatchObject({ ok: true, kept: true });
    expect((await t.server.service.get(roomId)).pushOwed).toEqual([{ playerId: mo!.player.id, kind: "invite", at: now }]);
    await t.server.service.declineInvitation(roomId, mo!.player);
    page.close();
    await offline(lee!.player.id);
    // Ned's join starts it: everyone's first step, Lee's owed as a turn (Ned's page is open).
    const nedPage = await new TestClient(t.server.url, ned!.token).ready();
    expect(((await nedPage.call("room:join", { roomId })).state as RoomView).status).toBe("playing");
    const owed = (await t.server.service.get(roomId)).pushOwed!;
    expect(owed.filter((o) => o.kind === "turn").map((o) => o.playerId).sort()).toEqual([lee!.player.id, ned!.player.id].sort());
    // Lee moves (from a device the server counts as gone by now) before the timers come by.
    const room = await t.server.service.get(roomId);
    const game = findGame(room.game)!;
    const seat = room.seats.findIndex((x) => x.playerId === lee!.player.id);
    const action = randomLegalAction(game.legalActions(gameState(room), seat), () => 0.5)!;
    await t.server.service.act(roomId, lee!.player as Player, action);
    const before = service.received.length;
    await t.server.timers.tick();
    await until(async () => (await t.server.service.get(roomId)).pushOwed === undefined, "the owed notices settled");
    await new Promise((r) => setTimeout(r, 200));
    expect(service.received.slice(before).map((r) => r.path)).toEqual([]);
    nedPage.close();
  });

  it("an invitation its host withdraws before its notice goes owes nothing more", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [quin, ros] = await Promise.all(["Quin", "Ros"].map((n) => account(t.server.url, `${n}${run}`)));
    expect((await api("POST", "/api/push/subscribe", ros!.token, { endpoint: `${service.url}withdrawn-${run}`, keys: browserKeys().json })).status).toBe(200);
    const page = await new TestClient(t.server.url, quin!.token).ready();
    const roomId = (await page.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    expect(await page.call("room:invite", { roomId, name: `Ros${run}` })).toMatchObject({ ok: true, kept: true });
    expect((await t.server.service.get(roomId)).pushOwed).toEqual([{ playerId: ros!.player.id, kind: "invite", at: now }]);
    expect(await page.call("room:uninvite", { roomId, playerId: ros!.player.id })).toEqual({ ok: true, roomId, withdrawn: `Ros${run}` });
    const before = service.received.length;
    await t.server.timers.tick();
    await until(async () => (await t.server.service.get(roomId)).pushOwed === undefined, "the owed notice settled");
    await new Promise((r) => setTimeout(r, 200));
    expect(service.received.slice(before).map((r) => r.path)).toEqual([]);
    page.close();
  });

  it("the end of a turn-based game reaches each player with no page open, with how it went", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [ola, pim] = await Promise.all(["Ola", "Pim"].map((n) => account(t.server.url, `${n}${run}`)));
    const olaKeys = browserKeys();
    expect((await api("POST", "/api/push/subscribe", ola!.token, { endpoint: `${service.url}end-${run}`, keys: olaKeys.json })).status).toBe(200);
    const room = await t.server.service.create(ola!.player as Player, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    await t.server.service.join(room.id, pim!.player as Player);
    // Played out by both from devices that are gone (nobody's page is open), no timer run meanwhile.
    const random = (() => { let x = 7; return () => ((x = (x * 16807) % 2147483647) / 2147483647); })();
    let r = await t.server.service.get(room.id);
    for (let i = 0; i < 5000 && r.status === "playing"; i++) {
      const game = findGame(r.game)!;
      const seat = game.activeSeats(gameState(r))[0]!;
      const who = [ola, pim][seat]!.player as Player;
      r = (await t.server.service.act(r.id, who, randomLegalAction(game.legalActions(gameState(r), seat), random)!)).room;
    }
    expect(r.status).toBe("finished");
    expect(r.pushOwed!.filter((o) => o.kind === "ended").map((o) => o.playerId).sort()).toEqual([ola!.player.id, pim!.player.id].sort());
    const before = service.received.length;
    await t.server.timers.tick();
    const got = await until(() => service.received.slice(before).find((x) => x.path === `/end-${run}`), "Ola's notice of the end");
    const seat = r.seats.findIndex((x) => x.playerId === ola!.player.id);
    const place = r.outcome!.places[seat]!;
    const notice = JSON.parse(decrypt(got.body, olaKeys)) as { title: string; body: string; tag: string };
    expect(notice).toMatchObject({ title: "Goblin Teeth is over", path: `/room/${r.id}`, tag: `turn-${r.id}` });
    expect(notice.body).toMatch(place === 1 ? /^You (won against|tied for 1st with) Pim/ : /^You (placed 2nd of 2 \(Pim|tied)/);
    // Only the end: the turns owed along the way were no longer due.
    await new Promise((res) => setTimeout(res, 200));
    expect(service.received.slice(before).filter((x) => x.path === `/end-${run}`)).toHaveLength(1);
    await until(async () => (await t.server.service.get(r.id)).pushOwed === undefined, "the owed notices settled");
  });

  it("a message in a turn-based game's chat reaches the other players with no page open, once until read, and not if read meanwhile", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [ula, vic] = await Promise.all(["Ula", "Vic"].map((n) => account(t.server.url, `${n}${run}`)));
    const ulaKeys = browserKeys();
    const vicKeys = browserKeys();
    expect((await api("POST", "/api/push/subscribe", ula!.token, { endpoint: `${service.url}chat-ula-${run}`, keys: ulaKeys.json })).status).toBe(200);
    expect((await api("POST", "/api/push/subscribe", vic!.token, { endpoint: `${service.url}chat-vic-${run}`, keys: vicKeys.json })).status).toBe(200);
    const room = await t.server.service.create(ula!.player as Player, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    await t.server.service.join(room.id, vic!.player as Player);
    await t.server.timers.tick(); // the turn's notice, out of the way
    const mine = (who: string) => service.received.filter((r) => r.path === `/chat-${who}-${run}`);
    const chatNotices = (who: string, keys: ReturnType<typeof browserKeys>) =>
      mine(who).map((r) => JSON.parse(decrypt(r.body, keys)) as { title: string; body: string; tag: string }).filter((n) => n.tag === `chat-${room.id}`);

    // Vic writes three times from his page; Ula has none open.
    const vicPage = await new TestClient(t.server.url, vic!.token).ready();
    expect((await vicPage.sync(room.id)).ok).toBe(true);
    for (const text of ["Hello!", "I am away until Monday.", `Then I play. ${"x".repeat(200)}`]) expect((await vicPage.call("chat:send", { roomId: room.id, text })).ok).toBe(true);
    const owed = (await t.server.service.get(room.id)).pushOwed ?? [];
    expect(owed.filter((o) => o.kind === "chat").map((o) => o.playerId)).toEqual([ula!.player.id]); // one, not three; none to the writer
    // Due a few seconds after the first message (owed before it is stored: room.ts CHAT_NOTICE_DELAY_MS).
    await t.server.timers.tick();
    await new Promise((r) => setTimeout(r, 100));
    expect(chatNotices("ula", ulaKeys)).toEqual([]);
    now += CHAT_NOTICE_DELAY_MS;
    await t.server.timers.tick();
    await until(() => chatNotices("ula", ulaKeys).length === 1, "Ula's chat notice");
    const [notice] = chatNotices("ula", ulaKeys);
    expect(notice).toEqual({ title: `Vic${run} wrote in Goblin Teeth`, body: `Then I play. ${"x".repeat(106)}…`, path: `/room/${room.id}`, tag: `chat-${room.id}` });
    expect(mine("ula").at(-1)!.headers.topic).toBe(`c${room.id}`.slice(0, 32));
    await until(async () => (await t.server.service.get(room.id)).pushOwed === undefined, "the notice settled");
    // Vic's own page is open, and he wrote it: nothing to him.
    expect(chatNotices("vic", vicKeys)).toEqual([]);

    // Another message; Ula reads the chat on a page (and closes it) before the timers come to it: no notice.
    expect((await vicPage.call("chat:send", { roomId: room.id, text: "Still there?" })).ok).toBe(true);
    const ulaPage = await new TestClient(t.server.url, ula!.token).ready();
    expect((await ulaPage.sync(room.id)).ok).toBe(true);
    const history = (await ulaPage.call("chat:history", { roomId: room.id })).messages as Array<{ n: number }>;
    expect((await ulaPage.call("chat:seen", { roomId: room.id, n: history.at(-1)!.n })).ok).toBe(true);
    ulaPage.close();
    await offline(ula!.player.id);
    now += CHAT_NOTICE_DELAY_MS;
    await t.server.timers.tick();
    await until(async () => (await t.server.service.get(room.id)).pushOwed === undefined, "the owed notice dropped");
    await new Promise((r) => setTimeout(r, 200));
    expect(chatNotices("ula", ulaKeys)).toHaveLength(1);
    vicPage.close();
  });

  it("a chat message's notice is owed before the message is stored: a store that fails in between leaves no message without its notice, and no notice is sent for it", async () => {
    const run = Math.random().toString(36).slice(2, 7);
    const [wyn, xan] = await Promise.all(["Wyn", "Xan"].map((n) => account(t.server.url, `${n}${run}`)));
    const xanKeys = browserKeys();
    expect((await api("POST", "/api/push/subscribe", xan!.token, { endpoint: `${service.url}chat-xan-${run}`, keys: xanKeys.json })).status).toBe(200);
    const room = await t.server.service.create(xan!.player as Player, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    await t.server.service.join(room.id, wyn!.player as Player);
    await t.server.timers.tick();
    const page = await new TestClient(t.server.url, wyn!.token).ready();
    expect((await page.sync(room.id)).ok).toBe(true);
    // The store fails to keep the message (as a node dying there would leave it): the notice was owed already.
    const store = t.server.store;
    const append = store.appendChat.bind(store);
    let owedAtStore: unknown = "not called";
    store.appendChat = async () => {
      owedAtStore = (await t.server.service.get(room.id)).pushOwed?.filter((o) => o.kind === "chat").map((o) => o.playerId);
      throw new Error("the store went away");
    };
    try {
      expect((await page.call("chat:send", { roomId: room.id, text: "Lost?" })).ok).toBe(false);
    } finally {
      store.appendChat = append;
    }
    expect(owedAtStore).toEqual([xan!.player.id]);
    // Its time comes: nothing unread, so nothing is sent, and the notice is dropped.
    now += CHAT_NOTICE_DELAY_MS;
    await t.server.timers.tick();
    await until(async () => (await t.server.service.get(room.id)).pushOwed === undefined, "the owed notice dropped");
    await new Promise((r) => setTimeout(r, 200));
    const notices = service.received.filter((r) => r.path === `/chat-xan-${run}`).map((r) => JSON.parse(decrypt(r.body, xanKeys)) as { tag: string });
    expect(notices.filter((n) => n.tag === `chat-${room.id}`)).toEqual([]);
    page.close();
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

describe.skipIf(!REDIS_URL)("a notice owed, when the node that made the change dies before sending it", () => {
  let now = Date.UTC(2026, 10, 26, 9, 0, 0);
  const nodes: RunningServer[] = [];
  let dispose: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => {});
    await dispose?.();
  });

  it("is sent by another node's timers, once", async () => {
    const dbs = await twoNodeDatabases();
    dispose = dbs.dispose;
    const prefix = newPrefix();
    const backend = { name: "two nodes", redis: true, realPg: !!PG_URL };
    const more = { config: { push: vapid, pushServices: [service.url] } };
    const a = await startTestServer(backend, dbs.a, prefix, "node-a", () => now, more);
    const b = await startTestServer(backend, dbs.b, prefix, "node-b", () => now, more);
    nodes.push(a, b);
    const run = Math.random().toString(36).slice(2, 7);
    const [oz, pat] = await Promise.all(["Oz", "Pat"].map((n) => account(a.url, `${n}${run}`)));
    expect((await call(a.url, "POST", "/api/push/subscribe", oz!.token, { endpoint: `${service.url}oz-${run}`, keys: browserKeys().json })).status).toBe(200);
    const host = await new TestClient(b.url, oz!.token).ready();
    const roomId = (await host.call("room:create", { game: "sorcerous-futures", seats: 3, bots: 1, clock: "turn-3d" })).roomId as string;
    host.close();
    await until(async () => (await b.io.fetchSockets()).length === 0, "Oz's page closed");
    // Pat's join on node A starts the game and owes Oz a notice; A dies before its timers run
    // (nothing is sent by the change itself).
    const before = service.received.length;
    const patPage = await new TestClient(a.url, pat!.token).ready();
    const joined = await patPage.call("room:join", { roomId });
    expect((joined.state as RoomView | undefined)?.status, JSON.stringify(joined)).toBe("playing");
    patPage.close();
    expect((await b.service.get(roomId)).pushOwed).toContainEqual({ playerId: oz!.player.id, kind: "turn", at: now, seat: 0 });
    await a.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(service.received.slice(before).map((r) => r.path)).toEqual([]);
    await b.timers.tick();
    const got = await until(() => service.received.slice(before).find((r) => r.path === `/oz-${run}`), "Oz's notice, sent by node B");
    expect(got.headers.topic).toBe(roomId);
    expect((await b.service.get(roomId)).pushOwed).toBeUndefined();
    // Settled: the next rounds send nothing more.
    now += 60_000;
    await b.timers.tick();
    await new Promise((r) => setTimeout(r, 200));
    expect(service.received.slice(before).filter((r) => r.path === `/oz-${run}`)).toHaveLength(1);
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
