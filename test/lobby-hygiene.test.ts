/**
 * Lobby hygiene (issue 23, part 4; docs/protocol.md, RoomSummary): an open room's summary says
 * whether its host is away (`hostAway`), kept up to date by lobby:room pushes as the host leaves
 * and comes back; lobby:subscribe carries the server's time so the client can show each room's age.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import type { RunningServer } from "../src/server.js";
import { guest, newPrefix, openTestDatabase, startTestServer, TestClient, until } from "./support/harness.js";

interface Summary { id: string; status: string; createdAt: number; hostAway?: boolean }

describe("lobby hygiene: room age and host presence", () => {
  let server: RunningServer;
  let db: Database;
  let dispose: () => Promise<void>;
  let now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const clients: TestClient[] = [];
  const client = async (name: string, token?: string) => {
    const c = await new TestClient(server.url, token ?? (await guest(server.url, name)).token).ready();
    clients.push(c);
    return c;
  };
  const pushes = (c: TestClient, roomId: string) =>
    c.received.filter(([e, p]) => e === "lobby:room" && (p as Summary).id === roomId).map(([, p]) => p as Summary);

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    server = await startTestServer({ name: "memory", redis: false, realPg: false }, db, newPrefix(), "node-a", () => now);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    await dispose?.();
  });

  it("an open room is listed with its creation time and hostAway false; lobby:subscribe says the server's time", async () => {
    const host = await client("Hostess");
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect(roomId).toBeTruthy();
    now += 4 * 60_000;
    const watcher = await client("Looker");
    const ack = await watcher.call("lobby:subscribe", {});
    expect(ack.ok).toBe(true);
    expect(ack.serverTime).toBe(now);
    const listed = (ack.open as Summary[]).find((r) => r.id === roomId)!;
    expect(listed.createdAt).toBe(now - 4 * 60_000);
    expect(listed.hostAway).toBe(false);
  });

  it("the lobby is told when the host goes away and when they come back; a started room carries no hostAway", async () => {
    const { token } = await guest(server.url, "Runaway");
    const host = await client("Runaway", token);
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, bots: 1 })).roomId as string;
    expect(roomId).toBeTruthy();
    const watcher = await client("Watcher");
    await watcher.call("lobby:subscribe", {});

    host.close();
    const away = await until(() => pushes(watcher, roomId).find((p) => p.hostAway === true), "a push saying the host is away");
    expect(away.status).toBe("open");
    expect(((await watcher.call("lobby:list", {})).open as Summary[]).find((r) => r.id === roomId)!.hostAway).toBe(true);

    const back = await client("Runaway", token);
    expect((await back.sync(roomId)).ok).toBe(true);
    await until(() => pushes(watcher, roomId).at(-1)?.hostAway === false, "a push saying the host is back");
    expect(((await watcher.call("lobby:list", {})).open as Summary[]).find((r) => r.id === roomId)!.hostAway).toBe(false);

    const guestB = await client("Seated");
    expect((await guestB.call("room:join", { roomId })).ok).toBe(true);
    expect((await back.call("room:start", { roomId })).ok).toBe(true);
    const started = await until(() => pushes(watcher, roomId).find((p) => p.status === "playing"), "the start pushed");
    expect("hostAway" in started).toBe(false);
  });
});
