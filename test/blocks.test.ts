/**
 * Blocking over HTTP and Socket.IO (docs/protocol.md, "Blocking"): the routes and their refusals,
 * a join refused both ways (the blocker told whom they block, the blocked only that a player there
 * blocked them), watching still allowed, and quick play never seating the two together.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MAX_BLOCKS } from "../src/platform/blocks.js";
import type { WireQueueStatus } from "../src/transport/queue-events.js";
import { account } from "./support/accounts.js";
import { backends, guest, TestClient, until, useTestServer } from "./support/harness.js";

interface Reply {
  status: number;
  body: { ok: boolean; error?: { code: string; message: string }; [k: string]: any };
}

describe.each(backends())("blocking ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const srv = useTestServer(backend, { clock: () => now });
  const open: TestClient[] = [];
  afterAll(() => {
    for (const c of open) c.close();
  });
  async function call(method: "GET" | "POST", path: string, body: unknown, token: string): Promise<Reply> {
    const res = await fetch(`${srv.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Reply["body"] };
  }
  async function socket(token: string): Promise<TestClient> {
    const c = await new TestClient(srv.server.url, token).ready();
    open.push(c);
    return c;
  }

  it("blocks and unblocks accounts by name or id, lists them, and refuses what it cannot", async () => {
    const ann = await account(srv.server.url, "BlAnn");
    const bob = await account(srv.server.url, "BlBob");
    const cy = await account(srv.server.url, "BlCy");
    const g = await guest(srv.server.url, "BlGuest");
    expect((await call("POST", "/api/block", { name: "BlBob" }, g.token)).body.error?.code).toBe("ACCOUNT_REQUIRED");
    expect((await call("POST", "/api/block", { name: "blann" }, ann.token)).body.error?.code).toBe("BAD_BLOCK");
    const guestName = await call("POST", "/api/block", { name: "BlGuest" }, ann.token);
    expect([guestName.status, guestName.body.error?.code]).toEqual([404, "NO_SUCH_ACCOUNT"]);
    expect(guestName.body.error?.message).toContain("Guests cannot be blocked");

    const first = await call("POST", "/api/block", { name: "blbob" }, ann.token);
    expect(first.body).toEqual({ ok: true, blocked: { id: bob.player.id, name: "BlBob", since: now } });
    now += 1000;
    expect((await call("POST", "/api/block", { name: "BlBob" }, ann.token)).body.blocked.since).toBe(now - 1000);
    expect((await call("POST", "/api/block", { name: `id:${cy.player.id}` }, ann.token)).body.blocked.name).toBe("BlCy");
    expect((await call("GET", "/api/blocks", undefined, ann.token)).body.blocked).toEqual([
      { id: cy.player.id, name: "BlCy", since: now },
      { id: bob.player.id, name: "BlBob", since: now - 1000 },
    ]);
    // Bob learns nothing from the routes: his own list is his.
    expect((await call("GET", "/api/blocks", undefined, bob.token)).body.blocked).toEqual([]);
    expect((await call("POST", "/api/unblock", { name: "BlCy" }, ann.token)).body).toEqual({ ok: true, id: cy.player.id, name: "BlCy", unblocked: true });
    expect((await call("POST", "/api/unblock", { name: "BlCy" }, ann.token)).body.unblocked).toBe(false);

    // At most MAX_BLOCKS: Dot blocks that many (written straight to the table), then one more is refused.
    const dot = await account(srv.server.url, "BlDot");
    const many = Array.from({ length: MAX_BLOCKS }, (_, i) => `p_blk_${i}`);
    await srv.server.db.prisma.player.createMany({ data: many.map((id) => ({ id, name: id, lastSeenAt: new Date(now) })) });
    await srv.server.db.prisma.block.createMany({ data: many.map((id) => ({ playerId: dot.player.id, blockedId: id, createdAt: new Date(now) })) });
    const over = await call("POST", "/api/block", { name: "BlBob" }, dot.token);
    expect(over.body.error?.code).toBe("TOO_MANY_BLOCKS");
  });

  it("refuses a seat beside a blocked player, both ways, and still lets them watch", async () => {
    const eve = await account(srv.server.url, "BlEve");
    const fin = await account(srv.server.url, "BlFin");
    const gus = await account(srv.server.url, "BlGus");
    expect((await call("POST", "/api/block", { name: "BlFin" }, eve.token)).body.ok).toBe(true);
    const [e, f, g] = [await socket(eve.token), await socket(fin.token), await socket(gus.token)];

    const finsRoom = (await f.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    const refused = await e.call("room:join", { roomId: finsRoom });
    expect(refused.error).toEqual({ code: "BLOCKED", message: "You block BlFin, who sits at this table; unblock them to join." });
    expect((await g.call("room:join", { roomId: finsRoom })).ok).toBe(true);

    const evesRoom = (await e.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    const blocked = await f.call("room:join", { roomId: evesRoom });
    expect(blocked.error).toEqual({ code: "BLOCKED", message: "You cannot sit at this table: a player there has blocked you." });
    // Nothing changed at the table; watching is not sitting.
    expect(((await f.sync(evesRoom)).state as { seats: Array<{ name: string | null }> }).seats.map((s) => s.name)).toEqual(["BlEve", null, null]);

    // Unblocked: Fin may sit.
    expect((await call("POST", "/api/unblock", { name: "BlFin" }, eve.token)).body.unblocked).toBe(true);
    expect((await f.call("room:join", { roomId: evesRoom })).ok).toBe(true);
  });

  it("seats and queues unchecked while the blocks cannot be read (a database outage), as quick play goes on without ratings", async () => {
    const hal = await account(srv.server.url, "BlHal");
    const ida = await account(srv.server.url, "BlIda");
    expect((await call("POST", "/api/block", { name: "BlIda" }, hal.token)).body.ok).toBe(true);
    const [h, i] = [await socket(hal.token), await socket(ida.token)];
    const room = (await h.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect((await i.call("room:join", { roomId: room })).error?.code).toBe("BLOCKED");
    // The table of blocks goes missing: the join goes through, and so does queueing.
    await srv.server.db.prisma.$executeRawUnsafe(`ALTER TABLE "Block" RENAME TO "BlockAway"`);
    try {
      expect((await i.call("room:join", { roomId: room })).ok).toBe(true);
      expect((await h.call("queue:join", { game: "goblin-market", seats: 3, ranked: false })).ok).toBe(true);
      expect((await h.call("queue:leave")).ok).toBe(true);
    } finally {
      await srv.server.db.prisma.$executeRawUnsafe(`ALTER TABLE "BlockAway" RENAME TO "Block"`);
    }
  });

  it("never seats the two together in quick play", async () => {
    const names = ["QbAnn", "QbBob", "QbCat", "QbDan", "QbEve"];
    const list = await Promise.all(names.map((n) => account(srv.server.url, n)));
    expect((await call("POST", "/api/block", { name: "QbAnn" }, list[1]!.token)).body.ok).toBe(true); // Bob blocks Ann
    const clients = await Promise.all(list.map((a) => socket(a.token)));
    for (const c of clients) {
      now += 1; // one after another: Ann has waited longest
      const ack = await c.call("queue:join", { game: "goblin-market", seats: 4, ranked: false });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    now += 1000;
    const round = await srv.server.queue.tick();
    expect(round.proposed).toHaveLength(1);
    const offered = await Promise.all(clients.map((c) => c.call("queue:status").then((r) => (r.status as WireQueueStatus).match !== null)));
    // Ann (the longest waiter) gets the table; Bob, who blocks her, waits for the next.
    expect(offered).toEqual([true, false, true, true, true]);
    await until(async () => ((await clients[1]!.call("queue:status")).status as WireQueueStatus).queued?.place === 1 || undefined, "Bob still queued, first in line");
  });

  it("a block or unblock made while both are queued counts at once", async () => {
    const offered = async (cs: TestClient[]) => Promise.all(cs.map((c) => c.call("queue:status").then((r) => (r.status as WireQueueStatus).match !== null)));
    // A pool of its own (the test before leaves Bob queued in the clockless one).
    const queueAll = async (cs: TestClient[]) => {
      for (const c of cs) {
        now += 1;
        const ack = await c.call("queue:join", { game: "goblin-market", seats: 4, ranked: false, clock: "quick" });
        expect(ack.ok, JSON.stringify(ack)).toBe(true);
      }
    };
    // Five queued; then Bob blocks Ann: the first table leaves Bob out.
    const five = await Promise.all(["QwAnn", "QwBob", "QwCat", "QwDan", "QwEve"].map((n) => account(srv.server.url, n)));
    const fc = await Promise.all(five.map((a) => socket(a.token)));
    await queueAll(fc);
    expect((await call("POST", "/api/block", { name: "QwAnn" }, five[1]!.token)).body.ok).toBe(true);
    now += 1000;
    expect((await srv.server.queue.tick()).proposed).toHaveLength(1);
    expect(await offered(fc)).toEqual([true, false, true, true, true]);
    for (const c of fc) await c.call("queue:leave");
    // Four who were kept apart when they queued (Fay blocks Gus); she unblocks him while queued: one table.
    const four = await Promise.all(["QwFay", "QwGus", "QwHal", "QwIda"].map((n) => account(srv.server.url, n)));
    expect((await call("POST", "/api/block", { name: "QwGus" }, four[0]!.token)).body.ok).toBe(true);
    const gc = await Promise.all(four.map((a) => socket(a.token)));
    await queueAll(gc);
    now += 1000;
    expect((await srv.server.queue.tick()).proposed).toHaveLength(0);
    expect((await call("POST", "/api/unblock", { name: "QwGus" }, four[0]!.token)).body.ok).toBe(true);
    now += 1000;
    expect((await srv.server.queue.tick()).proposed).toHaveLength(1);
    expect(await offered(gc)).toEqual([true, true, true, true]);
  });
});
