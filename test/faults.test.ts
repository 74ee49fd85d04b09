/**
 * Fault test (issue 24): two server nodes on a Redis and a Postgres of the test's own
 * (support/own-services.ts; the machine's shared services are never touched), with ranked games
 * in progress on both nodes (each table's players split between them).
 *
 * 1. Redis, with AOF and fsync at every write, goes down mid-game three ways: killed (SIGKILL)
 *    while moves are in flight, shut down cleanly (SIGTERM) while moves are in flight, and frozen
 *    (SIGSTOP) with moves unread in its connections then killed; each time it is restarted on the
 *    same port and folder. Neither node dies, nor leaves a promise rejection unhandled; a move
 *    made while it is down gets an error answer and is not in the room afterwards; every move
 *    acknowledged is there after the restart, once; the clients re-sync as the web client does and
 *    play every game to the end; every game is recorded once, each rating updated once per game.
 * 2. Redis makes a move but its answer is lost with the connection (a proxy between the nodes and
 *    Redis loses it): the node's Redis client sends the write again, and the move is made once
 *    and answered ok, with or without the client's action id.
 * 3. Postgres is stopped (fast, and in another round immediate: a crash) just as one game ends,
 *    and more games end while it is down: the finished rooms wait, unrecorded; the sweeps of both
 *    nodes, called by the test during and after the outage, record each game exactly once (rows
 *    counted), and each player's rating moves once per game, as one unbroken chain.
 *
 * Time is the servers' injected clock (it never moves: no deadline comes due); the only real
 * waiting is for the Redis and Postgres processes to start and stop, for the nodes' Redis clients
 * to reconnect, and for pushes to reach the clients.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { rating } from "openskill";
import { openDatabase, type Database } from "../src/db/client.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import type { Room } from "../src/platform/room.js";
import type { RunningServer } from "../src/server.js";
import { account } from "./support/accounts.js";
import { lcg, newPrefix, startTestServer, TestClient, until, type Ack } from "./support/harness.js";
import {
  ownPostgresUnavailable,
  redisServerAvailable,
  startOwnPostgres,
  startOwnRedis,
  startAnswerLosingProxy,
  type OwnPostgres,
  type OwnRedis,
} from "./support/own-services.js";

const missing = !redisServerAvailable() ? "redis-server is not installed" : ownPostgresUnavailable();
if (missing) console.log(`[faults.test] SKIPPED: ${missing}`);

/** Well past any test: the nodes' timed sweeps never run; the test calls `recorder.sweep()`. */
const NO_TIMED_SWEEP = 3_600_000;
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

interface Table {
  roomId: string;
  game: string;
  /** One client per seat, in seat order; seat i is connected to node i % 2. */
  seats: TestClient[];
  playerIds: string[];
  /** Moves acknowledged ok: action id -> the room version the move made (null: answered `duplicate`, made before). */
  acked: Map<string, number | null>;
  /** Moves refused while Redis was known to be down (never sent to Redis). */
  refusedInOutage: string[];
  /** Moves in flight when Redis went down whose answer was an error (their fate is unknown to the client). */
  unsure: string[];
  moves: number;
}

