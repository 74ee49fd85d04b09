/**
 * Quick play over Socket.IO (issue 23; docs/protocol.md, "Quick play"): the `queue:*` events, the
 * pushes to each player's `player:<id>` channel (every socket of theirs, on any node, through the
 * adapter), queue counts for lobby subscribers, and the room a fully accepted table gets.
 *
 * Registered from socket.ts (`registerQueueEvents`), into its handler table: the same ack and
 * error shape, rate limit and size checks as every other event.
 *
 * Leases. This node tracks the players who queue through it or ask it for their `queue:status`
 * (the client does after every connection and reconnection: QueueService.adopt), and refreshes
 * the leases of those who have a socket connected here (`present`); a player whose last socket
 * closes is not refreshed any more and leaves the queue when the lease runs out (LEASE_MS, 30 s),
 * unless they reconnect first (to any node, and ask for their status). Nothing is done on
 * disconnect itself: a page reload or a short network drop keeps their place.
 */
import type { Server, Socket } from "socket.io";
import type { QueueCount as WireCount, QueuePool as WirePool, QueueStatus as WireQueueStatus } from "../protocol/wire.js";
import type { Logger } from "../logger.js";
import type { Database } from "../db/client.js";
import type { Blocks } from "../platform/blocks.js";
import { mayPlayRanked, type Leaves } from "../platform/leaves.js";
import { unreliableReading } from "../platform/reliability.js";
import { reliability } from "../db/profiles.js";
import { err } from "../platform/errors.js";
import type { Player } from "../platform/identity.js";
import { parsePoolKey, ratingWindow, tableSeats, type PoolSpec } from "../platform/matchmaking.js";
import type { PendingMatch, QueueEntry, QueueStatus } from "../platform/queue-store.js";
import { parseQueueRequest, type FailReason, type QueueService } from "../platform/queue-service.js";
import type { RoomService } from "../platform/room-service.js";
import { seatOf, type Room } from "../platform/room.js";
import { isTurnBased } from "../platform/clocks.js";
import { findGame } from "../games/registry.js";

type Payload = Record<string, unknown>;
type Handler = (socket: Socket, payload: Payload) => Promise<Record<string, unknown>>;

/** What socket.ts passes in (SocketDeps.queue, set by server.ts). */
export interface QueueWiring {
  queue: QueueService;
  db: Database;
  /** Whom each account must not be seated with (blocks.ts); absent: nobody. */
  blocks?: Blocks;
  /** Leavers (leaves.ts): a player whose ranked play is paused may not queue for ranked play; absent: no check. */
  leaves?: Leaves;
}

/** How often a queued player is sent their place and wait, at least (ms, the server's clock). */
export const STATUS_EVERY_MS = 5_000;
/** Queue counts go to the lobby at most this often (ms). */
export const COUNTS_EVERY_MS = 1_000;

/** The wire shapes (src/protocol/wire.ts), as this module names them. */
export type { WireCount, WirePool, WireQueueStatus };

const wirePool = (p: PoolSpec): WirePool => ({ game: p.game, seats: typeof p.seats === "object" ? [...p.seats] : p.seats, clock: p.clock, ranked: p.mode === "ranked" });

/** Counts per pool (store form: pool key -> n) as the wire lists them, by pool key. */
export function wireCounts(counts: Record<string, number>): WireCount[] {
  const out: WireCount[] = [];
  for (const key of Object.keys(counts).sort()) {
    const pool = parsePoolKey(key);
    if (pool && counts[key]! > 0) out.push({ ...wirePool(pool), queued: counts[key]! });
  }
  return out;
}

function wireMatch(m: PendingMatch, playerId: string): NonNullable<WireQueueStatus["match"]> {
  const acc = new Set(m.accepted);
  return {
    matchId: m.id,
    pool: wirePool(parsePoolKey(m.pool)!),
    deadline: m.deadline,
    players: m.players.map((p) => ({ id: p.playerId, name: p.name, accepted: acc.has(p.playerId) })),
    youAccepted: acc.has(playerId),
  };
}

