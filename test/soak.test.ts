/**
 * A seeded soak of the whole protocol on two nodes and one Redis: guests and accounts, each on
 * either node, do random things in random order (create, join, leave, start, legal and illegal
 * moves, resign, return, sync with and without `since`, chat and its read marks, rematch, quick
 * play, turn-based rooms, invitations, room:find, the daily challenge, junk events and junk
 * payloads, every GET route of the HTTP API with real and junk parameters, renames that reach
 * every table, follows, blocks and notes, vacations from turn-based games, accounts closed and
 * erased mid-game, dropping the connection and coming back on the other node) while the test
 * clock moves and both nodes' timers fire (bots, clocks, time-outs). What must hold whatever happens:
 * - no request is answered INTERNAL (every refusal has its own code), no HTTP request gets a 5xx,
 *   and no node logs a failure;
 * - once things settle, every view a client holds, kept from pushes and updates alone, is exactly
 *   the whole view the server gives it on a fresh sync, for every room it watches, and a seat at a
 *   ranked table is given no spectator's chat message;
 * - every game under way ends, and every game that finished is recorded in Postgres (once: the
 *   room id is the record's key).
 * One two-node scenario has a node die a third of the way in: the other must finish what it had
 * under way (clocks, bots, quick play tables, results).
 * Each scenario is one seed, and its choices follow the seed, so a failure can be run again
 * (SOAK_SEED=<n>; pushes may arrive in another order, so not always step for step);
 * SOAK_VERBOSE=1 prints every reply code's count, the phases' times and the games finished.
 * The two-node scenarios share their servers: a later seed's players may sit with an earlier
 * seed's, who have gone (their turn-based games wait out the clocks).
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../src/games/legal.js";
import { lobbyOf } from "../src/platform/lobby.js";
import type { LegalAction } from "../src/games/types.js";
import type { RunningServer } from "../src/server.js";
import { account } from "./support/accounts.js";
import { apiRoutes } from "./support/routes.js";
import { vapidKeys } from "./support/push-service.js";
import { backends, guest, lcg, REDIS_URL, TestClient, until, useTestServer, useTwoNodes, type Ack } from "./support/harness.js";

class TestClock {
  t = 1_800_000_000_000;
  now = () => this.t;
}

const STEPS = 600;
const GAMES = [
  { id: "goblin-market", min: 3, max: 6 },
  { id: "sorcerous-futures", min: 3, max: 5 },
  { id: "goblin-teeth", min: 2, max: 5 },
  { id: "aucteraden", min: 1, max: 1 },
];
const CLOCKS = ["none", "quick", "standard", "turn-1d"];
const EVENTS = ["daily:start", "daily:status", "room:create", "room:join", "room:leave", "room:start", "room:sync", "game:act", "game:resign", "game:return", "chat:send", "chat:seen", "room:rematch", "room:rematch-decline", "queue:join", "queue:leave", "queue:accept", "lobby:mine", "room:find", "room:invite", "room:decline", "room:remove", "room:unwatch", "no:such-event"];
const JUNK: unknown[] = [null, 0, -1, 1e308, "", "x".repeat(300), [], [1, 2], { roomId: 5 }, { roomId: "nope" }, { roomId: "../../etc" }, { roomId: { $ne: 1 } }, { action: { type: "pass", extra: "x".repeat(5000) } }, { seats: "many" }, true];

interface Person {
  name: string;
  token: string;
  id: string;
  account: boolean;
  client: TestClient;
  node: number;
  /** An account's password (to close or erase it). */
  password?: string;
  /** Closed or erased its account, or erased its guest: no longer here. */
  gone?: boolean;
}

/**
 * One seeded scenario against `nodes` (two nodes on one Redis, or one), whose clock is `clock`.
 * `dies`: the last node dies after that many random steps (its connections cut, its timers, quick
 * play rounds and recorder stopped, no new connection sent to it): whatever it had under way is
 * the other node's to finish.
 */
