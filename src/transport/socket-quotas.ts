/**
 * Limits on what one client may hold of a node (issue 24): sockets per client address,
 * subscriptions per socket, and the outgoing data a socket may leave unread. Each refusal carries
 * a code and a message like every other error; each limit is set in config.ts (0: none) and
 * described in the README's configuration table. (Open rooms per player: RoomService.create.)
 *
 * - Sockets per address (MAX_CONNECTIONS_PER_ADDRESS): a Socket.IO middleware refuses one more
 *   with a `connect_error` whose `data` is `{code: "TOO_MANY_CONNECTIONS", message}`. Counted per
 *   Engine.IO connection (a client retrying its namespace connect on the same connection counts
 *   once) and released when that connection closes, however it closes (a connection dropped while
 *   the middleware waited included). With Redis the count is shared by every node (see
 *   RedisConnectionCounter); without, it is this process's, which is then the whole server.
 * - Subscriptions per socket (MAX_SUBSCRIPTIONS_PER_SOCKET): the lobby and each room watched
 *   (Socket.IO room `r:<id>`), checked by socket.ts before a message that would add one changes
 *   anything: TOO_MANY_SUBSCRIPTIONS.
 * - Slow readers (SLOW_READER_MAX_BYTES): a client that stops reading leaves everything sent to it
 *   in this process, without bound: first in the TCP socket's buffer (once the kernel's buffers are
 *   full), then in Engine.IO's write buffer (which holds packets back while the transport waits for
 *   a write to finish). Both are measured with public APIs only: the TCP socket's `writableLength`
 *   (Engine.IO's `request.socket`, the socket ws took over at the upgrade) and the bytes of the
 *   packets Engine.IO created since it last flushed its buffer to the transport (its `packetCreate`
 *   and `flush` events). The check runs when a packet is created (the send path: no timer), so a
 *   socket is cut as soon as its backlog passes the limit; `room:state` frames written straight to
 *   the TCP socket (internals.ts) are written only while its buffer is empty and otherwise go
 *   through Engine.IO, so every byte held for a socket passes this check. A cut socket's TCP
 *   connection is destroyed, which frees both buffers at once (a Socket.IO disconnect would wait
 *   for the write buffer to drain, which a reader that never reads never does), and it is logged
 *   once, with its player.
 */
import { randomBytes } from "node:crypto";
import type { Socket as NetSocket } from "node:net";
import type { Redis } from "ioredis";
import type { Server, Socket } from "socket.io";
import type { Logger } from "../logger.js";
import { err } from "../platform/errors.js";
import { addressKey, clientAddress, proxyTrust } from "./client-address.js";

export interface QuotaLimits {
  /** Sockets per client address (config maxConnectionsPerAddress); 0: no limit. */
  connectionsPerAddress: number;
  /** The lobby plus rooms watched, per socket (config maxSubscriptionsPerSocket); 0: no limit. */
  subscriptionsPerSocket: number;
  /** Unsent bytes a socket may hold (config slowReaderMaxBytes); 0: never cut. */
  slowReaderMaxBytes: number;
}

// ---------------------------------------------------------------------------------------------
// Counting connections per address

/** Connections per address key (client-address.ts `addressKey`). */
export interface ConnectionCounter {
  /** Counts one more connection of `key` if that keeps it within `limit`; false: refused, nothing counted. */
  reserve(key: string, limit: number): Promise<boolean>;
  /** One connection of `key` closed. */
  release(key: string): void;
  /** This node's count of `key` (tests, logs). */
  local(key: string): number;
  /** Stops the heartbeat and takes this node's counts out of the shared count. */
  close(): Promise<void>;
}

/** One process's counts: the whole count without Redis. */
export class LocalConnectionCounter implements ConnectionCounter {
  protected readonly counts = new Map<string, number>();

