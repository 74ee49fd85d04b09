/**
 * Client state and the connection to the server: identity (kept in localStorage), the
 * Socket.IO connection with reconnection, the lobby lists, and the latest RoomView per room
 * kept in step with room:state pushes: updates apply to the view of their `base` version, whole
 * views to the one just before (src/protocol/room-state.ts, shared with the tests); anything else
 * is a gap, and room:sync with `since` (the version held) gets what was missed.
 */
import { io, type Socket } from "socket.io-client";
import { absorbPush, absorbSyncReply, isUpdate, roomOf } from "../../src/protocol/room-state.js";
import { friendly } from "./errors.js";
import { deviceName } from "../../src/protocol/devices.js";
import { clockDeadline } from "../../src/protocol/clock.js";
import { turnChime } from "./sound.js";
import type { QueueCount, QueueStatus } from "./quickplay.js";
import type { Ack, Action, ErrorInfo, GameInfo, LobbyLists, Player, RoomState, RoomSummary, RoomView } from "./types.js";
import { ERASED_NAME, PROTOCOL_VERSION, type RoomInvited, type RoomRemoved, type RoomUninvited, type TurnYours, type YourRoom } from "../../src/protocol/wire.js";
import { absorbInvitation } from "./invitations.js";
import { showNotification, startNotifier } from "./notifications.js";
import type { ChatMessage } from "../../src/platform/chat.js";

export type ConnState = "connecting" | "connected" | "reconnecting" | "offline";

export type Route = { page: "lobby" } | { page: "room"; roomId: string } | { page: "replay"; roomId: string }
  | { page: "player"; key: string } | { page: "leaderboards"; game: string | null } | { page: "live"; game: string | null };

export interface Toast {
  id: number;
  text: string;
  kind: "error" | "info";
}

const ID_KEY = "goblin-bazaar.identity";
const WATCH_KEY = "goblin-bazaar.watch-only";
/** "1": show a browser notification when it becomes your turn while the page is hidden. */
const NOTIFY_KEY = "goblin-bazaar.notify-turns";

interface Identity {
  token: string;
  player: Player;
}

function loadIdentity(): Identity | null {
  try {
    const raw = localStorage.getItem(ID_KEY);
    const v = raw ? (JSON.parse(raw) as Identity) : null;
    return v && typeof v.token === "string" && v.player && typeof v.player.id === "string" ? v : null;
  } catch {
    return null;
  }
}

/** A unique id for an action (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newActionId(): string {
  if (typeof crypto.randomUUID === "function" && isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

export function parseRoute(path = location.pathname, hash = location.hash): Route {
  const m = /^\/room\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path) ?? /^#\/room\/([A-Za-z0-9_-]{1,64})$/.exec(hash);
  if (m) return { page: "room", roomId: m[1] };
  const replay = /^\/game\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path); // a finished game's replay (replay.ts); ?step=N in the query
  if (replay) return { page: "replay", roomId: replay[1] };
  const player = /^\/player\/([^/]{1,200})\/?$/.exec(path); // a profile (profile.ts): an account name or id:<player id>
  if (player) {
    try {
      return { page: "player", key: decodeURIComponent(player[1]!) };
    } catch {
      return { page: "player", key: player[1]! };
    }
  }
  const boards = /^\/leaderboards(?:\/([a-z0-9-]{1,40}))?\/?$/.exec(path); // leaderboards.ts, one tab per game
  if (boards) return { page: "leaderboards", game: boards[1] ?? null };
  const live = /^\/live(?:\/([a-z0-9-]{1,40}))?\/?$/.exec(path); // live-games.ts: the games being played, a page at a time
  if (live) return { page: "live", game: live[1] ?? null };
  return { page: "lobby" };
}

/** Whether a view of a room you sit in says you must act now (your seat active, not played by a bot). */
function myTurnIn(v: RoomView): boolean {
  return v.seat !== null && v.status === "playing" && v.active.includes(v.seat) && !v.seats[v.seat]?.away;
}

/** How often a move is sent in all (the first time and its retries). */
const ACT_ATTEMPTS = 4;
/**
 * Refusals after which a move is sent again with the same actionId: the answer was lost
 * (TIMEOUT, OFFLINE), the table was busy, or the node could not reach its room store, which may
 * have saved the move before the connection broke (docs/protocol.md, STORE_UNAVAILABLE).
 */
const RESENT = new Set(["TIMEOUT", "OFFLINE", "BUSY", "STORE_UNAVAILABLE"]);
/** The first wait before a move refused with STORE_UNAVAILABLE is sent again, ms; each next wait doubles (1, 2, 4 s). */
const STORE_RETRY_MS = 1000;
/** Rooms whose early push (keepEarly) is kept while their view is on its way. */
const EARLY_ROOMS = 8;

export class Store {
  identity: Identity | null = loadIdentity();
  watchOnly = sessionStorage.getItem(WATCH_KEY) === "1";
  conn: ConnState = "connecting";
  reconnectAttempt = 0;
  /** Why we last asked for a name again (e.g. the token was refused). */
  identityNotice: string | null = null;
  /** This guest's name was taken by an account since it was chosen (GUEST_NAME_TAKEN): a new one renames the same guest. */
  renameNeeded = false;
  /** Why the server refused the connection (a limit: its connect_error's data), in words; null once connected. */
  connRefused: string | null = null;
  /** The server speaks a newer protocol than this page (it was updated): the page should be reloaded. */
  outdated = false;
  route: Route = parseRoute();
  lobby: LobbyLists | null = null;
  rooms = new Map<string, RoomView>();
  /** Each room's view exactly as the server made it (what updates apply to); `rooms` has it as shown. */
  private held = new Map<string, RoomView>();
  /** The newest push per room that came before this page held a view of it (keepEarly). */
  private readonly early = new Map<string, RoomState>();
  presence = new Map<string, Set<string>>();
  /** Each room's spectators (room:presence): how many (this page included when it is one), and the named ones' names. */
  watching = new Map<string, { count: number; names: string[] }>();
  /** Rooms we could not load: roomId -> message. */
  roomErrors = new Map<string, string>();
  /** Table chat per room (chat.ts): the messages this viewer may see, by number (n), oldest first. */
  chats = new Map<string, ChatMessage[]>();
  /** The server's clock minus this browser's, ms, from the newest view (its `serverTime`). */
  serverOffset = 0;
  /** An action is in flight (controls are disabled). */
  busy = false;
  /** A profile's "Invite to a game": the New room form makes a private table and invites this account once it is made (main.ts). */
  playWith: string | null = null;
  /** Last error to show beside the game controls. */
  actError: string | null = null;
  toasts: Toast[] = [];
  /** Invitations to other players' tables pushed to this device (invitations.ts), oldest first. */
  invitations: RoomInvited[] = [];
  /** Quick play (quickplay.ts): where this player stands in the queue, and players queued per pool. */
  queue: QueueStatus | null = null;
  queueCounts: QueueCount[] = [];
  /** Why quick play last put this player out of the queue (a table not accepted in time, declined...), kept on the form until they queue again or dismiss it. */
  queueOut: string | null = null;
  /** Date.now() when `queue` arrived (the wait and the accept countdown tick from it). */
  queueAt = 0;
  /** Your games (the lobby's first section): the open and playing rooms you sit in; null before the lobby loads. */
  mine: YourRoom[] | null = null;
  /** Invitations kept for you in open turn-based rooms (Your games lists them until you join or decline). */
  keptInvitations: RoomInvited[] = [];
  /** Rooms where it is your turn now (from `mine`, `turn:yours` and the views you hold): the tab title counts them. */
  yourTurn = new Set<string>();
  /** Whether you asked for a browser notification when it becomes your turn (kept in localStorage). */
  notifyTurns = localStorage.getItem(NOTIFY_KEY) === "1";
  private toastSeq = 0;
  private listeners = new Set<() => void>();
  private scheduled = false;
  private lobbySubscribed = false;
  /** An open table of one sitting you host and have left for another page: it waits for you (and closes if you stay away). */
  hostingAway: { roomId: string; game: string } | null = null;
  /** Counts connections: a page that keeps a list from pushes reads it again after a reconnection (it may have missed some). */
  connections = 0;
  /** Called with every lobby:room push, listed or not (live-games.ts keeps its pages with them). */
  readonly summaryListeners = new Set<(r: RoomSummary) => void>();
  private syncing = new Set<string>();
  /** Counts player changes: a room:sync reply asked before one is dropped. */
  private viewer = 0;
  socket: Socket;