describe.skipIf(!!missing)("faults: two nodes, Redis restarted mid-game, Postgres stopped while games finish", () => {
  let redis: OwnRedis;
  let postgres: OwnPostgres;
  let dbA: Database;
  let dbB: Database;
  let a: RunningServer;
  let b: RunningServer;
  /** A plain connection to the results database, for counting rows (opened after each Postgres restart). */
  let sql: pg.Client | undefined;
  let dbUrl: string;
  const clients: TestClient[] = [];
  const random = lcg(24);
  const clock = () => T0;

  // A rejection nobody handled, or an exception nobody caught, anywhere in this process (both
  // nodes run here): in a server process either one would be a node lost with its games.
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const expectNoUnhandled = () => expect(unhandled.map((e) => (e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)))).toEqual([]);

  beforeAll(async () => {
    process.on("unhandledRejection", onUnhandled);
    process.on("uncaughtException", onUnhandled);
    [redis, postgres] = await Promise.all([startOwnRedis(), startOwnPostgres()]);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query("CREATE DATABASE faults");
    await admin.end();
    dbUrl = postgres.databaseUrl("faults");
    // One pool per node, as two processes would have.
    dbA = await openDatabase({ url: dbUrl });
    dbB = await openDatabase({ url: dbUrl });
    const prefix = newPrefix();
    const backend = { name: "own Redis + own Postgres", redis: true, realPg: true };
    a = await startTestServer(backend, dbA, prefix, "node-a", clock, { redisUrl: redis.url, sweepEveryMs: NO_TIMED_SWEEP });
    b = await startTestServer(backend, dbB, prefix, "node-b", clock, { redisUrl: redis.url, sweepEveryMs: NO_TIMED_SWEEP });
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await sql?.end().catch(() => {});
    // Each step on its own: one that fails must not leave the services running.
    for (const step of [() => a?.close(), () => b?.close(), () => dbA?.close(), () => dbB?.close(), () => redis?.stop(), () => postgres?.stop()]) {
      await Promise.resolve()
        .then(step)
        .catch((e: unknown) => console.error("faults.test cleanup:", e));
    }
    process.off("unhandledRejection", onUnhandled);
    process.off("uncaughtException", onUnhandled);
  });

  const nodeOf = (seat: number) => (seat % 2 === 0 ? a : b);

  async function connect(node: RunningServer, token: string): Promise<TestClient> {
    const c = await new TestClient(node.url, token).ready();
    clients.push(c);
    return c;
  }

  /** Registers accounts (ranked tables need them). */
  async function players(names: string[]): Promise<Array<{ token: string; id: string }>> {
    const out = [];
    for (const n of names) {
      const r = await account(a.url, n);
      out.push({ token: r.token, id: r.player.id });
    }
    return out;
  }

  /** A started ranked table of `who` in seat order, seat i on node i % 2. */
  async function openTable(game: string, who: Array<{ token: string; id: string }>): Promise<Table> {
    const seats = await Promise.all(who.map((p, i) => connect(nodeOf(i), p.token)));
    const created = await seats[0]!.call("room:create", { game, seats: who.length, ranked: true });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    for (let i = 1; i < seats.length; i++) {
      const j = await seats[i]!.call("room:join", { roomId, seat: i });
      expect(j.ok, JSON.stringify(j)).toBe(true);
    }
    const started = await seats[0]!.call("room:start", { roomId });
    expect(started.ok, JSON.stringify(started)).toBe(true);
    const t: Table = { roomId, game, seats, playerIds: who.map((p) => p.id), acked: new Map(), refusedInOutage: [], unsure: [], moves: 0 };
    await caughtUp(t, started.version as number);
    return t;
  }

  /** Every seat's client holds version `v` or later of the table (pushes on its own node, or through the change feed from the other). */
  function caughtUp(t: Table, v: number): Promise<unknown> {
    return Promise.all(t.seats.map((c, seat) => until(() => (c.rooms.get(t.roomId)?.version ?? 0) >= v, `seat ${seat} of ${t.roomId} to hold v${v}`)));
  }

  const viewOf = (c: TestClient, roomId: string) => c.view(roomId) as { version: number; status: string; active: number[]; legal: LegalAction[] };

  /**
   * The next move of a table, chosen from the clients' own views (all at the same version): a
   * random active seat and one of its legal actions, with a fresh action id, as the web client
   * sends a move. Not sent yet.
   */
  function nextMove(t: Table, withActionId = true): { seat: number; send: () => Promise<Ack>; actionId: string } {
    const v = viewOf(t.seats[0]!, t.roomId);
    if (v.status !== "playing") throw new Error(`${t.roomId} is ${v.status}`);
    const seat = v.active[Math.floor(random() * v.active.length)]!;
    const mine = viewOf(t.seats[seat]!, t.roomId);
    expect(mine.version).toBe(v.version);
    const action = randomLegalAction(mine.legal, random);
    const actionId = `${t.roomId}-${t.moves++}`;
    return { seat, actionId, send: () => t.seats[seat]!.call("game:act", withActionId ? { roomId: t.roomId, action, actionId } : { roomId: t.roomId, action }) };
  }

  /** One move, acknowledged, and seen by every seat. */
  async function play(t: Table): Promise<void> {
    const m = nextMove(t);
    const ack = await m.send();
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    t.acked.set(m.actionId, ack.version as number);
    await caughtUp(t, ack.version as number);
  }

  async function playToEnd(t: Table): Promise<void> {
    for (let i = 0; i < 5000 && viewOf(t.seats[0]!, t.roomId).status === "playing"; i++) await play(t);
    expect(viewOf(t.seats[0]!, t.roomId).status).toBe("finished");
  }

  /** The room as stored, read through a node. */
  async function stored(t: Table, node = a): Promise<Room> {
    const r = await node.store.get(t.roomId);
    if (!r) throw new Error(`room ${t.roomId} is gone`);
    return r;
  }

  /** Both nodes read from Redis again (their clients have reconnected to the restarted server), and the room is there. */
  async function nodesReconnected(t: Table): Promise<void> {
    for (const node of [a, b]) {
      const read = await until(
        () => node.store.get(t.roomId).then(
          (room) => ({ room }),
          () => false as const,
        ),
        `${node.url} to read from the restarted Redis`,
      );
      expect(read.room, `room ${t.roomId} after the restart`).not.toBeNull();
    }
  }

  /**
   * After a restart: every move acknowledged before it is in the room, once, at the version its
   * ack named; a move refused during the outage is not there; a move whose answer was lost in the
   * crash is there at most once.
   */
  async function expectAckedMovesKept(t: Table): Promise<void> {
    const room = await stored(t);
    const ids = room.actions.map((r) => r.id);
    // create + joins + start, then one version per move (ranked tables of people only: no bots).
    const firstMoveVersion = t.seats.length + 2;
    for (const [id, version] of t.acked) {
      expect(ids.filter((x) => x === id), `acknowledged move ${id}`).toHaveLength(1);
      if (version !== null) expect(ids.indexOf(id) + firstMoveVersion, `version of acknowledged move ${id}`).toBe(version);
    }
    for (const id of t.refusedInOutage) expect(ids, `move ${id} refused during the outage`).not.toContain(id);
    for (const id of t.unsure) expect(ids.filter((x) => x === id).length, `move ${id} in flight at the crash`).toBeLessThanOrEqual(1);
    expect(new Set(ids).size).toBe(ids.length);
    // (+1: the change that marks a finished game recorded.)
    expect(room.version).toBe(firstMoveVersion - 1 + room.actions.length + (room.persisted ? 1 : 0));
  }

  /** Each client asks `room:sync` with the version it holds, as the web client does after an error or a reconnection. */
  async function resync(t: Table): Promise<void> {
    const room = await stored(t);
    for (const c of t.seats) {
      const ack = await c.sync(t.roomId);
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    await caughtUp(t, room.version);
  }

  /**
   * Redis is down: a move gets an error answer (never an ok), with a code and a message, and no
   * read-only request pretends either. The nodes still answer HTTP; neither says it is ready.
   */
  async function expectRefusedWhileDown(tables: Table[]): Promise<void> {
    const tries = tables.map((t) => {
      // The seat the newest view names to move, with an action from its own view. The other
      // node's clients may not have seen the last move before Redis went (its change feed is in
      // Redis): then that seat's own view is older and offers no action, and it sends a pass, as
      // a client with a stale view would. Either way the node cannot store anything now.
      const newest = t.seats.map((c) => viewOf(c, t.roomId)).reduce((x, y) => (y.version > x.version ? y : x));
      const seat = newest.active[0]!;
      const own = viewOf(t.seats[seat]!, t.roomId);
      const action = own.active.includes(seat) && own.legal.length > 0 ? randomLegalAction(own.legal, random) : { type: "pass" };
      const actionId = `${t.roomId}-${t.moves++}`;
      t.refusedInOutage.push(actionId);
      return t.seats[seat]!.call("game:act", { roomId: t.roomId, action, actionId });
    });
    for (const ack of await Promise.all(tries)) {
      expect(ack.ok, `a move while Redis is down: ${JSON.stringify(ack)}`).toBe(false);
      expect(ack.error?.code).toMatch(/^[A-Z_]+$/);
      expect(ack.error?.message.length).toBeGreaterThan(10);
    }
    const sync = await tables[0]!.seats[1]!.call("room:sync", { roomId: tables[0]!.roomId });
    expect(sync.ok).toBe(false);
    for (const node of [a, b]) {
      expect((await fetch(`${node.url}/api/health`)).status).toBe(200);
      expect((await fetch(`${node.url}/api/ready`)).status).toBe(503);
    }
  }

  /** Rows of the results database, through a plain connection (reopened after a Postgres restart). */
  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    if (!sql) {
      const c = new pg.Client({ connectionString: dbUrl });
      // A stop of the server ends this connection: drop it, and the next query opens another.
      c.on("error", () => {
        if (sql === c) sql = undefined;
      });
      await c.connect();
      sql = c;
    }
    return (await sql.query<T>(text, values)).rows;
  }

  const gameRows = (roomIds: string[]) => query<{ id: string; actions: unknown[] }>(`SELECT id, actions FROM "Game" WHERE id = ANY($1)`, [roomIds]);

  /**
   * Every table's game is recorded exactly once: one Game row (with every action of the room) and
   * one seat row per seat. Each player's rating for each game type moved once per recorded game:
   * starting at OpenSkill's initial rating, each game's before is the previous game's after (no
   * game rated twice, none rated from a stale value), ending at the stored rating, and `games`
   * counts them.
   */
  async function expectRecordedOnce(tables: Table[]): Promise<void> {
    const roomIds = tables.map((t) => t.roomId);
    const rows = await gameRows(roomIds);
    expect(rows.map((r) => r.id).sort()).toEqual([...roomIds].sort());
    for (const t of tables) {
      const room = await stored(t);
      expect(room.persisted, `${t.roomId} marked recorded`).toBe(true);
      expect(rows.find((r) => r.id === t.roomId)!.actions).toHaveLength(room.actions.length);
      const seatRows = await query(`SELECT seat FROM "GameSeat" WHERE "gameId" = $1`, [t.roomId]);
      expect(seatRows).toHaveLength(t.seats.length);
    }
    const initial = rating();
    const pairs = new Set(tables.flatMap((t) => t.playerIds.map((p) => `${p} ${t.game}`)));
    for (const pair of pairs) {
      const [playerId, gameType] = pair.split(" ") as [string, string];
      const seats = await query<{ muBefore: number; sigmaBefore: number; muAfter: number; sigmaAfter: number }>(
        `SELECT s."muBefore", s."sigmaBefore", s."muAfter", s."sigmaAfter" FROM "GameSeat" s JOIN "Game" g ON g.id = s."gameId" WHERE s."playerId" = $1 AND g."gameType" = $2`,
        [playerId, gameType],
      );
      const played = tables.filter((t) => t.game === gameType && t.playerIds.includes(playerId)).length;
      expect(seats, `${pair}: one rated seat per game`).toHaveLength(played);
      const [r] = await query<{ mu: number; sigma: number; games: number }>(`SELECT mu, sigma, games FROM "Rating" WHERE "playerId" = $1 AND "gameType" = $2`, [playerId, gameType]);
      expect(r?.games, `${pair}: games counted`).toBe(played);
      let at = { mu: initial.mu, sigma: initial.sigma };
      const left = [...seats];
      while (left.length > 0) {
        const i = left.findIndex((s) => s.muBefore === at.mu && s.sigmaBefore === at.sigma);
        expect(i, `${pair}: a game rated from ${JSON.stringify(at)}; left ${JSON.stringify(left)}`).toBeGreaterThanOrEqual(0);
        at = { mu: left[i]!.muAfter, sigma: left[i]!.sigmaAfter };
        left.splice(i, 1);
      }
      expect(at).toEqual({ mu: r!.mu, sigma: r!.sigma });
    }
    // The players were shown the outcome: the recorded room's push with the rating changes reached every seat on both nodes.
    for (const t of tables) {
      const room = await stored(t);
      await caughtUp(t, room.version);
      for (const c of t.seats) expect((c.view(t.roomId).ratingChanges as unknown[] | undefined)?.length, `${t.roomId}: rating changes shown`).toBe(t.seats.length);
    }
  }

  /**
   * Every table plays on, each at its own pace, until five moves in all have been acknowledged;
   * then `down` stops Redis at once, whatever is in flight (a move not yet sent to Redis, one
   * sent and not yet answered, one answered and not yet acknowledged to the client). While it is
   * down, moves are refused. Then it is started again: a move whose command was still waiting for
   * its answer is answered now (the Redis client sends it again: applied then, or found applied
   * and answered `duplicate` by its action id). Every ok answer is an acknowledged move; an error
   * answer leaves the move's fate to the client's next sync.
   */
  async function outageDuringPlay(tables: Table[], down: () => Promise<void>): Promise<void> {
    let trigger!: () => void;
    const triggered = new Promise<void>((r) => (trigger = r));
    let acks = 0;
    let stopped = false;
    const loops = tables.map(async (t) => {
      while (!stopped) {
        const m = nextMove(t);
        const ack = await m.send();
        if (!ack.ok) {
          expect(ack.error?.code).toMatch(/^[A-Z_]+$/);
          t.unsure.push(m.actionId);
          return;
        }
        t.acked.set(m.actionId, ack.duplicate ? null : (ack.version as number));
        if (++acks === 5) trigger();
        await Promise.race([caughtUp(t, ack.version as number), triggered]);
      }
    });
    // A loop that fails is reported by the Promise.all below, not as an unhandled rejection meanwhile.
    for (const l of loops) l.catch(() => {});
    await triggered;
    stopped = true;
    await down();
    await expectRefusedWhileDown(tables);
    expectNoUnhandled();
    await redis.start();
    await Promise.all(loops);
    for (const t of tables) {
      await nodesReconnected(t);
      await expectAckedMovesKept(t);
      await resync(t);
    }
    expectNoUnhandled();
  }

  /**
   * Redis freezes (SIGSTOP) with moves on their way: the nodes send them, and they wait unread in
   * Redis's connections; then it is killed and started again. Redis executed nothing after the
   * freeze, so a move refused is not in the room, and a move answered ok (had the Redis client
   * sent it again after the restart) is in it, once.
   */
  async function crashWithMovesUnread(tables: Table[]): Promise<void> {
    redis.freeze();
    const before = redis.unreadBytes();
    const sent = tables.map((t) => {
      const m = nextMove(t);
      return { t, m, ack: m.send() };
    });
    for (const x of sent) x.ack.catch(() => {});
    await until(() => redis.unreadBytes() > before, "the moves to reach the frozen Redis");
    await redis.crash();
    await expectRefusedWhileDown(tables);
    expectNoUnhandled();
    await redis.start();
    for (const { t, m, ack } of sent) {
      const r = await ack;
      if (r.ok) t.acked.set(m.actionId, r.duplicate ? null : (r.version as number));
      else t.refusedInOutage.push(m.actionId);
    }
    for (const t of tables) {
      await nodesReconnected(t);
      await expectAckedMovesKept(t);
      await resync(t);
    }
    expectNoUnhandled();
  }

  /** Both nodes sweep at once, `times` times (the first sweep that sees a room only notes it). */
  async function sweepBoth(times: number): Promise<void> {
    for (let i = 0; i < times; i++) await Promise.all([a.recorder.sweep(), b.recorder.sweep()]);
  }

  it("survives Redis killed, shut down and frozen mid-game (AOF, fsync always): no acknowledged move lost, every game finished and recorded once", async () => {
    const [ann, bob, cat, dan] = await players(["Ann", "Bob", "Cat", "Dan"]);
    const tables = [
      await openTable("goblin-market", [ann!, bob!, cat!]),
      await openTable("sorcerous-futures", [bob!, cat!, dan!]),
      await openTable("goblin-teeth", [dan!, ann!, bob!]),
    ];
    for (let i = 0; i < 4; i++) for (const t of tables) await play(t);
    // A crash: SIGKILL, mid-move. Redis acknowledged only what it had fsynced to its AOF.
    await outageDuringPlay(tables, () => redis.crash());
    for (let i = 0; i < 2; i++) for (const t of tables) await play(t);
    // A clean shutdown (SIGTERM: Redis finishes, writes out and fsyncs the AOF, exits), mid-move.
    await outageDuringPlay(tables, () => redis.shutdown());
    for (const t of tables) await play(t);
    // Frozen with moves unread in its connections, then killed.
    await crashWithMovesUnread(tables);

    for (const t of tables) await playToEnd(t);
    for (const t of tables) await expectAckedMovesKept(t);
    // The node that finished each game recorded it at once; sweeps on both nodes find nothing left to write.
    for (const t of tables) await until(async () => (await stored(t)).persisted === true, `${t.roomId} recorded`);
    await sweepBoth(2);
    expect(await a.store.unpersisted()).toEqual([]);
    await expectRecordedOnce(tables);
    expectNoUnhandled();
  });

  it("makes a move once, and says so, when Redis made it but the answer was lost with the connection", async () => {
    // Two more nodes, reaching Redis through a proxy that can lose Redis's answers.
    const proxy = await startAnswerLosingProxy(redis.port);
    const backend = { name: "own Redis through a proxy", redis: true, realPg: true };
    const prefix = newPrefix();
    const c = await startTestServer(backend, dbA, prefix, "node-c", clock, { redisUrl: proxy.url, sweepEveryMs: NO_TIMED_SWEEP });
    const d = await startTestServer(backend, dbB, prefix, "node-d", clock, { redisUrl: proxy.url, sweepEveryMs: NO_TIMED_SWEEP });
    // The helpers play through `a` and `b`: these two nodes stand in for them in this test.
    const first: [RunningServer, RunningServer] = [a, b];
    [a, b] = [c, d];
    try {
      const t = await openTable("goblin-market", await players(["Hal", "Ida", "Jon"]));
      for (let i = 0; i < 3; i++) await play(t);
      for (const withActionId of [true, false]) {
        const before = await stored(t);
        const m = nextMove(t, withActionId);
        // Redis frozen: the node's compare-and-swap for the move (a few KB: the room's head) waits, unread.
        redis.freeze();
        const unread = redis.unreadBytes();
        const answer = m.send();
        await until(() => redis.unreadBytes() >= unread + 1500, "the move's write to reach the frozen Redis");
        // Redis makes the move (fsynced to its AOF) and answers; the proxy loses the answer and
        // drops the connections. The node's Redis client reconnects and sends the unanswered
        // command again: its compare-and-swap finds the room one version on, with the move in it.
        const { cut } = await proxy.loseAnswers();
        redis.thaw();
        await cut;
        const ack = await answer;
        await nodesReconnected(t);
        const after = await stored(t);
        expect(after.actions.length, `the move made once (${withActionId ? "with" : "without"} an action id)`).toBe(before.actions.length + 1);
        expect(after.actions.at(-1)!.seat).toBe(m.seat);
        // A refusal would be false: the move is in the game.
        expect(ack.ok, `the answer ${withActionId ? "with" : "without"} an action id: ${JSON.stringify(ack)}`).toBe(true);
        if (withActionId) {
          expect(ack.duplicate).toBe(true);
          t.acked.set(m.actionId, null);
        }
        await resync(t);
      }
      await expectAckedMovesKept(t);
      expectNoUnhandled();
    } finally {
      [a, b] = first;
      await c.close();
      await d.close();
      await proxy.stop();
    }
  });

  it.each(["fast", "immediate"] as const)(
    "records every game that finished while Postgres was down (stopped %s) exactly once after it returns, ratings updated once",
    async (mode) => {
      const who = await players([`Eve-${mode}`, `Fay-${mode}`, `Gus-${mode}`]);
      const rotate = (k: number) => [...who.slice(k), ...who.slice(0, k)];
      const tables = [await openTable("goblin-market", rotate(0)), await openTable("goblin-market", rotate(1)), await openTable("goblin-market", rotate(2))];
      for (let i = 0; i < 5; i++) for (const t of tables) await play(t);

      // The first game ends, and Postgres stops while its node is recording it (the ack leaves
      // once the write has started): whether that transaction committed is up to the race.
      await playToEnd(tables[0]!);
      await postgres.stopServer(mode);
      for (const t of tables.slice(1)) await playToEnd(t);

      // The finished rooms wait in the room store; sweeps during the outage fail quietly and keep them.
      await sweepBoth(2);
      const waiting = await a.store.unpersisted();
      for (const t of tables.slice(1)) {
        expect(waiting, `${t.roomId} waits to be recorded`).toContain(t.roomId);
        expect((await stored(t)).persisted).toBeFalsy();
      }
      expectNoUnhandled();

      await postgres.start();
      // Nothing reached the database while it was down.
      expect((await gameRows(tables.slice(1).map((t) => t.roomId))).map((r) => r.id)).toEqual([]);
      // Both nodes sweep at once (racing writers of the same games), twice over: each game once.
      await sweepBoth(3);
      expect(await a.store.unpersisted()).toEqual([]);
      await expectRecordedOnce(tables);
      expectNoUnhandled();
    },
  );
});