  async reserve(key: string, limit: number): Promise<boolean> {
    if (this.local(key) >= limit) return false;
    this.add(key);
    return true;
  }
  protected add(key: string): void {
    this.counts.set(key, this.local(key) + 1);
  }
  release(key: string): void {
    const n = this.local(key) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }
  local(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  async close(): Promise<void> {}
}

/**
 * A node whose heartbeat is older than this is taken for dead: its counts stop counting. Short,
 * because the players of a node that crashed reconnect through other nodes at once, and until
 * then their old sockets count against their addresses too; long enough for clocks a few
 * seconds apart (a heartbeat is scored by its node's clock) and a missed renewal or two.
 */
export const NODE_STALE_MS = 20_000;
/** How often a node renews its heartbeat (a quarter of NODE_STALE_MS: three may be missed). */
export const HEARTBEAT_EVERY_MS = 5_000;

/** The Redis keys of the shared count (exported for tests that play a node that died). */
export function connectionKeys(prefix: string) {
  return {
    /** Sorted set: each node's id, scored by its last heartbeat (its clock, epoch ms). */
    nodes: `${prefix}conns:nodes`,
    /** Hash per node: address key -> that node's count. */
    node: (id: string) => `${prefix}conns:node:${id}`,
  };
}

/*
 * Reserve, atomically: drop the nodes whose heartbeat is stale (and their counts), renew this
 * node's, and sum the other nodes' counts of the address; if they and this node's count with the
 * new connection (ARGV[3]) stay within the limit, store this node's count. Each node writes only
 * its own hash, always with its own current count (never an increment), so a write that arrives
 * late or twice cannot make the shared count drift.
 *
 * KEYS[1] nodes, KEYS[2] this node's hash; ARGV: node id, address, count with the new one, limit,
 * now, stale-after, key TTL, node hash prefix. Returns 1 (counted) or 0 (refused).
 */
const RESERVE = `
local nodes, own = KEYS[1], KEYS[2]
local me, addr = ARGV[1], ARGV[2]
local mine, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local now, stale, ttl, prefix = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]
for _, dead in ipairs(redis.call('ZRANGEBYSCORE', nodes, '-inf', '(' .. (now - stale))) do
  if dead ~= me then
    redis.call('DEL', prefix .. dead)
    redis.call('ZREM', nodes, dead)
  end
end
redis.call('ZADD', nodes, now, me)
redis.call('PEXPIRE', nodes, ttl)
local others = 0
for _, n in ipairs(redis.call('ZRANGE', nodes, 0, -1)) do
  if n ~= me then others = others + (tonumber(redis.call('HGET', prefix .. n, addr)) or 0) end
end
if others + mine > limit then return 0 end
redis.call('HSET', own, addr, mine)
redis.call('PEXPIRE', own, ttl)
return 1
`;

/**
 * The count shared by every node through Redis: each node keeps its own counts (exact, in this
 * process) and mirrors them into its own hash; a reservation sums the other live nodes' hashes.
 * A node renews a heartbeat every HEARTBEAT_EVERY_MS (one timer per node); a node that dies stops
 * renewing it, and NODE_STALE_MS later the next reservation anywhere drops its counts, so a dead
 * node's connections never hold addresses out for longer. Both keys also expire on their own
 * (2 × NODE_STALE_MS after the last renewal). If Redis fails, a reservation is decided on this
 * node's count alone (logged once until Redis answers again): the limit then holds per node.
 */
export class RedisConnectionCounter extends LocalConnectionCounter {
  readonly nodeId: string;
  private readonly keys: ReturnType<typeof connectionKeys>;
  private readonly timer: NodeJS.Timeout | undefined;
  private failing = false;
  private closed = false;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly opts: { now: () => number; log: Logger; heartbeat: boolean; nodeName?: string },
  ) {
    super();
    this.nodeId = `${opts.nodeName ?? "node"}-${randomBytes(4).toString("hex")}`;
    this.keys = connectionKeys(prefix);
    redis.defineCommand("gbReserveConnection", { numberOfKeys: 2, lua: RESERVE });
    if (opts.heartbeat) {
      this.timer = setInterval(() => void this.heartbeat(), HEARTBEAT_EVERY_MS);
      this.timer.unref();
    }
  }

  override async reserve(key: string, limit: number): Promise<boolean> {
    const mine = this.local(key) + 1;
    if (mine > limit) return false;
    super.add(key); // held while Redis decides, so that this node's own reservations count each other
    try {
      const ok = await (this.redis as unknown as { gbReserveConnection(...a: Array<string | number>): Promise<number> }).gbReserveConnection(
        this.keys.nodes,
        this.keys.node(this.nodeId),
        this.nodeId,
        key,
        mine,
        limit,
        this.opts.now(),
        NODE_STALE_MS,
        2 * NODE_STALE_MS,
        this.keys.node(""),
      );
      this.recovered();
      if (ok === 1) return true;
      super.release(key);
      this.mirror(key);
      return false;
    } catch (e) {
      this.failed(e);
      return true; // this node's count allowed it (above)
    }
  }