async function soak(seed: number, nodes: RunningServer[], clock: TestClock, opts: { dies?: number } = {}): Promise<void> {
  // The nodes alive: all of them, until one dies.
  const servers = [...nodes];
  const random = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const internal: Array<{ event: string; payload: unknown; ack: Ack }> = [];
  const codes = new Map<string, number>();
  // What the nodes log as failures (a handler that threw, a timer that failed, ...), during this scenario.
  const failures: unknown[] = [];
  const restore = nodes.map((s) => {
    const error = s.log.error;
    s.log.error = ((...args: unknown[]) => (failures.push(args), (error as (...a: unknown[]) => void).apply(s.log, args))) as typeof s.log.error;
    return () => (s.log.error = error);
  });

  const people: Person[] = [];
  for (let i = 0; i < 8; i++) {
    const node = i % servers.length;
    const name = `S${seed}p${i}${Math.random().toString(36).slice(2, 5)}`;
    const isAccount = i % 3 !== 2;
    const who = isAccount ? await account(servers[node]!.url, name) : await guest(servers[node]!.url, name);
    people.push({ name, token: who.token, id: who.player.id, account: isAccount, client: await new TestClient(servers[node]!.url, who.token).ready(), node, ...(isAccount ? { password: `password of ${name}` } : {}) });
  }
  const spectators = [await new TestClient(servers[0]!.url).ready(), await new TestClient(servers[servers.length - 1]!.url).ready()];
  const rooms = new Set<string>();

  async function send(c: TestClient, event: string, payload: unknown): Promise<Ack> {
    const whole = event === "room:sync" && payload && typeof payload === "object" && !("since" in payload) && typeof (payload as { roomId?: unknown }).roomId === "string" && random() < 0.5;
    let ack: Ack;
    try {
      ack = whole ? await c.sync((payload as { roomId: string }).roomId) : await c.call(event, payload);
    } catch (e) {
      // No answer at all (a timed-out request): say which, and where.
      throw new Error(`${event} ${JSON.stringify(payload)?.slice(0, 200)} via ${(c.socket.io as unknown as { uri: string }).uri}: ${(e as Error).message}`);
    }
    const code = ack.ok ? "ok" : ack.error!.code;
    codes.set(`${event} ${code}`, (codes.get(`${event} ${code}`) ?? 0) + 1);
    if (code === "INTERNAL") internal.push({ event, payload, ack });
    if (ack.ok && typeof ack.roomId === "string") rooms.add(ack.roomId);
    return ack;
  }

  // Every GET route of the HTTP API, its parameters filled with what the soak has made (or junk).
  const routes = apiRoutes(servers[0]!).filter((r) => r.startsWith("GET ")).map((r) => r.slice(4));
  const valueFor = (param: string): string => {
    if (random() < 0.15) return pick(["x", "..", "id:", "%00", "0".repeat(300), "ünï"]);
    if (param === "id") return rooms.size > 0 ? pick([...rooms]) : "nope";
    if (param === "game") return pick(GAMES).id;
    const who = pick(people);
    return random() < 0.5 ? `id:${who.id}` : who.name;
  };
  async function httpGet(p: Person): Promise<void> {
    const route = pick(routes);
    const path = route.replace(/:(\w+)/g, (_, param: string) => encodeURIComponent(valueFor(param))) + (random() < 0.2 ? pick(["?day=2026-11-22", "?day=x", "?page=-1", "?limit=9999", "?before=1.x", "?before=9"]) : "");
    const res = await fetch(`${servers[p.node]!.url}${path}`, { headers: random() < 0.8 ? { authorization: `Bearer ${p.token}` } : {} });
    await res.arrayBuffer();
    codes.set(`GET ${route} ${res.status}`, (codes.get(`GET ${route} ${res.status}`) ?? 0) + 1);
    if (res.status >= 500) internal.push({ event: `GET ${path}`, payload: null, ack: { ok: false, error: { code: String(res.status), message: "" } } });
  }

  /** An account's everyday POSTs: a rename (in letter case: allowed at any time) that reaches every table, follows, blocks, notes, vacations. */
  async function httpPost(p: Person): Promise<void> {
    const other = pick(people.filter((x) => x !== p));
    const flip = (n: string) => (n[0] === n[0]!.toUpperCase() ? n[0]!.toLowerCase() : n[0]!.toUpperCase()) + n.slice(1);
    const [path, body] = pick<[string, unknown]>([
      p.account ? ["/api/rename", { name: flip(p.name) }] : ["/api/guest", { name: flip(p.name), token: p.token }],
      ["/api/follow", { name: other.name }],
      ["/api/unfollow", { name: other.name }],
      ["/api/block", { name: other.name }],
      ["/api/unblock", { name: other.name }],
      ["/api/note", { player: other.id, text: pick(["bluffs a lot", ""]) }],
      ["/api/me/online", { on: random() < 0.5 }],
      // A vacation from turn-based games (clocks stopped at every table of theirs), or its end.
      ["/api/vacation", { days: pick([1, 2, 3]) }],
      ["/api/vacation/end", {}],
      [pick(["/api/rename", "/api/block", "/api/note"]), pick(JUNK)],
    ]);
    const res = await fetch(`${servers[p.node]!.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${p.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const reply = (await res.json().catch(() => null)) as { ok?: boolean; player?: { name?: string }; token?: string } | null;
    codes.set(`POST ${path} ${res.status}`, (codes.get(`POST ${path} ${res.status}`) ?? 0) + 1);
    if (res.status >= 500) internal.push({ event: `POST ${path}`, payload: body, ack: { ok: false, error: { code: String(res.status), message: "" } } });
    if (reply?.ok && (path === "/api/rename" || path === "/api/guest") && reply.player?.name) {
      p.name = reply.player.name;
      if (reply.token) p.token = reply.token;
    }
  }

  const heldRooms = (c: TestClient) => [...c.rooms.keys()];
  /** The people still here. */
  const here = () => people.filter((p) => !p.gone);

  /** A player leaves the site for good: closes or erases their account, or erases their guest. Their games go on without them. */
  async function leaveForGood(p: Person): Promise<void> {
    const [path, body] = p.account ? pick<[string, unknown]>([["/api/account/close", { password: p.password }], ["/api/me/erase", { password: p.password }]]) : ["/api/me/erase", { name: p.name }];
    const res = await fetch(`${servers[p.node]!.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${p.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    codes.set(`POST ${path} ${res.status}`, (codes.get(`POST ${path} ${res.status}`) ?? 0) + 1);
    if (res.status >= 500) internal.push({ event: `POST ${path}`, payload: body, ack: { ok: false, error: { code: String(res.status), message: "" } } });
    if (res.status !== 200) return;
    p.gone = true;
    p.client.close();
  }
  const legalIn = (c: TestClient, roomId: string) => ((c.rooms.get(roomId)?.state as { legal?: LegalAction[] } | undefined)?.legal ?? []);

  async function step(p: Person): Promise<void> {
    const c = p.client;
    const held = heldRooms(c);
    // A table found in quick play waits for this player's answer: mostly given at once.
    const status = [...c.received].reverse().find(([e]) => e === "queue:status")?.[1] as { match?: { matchId: string; youAccepted: boolean } | null } | undefined;
    if (status?.match && !status.match.youAccepted && random() < 0.7) {
      await send(c, random() < 0.85 ? "queue:accept" : "queue:decline", { matchId: status.match.matchId });
      return;
    }
    const r = random();
    if (r < 0.4) {
      // A legal move where this player has one (most of what players do), else any room's sync.
      const playable = held.filter((id) => legalIn(c, id).length > 0);
      if (playable.length > 0) {
        const roomId = pick(playable);
        await send(c, "game:act", { roomId, action: randomLegalAction(legalIn(c, roomId), random), ...(random() < 0.3 ? { actionId: `a${Math.floor(random() * 50)}` } : {}) });
        return;
      }
      if (held.length > 0) await send(c, "room:sync", { roomId: pick(held) });
      return;
    }
    if (r < 0.5) {
      const g = pick(GAMES);
      const seats = g.min + Math.floor(random() * (g.max - g.min + 1));
      const ranked = p.account && random() < 0.3;
      await send(c, "room:create", { game: g.id, seats, bots: Math.floor(random() * seats), ...(ranked ? { ranked: true } : { clock: pick(CLOCKS) }), ...(random() < 0.2 ? { private: true } : {}) });
      return;
    }
    if (r < 0.62) {
      const list = await c.call("lobby:list", {});
      const open = (list.open as Array<{ id: string; seats: unknown[]; private?: true }> | undefined) ?? [];
      // A private table is listed nowhere.
      for (const listed of [...open, ...((list.live as Array<{ id: string; private?: true }> | undefined) ?? [])]) {
        if (listed.private) internal.push({ event: "lobby:list", payload: null, ack: { ok: false, error: { code: "PRIVATE_LISTED", message: listed.id } } });
      }
      if (open.length === 0) return;
      const room = pick(open);
      await send(c, "room:join", { roomId: room.id, ...(random() < 0.3 ? { seat: Math.floor(random() * (room.seats.length + 1)) } : {}) });
      return;
    }
    if (r < 0.68 && held.length > 0) return void (await send(c, "room:start", { roomId: pick(held) }));
    if (r < 0.71 && held.length > 0) return void (await send(c, "room:leave", { roomId: pick(held) }));
    if (r < 0.73 && held.length > 0) return void (await send(c, "game:resign", { roomId: pick(held) }));
    if (r < 0.75 && held.length > 0) return void (await send(c, "game:return", { roomId: pick(held) }));
    if (r < 0.78 && held.length > 0) {
      // A move that is not legal: a stale one, another seat's, or made up.
      const roomId = pick(held);
      const action = random() < 0.5 ? { type: "bid", amount: Math.floor(random() * 40) - 5 } : { type: pick(["pass", "take", "cheat", "x"]) };
      return void (await send(c, "game:act", { roomId, action }));
    }
    if (r < 0.82 && held.length > 0) return void (await send(c, "chat:send", { roomId: pick(held), text: pick(["gl", "hi there", "well played", "x".repeat(600), ""]) }));
    if (r < 0.84 && held.length > 0) return void (await send(c, "room:rematch", { roomId: pick(held) }));
    if (r < 0.86 && held.length > 0) return void (await send(c, "room:sync", { roomId: pick(held), since: Math.floor(random() * 200) }));
    if (r < 0.88) {
      // Mostly one casual pool of two, so that tables form; now and then any other.
      if (random() < 0.6) return void (await send(c, "queue:join", { game: "goblin-teeth", seats: 2, clock: "quick", ranked: false }));
      const g = pick(GAMES.filter((x) => x.max > 1));
      return void (await send(c, "queue:join", { game: g.id, seats: g.min, ...(p.account && random() < 0.5 ? { ranked: true } : { clock: "quick" }) }));
    }
    if (r < 0.89) return void (await send(c, "queue:leave", {}));
    if (r < 0.9 && held.length > 0) return void (await send(c, "room:invite", { roomId: pick(held), name: pick(people).name }));
    if (r < 0.91) {
      const g = pick(GAMES.filter((x) => x.max > 1));
      return void (await send(c, "room:find", { game: g.id, seats: g.min, clock: "turn-1d", ...(random() < 0.3 ? { ranked: true } : {}) }));
    }
    if (r < 0.92 && held.length > 0) return void (await send(c, "chat:seen", { roomId: pick(held), n: Math.floor(random() * 12) }));
    if (r < 0.925 && held.length > 0) return void (await send(c, "room:remove", { roomId: pick(held), seat: Math.floor(random() * 6) }));
    if (r < 0.93 && held.length > 0) return void (await send(c, "room:decline", { roomId: pick(held) }));
    if (r < 0.932) return void (await send(c, pick(["daily:start", "daily:status"]), { game: random() < 0.8 ? "aucteraden" : pick(GAMES).id, ...(random() < 0.3 ? { day: pick(["2026-11-20", "1999-01-01", "x"]) } : {}) }));
    if (r < 0.935) {
      // A table found in quick play: accepted mostly, declined now and then, answered late or with no id.
      const status = [...c.received].reverse().find(([e]) => e === "queue:status")?.[1] as { match?: { matchId: string } | null } | undefined;
      const matchId = status?.match?.matchId;
      return void (await send(c, random() < 0.8 ? "queue:accept" : "queue:decline", matchId && random() < 0.9 ? { matchId } : {}));
    }
    if (r < 0.94) return void (await send(c, pick(EVENTS), pick(JUNK)));
    if (r < 0.955) return void (await httpGet(p));
    if (r < 0.965) return void (await httpPost(p));
    // The connection drops; the player comes back on the other node and watches their rooms again.
    c.close();
    p.node = (p.node + 1) % servers.length;
    p.client = await new TestClient(servers[p.node]!.url, p.token).ready();
    for (const roomId of held) await send(p.client, "room:sync", { roomId });
  }

  let ticks = 0;
  async function timePasses(ms: number): Promise<void> {
    ticks++;
    clock.t += ms;
    for (const s of servers) {
      await s.timers.tick();
      await s.queue.tick();
      await s.pushLobbyCounts();
    }
  }

  async function nodeDies(): Promise<void> {
    const dead = servers.pop()!;
    if (process.env.SOAK_VERBOSE) console.log("node dies:", dead.url, "up:", servers.map((x) => x.url).join(" "));
    dead.timers.stop();
    dead.queue.stop();
    dead.recorder.stop();
    // Its own connections only (io.disconnectSockets would cut every node's, through the adapter).
    dead.io.local.disconnectSockets(true);
    // Its players and spectator come back on a node that is up, as a balancer sends them.
    for (const p of here()) {
      if (p.node < servers.length) continue;
      const held = heldRooms(p.client);
      p.client.close();
      p.node = 0;
      p.client = await new TestClient(servers[0]!.url, p.token).ready();
      for (const roomId of held) await send(p.client, "room:sync", { roomId });
    }
    for (const [i, c] of spectators.entries()) {
      if (new URL((c.socket.io as unknown as { uri: string }).uri).port !== new URL(dead.url).port) continue;
      c.close();
      spectators[i] = await new TestClient(servers[0]!.url).ready();
    }
  }

  async function randomSteps(n: number, dies?: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      if (i === dies) await nodeDies();
      // Time passes: bots move, clocks run out, quick play forms tables.
      if (random() < 0.15) await timePasses(Math.floor(random() * 20_000));
      // Spectators watch a room now and then.
      if (random() < 0.03 && rooms.size > 0) await send(pick(spectators), "room:sync", { roomId: pick([...rooms]) });
      // Now and then someone leaves for good (at most two of the eight).
      if (random() < 0.004 && here().length > 6) await leaveForGood(pick(here()));
      await step(pick(here()));
    }
  }

  /** Every game under way played on by its players' legal moves (bots and time-outs by the timers) until none is left (true) or `max` steps (false). */
  async function playOut(max: number): Promise<boolean> {
    let idle = 0;
    for (let i = 0; i < max; i++) {
      const moves = here().flatMap((p) => heldRooms(p.client).filter((id) => legalIn(p.client, id).length > 0).map((id) => [p, id] as const));
      if (moves.length === 0) {
        // Players open the games Your games lists (quick play seated them without a view, or
        // they came back on another node), then time passes for bots and clocks.
        for (const p of here()) {
          const mine = await send(p.client, "lobby:mine", {});
          for (const r of (mine.mine as Array<{ id: string; status: string }> | undefined) ?? []) if (r.status === "playing" && !p.client.rooms.has(r.id)) await send(p.client, "room:sync", { roomId: r.id });
        }
        if (here().some((p) => heldRooms(p.client).some((id) => legalIn(p.client, id).length > 0))) continue;
        const playing = await Promise.all([...rooms].map((id) => servers[0]!.store.get(id)));
        if (!playing.some((r) => r?.status === "playing")) return true;
        // Nobody here can move: bots move and clocks run out as time passes, longer and longer
        // while nothing happens (a turn-based game whose player has gone waits days for them).
        idle++;
        await timePasses(Math.min(31_000 * 2 ** Math.floor(idle / 4), 12 * 3_600_000));
        continue;
      }
      idle = 0;
      const [p, roomId] = pick(moves);
      await send(p.client, "game:act", { roomId, action: randomLegalAction(legalIn(p.client, roomId), random) });
    }
    return false;
  }

  const t0 = Date.now();
  await randomSteps(STEPS, opts.dies);
  const t1 = Date.now();
  // Games always end: every one under way, played on by whoever is there, bots and clocks.
  expect(await playOut(3000), "every game under way played to its end").toBe(true);
  const t2 = Date.now();
  // Rematches of the finished games, and more of everything.
  await randomSteps(STEPS / 4);
  if (process.env.SOAK_VERBOSE) console.log("phases ms", t1 - t0, t2 - t1, Date.now() - t2, "ticks", ticks);

  // Settle: no more requests; the timers of both nodes drain what is due now.
  for (let i = 0; i < 5; i++) for (const s of servers) await s.timers.tick();
  const everyone = [...here().map((p) => p.client), ...spectators];
  for (const c of everyone) {
    for (const roomId of heldRooms(c)) {
      const stored = await servers[0]!.store.get(roomId);
      if (!stored) continue;
      await until(() => (c.rooms.get(roomId)?.version ?? 0) >= stored.version, `a client to hold ${roomId} v${stored.version}`);
    }
  }
  // Every held view, from pushes alone, is the whole view a fresh connection of the same
  // viewer gets by syncing (the same node; a spectator as a spectator).
  let compared = 0;
  let chatChecked = 0;
  const tokenOf = new Map(people.map((p) => [p.client, p.token]));
  for (const c of everyone) {
    const url = (c.socket.io as unknown as { uri: string }).uri;
    const fresh = await new TestClient(url, tokenOf.get(c)).ready();
    for (const roomId of heldRooms(c)) {
      const whole = await fresh.sync(roomId, true);
      if (!whole.ok) continue; // gone (expired) since
      const without = (v: Record<string, unknown>) => {
        const { serverTime: _t, logFrom: _l, ...rest } = v;
        return rest;
      };
      expect(without(c.rooms.get(roomId)!.state), `${roomId} as held`).toEqual(without(fresh.rooms.get(roomId)!.state));
      compared++;
      // A seat at a ranked table is never shown what spectators wrote (it could be advice).
      const view = fresh.rooms.get(roomId)!.state as { seat: number | null; ranked: boolean };
      if (view.seat !== null && view.ranked) {
        const history = await fresh.call("chat:history", { roomId });
        const channels = ((history.messages as Array<{ channel: string }> | undefined) ?? []).map((m) => m.channel);
        expect(channels.filter((x) => x !== "players"), `${roomId}: a ranked seat's chat`).toEqual([]);
        chatChecked++;
      }
    }
    fresh.close();
  }
  // Every live node's lobby, kept from the changes (its own and the feed's: lobby-mirror.ts), lists
  // what the store lists, with no full read since the node started (lobbyResyncMs 0): the changes alone.
  const truth = JSON.stringify(lobbyOf(await servers[0]!.store.list("open"), await servers[0]!.store.list("playing")));
  for (const s of servers) {
    try {
      await until(async () => JSON.stringify(await s.service.lobbyLists()) === truth || undefined, `${s.url}'s lobby to list what the store lists`);
    } catch (e) {
      const mine = await s.service.lobbyLists();
      const want = JSON.parse(truth) as typeof mine;
      const key = (r: { id: string }) => JSON.stringify(r);
      for (const k of ["open", "live"] as const) {
        const a = new Set(mine[k].map(key));
        const b = new Set(want[k].map(key));
        console.log(k, "extra", [...a].filter((x) => !b.has(x)), "missing", [...b].filter((x) => !a.has(x)));
      }
      console.log("counts", mine.liveCounts, want.liveCounts, mine.waitingCounts, want.waitingCounts);
      throw e;
    }
  }
  if (process.env.SOAK_VERBOSE) console.log(seed, compared, "ranked seats' chats", chatChecked, [...codes].sort().map(([k, n]) => `${k}: ${n}`).join("\n"));
  expect(internal, JSON.stringify(internal.slice(0, 3))).toEqual([]);
  expect(failures.length, JSON.stringify(failures.slice(0, 3))).toBe(0);
  // The soak did something: moves were made, games finished and were recorded once.
  const ok = (event: string) => codes.get(`${event} ok`) ?? 0;
  expect(ok("game:act")).toBeGreaterThan(50);
  expect(compared).toBeGreaterThan(10);
  expect(ok("room:rematch") + ok("room:create")).toBeGreaterThan(10);
  for (const s of servers) await s.recorder.sweep();
  const finished: string[] = [];
  for (const id of rooms) {
    const r = await servers[0]!.store.get(id);
    if (r?.status === "finished" && r.seats.length > 1) finished.push(id);
  }
  if (process.env.SOAK_VERBOSE) console.log("finished", finished.length, "of", rooms.size);
  expect(finished.length).toBeGreaterThan(0);
  for (const id of finished) {
    expect(await servers[0]!.db.prisma.game.findUnique({ where: { id }, select: { id: true } }), `${id} recorded`).not.toBeNull();
  }
  for (const c of everyone) c.close();
  for (const undo of restore) undo();
  if (opts.dies !== undefined) expect(servers.length, "a node died").toBe(nodes.length - 1);
}

const ALL = (process.env.SOAK_SEED ? [Number(process.env.SOAK_SEED)] : []) as number[];

describe.skipIf(!REDIS_URL)("soak: random clients on two nodes, one Redis", () => {
  const clock = new TestClock();
  const nodes = useTwoNodes({ clock: clock.now, config: { lobbyResyncMs: 0 } });
  for (const seed of ALL.length ? ALL : [11]) {
    it(`seed ${seed}: no INTERNAL, every held view exact after settling, every game ends and is recorded`, () => soak(seed, [nodes.a, nodes.b], clock), 240_000);
  }
});

describe.skipIf(!REDIS_URL)("soak: random clients on two nodes, one of which dies mid-run", () => {
  const clock = new TestClock();
  const nodes = useTwoNodes({ clock: clock.now, config: { lobbyResyncMs: 0 } });
  for (const seed of ALL.length ? ALL : [14]) {
    it(`seed ${seed}: the surviving node finishes what the dead one had under way (timers, quick play, records)`, () => soak(seed, [nodes.a, nodes.b], clock, { dies: STEPS / 3 }), 240_000);
  }
});

describe("soak: random clients on one node, in-process rooms", () => {
  const clock = new TestClock();
  // With Web Push keys: changes owe notices to closed pages, sent and settled by the timers.
  const t = useTestServer(backends()[0]!, { clock: clock.now, config: { lobbyResyncMs: 0, push: { ...vapidKeys(), subject: "mailto:operators@bazaar.example" } } });
  for (const seed of ALL.length ? ALL : [13]) {
    it(`seed ${seed}: no INTERNAL, every held view exact after settling, every game ends and is recorded`, () => soak(seed, [t.server], clock), 240_000);
  }
});