  constructor() {
    this.socket = io({
      transports: ["websocket"],
      autoConnect: false,
      reconnection: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      auth: (cb) => cb(this.identity ? { token: this.identity.token } : {}),
    });
    this.wire();
    // Notifications turned on in an earlier visit: their worker again (notifications.ts).
    if (this.notifyTurns) startNotifier((p) => this.navigate(p));
    // No push says a turn has left you (you moved in another tab or on another device): Your games
    // is read again when the page comes back to the front, and each minute while it shows a turn.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.mine !== null && this.socket.connected) void this.refreshMine();
    });
    setInterval(() => {
      if (document.visibilityState === "visible" && this.mine !== null && this.yourTurn.size > 0 && this.socket.connected) void this.refreshMine();
    }, 60_000);
    window.addEventListener("offline", () => this.setConn("offline"));
    window.addEventListener("online", () => {
      if (!this.socket.connected) {
        this.setConn("reconnecting");
        this.socket.connect();
      } else if (this.conn === "offline") {
        // A short drop the socket lived through: it never disconnected, so nothing else says so.
        this.setConn("connected");
      }
    });
  }

  get me(): Player | null {
    return this.identity?.player ?? null;
  }

  /** Show the name screen (no identity and the visitor has not chosen to just watch). */
  get needsName(): boolean {
    return (!this.identity && !this.watchOnly) || this.renameNeeded;
  }

  subscribe(fn: () => void): void {
    this.listeners.add(fn);
  }

  /** Re-render soon (batched). */
  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      for (const fn of this.listeners) fn();
    });
  }

  start(): void {
    this.socket.connect();
  }

  private setConn(c: ConnState): void {
    if (this.conn !== c) {
      this.conn = c;
      this.changed();
    }
  }

  private wire(): void {
    const s = this.socket;
    s.on("connect", () => {
      this.connections++;
      // What changed while away (a block, a rating, a pause from ranked play) may change who may sit.
      this.seatables.clear();
      this.reconnectAttempt = 0;
      this.connRefused = null;
      this.setConn("connected");
      this.lobbySubscribed = false;
      void this.refreshScreen();
      if (this.identity) void this.queueRequest("queue:status", {});
    });
    s.on("disconnect", (reason) => {
      this.setConn(navigator.onLine === false ? "offline" : "reconnecting");
      // The server closed us on purpose: Socket.IO will not retry by itself, so we do.
      if (reason === "io server disconnect") setTimeout(() => s.connect(), 1000);
    });
    s.on("connect_error", (e: Error) => {
      if (e.message === "GUEST_NAME_TAKEN" && this.identity) {
        // The name screen asks for another; chooseName renames this guest with its token and reconnects.
        this.renameNeeded = true;
        this.identityNotice = `An account has registered the name “${this.identity.player.name}” since you chose it. Choose another name: your seats and games stay yours.`;
        // Not a lost connection: it connects again with the renamed guest's token.
        this.setConn("connecting");
        this.changed();
        return;
      }
      if (e.message === "ACCOUNT_CLOSED") {
        // This account was closed (by its player on another device, or by the operators): say so, and why.
        const why = (e as Error & { data?: { message?: unknown } }).data?.message;
        this.forgetIdentity(`${typeof why === "string" ? why : "This account is closed."} Log in with another account, or continue as a guest.`);
        s.connect();
        return;
      }
      if (e.message === "BAD_TOKEN") {
        // Another tab may have logged in or registered meanwhile (a guest who registers loses its
        // guest token): take the identity it saved rather than forget it.
        const saved = loadIdentity();
        if (saved && saved.token !== this.identity?.token) {
          const before = this.identity?.player.id;
          this.identity = saved;
          this.dropViewsIfPlayerChanged(before);
          this.changed();
          s.connect();
          return;
        }
        const wasAccount = (this.identity?.player as { account?: boolean } | undefined)?.account === true;
        this.forgetIdentity(wasAccount
          ? "You were logged out (on another device, or your password changed). Log in again, or continue as a guest."
          : "The server did not recognise your saved name (it may have been reset). Please choose a name again.");
        s.connect();
        return;
      }
      // A limit (TOO_MANY_CONNECTIONS): the server's {code, message} comes as the error's data.
      const refused = (e as Error & { data?: { code?: unknown; message?: unknown } }).data;
      this.connRefused = typeof refused?.code === "string" ? friendly({ code: refused.code, message: typeof refused.message === "string" ? refused.message : "" }) : null;
      this.setConn(navigator.onLine === false ? "offline" : "reconnecting");
      // A failed first connection is not retried automatically by Socket.IO when it came from middleware.
      // DRAINING: that node is stopping; the next try reaches another one behind the balancer.
      if (!s.active) setTimeout(() => s.connect(), e.message === "DRAINING" ? 200 + Math.random() * 300 : 2000);
    });
    s.io.on("reconnect_attempt", (n) => {
      this.reconnectAttempt = n;
      this.setConn(navigator.onLine === false ? "offline" : "reconnecting");
    });
    s.on("session", (p: { player: Player | null; protocol?: number }) => {
      // A server newer than this page sends what it may not read: say so (main.ts offers a reload).
      if (typeof p.protocol === "number" && p.protocol > PROTOCOL_VERSION && !this.outdated) {
        this.outdated = true;
        this.changed();
      }
      if (p.player && this.identity && p.player.id === this.identity.player.id && p.player.name !== this.identity.player.name) {
        this.identity = { ...this.identity, player: p.player };
        this.changed();
      }
    });
    s.on("room:state", (p: RoomState) => this.absorb(p));
    s.on("chat:message", (p: { roomId: string; message: ChatMessage }) => this.takeChat(p.roomId, [p.message]));
    // The operators removed a message: its text leaves this page too.
    s.on("chat:removed", (p: { roomId: string; n: number; erased?: boolean }) => {
      const m = this.chats.get(p.roomId)?.find((x) => x.n === p.n);
      // Erased with its author's data: nothing of theirs stays on the page, their name included.
      const gone: ChatMessage | undefined = m && (p.erased ? { n: m.n, at: m.at, from: { id: "", name: ERASED_NAME }, channel: m.channel, text: "", erased: true } : { ...m, text: "", removed: true });
      if (gone) this.takeChat(p.roomId, [gone]);
    });
    s.on("room:presence", (p: { roomId: string; connected: string[]; watching?: number; watchers?: string[] }) => {
      this.presence.set(p.roomId, new Set(p.connected));
      this.watching.set(p.roomId, { count: p.watching ?? 0, names: p.watchers ?? [] });
      this.changed();
    });
    s.on("lobby:room", (r: RoomSummary) => this.absorbSummary(r));
    s.on("turn:yours", (t: TurnYours) => this.turnYours(t));
    // Someone logged in to this account on another device: say so here (a login you did not make is a warning).
    s.on("account:login", (p: { userAgent: string | null }) =>
      this.toast(`Your account was just logged in on ${deviceName(p.userAgent)}. Not you? Log that device out under “Where you're logged in…” in your menu, and change your password.`, "info"));
    // This account was renamed (on another device, or this one): take the name here, and drop the
    // transport so the connection resumes (its rooms kept, nothing missed) acting under it.
    s.on("account:renamed", (p: { player?: Player }) => {
      const cur = this.identity;
      if (!cur || p?.player?.id !== cur.player.id || typeof p.player.name !== "string" || p.player.name === cur.player.name) return;
      this.identity = { ...cur, player: { ...cur.player, name: p.player.name } };
      localStorage.setItem(ID_KEY, JSON.stringify(this.identity));
      this.toast(`This account is now called “${p.player.name}”.`, "info");
      this.changed();
      s.io.engine?.close();
    });
    s.on("room:invited", (p: RoomInvited) => {
      // A turn-based room keeps it (its summary says when it closes): Your games lists it too.
      if (p?.room?.closesAt !== undefined || p?.room?.invitedOnly) this.keptInvitations = [p, ...this.keptInvitations.filter((i) => i.room.id !== p.room.id)];
      absorbInvitation(this, p);
    });
    // The host withdrew an invitation kept for this account: it leaves Your games and the screen.
    s.on("room:uninvited", (p: RoomUninvited) => {
      if (typeof p?.roomId !== "string") return;
      const had = [...this.keptInvitations, ...this.invitations].find((i) => i.room.id === p.roomId);
      const here = this.route.page === "room" && this.route.roomId === p.roomId;
      this.keptInvitations = this.keptInvitations.filter((i) => i.room.id !== p.roomId);
      this.invitations = this.invitations.filter((i) => i.room.id !== p.roomId);
      this.seatables.delete(p.roomId);
      if (had || here) this.toast(`${p.by} withdrew their invitation to ${had ? `their ${this.gameName(had.room.game)} table` : "this table"}.`, "info");
      this.changed();
    });
    // The host removed this player from an open room's seat: their page now shows it as a spectator.
    s.on("room:removed", (p: RoomRemoved) => {
      if (typeof p?.roomId !== "string") return;
      this.toast(`${p.by} removed you from their table; you may watch it, or find another.`, "info");
      if (this.mine) void this.refreshMine();
    });
    s.on("lobby:counts", (p: Pick<LobbyLists, "liveCounts" | "waitingCounts">) => {
      if (!this.lobby || typeof p !== "object" || p === null) return;
      this.lobby = { ...this.lobby, liveCounts: p.liveCounts, waitingCounts: p.waitingCounts };
      this.changed();
    });
    s.on("queue:status", (st: QueueStatus) => this.absorbQueue(st, true));
    s.on("queue:counts", (p: { counts: QueueCount[] }) => {
      if (Array.isArray(p?.counts)) this.queueCounts = p.counts;
      this.changed();
    });
    s.on("queue:ready", (p: { matchId: string; roomId: string }) => {
      if (this.queue) this.queue = { ...this.queue, queued: null, match: null, notice: undefined };
      this.changed();
      if (typeof p?.roomId === "string" && (this.route.page !== "room" || this.route.roomId !== p.roomId)) this.navigate(`/room/${p.roomId}`);
    });
  }

  // ---- identity ---------------------------------------------------------------------------

  async chooseName(name: string): Promise<string | null> {
    const body: Record<string, string> = { name: name.trim() };
    if (this.identity) body.token = this.identity.token;
    let reply: { ok: boolean; token?: string; player?: Player; error?: ErrorInfo };
    try {
      const res = await fetch("/api/guest", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      reply = (await res.json()) as typeof reply;
    } catch {
      return "Could not reach the server. Check your connection and try again.";
    }
    if (!reply.ok || !reply.token || !reply.player) return friendly(reply.error);
    const first = !this.identity;
    this.adoptIdentity(reply.token, reply.player, first ? undefined : `You are now “${reply.player.name}”.`);
    return null;
  }

  /** A token and player (a guest's from /api/guest, or from the account routes: account.ts): kept, socket reconnected. */
  adoptIdentity(token: string, player: Player, toast?: string): void {
    const before = this.identity?.player.id;
    // Leaving the name screen (scrolled down to its account forms, perhaps): the page starts at its top.
    const fromNameScreen = this.needsName;
    this.identity = { token, player };
    this.dropViewsIfPlayerChanged(before);
    localStorage.setItem(ID_KEY, JSON.stringify(this.identity));
    this.identityNotice = null;
    this.renameNeeded = false;
    this.watchOnly = false;
    sessionStorage.removeItem(WATCH_KEY);
    // Reconnect so the socket acts for the new identity (and a renamed player's new name).
    this.socket.disconnect().connect();
    if (toast) this.toast(toast, "info");
    if (fromNameScreen) this.focusHeading = true;
    this.changed();
    if (fromNameScreen) window.scrollTo(0, 0);
  }

  forgetIdentity(notice: string | null): void {
    const before = this.identity?.player.id;
    this.identity = null;
    this.dropViewsIfPlayerChanged(before);
    localStorage.removeItem(ID_KEY);
    this.identityNotice = notice;
    this.renameNeeded = false;
    this.watchOnly = false;
    this.changed();
  }

  /**
   * A held view was made for one viewer (a seat, or a spectator): when the player changes (a log
   * in, log out, or a first name), the views held are dropped, so the next sync asks for whole
   * views as the new player; an update would apply the new player's changes to the old one's view.
   */
  private dropViewsIfPlayerChanged(before: string | undefined): void {
    if (before === this.identity?.player.id) return;
    this.rooms.clear();
    this.held.clear();
    // What the chat shows depends on who sits where, too (the next sync reloads it).
    this.chats.clear();
    this.mine = null;
    this.yourTurn.clear();
    // A sync in flight was asked as the old player: its reply is dropped, and a new one may start.
    this.syncing.clear();
    this.viewer++;
  }

  justWatch(): void {
    this.watchOnly = true;
    sessionStorage.setItem(WATCH_KEY, "1");
    this.changed();
  }

  // ---- requests ---------------------------------------------------------------------------

  /** Emit with an acknowledgement; never throws: a timeout becomes a TIMEOUT error. */
  async request<T = Record<string, unknown>>(event: string, payload: Record<string, unknown>, timeoutMs = 8000): Promise<Ack<T>> {
    try {
      return (await this.socket.timeout(timeoutMs).emitWithAck(event, payload)) as Ack<T>;
    } catch {
      return { ok: false, error: { code: this.socket.connected ? "TIMEOUT" : "OFFLINE", message: "" } };
    }
  }

  toast(text: string, kind: Toast["kind"] = "error"): void {
    const t = { id: ++this.toastSeq, text, kind };
    this.toasts = [...this.toasts.slice(-3), t];
    this.changed();
    // Long enough to read: 3.5 s (an error 7 s), or more for a long one (about 3 words a second, at most 12 s).
    const words = text.trim().split(/\s+/).length;
    setTimeout(() => this.dismiss(t.id), Math.min(12_000, Math.max(kind === "error" ? 7000 : 3500, 1500 + words * 300)));
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
    this.changed();
  }

  // ---- navigation -------------------------------------------------------------------------

  navigate(path: string, replace = false): void {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    this.onRoute();
  }

  /** Set by a route change: the next drawing that has the page's heading focuses it (main.ts). */
  focusHeading = false;

  onRoute(): void {
    const prev = this.route;
    this.route = parseRoute();
    this.focusHeading = true;
    if (prev.page === "room" && (this.route.page !== "room" || this.route.roomId !== prev.roomId)) {
      void this.request("room:unwatch", { roomId: prev.roomId });
      // The host of an open table of one sitting leaves it: the table shows them away and closes
      // if they stay away (HOST_AWAY_MS); every page says so until they go back (main.ts).
      const v = this.rooms.get(prev.roomId);
      if (v && v.status === "open" && this.me && v.hostId === this.me.id && !v.clock?.turnBased && !v.daily) this.hostingAway = { roomId: v.roomId, game: v.game };
    }
    if (this.route.page === "room" && this.route.roomId === this.hostingAway?.roomId) this.hostingAway = null;
    this.actError = null;
    this.changed();
    window.scrollTo(0, 0);
    void this.refreshScreen();
  }

  /** After a (re)connection or a route change: re-sync what is on screen. */
  async refreshScreen(): Promise<void> {
    if (!this.socket.connected) return;
    if (this.route.page === "room") {
      await this.sync(this.route.roomId);
      // Opened straight at a room (a link, a notice): Your games, for the turns waiting elsewhere ("Next game").
      if (this.mine === null && this.me) void this.refreshMine();
    } else if (this.route.page === "lobby" || this.route.page === "live") await this.subscribeLobby();
  }

  // ---- lobby ------------------------------------------------------------------------------

  async subscribeLobby(): Promise<void> {
    if (this.lobbySubscribed) return this.refreshMine();
    const ack = await this.request<LobbyLists & { mine?: YourRoom[]; invited?: RoomInvited[] }>("lobby:subscribe", {});
    if (ack.ok) {
      this.lobbySubscribed = true;
      this.lobby = { games: ack.games, open: ack.open, live: ack.live, liveCounts: ack.liveCounts, waitingCounts: ack.waitingCounts };
      // The lists are as of now: what left them before is in them no more (keeps the set small).
      this.leftOpen.clear();
      const serverTime = (ack as { serverTime?: number }).serverTime;
      if (typeof serverTime === "number") this.serverOffset = serverTime - Date.now();
      this.takeMine(ack.mine, ack.invited);
      const counts = (ack as { queueCounts?: QueueCount[] }).queueCounts;
      if (Array.isArray(counts)) this.queueCounts = counts;
      this.changed();
    } else this.toast(friendly(ack.error));
  }

  /** Open rooms read apart (a page of the turn-based ones waiting: GET /api/rooms/waiting), added to the lobby's list. */
  addOpenRooms(rooms: RoomSummary[]): void {
    if (!this.lobby) return;
    // Not one that a push said has started or closed since (the page may have been read before that).
    const fresh = rooms.filter((r) => r.status === "open" && !this.leftOpen.has(r.id));
    const ids = new Set(fresh.map((r) => r.id));
    const open = [...this.lobby.open.filter((r) => !ids.has(r.id)), ...fresh].sort((a, b) => b.createdAt - a.createdAt);
    this.lobby = { ...this.lobby, open };
    this.changed();
  }

  /** Rooms pushed as no longer open (started, closed) since the lobby's lists were read: addOpenRooms leaves them out. */
  private leftOpen = new Set<string>();

  private absorbSummary(r: RoomSummary): void {
    this.mineSummary(r);
    // The table you host and left has started or closed: nothing waits for you there any more.
    if (r.id === this.hostingAway?.roomId && r.status !== "open") this.hostingAway = null;
    for (const fn of this.summaryListeners) fn(r);
    // A private table's players hear of it for Your games; the lobby lists it nowhere.
    if (!this.lobby || r.private) return;
    if (r.status !== "open") this.leftOpen.add(r.id);
    const open = this.lobby.open.filter((x) => x.id !== r.id);
    const live = this.lobby.live.filter((x) => x.id !== r.id);
    if (r.status === "open") open.push(r);
    // The lobby lists no turn-based game in play (the server leaves them out: they last days).
    if (r.status === "playing" && !this.turnBasedRoom(r)) live.push(r);
    const newest = (a: RoomSummary, b: RoomSummary) => b.createdAt - a.createdAt;
    this.lobby = { ...this.lobby, open: open.sort(newest), live: live.sort(newest) };
    this.changed();
  }

  // ---- your games ---------------------------------------------------------------------------

  /** Your games read again (on coming back to the lobby: turns may have moved while you were away). */
  async refreshMine(): Promise<void> {
    if (!this.me) return;
    const ack = await this.request<{ mine: YourRoom[]; invited?: RoomInvited[] }>("lobby:mine", {});
    if (ack.ok) this.takeMine(ack.mine, ack.invited);
  }

  /** Declines an invitation kept for you in a turn-based room (Your games). */
  async declineInvitation(roomId: string): Promise<void> {
    const ack = await this.request("room:decline", { roomId });
    if (!ack.ok && ack.error.code !== "NOT_INVITED") return this.toast(friendly(ack.error));
    this.keptInvitations = this.keptInvitations.filter((i) => i.room.id !== roomId);
    // Its card on screen (Join / Not now) goes too: it was answered.
    this.invitations = this.invitations.filter((i) => i.room.id !== roomId);
    this.changed();
  }

  private takeMine(list: YourRoom[] | undefined, invited?: RoomInvited[]): void {
    if (!Array.isArray(list)) return;
    this.mine = list;
    // A room you now sit in answered its invitation.
    this.keptInvitations = (Array.isArray(invited) ? invited : []).filter((i) => !list.some((r) => r.id === i.room.id));
    const turns = new Set(list.filter((r) => r.status === "playing" && r.active.includes(r.seat)).map((r) => r.id));
    // The room on screen: its live view knows better than a list asked before its last change
    // (a reply asked while the room was open would otherwise forget the turn the Start gave, and
    // the next push would chime for it).
    const shown = this.route.page === "room" ? this.rooms.get(this.route.roomId) : undefined;
    if (shown && shown.seat !== null) {
      if (myTurnIn(shown)) turns.add(shown.roomId);
      else turns.delete(shown.roomId);
    }
    this.yourTurn = turns;
    this.changed();
  }

  /** A lobby:room push about one of your games: its status and seats; gone when no longer open or playing. */
  private mineSummary(r: RoomSummary): void {
    if (!this.mine) return;
    const i = this.mine.findIndex((x) => x.id === r.id);
    if (i < 0) return;
    if (r.status !== "open" && r.status !== "playing") {
      this.mine = this.mine.filter((x) => x.id !== r.id);
      this.yourTurn.delete(r.id);
    } else this.mine = this.mine.map((x) => (x.id === r.id ? { ...x, ...r, seat: x.seat, active: x.active } : x));
    this.changed();
  }

  /**
   * A view of a room you sit in says whether it is your turn there. `seenBefore`: a view of the
   * room was held already, so a turn that is yours now has just arrived (the first view after a
   * load or a reconnection may show a turn that was yours all along: no chime for that).
   */
  private noteTurn(v: RoomView, seenBefore: boolean): void {
    if (v.seat === null) return;
    this.mineDeadline(v, v.seat);
    const mine = myTurnIn(v);
    if (mine === this.yourTurn.has(v.roomId)) return;
    if (mine) {
      this.yourTurn.add(v.roomId);
      if (seenBefore) {
        this.turnArrived(v.roomId, v.version);
        // A socket that watches the room gets no turn:yours for it (its view says it): notify here.
        this.notifyTurn({ roomId: v.roomId, game: v.game, version: v.version, seat: v.seat });
      }
    } else this.yourTurn.delete(v.roomId);
    if (this.mine) this.mine = this.mine.map((x) => (x.id === v.roomId ? { ...x, status: v.status, active: v.active } : x));
  }

  /** Your games' deadline of a room you sit in, as its newest view says (Your games shows it for turn-based games). */
  private mineDeadline(v: RoomView, seat: number): void {
    const entry = this.mine?.find((x) => x.id === v.roomId);
    if (!entry) return;
    const c = v.status === "playing" && v.clock ? v.clocks?.[seat] : undefined;
    const d = c && v.clock ? clockDeadline(v.clock, c) : null;
    const paused = d !== null ? (c?.pausedUntil ?? null) : null;
    if ((entry.deadline ?? null) === d && (entry.pausedUntil ?? null) === paused) return;
    const { deadline: _old, pausedUntil: _oldPause, ...rest } = entry;
    const next: YourRoom = { ...rest, ...(d !== null ? { deadline: d } : {}), ...(paused !== null ? { pausedUntil: paused } : {}) };
    this.mine = this.mine!.map((x) => (x === entry ? next : x));
  }

  /** A listed room's pace (its clock preset, from the games list), or undefined (no clock, or one this page does not know). */
  paceOf(r: RoomSummary): GameInfo["clocks"][number] | undefined {
    return r.clock === null ? undefined : this.lobby?.games.find((g) => g.id === r.game)?.clocks.find((c) => c.id === r.clock);
  }

  /** Whether a listed room is played at a turn-based pace. */
  turnBasedRoom(r: RoomSummary): boolean {
    return this.paceOf(r)?.turnBased === true;
  }

  /** `turn:yours`: one of your seats must act now (maybe in a room you are not watching). */
  private turnYours(t: TurnYours): void {
    if (!t || typeof t.roomId !== "string") return;
    // A view held already newer than this push knows better.
    const held = this.rooms.get(t.roomId);
    if (held && held.version > t.version) return;
    // Already known (a view of the room said it first): chimed and notified then.
    const known = this.yourTurn.has(t.roomId);
    if (!known) this.turnArrived(t.roomId, t.version);
    this.yourTurn.add(t.roomId);
    const entry = this.mine?.find((x) => x.id === t.roomId);
    if (entry) this.mine = this.mine!.map((x) => (x === entry ? { ...x, status: "playing", active: x.active.includes(t.seat) ? x.active : [...x.active, t.seat] } : x));
    // A turn-based game's time left (Your games) is read again with the list: the push carries none.
    if ((!entry || this.turnBasedRoom(entry)) && this.mine && this.route.page === "lobby") void this.refreshMine();
    this.changed();
    if (!known) this.notifyTurn(t);
  }

  private notifyTurn(t: TurnYours): void {
    if (this.notifyHidden(`Your turn — ${this.gameName(t.game)}`, "It is your turn. Click to go to the table.", `turn-${t.roomId}`, `/room/${t.roomId}`)) this.notified.push(t.roomId);
  }

  /**
   * A browser notification while this page is hidden, when the player turned them on ("Notify
   * me"); clicking it opens `path`. False: none was shown.
   */
  notifyHidden(title: string, body: string, tag: string, path: string): boolean {
    if (!this.notifyTurns || typeof Notification === "undefined" || Notification.permission !== "granted") return false;
    if (document.visibilityState !== "hidden") return false;
    return showNotification(title, body, tag, path, (p) => this.navigate(p));
  }

  /**
   * Per room, the newest version this tab's own request made (Infinity while one is in flight):
   * a turn that arrives with it (your Start, your seat taken back, a move that leaves you to act)
   * is your own doing, so it gets no chime.
   */
  private ownChange = new Map<string, number>();

  /** Run `send`, a request of this tab that changes `roomId`, noting the version it made (see ownChange). */
  private async ownRequest<T extends { version?: number }>(roomId: string, send: () => Promise<Ack<T>>): Promise<Ack<T>> {
    const before = this.ownChange.get(roomId);
    this.ownChange.set(roomId, Infinity);
    const ack = await send();
    if (ack.ok && typeof ack.version === "number") this.ownChange.set(roomId, Math.max(before ?? 0, ack.version));
    else if (before === undefined) this.ownChange.delete(roomId);
    else this.ownChange.set(roomId, before);
    return ack;
  }

  /** It has just become your turn in `roomId` (at `version`): chime, unless this tab's own request did it. */
  private turnArrived(roomId: string, version: number): void {
    if (version <= (this.ownChange.get(roomId) ?? 0)) return;
    turnChime(roomId, version);
  }

  /** Rooms a turn notification was shown for, and "invite:<room>" for invitations (for tests and the curious). */
  notified: string[] = [];

  /** The "Notify me" toggle (turns and invitations): on asks the browser's permission first. */
  async setNotifyTurns(on: boolean): Promise<void> {
    if (on) {
      if (typeof Notification === "undefined") return this.toast("This browser cannot show notifications.");
      const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
      if (permission !== "granted") {
        this.notifyTurns = false;
        localStorage.removeItem(NOTIFY_KEY);
        this.changed();
        return this.toast("Notifications are blocked for this site; allow them in the browser's site settings to use this.");
      }
    }
    this.notifyTurns = on;
    if (on) startNotifier((p) => this.navigate(p));
    if (on) localStorage.setItem(NOTIFY_KEY, "1");
    else localStorage.removeItem(NOTIFY_KEY);
    this.changed();
  }

  gameName(id: string): string {
    // Before the lobby list has arrived (a room opened from a link), the id in words.
    return this.lobby?.games.find((g) => g.id === id)?.name ?? id.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
  }

  // ---- rooms ------------------------------------------------------------------------------

  /**
   * What the client keeps of a view: a seat a bot plays (its player away) gets no controls (the
   * bot moves; the server refuses the player's moves).
   */
  private arrived(v: RoomView, seenBefore: boolean): RoomView {
    this.noteTurn(v, seenBefore);
    if (v.seat !== null && v.seats[v.seat]?.away && v.legal.length) return { ...v, legal: [] };
    return v;
  }

  /** The server's clock as of now (a whole view's or a reply's `serverTime`, read on arrival). */
  private noteServerTime(serverTime: unknown): void {
    if (typeof serverTime === "number") this.serverOffset = serverTime - Date.now();
  }

  /**
   * A view from a reply (join, create, sync, daily start). `serverTime`: the reply's (absent: the
   * view's, a whole view's own; null: none known, as for an update applied from an older server).
   */
  keep(state: RoomView, connected?: string[], serverTime?: number | null): void {
    if (serverTime !== null) this.noteServerTime(serverTime ?? state.serverTime);
    const before = this.held.get(state.roomId);
    const seenBefore = before !== undefined;
    this.held.set(state.roomId, state);
    this.leftSeat(before, state);
    state = this.arrived(state, seenBefore);
    this.rooms.set(state.roomId, state);
    if (connected) this.presence.set(state.roomId, new Set(connected));
    this.roomErrors.delete(state.roomId);
    this.changed();
    // A push that came just before this reply (another player's join made as ours was answered)
    // follows it now: applied if newer, ignored if not, a re-sync if there is a gap.
    const early = this.early.get(state.roomId);
    if (early) {
      this.early.delete(state.roomId);
      this.absorb(early);
    }
  }

  /**
   * A push for a room this page holds no view of yet: the view is in the reply on its way (the
   * server writes pushes as they happen, and a push can overtake the reply to the request that
   * began the watch, or come in the same packet and be read first). The newest one per room is
   * kept for that reply (keep); a few rooms at most.
   */
  private keepEarly(roomId: string, p: RoomState): void {
    this.early.delete(roomId);
    this.early.set(roomId, p);
    if (this.early.size > EARLY_ROOMS) this.early.delete(this.early.keys().next().value!);
  }

  /**
   * Apply a push: an update to the version it names as its base, a whole view to the version just
   * before it; older ones are ignored; a gap re-syncs (from the version held; an update that does
   * not fit its base: from scratch).
   */
  absorb(p: RoomState): void {
    const roomId = roomOf(p);
    const cur = this.rooms.get(roomId);
    const held = this.held.get(roomId);
    if (!cur || !held) return this.keepEarly(roomId, p);
    const r = absorbPush(held, p);
    if (r.kind === "stale") return;
    // Updates carry no serverTime: the offset stays the one of the last whole view or reply.
    if (r.kind === "applied" && !isUpdate(p)) this.noteServerTime(p.serverTime);
    if (r.kind !== "applied") {
      void this.sync(roomId, r.kind === "broken");
      return;
    }
    const v = r.view;
    this.toastNotices(cur, v);
    this.held.set(v.roomId, v);
    this.leftSeat(held, v);
    this.rooms.set(v.roomId, this.arrived(v, true));
    this.changed();
  }

  /**
   * What happened at the table since `before`, as it happens or on coming back after a lost
   * connection (the clocks given back after an outage, a player who ran out of time meanwhile): a
   * toast per new notice. A closed room says it on the page itself; your own seat's is in the bar.
   */
  private toastNotices(before: RoomView, now: RoomView): void {
    for (const n of (now.notices ?? []).slice(before.notices?.length ?? 0)) {
      if (n.kind !== "aborted" && n.kind !== "closed" && (n.seat === null || n.seat !== now.seat)) this.toast(n.text, "info");
    }
  }

  /**
   * Off a ranked room's seat and watching: the spectators' messages, which a seat there never
   * sees, are now this viewer's to read, earlier ones included (the server's chat:history says which).
   */
  private leftSeat(before: RoomView | undefined, now: RoomView): void {
    if (before && before.seat !== null && now.seat === null && now.ranked) void this.loadChat(now.roomId);
  }

  /** The last step of the recorded game of room `roomId` (its replay's end), or null: none recorded, or it cannot be read. */
  private async recordedEnd(roomId: string): Promise<number | null> {
    try {
      const headers: Record<string, string> = { accept: "application/json" };
      if (this.identity) headers.authorization = `Bearer ${this.identity.token}`;
      const res = await fetch(`/api/replay/${encodeURIComponent(roomId)}?viewer=all&from=0&to=0`, { headers });
      const body = (await res.json()) as { ok: boolean; total?: number };
      return body.ok && typeof body.total === "number" && body.total > 0 ? body.total - 1 : null;
    } catch {
      return null;
    }
  }

  /**
   * Subscribe to a room and bring its view up to date: with `since` (the version held), the
   * server sends what changed since then when it still can, else the whole view. `whole`: ask
   * for the whole view (an update did not fit the view held).
   */
  async sync(roomId: string, whole = false): Promise<void> {
    if (this.syncing.has(roomId)) return;
    this.syncing.add(roomId);
    const viewer = this.viewer;
    try {
      let sent = whole ? undefined : this.held.get(roomId);
      let ack = await this.request<{ state: RoomState; connected: string[]; serverTime?: number }>("room:sync", sent ? { roomId, since: sent.version } : { roomId });
      if (viewer !== this.viewer) return;
      let r = ack.ok ? absorbSyncReply(this.held.get(roomId), sent, ack.state) : null;
      if (r?.kind === "broken") {
        sent = undefined;
        ack = await this.request<{ state: RoomState; connected: string[]; serverTime?: number }>("room:sync", { roomId });
        if (viewer !== this.viewer) return;
        r = ack.ok ? absorbSyncReply(this.held.get(roomId), sent, ack.state) : null;
      }
      if (ack.ok) {
        if (r?.kind === "applied") {
          // Coming back to a room this page showed (a reconnection): what happened meanwhile.
          const shown = this.rooms.get(roomId);
          if (shown && shown.roomId === r.view.roomId) this.toastNotices(shown, r.view);
          this.keep(r.view, ack.connected, ack.serverTime ?? (isUpdate(ack.state) ? null : ack.state.serverTime));
        }
        // Opening a room, or coming back after a reconnection: what was said meanwhile.
        void this.loadChat(roomId);
      } else if (ack.error.code === "NO_SUCH_ROOM" || ack.error.code === "BAD_ROOM_ID" || ack.error.code === "DAILY_SPOILER") {
        // A finished room is forgotten two hours after its result is recorded, but its address
        // (a link, a notice that the game is over) stays good: it opens the game's replay at its
        // end, as a finished game's page does on Lichess.
        const end = ack.error.code === "NO_SUCH_ROOM" ? await this.recordedEnd(roomId) : null;
        if (end !== null && this.route.page === "room" && this.route.roomId === roomId) return this.navigate(`/game/${roomId}?step=${end}`, true);
        this.roomErrors.set(roomId, friendly(ack.error));
        this.changed();
      } else if (ack.error.code !== "OFFLINE") {
        this.toast(friendly(ack.error));
      }
    } finally {
      if (viewer === this.viewer) this.syncing.delete(roomId);
    }
  }

  // ---- table chat ------------------------------------------------------------------------

  /** Adds messages to a room's chat, each once, in the server's order. */
  private takeChat(roomId: string, messages: ChatMessage[]): void {
    const byN = new Map((this.chats.get(roomId) ?? []).map((m) => [m.n, m]));
    for (const m of messages) if (m && typeof m.n === "number") byN.set(m.n, m);
    this.chats.set(roomId, [...byN.values()].sort((a, b) => a.n - b.n));
    this.changed();
  }

  /** The last players' message this page told the server it showed, per room (chat:seen). */
  private chatSeenSent = new Map<string, number>();
  private chatSeenTimer = new Map<string, ReturnType<typeof setTimeout>>();

  /**
   * The players' chat of a room you sit in was shown up to message `n`: told to the server once a
   * second at most, and only forward (Your games marks tables with newer messages).
   */
  noteChatSeen(roomId: string, n: number): void {
    if (n <= (this.chatSeenSent.get(roomId) ?? 0) || this.chatSeenTimer.has(roomId)) return;
    this.chatSeenTimer.set(
      roomId,
      setTimeout(() => {
        this.chatSeenTimer.delete(roomId);
        const newest = (this.chats.get(roomId) ?? []).reduce((m, x) => (x.channel === "players" ? Math.max(m, x.n) : m), 0);
        const upTo = Math.max(n, newest);
        if (upTo <= (this.chatSeenSent.get(roomId) ?? 0)) return;
        this.chatSeenSent.set(roomId, upTo);
        void this.request("chat:seen", { roomId, n: upTo });
        if (this.mine?.some((r) => r.id === roomId && r.unreadChat)) {
          this.mine = this.mine.map((r) => (r.id === roomId ? { ...r, unreadChat: undefined } : r));
          this.changed();
        }
      }, 1000),
    );
  }

  async loadChat(roomId: string): Promise<void> {
    const ack = await this.request<{ messages: ChatMessage[] }>("chat:history", { roomId });
    if (ack.ok) this.takeChat(roomId, ack.messages);
  }

  /** Sends a message; the server's reason (in words) when it is refused, else null. */
  async sendChat(roomId: string, text: string): Promise<string | null> {
    const ack = await this.request<{ message: ChatMessage }>("chat:send", { roomId, text });
    if (!ack.ok) return friendly(ack.error);
    this.takeChat(roomId, [ack.message]);
    return null;
  }

  /** room:create, then opens the room and runs `then` on it (an invitation: main.ts); null, or the refusal in words. */
  async createRoom(p: { game: string; seats: number; ranked: boolean; bots: number; botStrength?: "casual" | "strong"; options?: Record<string, unknown>; clock?: string; ratingRange?: number; reliableOnly?: boolean; private?: boolean }, then?: (room: RoomView) => Promise<unknown>): Promise<string | null> {
    const ack = await this.request<{ roomId: string; state: RoomView; connected: string[] }>("room:create", p);
    if (!ack.ok) return friendly(ack.error);
    this.keep(ack.state, ack.connected);
    this.navigate(`/room/${ack.roomId}`);
    await then?.(ack.state);
    return null;
  }

  /** room:find: a waiting turn-based game to join, else a new room; null, or the refusal in words. */
  async findRoom(p: { game: string; seats: number; ranked: boolean; options?: Record<string, unknown>; clock: string }): Promise<string | null> {
    const ack = await this.request<{ roomId: string; found: boolean; state: RoomView; connected: string[] }>("room:find", p);
    if (!ack.ok) return friendly(ack.error);
    this.keep(ack.state, ack.connected);
    this.navigate(`/room/${ack.roomId}`);
    this.toast(ack.found ? "You joined a game that was waiting for players." : "No game of this kind was waiting: this new room waits for players.", "info");
    return null;
  }

  /**
   * room:seatable's answers, per room: for which player, the room's version the answer is as of
   * (or the version asked about, when the question failed: not asked again until the room moves),
   * and the refusal (null: may sit; undefined: not known).
   */
  private seatables = new Map<string, { playerId: string; version: number; refusal: ErrorInfo | null | undefined; asking: boolean }>();

  /** Forget every room:seatable answer (after something outside the rooms changed, a block say): asked again when next needed. */
  forgetSeatRefusals(): void {
    this.seatables.clear();
  }

  /**
   * Why you may not take a seat of this open room you do not sit in (the server's refusal:
   * removed by the host, not invited, a rating range, a block...), null if you may, undefined
   * while not known (the page offers the seats meanwhile, as it always did: the server decides on
   * Sit here). Asked again when the room's version moves (seats, invitations and removals move it).
   */
  seatRefusal(room: RoomView): ErrorInfo | null | undefined {
    const me = this.me;
    if (!me || room.status !== "open" || room.seat !== null) return undefined;
    const held = this.seatables.get(room.roomId);
    const e = held?.playerId === me.id ? held : undefined;
    if ((!e || (!e.asking && e.version < room.version)) && this.socket.connected) {
      const entry = { playerId: me.id, version: e?.version ?? -1, refusal: e?.refusal, asking: true };
      this.seatables.set(room.roomId, entry);
      void this.request<{ version: number; refusal: ErrorInfo | null }>("room:seatable", { roomId: room.roomId }).then((ack) => {
        entry.asking = false;
        entry.version = ack.ok ? ack.version : room.version;
        entry.refusal = ack.ok ? ack.refusal : undefined;
        this.changed();
      });
    }
    return e?.refusal;
  }

  async join(roomId: string, seat?: number): Promise<void> {
    const ack = await this.request<{ roomId: string; state: RoomView; connected: string[] }>("room:join", seat === undefined ? { roomId } : { roomId, seat });
    if (!ack.ok) {
      if (ack.error.code === "ALREADY_SEATED") {
        if (this.route.page !== "room" || this.route.roomId !== roomId) this.navigate(`/room/${roomId}`);
        return;
      }
      this.toast(friendly(ack.error));
      if (this.route.page === "room") void this.sync(roomId);
      return;
    }
    this.keep(ack.state, ack.connected);
    if (this.route.page !== "room" || this.route.roomId !== roomId) this.navigate(`/room/${roomId}`);
  }

  async leave(roomId: string): Promise<void> {
    const ack = await this.request<{ state: RoomView; connected: string[] }>("room:leave", { roomId });
    if (!ack.ok) return this.toast(friendly(ack.error));
    this.keep(ack.state, ack.connected);
    this.toast("You left your seat; you are watching now.", "info");
  }

  /** The host removes the player in `seat` of an open room (they may not sit in it again). */
  async removePlayer(roomId: string, seat: number): Promise<void> {
    const ack = await this.request<{ state: RoomView; connected: string[] }>("room:remove", { roomId, seat });
    if (!ack.ok) return this.toast(friendly(ack.error));
    this.keep(ack.state, ack.connected);
  }

  /** The host withdraws the invitation their table keeps for `playerId` (it leaves their list with the room's next version). */
  async withdrawInvitation(roomId: string, playerId: string): Promise<void> {
    const ack = await this.request<{ withdrawn: string | null }>("room:uninvite", { roomId, playerId });
    if (!ack.ok) return this.toast(friendly(ack.error));
    this.toast(ack.withdrawn ? `Invitation to ${ack.withdrawn} withdrawn.` : "Invitation withdrawn.", "info");
  }

  /** The host seats a bot in an empty seat of an open casual room, or takes one out (the change arrives as the room's next version). */
  async seatBot(roomId: string, seat: number, add: boolean): Promise<void> {
    const ack = await this.request<{ version: number }>(add ? "room:add-bot" : "room:remove-bot", { roomId, seat });
    if (!ack.ok) this.toast(friendly(ack.error));
  }

  async startGame(roomId: string): Promise<void> {
    this.busy = true;
    this.changed();
    const ack = await this.ownRequest(roomId, () => this.request<{ version: number }>("room:start", { roomId }));
    this.busy = false;
    this.changed();
    if (!ack.ok) this.toast(friendly(ack.error));
  }

  /** Give up the game: a bot plays the seat to the end (ranked: placed last). */
  async resign(roomId: string): Promise<void> {
    await this.seatRequest("game:resign", roomId, "You resigned; a bot plays your seat to the end.");
  }

  /** Take the seat back from the bot after running out of time once. */
  async returnToSeat(roomId: string): Promise<void> {
    await this.seatRequest("game:return", roomId, "You have your seat back.");
  }

  private async seatRequest(event: string, roomId: string, done: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.changed();
    const ack = await this.ownRequest(roomId, () => this.request<{ version: number }>(event, { roomId }));
    this.busy = false;
    if (ack.ok) this.toast(done, "info");
    else {
      this.toast(friendly(ack.error));
      void this.sync(roomId);
    }
    this.changed();
  }

  /**
   * Send a move. The same actionId is reused when it is sent again (the answer was lost to a
   * timeout or a reconnection, the table was busy, or the server could not reach its room store
   * for a moment), so a retry can never apply the move twice: a move the store saved before the
   * answer was lost is answered `duplicate`, which is success.
   */
  async act(roomId: string, action: Action): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.actError = null;
    this.changed();
    const actionId = newActionId();
    let ack: Ack<{ version: number; duplicate: boolean }> | null = null;
    let storeWaits = 0;
    for (let attempt = 0; attempt < ACT_ATTEMPTS; attempt++) {
      if (ack && !ack.ok && ack.error.code === "STORE_UNAVAILABLE") {
        if (storeWaits++ === 0) this.toast("The server lost its game store for a moment; sending your move again…", "info");
        await new Promise((r) => setTimeout(r, STORE_RETRY_MS * 2 ** (storeWaits - 1)));
      }
      if (!this.socket.connected) await this.connected(15_000);
      ack = await this.ownRequest(roomId, () => this.request<{ version: number; duplicate: boolean }>("game:act", { roomId, action, actionId }));
      if (ack.ok || !RESENT.has(ack.error.code)) break;
    }
    this.busy = false;
    if (ack && !ack.ok) {
      this.actError = friendly(ack.error);
      this.toast(this.actError);
      setTimeout(() => {
        this.actError = null;
        this.changed();
      }, 7000);
      void this.sync(roomId);
    }
    this.changed();
  }

  // ---- quick play (docs/protocol.md; drawn by quickplay.ts) -------------------------------

  /** serverTime of the last status answered to a request: a push made before it is stale. */
  private queueAckTime = 0;

  private absorbQueue(st: QueueStatus | null | undefined, pushed = false): void {
    if (!st || typeof st !== "object") return;
    // A periodic push made just before a leave or accept may arrive after its answer: keep the answer.
    if (pushed && typeof st.serverTime === "number" && st.serverTime < this.queueAckTime) return;
    if (!pushed && typeof st.serverTime === "number") this.queueAckTime = st.serverTime;
    this.queue = st;
    this.queueAt = Date.now();
    if (Array.isArray(st.counts)) this.queueCounts = st.counts;
    if (st.notice) this.toast(st.notice, "info");
    if (st.queued || st.match) this.queueOut = null;
    else if (st.notice) this.queueOut = st.notice;
    this.changed();
  }

  /** A queue request; its status kept. Returns the refusal in the server's own words, or null. */
  async queueRequest(event: "queue:join" | "queue:leave" | "queue:accept" | "queue:decline" | "queue:status", payload: Record<string, unknown>): Promise<string | null> {
    const ack = await this.request<{ status: QueueStatus }>(event, payload);
    if (!ack.ok) return ack.error.message || friendly(ack.error);
    this.absorbQueue(ack.status);
    return null;
  }

  private connected(timeoutMs: number): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.socket.off("connect", done);
        resolve();
      };
      const t = setTimeout(done, timeoutMs);
      this.socket.on("connect", done);
    });
  }
}