  override release(key: string): void {
    super.release(key);
    this.mirror(key);
  }

  /** Writes this node's current count of `key` to its hash (never after `close`: no key is left behind). */
  private mirror(key: string): void {
    if (this.closed) return;
    const n = this.local(key);
    const own = this.keys.node(this.nodeId);
    const write = n > 0 ? this.redis.multi().hset(own, key, n).pexpire(own, 2 * NODE_STALE_MS).exec() : this.redis.hdel(own, key);
    write.then(() => this.recovered(), (e: unknown) => this.failed(e));
  }

  /** Renews this node's heartbeat and keys; rewrites its hash if it was lost (expired, Redis restarted). */
  async heartbeat(): Promise<void> {
    if (this.closed) return;
    const own = this.keys.node(this.nodeId);
    try {
      await this.redis.zadd(this.keys.nodes, this.opts.now(), this.nodeId);
      await this.redis.pexpire(this.keys.nodes, 2 * NODE_STALE_MS);
      const kept = await this.redis.pexpire(own, 2 * NODE_STALE_MS);
      if (kept === 0 && this.counts.size > 0) {
        await this.redis.hset(own, Object.fromEntries(this.counts));
        await this.redis.pexpire(own, 2 * NODE_STALE_MS);
      }
      this.recovered();
    } catch (e) {
      this.failed(e);
    }
  }

  private failed(e: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.opts.log.warn({ err: e }, "connection counts: Redis failed; each node counts its own connections until it answers again");
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.opts.log.info("connection counts: Redis answers again; counts are shared by every node");
    void this.heartbeat();
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    try {
      await this.redis.del(this.keys.node(this.nodeId));
      await this.redis.zrem(this.keys.nodes, this.nodeId);
    } catch {
      // Redis gone: the keys expire, and other nodes drop this one once its heartbeat is stale.
    }
  }
}

/** The counter for a server: shared through Redis when there is one, else this process's. */
export function connectionCounter(opts: { redis?: Redis; prefix: string; now: () => number; log: Logger; heartbeat: boolean; nodeName?: string }): ConnectionCounter {
  return opts.redis ? new RedisConnectionCounter(opts.redis, opts.prefix, opts) : new LocalConnectionCounter();
}

// ---------------------------------------------------------------------------------------------
// The limits on a Socket.IO server

/** An Engine.IO connection, by its public members (engine.io's Socket). */
type EngineConn = Socket["conn"];

/** What is kept per Engine.IO connection. */
interface ConnState {
  /** Address key counted for this connection (null: not counted). */
  counted: string | null;
  /** Bytes of the packets created since Engine.IO last flushed its buffer to the transport. */
  pending: number;
  /** The player of the socket on it, for the log. */
  player: string | null;
  /** Cut as a slow reader (logged once). */
  cut: boolean;
}

/** A Socket.IO refusal that reaches the client's `connect_error` with our error shape in `data`. */
function connectRefusal(code: string, message: string): Error {
  const e = new Error(code) as Error & { data: { code: string; message: string } };
  e.data = { code, message };
  return e;
}

/** `r:<id>`: a room this socket watches (socket.ts's channel names). */
const WATCH_CHANNEL = /^r:[^:]+$/;

export interface SocketQuotas {
  /** TOO_MANY_SUBSCRIPTIONS if watching room `roomId` (absent: a room not known yet) would pass the limit. */
  mayWatch(socket: Socket, roomId?: string): void;
  /** TOO_MANY_SUBSCRIPTIONS if subscribing to the lobby would pass the limit. */
  maySubscribeLobby(socket: Socket): void;
  /** Tells which player a socket is, for the slow-reader log (called on connection). */
  connected(socket: Socket): void;
}

