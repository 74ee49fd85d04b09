/**
 * The real-time protocol (docs/protocol.md). Every client event is acknowledged with
 * {ok: true, ...} or {ok: false, error: {code, message}}; nothing a client sends can crash
 * the process or change state on error.
 *
 * Socket.IO rooms used:
 *   player:<pid>       every socket of a player
 *   session:<sid>      every socket of one login session of an account (disconnected when it is revoked)
 *   r:<id>             every socket watching room <id> (presence)
 *   r:<id>:p:<pid>     sockets of player <pid> watching room <id>: that seat's views
 *   r:<id>:spec        spectators of room <id>: the spectator view (never a seated player's socket:
 *                      ranked rooms' spectator chat goes here alone, chat-events.ts)
 *   lobby              sockets that want lobby updates
 */
import type { Server, Socket } from "socket.io";
import type { Logger } from "../logger.js";
import { AppError, err, toErrorReply } from "../platform/errors.js";
import { nameKey, type Player, type TokenIssuer } from "../platform/identity.js";
import { nameLooks } from "../platform/name-skeleton.js";
import type { Accounts } from "../platform/accounts.js";
import { createRoom, logLength, seatOf, seatRefusal, summarize, summarizeFor, type HeldNotice, type KeptInvitation, type OwedPush, type Room } from "../platform/room.js";
import { sendOwedNotices } from "./owed-notices.js";
import type { RoomService } from "../platform/room-service.js";
import type { RoomChange } from "../platform/room-store.js";
import { checkRoomId } from "../platform/room-service.js";
import { viewerFor } from "../platform/views.js";
import { ViewHistory } from "../platform/view-history.js";
import { holdFrames, sendRoomState } from "./frames.js";
import { findGame, GAMES } from "../games/registry.js";
import type { DailyChallenges } from "../platform/daily.js";
import { PROTOCOL_VERSION, type GameInfo, type RoomInvited, type RoomRemoved, type RoomSummary, type TurnYours, type YourRoom } from "../protocol/wire.js";
import { clockPresets, isTurnBased, isTurnBasedPace, NO_CLOCK } from "../platform/clocks.js";
import type { PushNotices } from "../platform/push.js";
import type { VacationSource } from "../platform/vacations.js";
import { registerQueueEvents, type QueueWiring } from "./queue-events.js";
import { blockedJoin, type Blocks } from "../platform/blocks.js";
import { mayPlayRanked, type Leaves } from "../platform/leaves.js";
import { outOfRange, parseRangeWidth, rangeAround } from "../platform/rating-range.js";
import { listed } from "../platform/lobby.js";
import { findKey } from "../platform/find-slots.js";
import { leftTooMany, parseReliableOnly, unreliableReading } from "../platform/reliability.js";
import type { Reliability } from "../protocol/profiles.js";
import type { Moderation } from "../platform/moderation.js";
import { registerRematchEvents } from "./rematch-events.js";
import { registerChatEvents, toAudience } from "./chat-events.js";
import { registerInviteEvents } from "./invite-events.js";
import type { Invitations } from "../platform/invitations.js";
import type { TableChat } from "../platform/chat.js";
import { attachSocketQuotas, LocalConnectionCounter, type ConnectionCounter, type QuotaLimits } from "./socket-quotas.js";
import type { PlatformMetrics } from "../platform/metrics.js";

export interface SocketDeps {
  service: RoomService;
  tokens: TokenIssuer;
  /** Verifies tokens (an account token's session must be live) and reports revoked sessions. */
  accounts: Accounts;
  daily: DailyChallenges;
  log: Logger;
  maxPayloadBytes: number;
  /** Messages a socket may send per second (a token bucket of as many), on `now`. */
  rateLimitPerSecond: number;
  /** The server's clock (tests move it). Default Date.now. */
  now?: () => number;
  /** Quick play (queue-events.ts); absent: no queue:* events. */
  queue?: QueueWiring;
  /** Limits per address and per socket (socket-quotas.ts); absent: none. */
  quotas?: { limits: QuotaLimits; counter: ConnectionCounter; trustProxy: boolean | string };
  /** Told of every message refused with RATE_LIMITED (GET /metrics). */
  metrics?: Pick<PlatformMetrics, "rateLimited">;
  /** Table chat (chat-events.ts); absent: no chat:* events. */
  chat?: TableChat;
  /** Blocked players (blocks.ts): room:join refuses a seat beside someone who blocks the joiner or whom they block; absent: no check. */
  blocks?: Blocks;
  /** Leavers (leaves.ts): a player whose ranked play is paused may not create, join or rematch a ranked room, nor queue for one; absent: no check. */
  leaves?: Leaves;
  /** The operators' removals of chat messages reach the room's watchers (chat:removed). */
  moderation?: Pick<Moderation, "onChatRemoved">;
  /** A player's rating in a game as players see it (rating-range.ts: ranked rooms with a range); absent: ranges are not offered. */
  shownRating?: (game: string, playerId: string) => Promise<number>;
  /** How reliably a player plays ranked games out (db/profiles.ts; reliability.ts: rooms kept for players who do); absent: such rooms are not offered. */
  reliabilityOf?: (playerId: string) => Promise<Reliability>;
  /** Invitations to a seat (invite-events.ts); absent: no room:invite. */
  invitations?: Invitations;
  /** Notifications to closed pages (platform/push.ts): the notices rooms owe, sent for the timers (AttachedSockets.notify); absent: none. */
  push?: PushNotices;
  /** The players' vacations (platform/vacations.ts): notices to a player on vacation wait for its end. */
  vacations?: VacationSource;
}

interface SocketData {
  player: Player | null;
  /** The login session of an account's token (its sockets are in channel session:<id>), else null. */
  session?: string | null;
  /** Token bucket for rate limiting. */
  bucket: { tokens: number; at: number };
}

type Payload = Record<string, unknown>;
type Handler = (socket: Socket, payload: Payload) => Promise<Record<string, unknown>>;

/** room:presence names at most this many spectators (the count covers them all). */
const WATCHER_NAMES = 20;

/** Presence announcements for one room within this many ms go out as one (see announcePresence). */
const PRESENCE_COALESCE_MS = 25;

