/**
 * Invitations (src/platform/invitations.ts, src/transport/invite-events.ts; docs/protocol.md,
 * "Invitations") on both back ends, and across two nodes: a seated player invites an account by
 * name; every device of that account connected now gets room:invited, and the join it leads to is
 * an ordinary one. Every refusal has its code and words, changes nothing and reaches no one: a room
 * not open or full, an inviter not seated, a guest or unknown name, an account with invitations
 * off or in a block with anyone at the table (one message for both), an account with no device
 * online, and the limits.
 */
import { describe, expect, it } from "vitest";
import type { RoomInvited } from "../src/platform/invitations.js";
import type { RoomView } from "../src/protocol/wire.js";
import { account } from "./support/accounts.js";
import { backends, guest, REDIS_URL, TestClient, until, useTestServer, useTwoNodes } from "./support/harness.js";

const invitedIn = (c: TestClient) => c.received.filter(([e]) => e === "room:invited").map(([, p]) => p as RoomInvited);

describe.each(backends())("invitations ($name)", (backend) => {
  const clock = { t: Date.UTC(2026, 10, 25, 12, 0, 0) };
  const srv = useTestServer(backend, { clock: () => clock.t });

  async function post(path: string, body: unknown, token: string): Promise<{ status: number; body: Record<string, any> }> {
    const res = await fetch(`${srv.server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  async function me(token: string): Promise<Record<string, any>> {
    return (await (await fetch(`${srv.server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, any>;
  }

  it("reaches every connected device of the account, which may then take the seat", async () => {
    const url = srv.server.url;
    const [ann, bob] = await Promise.all([account(url, "Annika"), account(url, "Bobbin")]);
    const host = await new TestClient(url, ann.token).ready();
    const phone = await new TestClient(url, bob.token).ready();
    const laptop = await new TestClient(url, bob.token).ready();
    const created = await host.call("room:create", { game: "goblin-market", seats: 3, ranked: true, clock: "standard" });
    const roomId = created.roomId as string;
    // The name as typed, in another case and with stray spaces.
    const sent = await host.call("room:invite", { roomId, name: "  bobbin " });
    expect(sent).toEqual({ ok: true, roomId, invited: "Bobbin" });
    for (const c of [phone, laptop]) await until(() => invitedIn(c).length === 1 || undefined, "each of Bob's devices invited");
    const [inv] = invitedIn(phone);
    expect(inv).toEqual({
      room: expect.objectContaining({ id: roomId, game: "goblin-market", ranked: true, status: "open", clock: "standard", seats: [{ name: "Annika", bot: false, taken: true }, { name: null, bot: false, taken: false }, { name: null, bot: false, taken: false }] }),
      from: { id: ann.player.id, name: "Annika", account: true },
      at: clock.t,
    });
    expect(invitedIn(host)).toEqual([]);
    expect((await laptop.call("room:join", { roomId })).ok).toBe(true);
    // A second invitation of the same account to the same room within a minute is refused; a minute on it goes.
    const again = await host.call("room:invite", { roomId, name: "Bobbin" });
    expect(again.error?.code).toBe("ALREADY_SEATED");
    for (const c of [host, phone, laptop]) c.close();
  });

  it("answers the same whether an account that hides when it is online is online or not", async () => {
    const url = srv.server.url;
    const [hana, ivo] = await Promise.all([account(url, "Hanalei"), account(url, "Ivory")]);
    expect((await post("/api/me/online", { on: false }, ivo.token)).body.showOnline).toBe(false);
    const host = await new TestClient(url, hana.token).ready();
    const room = async (more: Record<string, unknown> = {}) => (await host.call("room:create", { game: "goblin-market", seats: 3, ranked: false, clock: "standard", ...more })).roomId as string;
    // Offline: not NOT_ONLINE, and no `online: false` at a table for invited players only.
    const offline = await room();
    expect(await host.call("room:invite", { roomId: offline, name: "Ivory" })).toEqual({ ok: true, roomId: offline, invited: "Ivory" });
    const invitedOnly = await room({ private: true, invitedOnly: true });
    expect(await host.call("room:invite", { roomId: invitedOnly, name: "Ivory" })).toEqual({ ok: true, roomId: invitedOnly, invited: "Ivory", kept: true, admitted: true });
    // Online: the same answers, and the invitation reaches the device.
    const device = await new TestClient(url, ivo.token).ready();
    const online = await room();
    expect(await host.call("room:invite", { roomId: online, name: "Ivory" })).toEqual({ ok: true, roomId: online, invited: "Ivory" });
    await until(() => invitedIn(device).some((i) => (i as { room: { id: string } }).room.id === online) || undefined, "Ivory's device invited");
    for (const c of [host, device]) c.close();
  });

  it("refuses, with a code and words, what it cannot do, telling no one", async () => {
    const url = srv.server.url;
    const [cara, dov, eli, fay] = await Promise.all(["Carabel", "Dovetail", "Elidor", "Fayling"].map((n) => account(url, n)));
    const guestGil = await guest(url, "Gil Guest");
    const [host, dovC, eliC, fayC, gilC] = await Promise.all([cara, dov, eli, fay, guestGil].map((a) => new TestClient(url, a.token).ready()));
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, ranked: false, clock: "none" })).roomId as string;
    const refusal = async (c: TestClient, payload: Record<string, unknown>) => {
      const r = await c.call("room:invite", payload);
      expect(r.ok).toBe(false);
      return [r.error!.code, r.error!.message];
    };
    expect(await refusal(host, { roomId, name: "Nobody Here" })).toEqual(["NO_SUCH_ACCOUNT", 'No account is named "Nobody Here". Guests cannot be invited by name: send them the room\'s link.']);
    expect(await refusal(host, { roomId, name: "Gil Guest" })).toEqual(["NO_SUCH_ACCOUNT", expect.stringContaining("Guests cannot be invited by name")]);
    expect(await refusal(host, { roomId, name: "" })).toEqual(["NO_SUCH_ACCOUNT", "Name the account to invite."]);
    expect(await refusal(host, { roomId, name: "Carabel" })).toEqual(["BAD_INVITE", "You sit at this table already."]);
    expect(await refusal(dovC, { roomId, name: "Elidor" })).toEqual(["NOT_SEATED", "Take a seat in this room to invite others to it."]);
    expect(await refusal(host, { roomId: "nope!", name: "Elidor" })).toEqual(["BAD_ROOM_ID", expect.any(String)]);
    // Invitations off, and a block either way between the invitee and anyone seated: the same words.
    expect((await me(fay.token)).invitations).toBe(true);
    expect(await post("/api/me/invitations", { on: false }, fay.token)).toEqual({ status: 200, body: { ok: true, invitations: false } });
    expect((await me(fay.token)).invitations).toBe(false);
    expect(await refusal(host, { roomId, name: "Fayling" })).toEqual(["INVITE_REFUSED", "Fayling is not taking invitations to this table."]);
    expect((await post("/api/me/invitations", { on: "yes" }, fay.token)).body.error.code).toBe("BAD_REQUEST");
    expect((await post("/api/me/invitations", { on: true }, guestGil.token)).status).toBe(403);
    expect((await dovC.call("room:join", { roomId })).ok).toBe(true);
    expect((await post("/api/block", { name: "Dovetail" }, eli.token)).status).toBe(200);
    expect(await refusal(host, { roomId, name: "Elidor" })).toEqual(["INVITE_REFUSED", "Elidor is not taking invitations to this table."]);
    expect((await post("/api/unblock", { name: "Dovetail" }, eli.token)).status).toBe(200);
    expect((await post("/api/block", { name: "Elidor" }, dov.token)).status).toBe(200);
    expect(await refusal(host, { roomId, name: "Elidor" })).toEqual(["INVITE_REFUSED", "Elidor is not taking invitations to this table."]);
    expect((await post("/api/unblock", { name: "Elidor" }, dov.token)).status).toBe(200);
    // The inviter's own block is said plainly (theirs to know), whatever else stands; Elidor's
    // block of the inviter keeps the one message.
    expect((await post("/api/block", { name: "Elidor" }, cara.token)).status).toBe(200);
    expect(await refusal(host, { roomId, name: "Elidor" })).toEqual(["INVITE_REFUSED", "You block Elidor; unblock them to invite them."]);
    expect((await post("/api/block", { name: "Fayling" }, cara.token)).status).toBe(200);
    expect(await refusal(host, { roomId, name: "Fayling" })).toEqual(["INVITE_REFUSED", "You block Fayling; unblock them to invite them."]);
    expect((await post("/api/unblock", { name: "Elidor" }, cara.token)).status).toBe(200);
    expect((await post("/api/unblock", { name: "Fayling" }, cara.token)).status).toBe(200);
    expect((await post("/api/block", { name: "Carabel" }, eli.token)).status).toBe(200);
    expect(await refusal(host, { roomId, name: "Elidor" })).toEqual(["INVITE_REFUSED", "Elidor is not taking invitations to this table."]);
    expect((await post("/api/unblock", { name: "Carabel" }, eli.token)).status).toBe(200);
    // Not online: Eli's only device goes away.
    eliC.close();
    await until(async () => (await srv.server.io.in(`player:${eli.player.id}`).fetchSockets()).length === 0 || undefined, "Elidor's socket gone");
    expect(await refusal(host, { roomId, name: "Elidor" })).toEqual(["NOT_ONLINE", "Elidor is not online now; send them the room's link instead."]);
    // Full, then started.
    expect((await gilC.call("room:join", { roomId })).ok).toBe(true);
    expect(await refusal(host, { roomId, name: "Fayling" })).toEqual(["ROOM_FULL", expect.any(String)]);
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    expect(await refusal(host, { roomId, name: "Fayling" })).toEqual(["ROOM_NOT_OPEN", "Invitations are for rooms that have not started."]);
    // A spectator without a name cannot invite.
    const anonymous = await new TestClient(url).ready();
    expect(await refusal(anonymous, { roomId, name: "Fayling" })).toEqual(["NO_IDENTITY", expect.any(String)]);
    for (const c of [host, dovC, fayC, gilC, anonymous]) {
      expect(invitedIn(c)).toEqual([]);
      c.close();
    }
  });

  it("the host follows the invitations the table keeps: their view lists them; a decline is a notice at the table and leaves the list, live and at a sync", async () => {
    const url = srv.server.url;
    const [ann, bo, dee, eve] = await Promise.all(["Annwyn", "Bofur", "Deedee", "Evander"].map((n) => account(url, n)));
    const host = await new TestClient(url, ann.token).ready();
    const other = await new TestClient(url, bo.token).ready();
    const deeC = await new TestClient(url, dee.token).ready();
    const watcher = await new TestClient(url).ready();
    // A turn-based room keeps its invitations (its invitees come by when they can).
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 4, clock: "turn-1d" })).roomId as string;
    expect((await other.call("room:join", { roomId })).ok).toBe(true);
    expect(await host.call("room:invite", { roomId, name: "Deedee" })).toEqual({ ok: true, roomId, invited: "Deedee", kept: true });
    clock.t += 60_000;
    expect(await other.call("room:invite", { roomId, name: "Evander" })).toEqual({ ok: true, roomId, invited: "Evander", kept: true });
    const pending = [
      { playerId: dee.player.id, name: "Deedee", from: "Annwyn", at: clock.t - 60_000 },
      { playerId: eve.player.id, name: "Evander", from: "Bofur", at: clock.t },
    ];
    const hostView = () => host.view(roomId) as unknown as RoomView;
    await until(() => JSON.stringify(hostView().invitations) === JSON.stringify(pending) || undefined, "the host's view lists both, as they came");
    // Nobody else's: not the other player's, nor a spectator's.
    await watcher.sync(roomId);
    await until(() => (other.view(roomId) as unknown as RoomView).version === hostView().version || undefined, "the other player's view at the same version");
    for (const v of [other.view(roomId), watcher.view(roomId)]) {
      expect("invitations" in v).toBe(false);
      expect(JSON.stringify(v)).not.toContain(dee.player.id);
    }

    // Dee declines: the table is told, and the host's list keeps only Eve.
    expect((await deeC.call("room:decline", { roomId })).ok).toBe(true);
    const said = { kind: "declined", seat: null, text: "Deedee declined the invitation." };
    await until(() => hostView().notices.some((n) => n.text === said.text) || undefined, "the host told, live");
    expect(hostView().notices).toEqual([expect.objectContaining(said)]);
    expect(hostView().invitations).toEqual(pending.slice(1));
    await until(() => (watcher.view(roomId) as unknown as RoomView).notices.length === 1 || undefined, "the spectator told");
    // What the host holds is what a sync sends afresh.
    const fresh = (await host.call("room:sync", { roomId })).state as RoomView;
    const { serverTime: _a, log: _l, logFrom: _f, ...held } = hostView();
    expect(fresh).toMatchObject(held);
    expect(fresh.invitations).toEqual(pending.slice(1));
    // A live table keeps no invitation: nothing there to withdraw.
    const live = (await host.call("room:create", { game: "goblin-market", seats: 3, clock: "standard" })).roomId as string;
    expect(await host.call("room:invite", { roomId: live, name: "Deedee" })).toEqual({ ok: true, roomId: live, invited: "Deedee" });
    expect((await host.call("room:uninvite", { roomId: live, playerId: dee.player.id })).error?.code).toBe("NOT_INVITED");
    for (const c of [host, other, deeC, watcher]) c.close();
  });

  it("the host withdraws an invitation: it leaves the invitee's Your games, their devices are told, they may no longer sit; every refusal changes nothing", async () => {
    const url = srv.server.url;
    const [ann, bo, dee] = await Promise.all(["Anselm", "Bodkin", "Delphine"].map((n) => account(url, n)));
    const host = await new TestClient(url, ann.token).ready();
    const other = await new TestClient(url, bo.token).ready();
    const phone = await new TestClient(url, dee.token).ready();
    const laptop = await new TestClient(url, dee.token).ready();
    const anonymous = await new TestClient(url).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, invitedOnly: true })).roomId as string;
    expect((await host.call("room:invite", { roomId, name: "Bodkin" })).ok).toBe(true);
    expect((await other.call("room:join", { roomId })).ok).toBe(true);
    expect(await host.call("room:invite", { roomId, name: "Delphine" })).toMatchObject({ ok: true, kept: true, admitted: true });
    expect(((await phone.call("lobby:mine", {})).invited as RoomInvited[]).map((i) => i.room.id)).toEqual([roomId]);

    const refused = async (c: TestClient, payload: unknown, code: string) => {
      const before = JSON.stringify(await srv.server.store.get(roomId));
      const r = await c.call("room:uninvite", payload);
      expect([r.ok, r.error?.code], JSON.stringify(payload)).toEqual([false, code]);
      expect(r.error!.message.length).toBeGreaterThan(10);
      expect(JSON.stringify(await srv.server.store.get(roomId))).toBe(before);
    };
    await refused(other, { roomId, playerId: dee.player.id }, "NOT_HOST");
    await refused(anonymous, { roomId, playerId: dee.player.id }, "NO_IDENTITY");
    for (const bad of [undefined, 42, "", "no such!", { id: dee.player.id }]) await refused(host, { roomId, playerId: bad }, "BAD_PLAYER_ID");
    await refused(host, { roomId: "nope!", playerId: dee.player.id }, "BAD_ROOM_ID");
    // Bodkin's invitation was answered by his seat; nobody was invited as the host.
    await refused(host, { roomId, playerId: bo.player.id }, "NOT_INVITED");
    await refused(host, { roomId, playerId: ann.player.id }, "NOT_INVITED");
    expect(phone.received.filter(([e]) => e === "room:uninvited")).toEqual([]);

    expect(await host.call("room:uninvite", { roomId, playerId: dee.player.id })).toEqual({ ok: true, roomId, withdrawn: "Delphine" });
    for (const c of [phone, laptop]) await until(() => c.received.some(([e]) => e === "room:uninvited") || undefined, "each of Delphine's devices told");
    expect(laptop.received.filter(([e]) => e === "room:uninvited").map(([, p]) => p)).toEqual([{ roomId, by: "Anselm" }]);
    expect(host.received.some(([e]) => e === "room:uninvited")).toBe(false);
    expect((await phone.call("lobby:mine", {})).invited).toEqual([]);
    const stored = (await srv.server.store.get(roomId))!;
    expect([stored.invited, stored.admitted]).toEqual([[], [bo.player.id]]);
    await until(() => !("invitations" in host.view(roomId)) || undefined, "the host's list empty");
    expect((await laptop.call("room:join", { roomId })).error?.code).toBe("INVITED_ONLY");
    expect((await phone.call("room:decline", { roomId })).error?.code).toBe("NOT_INVITED");
    await refused(host, { roomId, playerId: dee.player.id }, "NOT_INVITED");
    // Invited again, she may sit; once the table starts, nothing is withdrawn there.
    clock.t += 60_000;
    expect((await host.call("room:invite", { roomId, name: "Delphine" })).ok).toBe(true);
    expect((await host.call("room:invite", { roomId, name: "Delphine" })).error?.code).toBe("RATE_LIMITED");
    expect((await host.call("room:add-bot", { roomId, seat: 2 })).ok).toBe(true);
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    await refused(host, { roomId, playerId: dee.player.id }, "ROOM_NOT_OPEN");
    for (const c of [host, other, phone, laptop, anonymous]) c.close();
  });

  it("limits invitations: one account to one room once a minute, twenty from one player in ten minutes", async () => {
    const url = srv.server.url;
    const hal = await account(url, "Halloran");
    const invitees = await Promise.all(["Ivybell", "Jessamy", "Kestrel", "Linnet", "Marigold"].map((n) => account(url, n)));
    const host = await new TestClient(url, hal.token).ready();
    const devices = await Promise.all(invitees.map((a) => new TestClient(url, a.token).ready()));
    const rooms: string[] = [];
    for (let i = 0; i < 5; i++) rooms.push((await host.call("room:create", { game: "goblin-teeth", seats: 5, ranked: false, clock: "none" })).roomId as string);
    expect((await host.call("room:invite", { roomId: rooms[0], name: "Ivybell" })).ok).toBe(true);
    const twice = await host.call("room:invite", { roomId: rooms[0], name: "Ivybell" });
    expect([twice.error?.code, twice.error?.message]).toEqual(["RATE_LIMITED", "Too many invitations; try again in 60 seconds."]);
    // Another room, or another account, is not held back by it.
    expect((await host.call("room:invite", { roomId: rooms[1], name: "Ivybell" })).ok).toBe(true);
    expect((await host.call("room:invite", { roomId: rooms[0], name: "Jessamy" })).ok).toBe(true);
    clock.t += 60_000;
    expect((await host.call("room:invite", { roomId: rooms[0], name: "Ivybell" })).ok).toBe(true);
    // Twenty in ten minutes: four more rooms' worth of the others, then the limit.
    let sent = 4;
    for (const r of rooms.slice(1)) {
      for (const a of invitees.slice(1)) {
        if (r === rooms[1] && a === invitees[0]) continue;
        if (sent === 20) break;
        expect((await host.call("room:invite", { roomId: r, name: a.player.name })).ok, `invitation ${sent + 1}`).toBe(true);
        sent++;
      }
    }
    expect(sent).toBe(20);
    const over = await host.call("room:invite", { roomId: rooms[4], name: "Marigold" });
    expect(over.error?.code).toBe("RATE_LIMITED");
    await until(() => devices.reduce((n, c) => n + invitedIn(c).length, 0) === 20 || undefined, "twenty invitations delivered");
    clock.t += 10 * 60_000;
    expect((await host.call("room:invite", { roomId: rooms[4], name: "Marigold" })).ok).toBe(true);
    for (const c of [host, ...devices]) c.close();
  });
});

describe.skipIf(!REDIS_URL)("invitations across two nodes", () => {
  const nodes = useTwoNodes();

  it("finds the invitee's device on the other node and delivers there", async () => {
    const { a, b } = nodes;
    const [jo, kit] = await Promise.all([account(a.url, "Jolyon"), account(a.url, "Kittering")]);
    const host = await new TestClient(a.url, jo.token).ready();
    const far = await new TestClient(b.url, kit.token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, ranked: false, clock: "none" })).roomId as string;
    expect(await host.call("room:invite", { roomId, name: "Kittering" })).toEqual({ ok: true, roomId, invited: "Kittering" });
    await until(() => invitedIn(far).length === 1 || undefined, "invited on node B");
    expect(invitedIn(far)[0]!.room.id).toBe(roomId);
    expect((await far.call("room:join", { roomId })).ok).toBe(true);
    for (const c of [host, far]) c.close();
  });
});