export function attachSocketQuotas(
  io: Server,
  opts: {
    limits: QuotaLimits;
    counter: ConnectionCounter;
    trustProxy: boolean | string;
    log: Logger;
    /** A connection refused for a while (not for who it is): a resumed one keeps its session for its retry (socket.ts). */
    onRefusedForNow?: (socket: Socket) => void;
  },
): SocketQuotas {
  const { limits, counter, log } = opts;
  const trusted = proxyTrust(opts.trustProxy);
  const conns = new WeakMap<EngineConn, ConnState>();
  const stateOf = (conn: EngineConn): ConnState => {
    let st = conns.get(conn);
    if (!st) conns.set(conn, (st = { counted: null, pending: 0, player: null, cut: false }));
    return st;
  };
  const addressOf = (socket: Socket) => addressKey(clientAddress(socket.handshake.address, socket.handshake.headers["x-forwarded-for"], trusted));

  function release(this: EngineConn): void {
    const st = conns.get(this);
    if (st?.counted) counter.release(st.counted);
    if (st) st.counted = null;
  }
  /** Counts the connection under `key` and uncounts it when it closes (now, if it already has). */
  function count(conn: EngineConn, st: ConnState, key: string): void {
    st.counted = key;
    if (conn.readyState === "closed") release.call(conn);
    else conn.once("close", release);
  }

  if (limits.connectionsPerAddress > 0) {
    io.use((socket, next) => {
      const st = stateOf(socket.conn);
      if (st.counted) return next(); // this connection is counted already (a repeated namespace connect)
      const key = addressOf(socket);
      counter.reserve(key, limits.connectionsPerAddress).then(
        (ok) => {
          if (!ok) {
            // debug: a client retries every few seconds, and a flood of them must not flood the log.
            log.debug({ address: key, limit: limits.connectionsPerAddress }, "connection refused: too many from one address");
            opts.onRefusedForNow?.(socket);
            return next(connectRefusal("TOO_MANY_CONNECTIONS", `Too many connections from your address (at most ${limits.connectionsPerAddress}); close some tabs or windows of this site and try again.`));
          }
          count(socket.conn, st, key);
          next();
        },
        (e: unknown) => {
          opts.onRefusedForNow?.(socket);
          next(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }

  if (limits.slowReaderMaxBytes > 0) {
    const max = limits.slowReaderMaxBytes;
    const sizeOf = (data: unknown): number => (typeof data === "string" ? data.length : ((data as { byteLength?: number } | undefined)?.byteLength ?? 1));
    // One listener function for every connection (`this` is the connection), no closure per socket.
    function onPacketCreate(this: EngineConn, packet: { data?: unknown }): void {
      const st = conns.get(this);
      if (!st || st.cut) return;
      st.pending += sizeOf(packet.data);
      const raw = this.request.socket as NetSocket;
      // While the kernel takes everything written (nothing left in the TCP socket), the client is
      // reading: a burst may wait in Engine.IO's buffer for the write before it to finish, and
      // leaves at once. Only a TCP socket that holds bytes means the client has stopped keeping up.
      if (!(raw?.writableLength > 0)) return;
      const held = st.pending + raw.writableLength;
      if (held <= max) return;
      st.cut = true;
      log.warn({ player: st.player, address: st.counted, bufferedBytes: held, limit: max }, "slow reader disconnected: its unsent data passed SLOW_READER_MAX_BYTES");
      // Frees the TCP socket's buffer now; Engine.IO sees the transport close and drops its own.
      raw.destroy();
    }
    io.engine.on("connection", (conn: EngineConn) => {
      stateOf(conn);
      conn.on("packetCreate", onPacketCreate);
    });
    // Engine.IO hands its whole buffer to the transport when it flushes: nothing is pending then.
    io.engine.on("flush", (conn: EngineConn) => {
      const st = conns.get(conn);
      if (st) st.pending = 0;
    });
  }

  const subscriptions = (socket: Socket): number => {
    let n = 0;
    for (const r of socket.rooms) if (r === "lobby" || WATCH_CHANNEL.test(r)) n++;
    return n;
  };
  const tooMany = () =>
    err("TOO_MANY_SUBSCRIPTIONS", `This connection already watches ${limits.subscriptionsPerSocket} things (the lobby and rooms); stop watching one (leave its page) before opening another.`);

  return {
    mayWatch(socket, roomId) {
      if (limits.subscriptionsPerSocket === 0 || (roomId !== undefined && socket.rooms.has(`r:${roomId}`))) return;
      if (subscriptions(socket) >= limits.subscriptionsPerSocket) throw tooMany();
    },
    maySubscribeLobby(socket) {
      if (limits.subscriptionsPerSocket === 0 || socket.rooms.has("lobby")) return;
      if (subscriptions(socket) >= limits.subscriptionsPerSocket) throw tooMany();
    },
    connected(socket) {
      const st = stateOf(socket.conn);
      st.player = (socket.data as { player?: { id: string } | null }).player?.id ?? null;
    },
  };
}