const ch = {
  player: (pid: string) => `player:${pid}`,
  room: (id: string) => `r:${id}`,
  seat: (id: string, pid: string) => `r:${id}:p:${pid}`,
  spec: (id: string) => `r:${id}:spec`,
  /**
   * A person's sockets that watch the room themselves (room:create, join, leave, sync,
   * daily:start; until room:unwatch). `r:<id>` also holds a seated player's other sockets (reseat,
   * for presence: a lobby tab), which show nothing of the room.
   */
  watcher: (id: string, pid: string) => `r:${id}:w:${pid}`,
  /**
   * A guest's sockets, by their name's key and looks as written, in small letters and in capitals
   * (an account taking any of them ends them: onNameTaken).
   */
  guestName: (name: string) => {
    const looks = nameLooks(name);
    return [`gn:k:${nameKey(name)}`, `gn:s:${looks.written}`, `gn:l:${looks.lower}`, `gn:u:${looks.upper}`];
  },
};

function dataOf(socket: Socket): SocketData {
  return socket.data as SocketData;
}

function requirePlayer(socket: Socket): Player {
  const p = dataOf(socket).player;
  if (!p) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
  return p;
}

/** An error that says the room store (Redis) is unreachable, as ioredis reports it. */
function storeOutage(e: unknown): boolean {
  if (!(e instanceof Error) || e instanceof AppError) return false;
  return e.name === "MaxRetriesPerRequestError" || /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/.test(e.message);
}

/** `room:sync`'s optional `since`: the room version the client holds. */
function sinceOf(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw err("BAD_REQUEST", "since must be a room version (a whole number), or absent.");
  return v;
}

export function gamesList(): GameInfo[] {
  return GAMES.map((g) => ({
    id: g.id,
    name: g.name,
    minPlayers: g.minPlayers,
    maxPlayers: g.maxPlayers,
    daily: g.daily === true,
    rankedRooms: g.maxPlayers >= 2,
    options: g.optionSpecs ?? [],
    clocks: clockPresets(g),
    defaultCasualClock: g.maxPlayers === 1 ? NO_CLOCK : clockPresets(g)[0]!.id,
  }));
}

/** Waiting rooms room:find tries, nearest to starting first, before it opens one. */
const FIND_TRIES = 20;
/** Rooms named by other finders of the same request (find-slots.ts) room:find tries before it opens one regardless. */
const FIND_NAMED_TRIES = 3;
/** How long room:find waits for a room another finder named to be written (it is named just before), ms. */
const NAMED_ROOM_WAIT_MS = 2_000;

/** A kept invitation as `room:invited` and Your games' `invited` give it. */
function invitedOf(room: Room, i: KeptInvitation): RoomInvited {
  return { room: summarize(room), from: i.from, at: i.at, ...(i.rematch ? { rematch: true as const } : {}) };
}

export interface AttachedSockets {
  /** Whether a player has a connection watching a room, on any node. */
  isPresent(roomId: string, playerId: string): Promise<boolean>;
  /** Which of these players have any connection now, on any node (one request through the adapter). */
  onlineOf(playerIds: readonly string[]): Promise<Set<string>>;
  /**
   * Sends the notices a room owes to closed pages (owed-notices.ts), for the timers ("notify"),
   * and gives back those held for a player on vacation; absent without Web Push keys.
   */
  notify?: (room: Room, owed: readonly OwedPush[]) => Promise<HeldNotice[]>;
  /**
   * Graceful drain: refuses new connections (DRAINING), waits up to `waitMs` for the messages
   * being handled to be acknowledged, then tells every socket here `server:draining` and closes
   * its connection so that the client reconnects (through the balancer, to another node) and
   * resumes its session there. Resolves once this node has no sockets left, or after `waitMs`.
   */
  drain(waitMs: number): Promise<void>;
  /**
   * Sends this node's lobby pages how many games are being played and how many turn-based rooms
   * wait for players, of each game (`lobby:counts`), if that changed since it last did; server.ts
   * calls it every LOBBY_COUNTS_EVERY_MS (tests with manualTimers, themselves). The lists are kept
   * by `lobby:room` pushes, the counts by this.
   */
  pushLobbyCounts(): Promise<void>;
  /**
   * A ranked daily attempt has just been written (the day's board has a new entry): every lobby
   * page, on every node, is told `daily:board` {game, day} (one adapter message), and reads the
   * board again if it shows it.
   */
  dailyBoardChanged(game: string, day: string): void;
}

/** How often each node tells its lobby pages the lobby's counts (ms). */
export const LOBBY_COUNTS_EVERY_MS = 5_000;