/** A player's status as the wire shows it (see docs/protocol.md). */
export function wireStatus(playerId: string, s: QueueStatus | null, counts: WireCount[], now: number, notice?: string): WireQueueStatus {
  const out: WireQueueStatus = { queued: null, match: null, counts, serverTime: now };
  if (s?.state === "queued") {
    out.queued = {
      pool: wirePool(parsePoolKey(s.entry.pool)!),
      place: s.place,
      waitMs: s.waitMs,
      window: ratingWindow(s.waitMs),
      botsAfterMs: s.entry.botsAfterMs,
    };
  } else if (s?.state === "match") {
    out.match = wireMatch(s.match, playerId);
  }
  if (notice) out.notice = notice;
  return out;
}

const names = (list: string[]): string => (list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`);

/** A player's rating for a game from Postgres (null: unrated, or it could not be read). */
async function ratingOf(db: Database, playerId: string, game: string, log: Logger): Promise<{ mu: number; sigma: number } | null> {
  try {
    const r = await db.prisma.rating.findUnique({ where: { playerId_gameType: { playerId, gameType: game } }, select: { mu: true, sigma: true } });
    return r ? { mu: Number(r.mu), sigma: Number(r.sigma) } : null;
  } catch (e) {
    // The queue still works without the database: the player counts as a newcomer (1500).
    log.warn({ err: e, player: playerId, game }, "could not read a rating for quick play; queued as unrated");
    return null;
  }
}

/** Whom a player must not be seated with (blocks.ts); none when the database cannot be read (queued as with no rating). */
async function avoidOf(blocks: Blocks, playerId: string, log: Logger): Promise<string[]> {
  try {
    return await blocks.avoidOf(playerId);
  } catch (e) {
    log.warn({ err: e, player: playerId }, "could not read blocks for quick play; queued without them");
    return [];
  }
}

function requirePlayer(socket: Socket): Player {
  const p = (socket.data as { player?: Player | null }).player;
  if (!p) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
  return p;
}

function matchIdOf(p: Payload): string {
  const id = p.matchId;
  if (typeof id !== "string" || id.length === 0 || id.length > 100) throw err("BAD_REQUEST", "matchId must be the id of the table you were offered.");
  return id;
}

/**
 * Adds the queue events to socket.ts's handler table (and `queueCounts` to `lobby:subscribe`'s
 * ack), and wires the queue service's hooks to this node's sockets.
 */
export function registerQueueEvents(io: Server, handlers: Record<string, Handler>, deps: QueueWiring & { service: RoomService; log: Logger }): void {
  const { queue, db, service, log } = deps;
  const now = () => service.clock();
  const localRooms = io.of("/").adapter.rooms;
  const channel = (pid: string) => `player:${pid}`;
  const hasSocketHere = (pid: string) => (localRooms.get(channel(pid))?.size ?? 0) > 0;

  const counts = async (): Promise<WireCount[]> => wireCounts(await queue.counts());

  /**
   * Quick play's tables are of one sitting, for a player free to sit at one: one still playing another
   * such game in person (a clock runs for them, the others wait on them) is refused, as Lichess
   * refuses a new game while one is on. Turn-based games, solitaire and unclocked tables do not
   * count, nor a seat a bot now plays for good (resigned). A failed read lets the player queue.
   */
  async function notPlayingElsewhere(playerId: string): Promise<void> {
    let rooms: Room[];
    try {
      rooms = await service.roomsOf(playerId);
    } catch (e) {
      log.warn({ err: e, player: playerId }, "could not read the player's rooms for quick play; queued without the check");
      return;
    }
    const live = rooms.find((r) => {
      const seat = r.status === "playing" && r.seats.length > 1 && r.clock && !isTurnBased(r.clock) ? seatOf(r, playerId) : null;
      return seat !== null && r.seats[seat]!.away !== "resigned";
    });
    if (live) {
      throw err("PLAYING_ELSEWHERE", `You are playing ${findGame(live.game)?.name ?? "a game"} at another table (in Your games): finish it, or resign it, before quick play finds you a new one.`);
    }
  }
  async function statusOf(pid: string, notice?: string, c?: WireCount[]): Promise<WireQueueStatus> {
    const [s, list] = await Promise.all([queue.status(pid), c ?? counts()]);
    return wireStatus(pid, s, list, now(), notice);
  }
  const push = (pid: string, status: WireQueueStatus) => io.to(channel(pid)).emit("queue:status", status);
  /** Pushes, never throwing: a hook must not break a tick. */
  const safely = (what: string, f: () => Promise<void>) => f().catch((e: unknown) => log.error({ err: e }, `quick play: ${what} failed`));

  // Lobby counts, per node to its own lobby subscribers, at most once per COUNTS_EVERY_MS and
  // only when they changed; a change within that time goes out with the next tick.
  let countsAt = -Infinity;
  let countsSent = "";
  let countsBusy = false;
  async function pushCounts(): Promise<void> {
    if (countsBusy || now() - countsAt < COUNTS_EVERY_MS || (localRooms.get("lobby")?.size ?? 0) === 0) return;
    countsBusy = true;
    try {
      const list = await counts();
      const text = JSON.stringify(list);
      if (text === countsSent) return;
      countsSent = text;
      countsAt = now();
      io.local.to("lobby").emit("queue:counts", { counts: list });
    } finally {
      countsBusy = false;
    }
  }
  const countsChanged = () => void safely("pushing queue counts", pushCounts);

  let statusAt = -Infinity;
  async function periodic(): Promise<void> {
    if (now() - statusAt < STATUS_EVERY_MS) return;
    statusAt = now();
    const ids = queue.localPlayers().filter(hasSocketHere);
    if (ids.length === 0) return;
    const list = await counts();
    for (const pid of ids) {
      const s = await statusOf(pid, undefined, list);
      // Each node tells its own sockets (a player connected to two nodes is tracked by both).
      if (s.queued) io.local.to(channel(pid)).emit("queue:status", s);
    }
  }

  async function ready(players: QueueEntry[], pool: PoolSpec, match: PendingMatch): Promise<void> {
    let roomId: string;
    try {
      const room = await service.createMatchRoom(
        players.map((p) => ({ id: p.playerId, name: p.name, account: p.account })),
        { game: pool.game, seats: tableSeats(pool), clock: pool.clock, ranked: pool.mode === "ranked" },
        match.bots,
      );
      roomId = room.id;
    } catch (e) {
      log.error({ err: e, match: match.id }, "quick play: could not create the room of a fully accepted table");
      const list = await counts();
      for (const p of players) push(p.playerId, await statusOf(p.playerId, "The table could not be started because of a server fault; please queue again.", list));
      return;
    }
    log.info({ match: match.id, room: roomId, pool: match.pool, players: players.length, bots: match.bots }, "quick play table started");
    const list = await counts();
    for (const p of players) {
      push(p.playerId, await statusOf(p.playerId, undefined, list));
      io.to(channel(p.playerId)).emit("queue:ready", { matchId: match.id, roomId });
    }
  }

  async function failed(o: { match: PendingMatch; dropped: string[]; requeued: string[] }, reason: FailReason): Promise<void> {
    const nameOf = (id: string) => o.match.players.find((p) => p.playerId === id)?.name ?? "A player";
    const who = names(o.dropped.map(nameOf));
    const list = await counts();
    for (const pid of o.dropped) {
      const text = reason === "declined" ? "You declined the table and left the queue." : "You did not accept the table in time, so you left the queue.";
      push(pid, await statusOf(pid, text, list));
    }
    for (const pid of o.requeued) {
      const text =
        reason === "declined"
          ? `${who} declined the table; you are back in the queue at your place.`
          : `${who} did not accept in time; you are back in the queue at your place.`;
      push(pid, await statusOf(pid, text, list));
    }
    countsChanged();
  }

  queue.setHooks({
    present: hasSocketHere,
    onProposed: (match) =>
      safely("telling players a table was found", async () => {
        const list = await counts();
        for (const p of match.players) push(p.playerId, wireStatus(p.playerId, { state: "match", match }, list, now()));
        countsChanged();
      }),
    onReady: (players, pool, match) => safely("starting a quick play table", () => ready(players, pool, match)),
    onFailed: (o, reason) => safely("telling players a table failed", () => failed(o, reason)),
    onExpired: (entries) =>
      safely("telling players their lease ran out", async () => {
        const list = await counts();
        for (const e of entries) push(e.playerId, wireStatus(e.playerId, null, list, now(), "You were away too long and left the quick play queue."));
        countsChanged();
      }),
    onTick: () =>
      safely("quick play pushes", async () => {
        await pushCounts();
        await periodic();
      }),
  });

  /** Pushes a player's new status to all their sockets and returns it for the ack. */
  async function changed(pid: string): Promise<{ status: WireQueueStatus }> {
    const status = await statusOf(pid);
    push(pid, status);
    countsChanged();
    return { status };
  }

  const subscribe = handlers["lobby:subscribe"];
  if (subscribe) {
    handlers["lobby:subscribe"] = async (socket, p) => {
      const base = await subscribe(socket, p);
      return { ...base, queueCounts: await counts() };
    };
  }

  Object.assign(handlers, {
    "queue:join": async (socket: Socket, p: Payload) => {
      const player = requirePlayer(socket);
      const qp = { id: player.id, name: player.name, account: player.account === true };
      const request = { game: p.game, seats: p.seats, clock: p.clock, ranked: p.ranked, botsAfterMs: p.botsAfterMs, reliableOnly: p.reliableOnly };
      const { pool } = parseQueueRequest(qp, request);
      await notPlayingElsewhere(player.id);
      if (pool.mode === "ranked") await mayPlayRanked(deps.leaves, qp, log);
      const rating = await ratingOf(db, player.id, pool.game, log);
      // Read at joining; a block or unblock made while queued updates the entry (server.ts, Blocks).
      const avoid = qp.account && deps.blocks ? await avoidOf(deps.blocks, player.id, log) : [];
      // Ranked: whether they left too many ranked games for those who play only with players who finish theirs.
      const left = pool.mode === "ranked" && qp.account ? (await unreliableReading((id) => reliability(db, id), player.id, log, "quick play")) !== null : false;
      await queue.join(qp, request, rating, avoid, left);
      return changed(player.id);
    },

    "queue:leave": async (socket: Socket) => {
      const player = requirePlayer(socket);
      await queue.leave(player.id);
      return changed(player.id);
    },

    "queue:accept": async (socket: Socket, p: Payload) => {
      const player = requirePlayer(socket);
      const matchId = matchIdOf(p);
      // Ranked play paused since joining (a leave recorded meanwhile): the table is declined for
      // them, so the others go back to the queue at once instead of waiting out the accept time.
      const pending = deps.leaves && player.account ? await queue.status(player.id) : null;
      if (pending?.state === "match" && pending.match.id === matchId && parsePoolKey(pending.match.pool)?.mode === "ranked") {
        try {
          await mayPlayRanked(deps.leaves, { id: player.id, account: true }, log);
        } catch (e) {
          await queue.decline(player.id, matchId).catch(() => undefined);
          throw e;
        }
      }
      const { match, ready: done } = await queue.accept(player.id, matchId);
      if (done) return { status: await statusOf(player.id) };
      // Everyone at the table sees who has accepted so far.
      const list = await counts();
      for (const q of match.players) push(q.playerId, wireStatus(q.playerId, { state: "match", match }, list, now()));
      return { status: wireStatus(player.id, { state: "match", match }, list, now()) };
    },

    "queue:decline": async (socket: Socket, p: Payload) => {
      const player = requirePlayer(socket);
      await queue.decline(player.id, matchIdOf(p));
      return { status: await statusOf(player.id) };
    },

    "queue:status": async (socket: Socket) => {
      const player = requirePlayer(socket);
      // The client asks after every (re)connection: from now on this node keeps the lease alive.
      queue.adopt(player.id);
      return { status: await statusOf(player.id) };
    },
  } satisfies Record<string, Handler>);
}
