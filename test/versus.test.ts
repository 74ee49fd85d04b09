/**
 * Two players' record against each other (GET /api/players/:name/versus/:other; db/profiles.ts
 * `versus`), on both back ends: every finished game both sat in as people counts, from the first
 * player's side; places decide, a seat a bot finished for its player (ran out of time, resigned)
 * is behind every other, tied places are level; games with only one of them, or one of them a
 * bot's seat, do not count. Names in any case and id:<player id> both work; the same player twice
 * is SAME_PLAYER, an unknown one NOT_FOUND. A profile's game list narrows to the games with another
 * player (`with`) and to one game (`game`), page by page.
 */
import { describe, expect, it } from "vitest";
import { account } from "./support/accounts.js";
import { backends, useTestServer } from "./support/harness.js";

describe.each(backends())("two players' record against each other ($name)", (backend) => {
  const srv = useTestServer(backend);

  it("counts every game both sat in, and who finished ahead, in all, per game and the latest", async () => {
    const url = srv.server.url;
    const [x, y, z] = await Promise.all(["Xan", "Yew", "Zed"].map((n) => account(url, n)));
    await srv.db.prisma.player.createMany({ data: [x, y, z].map((a) => ({ id: a!.player.id, name: a!.player.name, lastSeenAt: new Date() })), skipDuplicates: true });
    const t0 = Date.UTC(2026, 10, 1);
    type Seat = { who: "x" | "y" | "z" | "bot"; place: number; forfeit?: string };
    const ids = { x: x!.player.id, y: y!.player.id, z: z!.player.id };
    const game = async (n: number, gameType: string, ranked: boolean, seats: Seat[]) => {
      await srv.db.prisma.game.create({
        data: {
          id: `vs-${n}`, gameType, ranked, options: {}, playerCount: seats.length, seed: "s", commitment: "c", actions: [], outcome: {},
          startedAt: new Date(t0 + n * 3_600_000), finishedAt: new Date(t0 + n * 3_600_000),
          seats: { create: seats.map((s, i) => ({ seat: i, playerId: s.who === "bot" ? null : ids[s.who], name: s.who, isBot: s.who === "bot", score: 10 - s.place, place: s.place, forfeit: s.forfeit ?? null })) },
        },
      });
    };
    await game(1, "goblin-market", true, [{ who: "x", place: 1 }, { who: "y", place: 2 }, { who: "z", place: 3 }]); // ahead
    await game(2, "goblin-market", true, [{ who: "y", place: 1 }, { who: "z", place: 2 }, { who: "x", place: 3 }]); // behind
    await game(3, "sorcerous-futures", false, [{ who: "x", place: 1 }, { who: "y", place: 1 }, { who: "bot", place: 3 }]); // level
    await game(4, "goblin-market", true, [{ who: "x", place: 1, forfeit: "timeout" }, { who: "z", place: 2 }, { who: "y", place: 3 }]); // behind: her bot won
    await game(5, "goblin-market", false, [{ who: "y", place: 1, forfeit: "resigned" }, { who: "x", place: 2 }, { who: "bot", place: 3 }]); // ahead
    await game(6, "goblin-market", false, [{ who: "x", place: 1 }, { who: "bot", place: 2 }, { who: "z", place: 3 }]); // no Yew
    await game(7, "goblin-teeth", false, [{ who: "y", place: 1 }, { who: "z", place: 2 }]); // no Xan

    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const xy = await get("/api/players/xan/versus/YEW");
    expect(xy.status).toBe(200);
    expect(xy.body).toEqual({
      ok: true,
      player: { id: ids.x, name: "Xan", profile: "/player/Xan" },
      other: { id: ids.y, name: "Yew", profile: "/player/Yew" },
      games: 5, ahead: 2, behind: 2, level: 1,
      byGame: [{ game: "goblin-market", games: 4, ahead: 2, behind: 2, level: 0 }, { game: "sorcerous-futures", games: 1, ahead: 0, behind: 0, level: 1 }],
      recent: [5, 4, 3, 2, 1].map((n) => ({
        id: `vs-${n}`, game: n === 3 ? "sorcerous-futures" : "goblin-market", finishedAt: new Date(t0 + n * 3_600_000).toISOString(), ranked: n !== 3 && n !== 5,
        result: ({ 1: "ahead", 2: "behind", 3: "level", 4: "behind", 5: "ahead" } as Record<number, string>)[n],
      })),
    });
    // From the other side, by id: the mirror.
    const yx = await get(`/api/players/id:${ids.y}/versus/id:${ids.x}`);
    expect(yx.body).toMatchObject({ games: 5, ahead: 2, behind: 2, level: 1, player: { name: "Yew" }, other: { name: "Xan" } });
    expect((yx.body.recent as Array<{ result: string }>).map((r) => r.result)).toEqual(["behind", "ahead", "level", "ahead", "behind"]);
    // Xan and Zed: games 1, 2, 4 (Xan's forfeit puts her behind Zed, whatever her bot scored) and 6.
    expect((await get("/api/players/Xan/versus/Zed")).body).toMatchObject({ games: 4, ahead: 2, behind: 2, level: 0 });
    // Nobody in common: zeros.
    await account(url, "Wynn");
    expect((await get("/api/players/Xan/versus/Wynn")).body).toMatchObject({ games: 0, ahead: 0, behind: 0, level: 0, byGame: [], recent: [] });

    // A profile's game list, only the games with the other (and of one game), page by page.
    const listed = async (path: string) => {
      const ids: string[] = [];
      let next: string | null = null;
      do {
        const r = await get(`${path}${path.includes("?") ? "&" : "?"}limit=2${next ? `&before=${encodeURIComponent(next)}` : ""}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        ids.push(...(r.body.games as Array<{ id: string }>).map((g) => g.id));
        next = r.body.next;
      } while (next);
      return ids;
    };
    expect(await listed("/api/players/Xan/games?with=yew")).toEqual(["vs-5", "vs-4", "vs-3", "vs-2", "vs-1"]);
    expect(await listed(`/api/players/Xan/games?with=id:${ids.y}&game=sorcerous-futures`)).toEqual(["vs-3"]);
    expect(await listed("/api/players/Yew/games?game=goblin-teeth")).toEqual(["vs-7"]);
    expect(await listed("/api/players/Xan/games?with=Zed")).toEqual(["vs-6", "vs-4", "vs-2", "vs-1"]);
    expect((await get("/api/players/Xan/games?game=chess")).body.error.code).toBe("UNKNOWN_GAME");
    expect((await get("/api/players/Xan/games?with=Nobody")).body.error.code).toBe("NOT_FOUND");

    expect(await get("/api/players/Xan/versus/xan")).toEqual({ status: 400, body: { ok: false, error: { code: "SAME_PLAYER", message: "Name two different players." } } });
    expect((await get("/api/players/Xan/versus/Nobody")).body.error.code).toBe("NOT_FOUND");
    expect((await get(`/api/players/Xan/versus/${"n".repeat(81)}`)).body.error.code).toBe("NOT_FOUND");

    // A guest before their first finished game has no record: asking with its own token about
    // itself (a profile page's "you and them"), it has played nobody; anyone else is told NOT_FOUND.
    const fresh = (await (await fetch(`${url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Newt" }) })).json()) as { token: string; player: { id: string } };
    const mine = await fetch(`${url}/api/players/id:${fresh.player.id}/versus/Xan`, { headers: { authorization: `Bearer ${fresh.token}` } });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({
      ok: true,
      player: { id: fresh.player.id, name: "Newt", profile: `/player/id:${fresh.player.id}` },
      other: { id: ids.x, name: "Xan", profile: "/player/Xan" },
      games: 0, ahead: 0, behind: 0, level: 0, byGame: [], recent: [],
    });
    expect((await get(`/api/players/id:${fresh.player.id}/versus/Xan`)).body.error.code).toBe("NOT_FOUND");
    const other = await fetch(`${url}/api/players/id:${fresh.player.id}/versus/Xan`, { headers: { authorization: `Bearer ${y!.token}` } });
    expect([other.status, ((await other.json()) as { error: { code: string } }).error.code]).toEqual([404, "NOT_FOUND"]);
  });
});
