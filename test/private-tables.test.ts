/**
 * Private tables (room.ts `private`; docs/protocol.md, "Private tables") over the public protocol,
 * on both back ends: a table its host makes private is listed nowhere (lobby:subscribe, lobby:list,
 * GET /api/rooms and its pages, the counts, the lobby's pushes, room:find, where a followed player
 * plays), while its players see it in Your games and anyone with its link may join or watch it. (A
 * rematch of it stays private: test/rematch.test.ts.)
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RoomSummary, RoomView, YourRoom } from "../src/protocol/wire.js";
import { account, call } from "./support/accounts.js";
import { backends, guest, TestClient, until, useTestServer } from "./support/harness.js";

for (const backend of backends()) {
  describe(`private tables (${backend.name})`, () => {
    let now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const t = useTestServer(backend, { clock: () => now });
    const clients: TestClient[] = [];
    afterAll(() => clients.forEach((c) => c.close()));
    const track = (c: TestClient) => (clients.push(c), c);
    const asGuest = async (name: string) => track(await new TestClient(t.server.url, (await guest(t.server.url, name)).token).ready());
    const get = async (path: string) => (await (await fetch(`${t.server.url}${path}`)).json()) as Record<string, any>;
    const ids = (rooms: unknown) => (rooms as RoomSummary[]).map((r) => r.id);
    const lobbyPushes = (c: TestClient) => c.received.filter(([e]) => e === "lobby:room").map(([, p]) => (p as RoomSummary).id);

    it("is listed nowhere, counted nowhere, and pushed to no lobby page but its players'; its link seats and shows it", async () => {
      const looker = await asGuest("Looker");
      expect((await looker.call("lobby:subscribe", {})).ok).toBe(true);
      const host = await asGuest("Hostess");
      expect((await host.call("lobby:subscribe", {})).ok).toBe(true);

      // A public table beside it, as a control: listed and pushed.
      const open = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
      const made = await host.call("room:create", { game: "goblin-market", seats: 3, private: true });
      expect(made.ok, JSON.stringify(made.error)).toBe(true);
      const secret = made.roomId as string;
      expect((made.state as { private?: boolean }).private).toBe(true);
      await until(() => lobbyPushes(looker).includes(open) || undefined, "the public table pushed to the lobby");
      // The host's own page hears of their private table (Your games); nobody else's does.
      await until(() => lobbyPushes(host).includes(secret) || undefined, "the private table pushed to its host");
      for (const lists of [await looker.call("lobby:list", {}), await get("/api/rooms")]) {
        expect(ids(lists.open)).toContain(open);
        expect(ids(lists.open)).not.toContain(secret);
      }
      const mine = (await host.call("lobby:mine", {})).mine as YourRoom[];
      expect(mine.find((r) => r.id === secret)).toMatchObject({ private: true, status: "open" });

      // The link: a second player joins by the room's id, and a third watches.
      const friend = await asGuest("Friend");
      const joined = await friend.call("room:join", { roomId: secret });
      expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
      await until(() => lobbyPushes(friend).includes(secret) || undefined, "the private table pushed to the player who joined");
      const watcher = await asGuest("Watcher");
      expect((await watcher.sync(secret)).ok).toBe(true);
      const third = await asGuest("Third");
      expect((await third.call("room:join", { roomId: secret })).ok).toBe(true);
      expect((await host.call("room:start", { roomId: secret })).ok).toBe(true);
      expect((await host.sync(secret, true)).state).toMatchObject({ status: "playing", private: true });

      // In play: on no page of games being played, in no count, never pushed to the lobby.
      for (const lists of [await looker.call("lobby:list", {}), await get("/api/rooms")]) {
        expect(ids(lists.live)).not.toContain(secret);
        expect(lists.liveCounts).toEqual({});
      }
      expect((await get("/api/rooms/live")).total).toBe(0);
      expect((await get("/api/rooms/live?game=goblin-market")).rooms).toEqual([]);
      await t.server.pushLobbyCounts();
      const counts = looker.received.filter(([e]) => e === "lobby:counts").map(([, p]) => p);
      for (const c of counts) expect(c).toMatchObject({ liveCounts: {} });
      expect(lobbyPushes(looker)).not.toContain(secret);
      expect(lobbyPushes(watcher)).not.toContain(secret);
    });

    it("is never found by room:find, nor its waiting count or page; a friend invited to it joins by its link", async () => {
      const [ada, bea] = await Promise.all([account(t.server.url, "Adalind"), account(t.server.url, "Beatrix")]);
      const host = track(await new TestClient(t.server.url, ada.token).ready());
      const secret = (await host.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-1d", private: true })).roomId as string;
      expect(secret).toBeTruthy();
      expect((await get("/api/rooms")).waitingCounts).toEqual({});
      expect((await get("/api/rooms/waiting")).total).toBe(0);
      // Beatrix asks for a turn-based game just like it: she gets a new room, not the private one.
      const b = track(await new TestClient(t.server.url, bea.token).ready());
      const found = await b.call("room:find", { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
      expect(found.ok, JSON.stringify(found.error)).toBe(true);
      expect(found.found).toBe(false);
      expect(found.roomId).not.toBe(secret);
      // Invited by name, she takes the seat by the link: the game starts (its last seat taken).
      expect((await host.call("room:invite", { roomId: secret, name: "Beatrix" })).ok).toBe(true);
      const joined = await b.call("room:join", { roomId: secret });
      expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
      expect((joined.state as { status: string }).status).toBe("playing");
    });

    it("a followed player's private game is not shown to those who follow them", async () => {
      const [fan, star] = await Promise.all([account(t.server.url, "Fanciful"), account(t.server.url, "Starling")]);
      expect((await call(t.server.url, "POST", "/api/follow", fan.token, { name: "Starling" })).status).toBe(200);
      const s = track(await new TestClient(t.server.url, star.token).ready());
      const playing = async () => ((await call(t.server.url, "GET", "/api/follows", fan.token)).body.follows as Array<{ name: string; online: boolean; playing: unknown }>)[0]!;
      const secret = (await s.call("room:create", { game: "goblin-market", seats: 3, bots: 2, private: true })).roomId as string;
      expect((await s.call("room:start", { roomId: secret })).ok).toBe(true);
      expect(await playing()).toMatchObject({ name: "Starling", online: true, playing: null });
      // A public game of theirs beside it is shown (the control).
      now += 1_000;
      const pub = (await s.call("room:create", { game: "goblin-market", seats: 3, bots: 2 })).roomId as string;
      expect((await s.call("room:start", { roomId: pub })).ok).toBe(true);
      expect((await playing()).playing).toEqual({ roomId: pub, game: "goblin-market" });
    });

    it("invited only: the link lets anyone watch but seats only those invited, an offline account too; who was invited is shown nowhere but to the host, while it waits", async () => {
      const url = t.server.url;
      const [ada, bea, cyd, dru] = await Promise.all(["Adaline", "Bealdor", "Cydney", "Drusilla"].map((n) => account(url, n)));
      const host = track(await new TestClient(url, ada.token).ready());
      const b = track(await new TestClient(url, bea.token).ready());
      const stranger = track(await new TestClient(url, dru.token).ready());
      const guestC = await asGuest("Gadabout");
      const made = await host.call("room:create", { game: "goblin-market", seats: 4, invitedOnly: true });
      expect(made.ok, JSON.stringify(made.error)).toBe(true);
      const secret = made.roomId as string;
      expect(made.state).toMatchObject({ private: true, invitedOnly: true });
      expect(ids((await get("/api/rooms")).open)).not.toContain(secret);

      // With the link but not invited: watching, yes; a seat, no (the words say what to do).
      for (const c of [stranger, guestC]) {
        expect((await c.sync(secret)).ok).toBe(true);
        const refused = await c.call("room:join", { roomId: secret });
        expect(refused.error?.code).toBe("INVITED_ONLY");
        expect(await c.call("room:join", { roomId: secret, seat: 3 })).toMatchObject({ error: { code: "INVITED_ONLY" } });
      }
      expect(((await stranger.call("room:join", { roomId: secret })).error as { message: string }).message).toMatch(/ask someone seated there to invite you by your account's name/);
      expect(((await guestC.call("room:join", { roomId: secret })).error as { message: string }).message).toMatch(/create an account/);
      // room:seatable says the same beforehand (the page offers them no seat).
      for (const c of [stranger, guestC]) expect((await c.call("room:seatable", { roomId: secret })).refusal).toMatchObject({ code: "INVITED_ONLY" });

      // Bealdor, online, is invited and sits; Cydney, offline, is let in all the same and sits when she comes.
      const invited = await host.call("room:invite", { roomId: secret, name: "Bealdor" });
      expect(invited).toEqual({ ok: true, roomId: secret, invited: "Bealdor", kept: true, admitted: true });
      await until(() => b.received.some(([e, p]) => e === "room:invited" && (p as { room: RoomSummary }).room.id === secret) || undefined, "Bealdor invited");
      expect((await b.call("room:seatable", { roomId: secret })).refusal).toBeNull();
      expect((b.received.find(([e]) => e === "room:invited")![1] as { room: RoomSummary }).room).toMatchObject({ private: true, invitedOnly: true });
      const joined = await b.call("room:join", { roomId: secret });
      expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
      const offline = await b.call("room:invite", { roomId: secret, name: "Cydney" });
      expect(offline).toEqual({ ok: true, roomId: secret, invited: "Cydney", kept: true, admitted: true, online: false });
      // When she comes, Your games holds the invitation (from Bealdor), with the table as the lobby would list it.
      const c = track(await new TestClient(url, cyd.token).ready());
      const invitedList = (await c.call("lobby:subscribe", {})).invited as Array<{ room: RoomSummary; from: { name: string } }>;
      expect(invitedList.map((i) => [i.room.id, i.room.invitedOnly, i.from.name])).toEqual([[secret, true, "Bealdor"]]);
      expect((await c.call("room:join", { roomId: secret })).ok).toBe(true);
      expect((await c.call("lobby:mine", {})).invited).toEqual([]);
      // Still not the stranger.
      expect((await stranger.call("room:join", { roomId: secret })).error?.code).toBe("INVITED_ONLY");
      expect((await stranger.call("room:seatable", { roomId: secret })).refusal).toMatchObject({ code: "INVITED_ONLY" });

      // Who was let in is nobody's to see: Hollis, let in but never seated, is in no view, pushed or
      // synced, in no reply and in no listing (the seated players' ids are, as at every table), but
      // the host's, which lists the invitation while it waits for an answer (theirs to withdraw).
      const hol = await account(url, "Hollis");
      expect(await c.call("room:invite", { roomId: secret, name: "Hollis" })).toMatchObject({ ok: true, kept: true, admitted: true, online: false });
      const invitedAt = now;
      now += 1_000;
      expect((await host.call("chat:send", { roomId: secret, text: "soon" })).ok).toBe(true);
      const hostView = (await host.sync(secret, true)).state as RoomView;
      const shown = [
        JSON.stringify((await stranger.sync(secret, true)).state),
        JSON.stringify((await c.sync(secret, true)).state),
        JSON.stringify(await b.call("lobby:mine", {})),
        JSON.stringify(await get("/api/rooms")),
        ...[b, c, stranger, guestC].map((x) => JSON.stringify(x.received)),
      ];
      for (const text of shown) {
        expect(text).not.toContain("admitted");
        expect(text).not.toContain(hol.player.id);
      }
      expect(shown[1]).toContain(cyd.player.id);
      expect(hostView.invitations).toEqual([{ playerId: hol.player.id, name: "Hollis", from: "Cydney", at: invitedAt }]);
      for (const text of [JSON.stringify(hostView), JSON.stringify(host.received)]) expect(text).not.toContain("admitted");
    });

    it("invited only, of one sitting: an account closed is forgotten there, its invitations for it and from it dropped", async () => {
      const url = t.server.url;
      const [ivo, jem, kai] = await Promise.all(["Ivorine", "Jemison", "Kaiulani"].map((n) => account(url, n)));
      const host = track(await new TestClient(url, ivo.token).ready());
      const j = track(await new TestClient(url, jem.token).ready());
      const secret = (await host.call("room:create", { game: "goblin-market", seats: 4, invitedOnly: true })).roomId as string;
      expect(await host.call("room:invite", { roomId: secret, name: "Jemison" })).toMatchObject({ ok: true, kept: true, admitted: true });
      expect((await j.call("room:join", { roomId: secret })).ok).toBe(true);
      // Jemison, seated, invites Kaiulani (offline); Ivorine invites Kaiulani too (the newer replaces it) and then Lark.
      expect(await j.call("room:invite", { roomId: secret, name: "Kaiulani" })).toMatchObject({ ok: true, kept: true, online: false });
      const lark = await account(url, "Larkspur");
      expect(await j.call("room:invite", { roomId: secret, name: "Larkspur" })).toMatchObject({ ok: true, kept: true, online: false });
      const before = await t.server.service.get(secret);
      expect(before.invited?.map((i) => i.playerId).sort()).toEqual([kai.player.id, lark.player.id].sort());
      // Kaiulani closes her account: her invitation and her place go.
      expect((await call(url, "POST", "/api/account/close", kai.token, { password: "password of Kaiulani" })).body).toMatchObject({ ok: true });
      const after = await t.server.service.get(secret);
      expect(after.invited?.map((i) => i.playerId)).toEqual([lark.player.id]);
      expect(after.admitted).not.toContain(kai.player.id);
      // Jemison closes his: he leaves the table, and the invitation he made goes with him.
      expect((await call(url, "POST", "/api/account/close", jem.token, { password: "password of Jemison" })).body).toMatchObject({ ok: true, left: [secret] });
      const last = await t.server.service.get(secret);
      expect(last.invited ?? []).toEqual([]);
      expect(last.admitted ?? []).not.toContain(jem.player.id);
      expect(last.seats.map((x) => x.playerId)).not.toContain(jem.player.id);
    });

    it("invited only, turn-based: the kept invitation lets its player sit; a refused invitation closes the seat to them again", async () => {
      const url = t.server.url;
      const [eda, fen, gus] = await Promise.all(["Edalyn", "Fennick", "Gustavo"].map((n) => account(url, n)));
      const host = track(await new TestClient(url, eda.token).ready());
      const secret = (await host.call("room:create", { game: "goblin-teeth", seats: 3, clock: "turn-1d", invitedOnly: true })).roomId as string;
      expect(secret).toBeTruthy();
      // Neither is online: a turn-based invitation is kept for later.
      expect(await host.call("room:invite", { roomId: secret, name: "Fennick" })).toEqual({ ok: true, roomId: secret, invited: "Fennick", kept: true, admitted: true });
      expect(await host.call("room:invite", { roomId: secret, name: "Gustavo" })).toEqual({ ok: true, roomId: secret, invited: "Gustavo", kept: true, admitted: true });
      const f = track(await new TestClient(url, fen.token).ready());
      const g = track(await new TestClient(url, gus.token).ready());
      expect((await g.call("room:decline", { roomId: secret })).ok).toBe(true);
      expect((await g.call("room:join", { roomId: secret })).error?.code).toBe("INVITED_ONLY");
      expect((await f.call("room:join", { roomId: secret })).ok).toBe(true);
      // Invited again, Gustavo sits: the last seat, so the game starts.
      now += 61_000;
      expect((await f.call("room:invite", { roomId: secret, name: "Gustavo" })).ok).toBe(true);
      const joined = await g.call("room:join", { roomId: secret });
      expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
      expect(joined.state).toMatchObject({ status: "playing", invitedOnly: true });
    });

    it("refuses an invitedOnly that is not true or false, or a listed table for invited players only", async () => {
      const c = await asGuest("Oddball");
      for (const bad of ["yes", 1, {}]) {
        expect(await c.call("room:create", { game: "goblin-market", seats: 3, invitedOnly: bad })).toMatchObject({ error: { code: "BAD_INVITED_ONLY" } });
      }
      expect(await c.call("room:create", { game: "goblin-market", seats: 3, invitedOnly: true, private: false })).toMatchObject({ error: { code: "BAD_INVITED_ONLY" } });
    });

    it("refuses a private that is not true or false", async () => {
      const c = await asGuest("Oddity");
      for (const bad of ["yes", 1, {}]) {
        const reply = await c.call("room:create", { game: "goblin-market", seats: 3, private: bad });
        expect(reply.error).toMatchObject({ code: "BAD_PRIVATE" });
      }
    });
  });
}
