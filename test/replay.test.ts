/**
 * GET /api/replay/:id over the real server, on both room stores: a finished game replayed with
 * its proof and each viewer's views in windows of steps; refusals in words (unknown id, a live
 * room, a bad viewer or range); a live room's socket paths never hand out the all-seeing view; a
 * daily deal's replay waits until its day is over. The server's clock is a test clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { REPLAY_WINDOW } from "../src/transport/replay-routes.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, type Ack, useTestServer } from "./support/harness.js";

let clock = Date.parse("2026-11-22T10:00:00Z");

async function getAs(url: string, token: string | null = null): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe.each(backends())("replays ($name)", (backend) => {
  // Each backend's run starts on the same day (registered first: before the server starts).
  beforeAll(() => {
    clock = Date.parse("2026-11-22T10:00:00Z");
  });
  // Timers fire by themselves (polling), on the test's clock.
  const srv = useTestServer(backend, { clock: () => clock, realTimers: true, sweepEveryMs: 300 });
  let base: string;
  const clients: TestClient[] = [];
  const connect = async (name: string | null) => {
    const g = name ? await guest(base, name) : null;
    const c = await new TestClient(base, g?.token).ready();
    clients.push(c);
    return { c, token: g?.token ?? null };
  };

  beforeAll(() => {
    base = srv.server.url;
  });
  afterAll(() => {
    for (const c of clients) c.close();
  });

  it("replays a finished game with its proof, for every viewer, in windows of steps; never a live room", async () => {
    const ann = await connect("Ann");
    const ben = await connect("Ben");
    const watcher = await connect(null);
    const created = await ann.c.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" });
    const roomId = created.roomId as string;
    expect((await ben.c.call("room:join", { roomId })).ok).toBe(true);
    expect((await ann.c.call("room:start", { roomId })).ok).toBe(true);
    await until(() => (ben.c.rooms.get(roomId)?.state.status as string) === "playing", "Ben to see the start");

    // A live room: no replay, and its socket paths give seats and spectators only, whatever is asked.
    const live = await getAs(`${base}/api/replay/${roomId}`);
    expect(live.status).toBe(404);
    expect(live.body.error.code).toBe("NOT_FOUND");
    for (const c of [ann.c, watcher.c]) {
      const ack = (await c.call("room:sync", { roomId, viewer: "all", kind: "all" })) as Ack;
      expect(ack.ok).toBe(true);
      const state = ack.state as Record<string, any>;
      expect(state.view).not.toHaveProperty("hidden");
      expect(JSON.stringify(ack)).not.toContain('"hidden"');
    }

    await playAnyActive(srv.server.store, roomId, [ann.c, ben.c], lcg(5));
    const finished = await until(async () => {
      const r = await getAs(`${base}/api/finished/${roomId}`);
      return r.status === 200 ? r.body.game : undefined;
    }, "the game to be recorded");
    const last = finished.actions.length as number;
    expect(last).toBeGreaterThan(10);
    // Played under Goblin Teeth's rules 2 (the room's at its start), recorded and replayed under them.
    expect(finished.rules).toBe(2);
    const firstWindow = Math.min(REPLAY_WINDOW, last + 1);

    // Default: everything, the first window of views.
    const all = (await getAs(`${base}/api/replay/${roomId}`)).body;
    expect(all).toMatchObject({ ok: true, roomId, game: "goblin-teeth", rules: 2, viewer: "all", proven: true, total: last + 1, from: 0, to: firstWindow - 1 });
    expect(all.seedCheck).toEqual({ seed: finished.seed, commitment: finished.commitment, sha256: finished.commitment, ok: true });
    expect(all.actionsCheck).toEqual({ ok: true });
    expect(all.outcomeCheck).toMatchObject({ ok: true, recorded: finished.outcome, replayed: finished.outcome });
    expect(all.players.map((p: any) => p.name)).toEqual(["Ann", "Ben"]);
    expect(all.steps).toHaveLength(last + 1);
    expect(all.steps.filter((s: any) => "view" in s)).toHaveLength(firstWindow);
    expect(all.steps[0].view.hidden.hands).toHaveLength(2);
    expect(all.steps.slice(1).map((s: any) => [s.seat, s.action])).toEqual(finished.actions.map((a: any) => [a.seat, a.action]));

    // The last window as Ben saw it: his hand (`mine`), nothing hidden, the final scores.
    const benView = (await getAs(`${base}/api/replay/${roomId}?viewer=seat:1&from=${last - 2}`)).body;
    expect(benView).toMatchObject({ viewer: "seat:1", from: last - 2, to: last });
    const lastStep = benView.steps[last];
    expect(lastStep.view.you).toBe(1);
    expect(lastStep.view).not.toHaveProperty("hidden");
    expect(lastStep.view.outcome).toEqual(finished.outcome);
    expect(lastStep.active).toEqual([]);
    // Ben's private log entries are his: the spectators' log has none.
    const spect = (await getAs(`${base}/api/replay/${roomId}?viewer=spectator&from=0&to=3`)).body;
    expect(spect.steps.flatMap((s: any) => s.log).some((e: any) => e.to !== undefined)).toBe(false);
    expect(spect.steps[0].view).not.toHaveProperty("mine.hand");
    expect(spect.steps[0].view.mine).toBeNull();
    const allLog = all.steps.flatMap((s: any) => s.log);
    expect(allLog.some((e: any) => e.to !== undefined)).toBe(true);
    expect(allLog.map((e: any) => e.n)).toEqual(allLog.map((_: unknown, i: number) => i + 1));

    // Refusals, in words.
    const refusals: Array<[string, number, string]> = [
      ["/api/replay/AAAAAAAAAAAAAAAAAAAAAA", 404, "NOT_FOUND"],
      ["/api/replay/not a room", 400, "BAD_ROOM_ID"],
      [`/api/replay/${roomId}?viewer=god`, 400, "BAD_VIEWER"],
      [`/api/replay/${roomId}?viewer=seat:2`, 400, "BAD_VIEWER"],
      [`/api/replay/${roomId}?from=abc`, 400, "BAD_RANGE"],
      [`/api/replay/${roomId}?from=${last + 1}`, 400, "BAD_RANGE"],
      [`/api/replay/${roomId}?from=0&to=${REPLAY_WINDOW}`, 400, "BAD_RANGE"],
      [`/api/replay/${roomId}?from=5&to=4`, 400, "BAD_RANGE"],
    ];
    for (const [url, status, code] of refusals) {
      const r = await getAs(base + url);
      expect([url, r.status, r.body.error?.code]).toEqual([url, status, code]);
      expect(r.body.error.message.length).toBeGreaterThan(10);
    }
    const forged = await getAs(`${base}/api/replay/${roomId}`, "not-a-token");
    expect([forged.status, forged.body.error.code]).toEqual([401, "BAD_TOKEN"]);
  });

  it("keeps a daily deal's replay until its day is over, for everyone", async () => {
    clock = Date.parse("2026-11-24T09:00:00Z");
    const dora = await connect("Dora");
    const d = await dora.c.call("daily:start", { game: "aucteraden" });
    expect(d.ok).toBe(true);
    const roomId = d.roomId as string;
    dora.c.rooms.set(roomId, { version: (d.state as any).version, state: d.state as any, log: (d.state as any).log });
    const random = lcg(3);
    for (let i = 0; i < 500; i++) {
      const view = dora.c.view(roomId) as Record<string, any>;
      if (view.status === "finished") break;
      const version = view.version as number;
      const ack = await dora.c.call("game:act", { roomId, action: randomLegalAction(view.legal as LegalAction[], random) });
      expect(ack.ok).toBe(true);
      await until(() => (dora.c.rooms.get(roomId)?.version ?? 0) > version, "the move to arrive");
    }
    await until(async () => (await getAs(`${base}/api/finished/${roomId}`, dora.token)).status === 200, "the attempt to be recorded");

    // Dora knows the deal, but its replay would show the deck: it waits for the day's end.
    const mine = await getAs(`${base}/api/replay/${roomId}`, dora.token);
    expect([mine.status, mine.body.error.code]).toEqual([403, "DAILY_REPLAY_LATER"]);
    expect(mine.body.error.message).toBe(
      "This game was played on today's daily deal: its replay waits for everyone until the day is over, at 00:00 UTC, so that no one can study the deck before the day's attempts are over.",
    );
    // Who has not played it learns nothing, by any viewer.
    for (const viewer of ["all", "spectator", "seat:0"]) {
      const r = await getAs(`${base}/api/replay/${roomId}?viewer=${viewer}`);
      expect([r.status, r.body.error.code]).toEqual([403, "DAILY_SPOILER"]);
      expect(JSON.stringify(r.body)).not.toContain('"steps"');
    }
    clock = Date.parse("2026-11-24T23:59:59Z");
    expect((await getAs(`${base}/api/replay/${roomId}`, dora.token)).status).toBe(403);

    clock = Date.parse("2026-11-25T00:00:01Z");
    const open = await getAs(`${base}/api/replay/${roomId}`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ ok: true, proven: true, game: "aucteraden", players: [{ seat: 0, name: "Dora" }] });
    expect(open.body.steps[0].view.hidden.deck.length).toBeGreaterThan(0);
  });
});