export function attachSockets(io: Server, deps: SocketDeps): AttachedSockets {
  const { service, accounts, daily, log } = deps;
  const clock = deps.now ?? Date.now;
  /** A new socket's data: who it is, and a full message bucket. */
  const freshData = (player: Player | null, session: string | null): SocketData => ({ player, session, bucket: { tokens: deps.rateLimitPerSecond, at: clock() } });
  /** Messages being handled now (a move in flight is acknowledged before a drain closes its socket). */
  let inFlight = 0;
  let idle: (() => void) | undefined;
  let draining = false;
  /** Resumed connections that came back with another token, told they were not resumed. */
  const notResumed = new WeakSet<Socket>();

  // Connection state recovery: a session kept at a drop comes back (its rooms, its data, and the
  // packets sent to it meanwhile, which Socket.IO writes at once, before any middleware) only while
  // it is still good. A revoked session, or a guest whose name an account took, connects as new
  // instead: the token check below refuses it, and it gets none of what was sent while it was away.
  const adapter = io.of("/").adapter;
  const restore = adapter.restoreSession.bind(adapter);
  adapter.restoreSession = async (pid, offset) => {
    const kept = await restore(pid, offset);
    const data = kept?.data as SocketData | undefined;
    if (kept && data) restoredIds.set(data, { sid: kept.sid, pid: kept.pid });
    if (!kept || !data?.player) return kept;
    let current: Player | null;
    try {
      current = await accounts.current(data.player, data.session ?? null);
    } catch (e) {
      // Not refused for who it is: the session goes back for the retry (see keepSessionForRetry).
      log.warn({ err: e }, "could not check a resumed connection; it connects as new, and may resume when it retries");
      putBack(data, kept.rooms);
      return null as unknown as typeof kept;
    }
    if (!current) return null as unknown as typeof kept;
    // An account renamed meanwhile acts under its new name from here (its `session` message says it).
    data.player = current;
    checkedAtRestore.add(data);
    return kept;
  };
  /** The session ids of resumed sockets' data, to put their session back if the resume is refused for now. */
  const restoredIds = new WeakMap<SocketData, { sid: string; pid: string }>();
  /**
   * A resumed connection refused for a while (this node draining, the database unavailable, too many
   * connections from its address), not for who it is: its session goes back to the adapter, as a
   * disconnect would have stored it, so its retry (here or on another node) resumes with its rooms
   * and what was sent meanwhile. Redis's adapter deletes a session as it reads it; without this,
   * the retry would connect as new. (Its time to resume starts again: each refusal is a retry's wait.)
   */
  const keepSessionForRetry = (socket: Socket): void => {
    if (socket.recovered && !notResumed.has(socket)) putBack(dataOf(socket), socket.rooms);
  };
  /** Stores a restored session again, as a disconnect would have (its ids from restoreSession). */
  const putBack = (data: SocketData, rooms: Iterable<string>): void => {
    const ids = restoredIds.get(data);
    if (ids) adapter.persistSession({ ...ids, rooms: [...rooms], data });
  };
  /** Resumed sockets' data that restoreSession has just checked (the middleware need not ask the database again). */
  const checkedAtRestore = new WeakSet<SocketData>();
  /** Whether `token` names exactly the player and session that restoreSession checked for this resumed socket. */
  const sameAsChecked = (resumed: SocketData | null, token: unknown): boolean => {
    if (!resumed?.player || !checkedAtRestore.has(resumed)) return false;
    const c = deps.tokens.decode(token);
    if (!c || c.id !== resumed.player.id) return false;
    return c.kind === "account" ? c.session === resumed.session : resumed.session === null && c.name === resumed.player.name;
  };

  io.use((socket, next) => {
    if (draining) return keepSessionForRetry(socket), next(new Error("DRAINING"));
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    // A resumed connection (connection state recovery) comes back with its data and rooms, and meets
    // this check too: its session may have been revoked, or its guest name registered, while it was away.
    const resumed = socket.recovered ? dataOf(socket) : null;
    /** Who the connection is; a resumed one with a token of another player or session gets none of its rooms. */
    const startAfresh = (player: Player | null, session: string | null) => {
      if (resumed && resumed.player?.id === player?.id && resumed.session === session) {
        if (player && !player.account && player.name !== resumed.player!.name) {
          // A guest renamed while away resumes under its new name only (the connection joins its channels).
          for (const r of ch.guestName(resumed.player!.name)) void socket.leave(r);
        }
        if (player) resumed.player = player;
        return;
      }
      if (resumed) {
        for (const room of [...socket.rooms]) if (room !== socket.id) void socket.leave(room);
        notResumed.add(socket);
      }
      socket.data = freshData(player, session);
    };
    if (token === undefined || token === null || token === "") {
      startAfresh(null, null);
      return next();
    }
    // Resumed with the token of the player and session restoreSession just found good: nothing to ask.
    if (sameAsChecked(resumed, token)) return next();
    // Accounts.resolve: the signature, and an account token's session must not be revoked; the
    // name and `account` come from the server, never from the client.
    accounts.resolve(token).then(
      async (v) => {
        if (!v) {
          // A closed account's page is told so, in the words a login would get (ACCOUNT_CLOSED, as data).
          const closed = await accounts.closedFor(token).catch(() => null);
          return next(closed ? Object.assign(new Error("ACCOUNT_CLOSED"), { data: { code: closed.code, message: closed.message } }) : new Error("BAD_TOKEN"));
        }
        // The client asks for another name and renames the guest with the same token (POST /api/guest).
        if (v.nameTaken) return next(new Error("GUEST_NAME_TAKEN"));
        startAfresh(v.player, v.session);
        next();
      },
      (e: unknown) => {
        log.warn({ err: e }, "could not verify a token");
        keepSessionForRetry(socket);
        next(new Error("UNAVAILABLE"));
      },
    );
  });

  // After the token check: a connection refused for its token never holds one of its address's places.
  const quotas = attachSocketQuotas(io, {
    ...(deps.quotas ?? { limits: { connectionsPerAddress: 0, subscriptionsPerSocket: 0, slowReaderMaxBytes: 0 }, counter: new LocalConnectionCounter(), trustProxy: false }),
    log,
    onRefusedForNow: keepSessionForRetry,
  });
  /** A room id as a message names it, for the subscription check (the handler itself validates it). */
  const named = (id: unknown): string | undefined => (typeof id === "string" ? id : undefined);

  // A chat message the operators removed (or erased with its author's data) leaves the pages of
  // every watcher who could see it, on every node (a recorded game no longer in the store has no watchers).
  deps.moderation?.onChatRemoved((roomId, n, channel, how) => {
    void service.get(roomId).then(
      (room) => toAudience(io, room, channel, "chat:removed", { roomId, n, ...(how === "erased" ? { erased: true } : {}) }),
      () => {},
    );
  });

  // A revoked session's sockets (every socket of the player for "log out everywhere") are
  // disconnected on every node, through the adapter.
  // A login elsewhere: every connected device of the account is told (a login it did not make is a warning).
  accounts.onLogin((playerId, login) => {
    io.to(ch.player(playerId)).emit("account:login", { userAgent: login.userAgent, at: login.at });
  });
  // A name an account took: the guests connected under it (or a look-alike) go, on every node, and
  // their next connection is refused with GUEST_NAME_TAKEN (the web client asks for another name).
  accounts.onNameTaken((name) => {
    io.in(ch.guestName(name)).disconnectSockets(true);
  });
  // A rename: the account's devices, on every node, are told. A page then drops its transport and
  // resumes (connection state recovery: its rooms, nothing missed), and the resume reads the account
  // afresh (restoreSession above), so the connection acts under the new name from then on.
  accounts.onRename((playerId, name) => {
    io.to(ch.player(playerId)).emit("account:renamed", { player: { id: playerId, name, account: true } });
  });
  accounts.onRevoke((playerId, sessions) => {
    if (sessions === "all") io.in(ch.player(playerId)).disconnectSockets(true);
    else for (const s of sessions) io.in(`session:${s}`).disconnectSockets(true);
  });

  /**
   * Send this node's watchers of a room the view each may see. Only local sockets: a change made
   * here reaches other nodes through the store's change feed (one entry per change, written in
   * the same step as the room), not through one adapter message per viewer.
   */
  const localRooms = io.of("/").adapter.rooms;
  const localSockets = io.of("/").sockets;
  function* socketsIn(channel: string): Generator<Socket> {
    for (const id of localRooms.get(channel) ?? []) {
      const socket = localSockets.get(id);
      if (socket) yield socket;
    }
  }
  /** What this node showed each viewer of a room lately: updates are made from it (view-history.ts). */
  const history = new ViewHistory({}, (e, room) => log.error({ err: e, room }, "could not make updates; whole views sent instead"));
  /** Newest version of each room delivered here (a room's changes must go out once, in order). */
  const delivered = new Map<string, number>();
  function deliver(next: Room, from: number, leftPlayers: readonly string[]): void {
    if ((delivered.get(next.id) ?? 0) >= next.version) return;
    delivered.delete(next.id);
    delivered.set(next.id, next.version);
    if (delivered.size > 10_000) delivered.delete(delivered.keys().next().value!);
    const pids = new Set<string>(leftPlayers);
    for (const s of next.seats) if (s.playerId) pids.add(s.playerId);
    const channels: string[] = [];
    const targets: Array<string | null> = [];
    for (const pid of pids) {
      const channel = ch.seat(next.id, pid);
      if (!localRooms.has(channel)) continue;
      channels.push(channel);
      targets.push(pid);
    }
    if (localRooms.has(ch.spec(next.id))) {
      channels.push(ch.spec(next.id));
      targets.push(null);
    }
    if (channels.length === 0) return;
    // One text per viewer: what changed in its view since the version this node showed it last,
    // or its whole view, shared parts built once (view-history.ts, views.ts); each viewer's frame
    // is built once for all of its sockets (frames.ts).
    const parts = history.forChange(next, targets, from, daily.now());
    channels.forEach((channel, i) => sendRoomState(socketsIn(channel), parts[i]!));
  }

  /** A change made on this node: deliver it here at once, and tell the lobby if it shows. */
  service.onChange((prev, next, note) => {
    deliver(next, note.logFrom, note.leftPlayers);
    // A listed room's lobby changes reach this node's lobby pages from the lobby it keeps
    // (onLobbyChange below), every node's from its own. A private table is listed nowhere: only its
    // players' pages (Your games) hear of it, those who sat in it before the change too (one who
    // left or was removed), on any node.
    if (note.lobby && !listed(note.lobby)) {
      const players = new Set([...(prev?.seats ?? []), ...next.seats].map((x) => x.playerId).filter((id): id is string => !!id));
      if (players.size > 0) io.to([...players].map((id) => ch.player(id))).emit("lobby:room", note.lobby);
    }
    // Your games: each person whose turn it now is hears it on their sockets here; other nodes
    // tell theirs from the change feed (the note's `turns`), so no adapter message per move.
    if (note.turns) tellTurns(next.id, next.version, note.turns);
  });

  /** `turn:yours` to this node's sockets of each person whose turn a change made, but those that watch the room (docs/protocol.md). */
  function tellTurns(roomId: string, version: number, turns: NonNullable<RoomChange["turns"]>): void {
    for (const t of turns.seats) {
      if (!localRooms.has(ch.player(t.playerId))) continue;
      // Local: a plain emit would publish to the adapter's stream (connection-state recovery
      // records every packet), one Redis XADD per move; after a reconnection the lobby's `mine`
      // makes good a missed notice. Not to a socket that watches the room: its room:state says
      // the same (one frame fewer per move at a table).
      io.local
        .to(ch.player(t.playerId))
        .except(ch.watcher(roomId, t.playerId))
        .emit("turn:yours", { roomId, game: turns.game, version, seat: t.seat } satisfies TurnYours);
    }
  }

  /**
   * The lobby pages on this node hear of each change of a listed room's summary as this node's
   * lobby keeps it (in version order: RoomService.lobbyChanged), whichever node made the change.
   */
  service.onLobbyChange((summary) => {
    if (listed(summary)) io.local.to("lobby").emit("lobby:room", summary);
  });

  /** A change made on another node: deliver it here if anyone here watches the room. */
  service.store.follow?.((change) => {
    if (change.lobby) service.lobbyChanged(change.lobby, change.version);
    if (change.turns) tellTurns(change.roomId, change.version, change.turns);
    if (!localRooms.has(ch.room(change.roomId)) && !localRooms.has(ch.spec(change.roomId))) return;
    // Already delivered this version or a newer one (read from the store after a gap).
    if ((delivered.get(change.roomId) ?? 0) >= change.version) return;
    const next = change.applyTo(service.known(change.roomId));
    if (next) {
      service.remember(next);
      deliver(next, change.logFrom, change.leftPlayers);
      return;
    }
    // This node does not have the version just before: read the room (it may be newer by now).
    service.get(change.roomId).then(
      (room) => deliver(room, Math.min(change.logFrom, logLength(room)), change.leftPlayers),
      (e: unknown) => log.warn({ err: e, room: change.roomId }, "could not read a changed room"),
    );
  });

  /**
   * Who is at a room, on every node: the player ids with a socket on it (seated or not), how many
   * spectators watch it (each named one once, however many tabs; each anonymous socket once), and
   * the names of the named ones (alphabetical, at most WATCHER_NAMES).
   */
  async function presence(roomId: string): Promise<{ connected: string[]; watching: number; watchers: string[] }> {
    const sockets = await io.in(ch.room(roomId)).fetchSockets();
    const spectators = ch.spec(roomId);
    const connected = new Set<string>();
    const named = new Map<string, string>();
    let anonymous = 0;
    for (const s of sockets) {
      const player = (s.data as SocketData).player;
      if (player) connected.add(player.id);
      if (!s.rooms.has(spectators)) continue;
      if (player) named.set(player.id, player.name);
      else anonymous++;
    }
    const watchers = [...named.values()].sort((a, b) => a.localeCompare(b)).slice(0, WATCHER_NAMES);
    return { connected: [...connected], watching: named.size + anonymous, watchers };
  }

  /**
   * Tells a room's watchers who is connected. Announcements for one room are coalesced over
   * PRESENCE_COALESCE_MS: when a game ends and its players move to the next one, five sockets
   * stop watching and five start within a few milliseconds, and each announcement costs a
   * cluster-wide lookup and a broadcast; the last state is what matters.
   */
  const presenceDue = new Set<string>();
  function announcePresence(roomId: string): void {
    if (presenceDue.has(roomId)) return;
    presenceDue.add(roomId);
    setTimeout(() => {
      presenceDue.delete(roomId);
      presence(roomId).then(
        ({ connected, watching, watchers }) => {
          io.to(ch.room(roomId)).emit("room:presence", { roomId, connected, watching, watchers });
          noteHost(roomId, connected);
        },
        (e: unknown) => log.warn({ err: e, room: roomId }, "presence lookup failed"),
      );
    }, PRESENCE_COALESCE_MS).unref();
  }

  /**
   * An open room records when its host stops watching it (and when they come back), so that a room
   * whose host is gone closes after HOST_AWAY_MS (timers.ts) on whichever node.
   */
  function noteHost(roomId: string, connected: readonly string[]): void {
    const room = service.known(roomId);
    // A turn-based room's host need not stay (room.ts hostPresence records nothing for it).
    if (!room || room.status !== "open" || room.daily || isTurnBased(room.clock)) return;
    const present = connected.includes(room.hostId);
    if (present === (room.hostAwaySince === undefined)) return;
    service.hostPresence(roomId, present).catch((e: unknown) => log.warn({ err: e, room: roomId }, "could not note the host's presence"));
  }

  /**
   * Subscribe a socket to the right channel of a room and give it its current view: whole, or
   * (`since`: the version the client holds) an update from that version when this node can make one.
   */
  async function watch(socket: Socket, room: Room, since?: number) {
    const pid = dataOf(socket).player?.id ?? null;
    const viewer = viewerFor(room, pid);
    await socket.join(pid ? [ch.room(room.id), ch.watcher(room.id, pid)] : ch.room(room.id));
    if (viewer.kind === "seat" && pid) {
      socket.leave(ch.spec(room.id));
      await socket.join(ch.seat(room.id, pid));
    } else {
      if (pid) socket.leave(ch.seat(room.id, pid));
      await socket.join(ch.spec(room.id));
    }
    announcePresence(room.id);
    const who = await presence(room.id);
    // A change to the room after the caller read or wrote it (another player's join, made here or
    // arriving from another node while the lookup above waited) went to this socket, or to the
    // room's channels before it was in them. A client drops a push for a room it holds no view of
    // yet (its answer is on the way), so the answer must be the newest version this node knows,
    // read after the last wait: it then covers every push sent before it.
    const newest = service.known(room.id);
    if (newest && newest.version > room.version) room = newest;
    const now = daily.now();
    const state = history.forWatch(room, pid, since, now);
    // serverTime on the reply itself: an update (sync with since) carries none, and a client
    // takes its clock offset from each reply (docs/protocol.md, "Clocks").
    return { state, ...who, serverTime: now };
  }

  /**
   * After a player takes or leaves a seat (on any node): their sockets that watch the room move
   * between the spectators' channel and their seat's, so each gets the view it may see. Their
   * other sockets (a lobby tab) join the room's channel only, for presence: they get no room:state
   * they would drop (until 2026-11-25 they got every change of every room their player sat in),
   * and turn:yours tells them their turns.
   */
  function reseat(room: Room, pid: string, seated: boolean) {
    io.in(ch.player(pid)).socketsJoin(ch.room(room.id));
    const watching = io.in(ch.watcher(room.id, pid));
    if (seated) {
      watching.socketsJoin(ch.seat(room.id, pid));
      watching.socketsLeave(ch.spec(room.id));
    } else {
      watching.socketsLeave(ch.seat(room.id, pid));
      watching.socketsJoin(ch.spec(room.id));
    }
    // A spectator who took a seat (or a player who left one) changes how many watch.
    announcePresence(room.id);
  }

  /**
   * Your games: the open and playing rooms this socket's player sits in, newest first, and the
   * invitations kept for them in open turn-based rooms (both [] without a name). roomsOf reads only
   * the player's rooms (player-rooms.ts).
   */
  async function yourRooms(socket: Socket): Promise<{ mine: YourRoom[]; invited: RoomInvited[] }> {
    const pid = dataOf(socket).player?.id;
    if (!pid) return { mine: [], invited: [] };
    const rooms = await service.roomsOf(pid, { invited: true });
    const seated = rooms.filter((r) => seatOf(r, pid) !== null);
    // Tables whose players' chat has news for you (a read that fails marks none).
    const unread = await service.store.unreadChat(pid, seated.map((r) => r.id)).catch(() => new Set<string>());
    const mine = seated
      .map((r) => summarizeFor(r, pid))
      .filter((r): r is YourRoom => r !== null)
      .map((r) => (unread.has(r.id) ? { ...r, unreadChat: true as const } : r))
      .sort((a, b) => b.createdAt - a.createdAt);
    // Invitations kept for you in open turn-based rooms you do not sit in, newest first.
    const invited = rooms
      .flatMap((r) => {
        const i = seatOf(r, pid) === null ? r.invited?.find((x) => x.playerId === pid) : undefined;
        return i ? [invitedOf(r, i)] : [];
      })
      .sort((a, b) => b.at - a.at);
    return { mine, invited };
  }

  /**
   * What a seat at `target` asks of an account beyond the room's own rules (room:join, room:find):
   * ranked play not paused, a rating within the room's range, play that finishes its games where
   * the room asks for it, no block with anyone seated. Without the database a check is passed over
   * (the seat is given unchecked, as quick play queues without ratings then).
   */
  async function mayTakeSeat(player: Player, target: Room): Promise<void> {
    // Taking a seat at a ranked table (joining one already seated in only watches it).
    const takesSeat = target.ranked && target.seats.length > 1 && target.status === "open" && seatOf(target, player.id) === null;
    if (takesSeat) await mayPlayRanked(deps.leaves, player, log);
    // The room's rating range (rating-range.ts).
    if (takesSeat && target.ratingRange && deps.shownRating) {
      const rating = await deps.shownRating(target.game, player.id).catch((e: unknown) => {
        log.warn({ err: e, player: player.id, room: target.id }, "could not read a rating for a join; seated without the range check");
        return null;
      });
      if (rating !== null && (rating < target.ratingRange.min || rating > target.ratingRange.max)) {
        throw outOfRange(target.ratingRange, rating, findGame(target.game)?.name ?? target.game);
      }
    }
    // A room kept for players who play their games out.
    if (takesSeat && target.reliableOnly && deps.reliabilityOf) {
      const theirs = await unreliableReading(deps.reliabilityOf, player.id, log, "a join");
      if (theirs) throw leftTooMany(theirs, false);
    }
    if (deps.blocks) {
      // Checked against the table as it stands (a join racing this one is not seen: blocks keep apart who they can, at no cost to every join).
      const seated = target.seats.flatMap((s) => (s.playerId && !s.bot && s.name ? [{ id: s.playerId, name: s.name }] : []));
      const conflict = await deps.blocks.conflict(player.id, seated).catch((e: unknown) => {
        log.warn({ err: e, player: player.id, room: target.id }, "could not read blocks for a join; seated without the check");
        return null;
      });
      if (conflict) throw blockedJoin(conflict);
    }
  }

  /** The counts last sent to this node's lobby pages (pushLobbyCounts). */
  let countsSent = "";

  const handlers: Record<string, Handler> = {
    "lobby:list": async () => ({ games: gamesList(), ...(await service.lobbyLists()) }),

    "lobby:subscribe": async (socket) => {
      quotas.maySubscribeLobby(socket);
      await socket.join("lobby");
      // This page's counts are read now: the next pushLobbyCounts sends them again whatever they are.
      countsSent = "";
      const [lists, yours] = await Promise.all([service.lobbyLists(), yourRooms(socket)]);
      // serverTime: the lobby shows each open room's age by the server's clock (issue 23, lobby hygiene).
      return { games: gamesList(), ...lists, ...yours, serverTime: daily.now() };
    },

    "lobby:mine": async (socket) => ({ ...(await yourRooms(socket)) }),

    "room:create": async (socket, p) => {
      const player = requirePlayer(socket);
      quotas.mayWatch(socket);
      if (p.ranked === true) await mayPlayRanked(deps.leaves, player, log);
      // A rating range is the host's rating in the game now, ± the width asked for.
      const width = parseRangeWidth(p.ratingRange, p.ranked === true);
      if (width !== null && !deps.shownRating) throw err("BAD_RATING_RANGE", "This server does not offer rating ranges.");
      const ratingRange = width !== null && typeof p.game === "string" ? rangeAround(await deps.shownRating!(p.game, player.id), width) : null;
      // A room kept for players who play their games out: its host must be one (reliability.ts).
      const reliableOnly = parseReliableOnly(p.reliableOnly, p.ranked === true);
      if (reliableOnly) {
        if (!deps.reliabilityOf) throw err("BAD_RELIABLE_ONLY", "This server does not offer tables kept for players who play their games out.");
        const mine = await unreliableReading(deps.reliabilityOf, player.id, log, "a host's room");
        if (mine) throw leftTooMany(mine, true);
      }
      const room = await service.create(player, { game: p.game, seats: p.seats, ranked: p.ranked, bots: p.bots, options: p.options, clock: p.clock, botStrength: p.botStrength, ratingRange, reliableOnly, private: p.private, invitedOnly: p.invitedOnly });
      reseat(room, player.id, true);
      return { roomId: room.id, ...(await watch(socket, room)) };
    },

    "room:join": async (socket, p) => {
      const player = requirePlayer(socket);
      quotas.mayWatch(socket, named(p.roomId));
      if (player.account && (deps.blocks || deps.leaves || deps.shownRating || deps.reliabilityOf)) await mayTakeSeat(player, await service.get(p.roomId));
      const room = await service.join(p.roomId, player, p.seat);
      reseat(room, player.id, true);
      return { roomId: room.id, ...(await watch(socket, room)) };
    },

    // Whether this player may take a seat here now, and if not why (the refusal room:join would
    // give, without taking one): the waiting room offers "Sit here" only to those who may.
    "room:seatable": async (socket, p) => {
      const player = requirePlayer(socket);
      const room = await service.get(p.roomId);
      await daily.mayWatch(room, player.id);
      let refusal = seatRefusal(room, player);
      if (!refusal && player.account) {
        refusal = await mayTakeSeat(player, room).then(
          () => null,
          (e: unknown) => {
            if (e instanceof AppError) return e;
            throw e;
          },
        );
      }
      return { roomId: room.id, version: room.version, refusal: refusal ? { code: refusal.code, message: refusal.message } : null };
    },

    // A turn-based game to join now: the waiting room of this game, size, pace, mode and options
    // nearest to starting (then the oldest) that would seat the player, else a new one
    // (docs/protocol.md, "Turn-based games"), as Board Game Arena's turn-based "Play now".
    "room:find": async (socket, p) => {
      const player = requirePlayer(socket);
      quotas.mayWatch(socket);
      if (!isTurnBasedPace(p.clock)) throw err("BAD_CLOCK", "Finding a waiting game is for turn-based paces; for a game now, use quick play.");
      if (p.ranked === true) await mayPlayRanked(deps.leaves, player, log);
      // The request checked as room:create checks it (same codes), on a room never stored.
      const wanted = createRoom("find", player, { game: p.game, seats: p.seats, ranked: p.ranked, options: p.options, clock: p.clock }, clock());
      const free = (r: RoomSummary) => r.seats.filter((x) => !x.taken).length;
      // From this node's lobby, not a store read; each candidate is read from the store before the join.
      const candidates = (await service.lobbyOpen())
        .filter((r) => listed(r) && r.game === wanted.game && r.clock === p.clock && r.ranked === wanted.ranked && r.seats.length === wanted.seats.length && free(r) > 0)
        .sort((a, b) => free(a) - free(b) || a.createdAt - b.createdAt)
        .slice(0, FIND_TRIES);
      /** Seats the player at `target` if it is a waiting room like the one asked for that would take them; null otherwise. */
      const tryJoin = async (target: Room): Promise<Room | null> => {
        try {
          if (target.status !== "open" || seatOf(target, player.id) !== null || JSON.stringify(target.options) !== JSON.stringify(wanted.options)) return null;
          if (player.account) await mayTakeSeat(player, target);
          return await service.join(target.id, player);
        } catch (e) {
          // Not for this player (full now, a range, a block, their own removal...): the next one.
          if (!(e instanceof AppError) || e.code === "RANKED_PAUSED" || e.code === "TOO_MANY_TURN_BASED_GAMES" || e.code === "ON_VACATION") throw e;
          return null;
        }
      };
      const stored = (id: string): Promise<Room | null> =>
        service.get(id).catch((e: unknown) => (e instanceof AppError && e.code === "NO_SUCH_ROOM" ? null : Promise.reject(e)));
      /** A room another finder named: it is named just before it is written, so give the write a moment (real time: another request's I/O). */
      const namedRoom = async (id: string): Promise<Room | null> => {
        const end = Date.now() + NAMED_ROOM_WAIT_MS;
        for (;;) {
          const room = await stored(id);
          if (room || Date.now() >= end) return room;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const seated = async (room: Room, found: boolean) => {
        reseat(room, player.id, true);
        return { roomId: room.id, found, ...(await watch(socket, room)) };
      };
      for (const c of candidates) {
        const target = await stored(c.id);
        const room = target && (await tryJoin(target));
        if (room) return seated(room, true);
      }
      // None: open one, named for this request (find-slots.ts), unless another finder of the same
      // request opened one a moment ago, on any node (not in this lobby yet): then join that.
      const key = findKey(wanted);
      const input = { game: p.game, seats: p.seats, ranked: p.ranked, options: p.options, clock: p.clock };
      for (let tries = 0; tries < FIND_NAMED_TRIES; tries++) {
        const made = await service.createForFinders(player, input, key);
        if (typeof made !== "string") return seated(made, false);
        const named = await namedRoom(made);
        if (named && seatOf(named, player.id) !== null) break; // their own (a second find of theirs): open another, as the lobby's would
        const room = named && (await tryJoin(named));
        if (room) return seated(room, true);
        await service.releaseFinders(key, made);
      }
      return seated(await service.create(player, input), false);
    },

    "room:remove": async (socket, p) => {
      const player = requirePlayer(socket);
      const { room, removed } = await service.remove(p.roomId, player, p.seat);
      reseat(room, removed, false);
      // The player removed is told on every device (their page shows the room, now as a spectator).
      const told: RoomRemoved = { roomId: room.id, by: player.name };
      io.to(ch.player(removed)).emit("room:removed", told);
      return { roomId: room.id, ...(await watch(socket, room)) };
    },

    "room:add-bot": async (socket, p) => {
      const room = await service.addBot(p.roomId, requirePlayer(socket), p.seat);
      return { roomId: room.id, version: room.version };
    },

    "room:remove-bot": async (socket, p) => {
      const room = await service.removeBot(p.roomId, requirePlayer(socket), p.seat);
      return { roomId: room.id, version: room.version };
    },

    "room:leave": async (socket, p) => {
      const player = requirePlayer(socket);
      const room = await service.leave(p.roomId, player);
      reseat(room, player.id, false);
      return { roomId: room.id, ...(await watch(socket, room)) };
    },

    "room:start": async (socket, p) => {
      const room = await service.start(p.roomId, requirePlayer(socket));
      return { roomId: room.id, version: room.version };
    },

    "room:sync": async (socket, p) => {
      const since = sinceOf(p.since);
      quotas.mayWatch(socket, named(p.roomId));
      const room = await service.get(p.roomId);
      await daily.mayWatch(room, dataOf(socket).player?.id ?? null);
      return await watch(socket, room, since);
    },

    "daily:start": async (socket, p) => {
      const player = requirePlayer(socket);
      quotas.mayWatch(socket);
      const room = await daily.start(player, { game: p.game, ranked: p.ranked, day: p.day });
      return { roomId: room.id, ...(await watch(socket, room)) };
    },

    "daily:status": async (socket, p) => {
      return { ...(await daily.status(p.game, requirePlayer(socket))) };
    },

    "room:unwatch": async (socket, p) => {
      const id = checkRoomId(p.roomId);
      const pid = dataOf(socket).player?.id;
      socket.leave(ch.room(id));
      socket.leave(ch.spec(id));
      if (pid) {
        socket.leave(ch.seat(id, pid));
        socket.leave(ch.watcher(id, pid));
      }
      announcePresence(id);
      return {};
    },

    "game:resign": async (socket, p) => {
      const room = await service.resign(p.roomId, requirePlayer(socket));
      return { version: room.version };
    },

    "game:return": async (socket, p) => {
      const room = await service.returnToSeat(p.roomId, requirePlayer(socket));
      return { version: room.version };
    },

    "game:act": async (socket, p) => {
      const player = requirePlayer(socket);
      const { room, duplicate } = await service.act(p.roomId, player, p.action, p.actionId);
      return { version: room.version, duplicate };
    },
  };

  /** Which of these players have any connection now, on any node: one request through the adapter. */
  async function onlineOf(playerIds: readonly string[]): Promise<Set<string>> {
    if (playerIds.length === 0) return new Set();
    const found = await io.in(playerIds.map(ch.player)).fetchSockets();
    return new Set(found.flatMap((sk) => ((sk.data as SocketData | undefined)?.player?.id ? [(sk.data as SocketData).player!.id] : [])));
  }

  if (deps.queue) registerQueueEvents(io, handlers, { ...deps.queue, service, log });
  // A turn-based rematch invites the players of the finished game (room.ts createRematchRoom): the
  // devices of theirs connected now are told at once, as room:invite tells them.
  registerRematchEvents(handlers, service, deps.leaves, log, (room) => {
    for (const i of room.invited ?? []) if (i.rematch) io.to(ch.player(i.playerId)).emit("room:invited", invitedOf(room, i));
  });
  if (deps.chat) registerChatEvents(io, handlers, { chat: deps.chat, service, daily, log });
  if (deps.invitations) registerInviteEvents(io, handlers, { service, invitations: deps.invitations, channel: ch.player, onlineOf, log });

  /**
   * One message from a client: its handler (only the handlers' own names: a name every object
   * inherits, such as "toString", is no message), or UNKNOWN_EVENT. The ack is the last argument
   * when the client asked for one.
   */
  function onMessage(socket: Socket, event: string, args: unknown[]): void {
    const ack = typeof args[args.length - 1] === "function" ? (args.pop() as (r: unknown) => void) : () => {};
    const handler = Object.hasOwn(handlers, event) ? handlers[event] : undefined;
    if (handler) void handle(socket, event, handler, args[0], ack);
    else ack(toErrorReply(err("UNKNOWN_EVENT", `There is no "${String(event).slice(0, 40)}" message.`)));
  }

  /** Rate limit, shape and size checks, the handler, then exactly one ack. */
  async function handle(socket: Socket, event: string, handler: Handler, message: unknown, ack: (r: unknown) => void): Promise<void> {
    // An update this message causes for this socket leaves with its ack, in one write.
    const release = holdFrames(socket);
    inFlight++;
    try {
      const bucket = dataOf(socket).bucket;
      const now = clock();
      bucket.tokens = Math.min(deps.rateLimitPerSecond, bucket.tokens + ((now - bucket.at) / 1000) * deps.rateLimitPerSecond);
      bucket.at = now;
      if (bucket.tokens < 1) {
        deps.metrics?.rateLimited("socket");
        throw err("RATE_LIMITED", "Too many messages at once; slow down a little.");
      }
      bucket.tokens -= 1;
      const payload = message ?? {};
      if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
        throw err("BAD_REQUEST", "Every message must be an object.");
      }
      if (Buffer.byteLength(JSON.stringify(payload)) > deps.maxPayloadBytes) {
        throw err("PAYLOAD_TOO_LARGE", "That message is too large.");
      }
      const result = await handler(socket, payload as Payload);
      ack({ ok: true, ...result });
    } catch (e) {
      if (storeOutage(e)) {
        // Redis is away (ioredis gave up on the command, or the connection is closed): not a bug,
        // and the player may retry; a move sent again with its actionId is made at most once.
        log.warn({ err: (e as Error).message, event }, "room store unavailable");
        ack(toErrorReply(err("STORE_UNAVAILABLE", "The game server cannot reach its room store for a moment. Try again in a few seconds.")));
        return;
      }
      if (!(e instanceof AppError)) log.error({ err: e, event }, "handler failed");
      else log.debug({ code: e.code, event }, "request refused");
      ack(toErrorReply(e));
    } finally {
      release();
      if (--inFlight === 0) idle?.();
    }
  }

  io.on("connection", (socket) => {
    quotas.connected(socket);
    const player = dataOf(socket).player;
    if (player) void socket.join(player.account ? ch.player(player.id) : [ch.player(player.id), ...ch.guestName(player.name)]);
    const session = dataOf(socket).session;
    if (session) void socket.join(`session:${session}`);
    socket.emit("session", { player, recovered: socket.recovered && !notResumed.has(socket), protocol: PROTOCOL_VERSION });

    // One listener per socket for every message (not one closure per event and socket).
    socket.onAny((event: string, ...args: unknown[]) => onMessage(socket, event, args));

    socket.on("disconnecting", () => {
      const rooms = [...socket.rooms].filter((r) => /^r:[^:]+$/.test(r)).map((r) => r.slice(2));
      socket.once("disconnect", () => {
        for (const id of rooms) announcePresence(id);
      });
    });
  });

  return {
    async isPresent(roomId, playerId) {
      return (await presence(roomId)).connected.includes(playerId);
    },
    onlineOf,
    ...(deps.push ? { notify: (room: Room, owed: readonly OwedPush[]) => sendOwedNotices({ push: deps.push!, onlineOf, now: clock, log, chat: service.store, ...(deps.vacations ? { vacations: deps.vacations } : {}) }, room, owed) } : {}),
    async pushLobbyCounts() {
      // Every LOBBY_RESYNC_MS the lobby kept here is read whole again (lobby-mirror.ts), pages or
      // not; if the store does not answer, the counts still go from the lobby as kept (read again in 30 s).
      await service.healLobby().catch((e: unknown) => log.warn({ err: e }, "could not read the lobby's lists whole; kept as they are"));
      if ((localRooms.get("lobby")?.size ?? 0) === 0) return;
      const counts = await service.lobbyCounts();
      const text = JSON.stringify(counts);
      if (text === countsSent) return;
      countsSent = text;
      io.local.to("lobby").emit("lobby:counts", counts);
    },
    dailyBoardChanged(game, day) {
      io.to("lobby").emit("daily:board", { game, day });
    },
    async drain(waitMs) {
      draining = true;
      const deadline = Date.now() + waitMs;
      const within = (p: Promise<unknown>, ms: number) => Promise.race([p, new Promise((r) => setTimeout(r, Math.max(0, ms)).unref())]);
      if (inFlight > 0) await within(new Promise<void>((r) => (idle = r)), (deadline - Date.now()) / 2);
      // Closing the transport (not a Socket.IO disconnect) is a "forced close": the client
      // reconnects by itself, and the session is kept for connection state recovery.
      const closed: Array<Promise<void>> = [];
      for (const socket of localSockets.values()) {
        socket.emit("server:draining", { reconnect: true });
        closed.push(new Promise<void>((r) => socket.once("disconnect", () => r())));
        socket.conn.close();
      }
      await within(Promise.all(closed), deadline - Date.now());
      if (inFlight > 0 || localSockets.size > 0) log.warn({ inFlight, sockets: localSockets.size }, "drain time ran out");
    },
  };
}
