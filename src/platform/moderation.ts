/**
 * Moderation (docs/protocol.md, "Reports and closed accounts"; docs/operations.md, "Moderation"):
 * players report accounts to the operators, and an account is closed by its player or by the
 * operators.
 *
 * Closing an account (Accounts.close) refuses its tokens and its password from then on and
 * disconnects its sockets on every node; here it also gives up what the player holds: every game
 * in play is resigned (a bot finishes the seat, as for any resignation; a ranked game places them
 * last), every open room is left, and their place in the quick play queue (or a table found for
 * them) is given up. The account keeps its name (no one may take it or a look-alike), its
 * finished games (other players' histories and replays show them) and its ratings, but
 * leaderboards and daily boards leave it out and its profile says it is closed. Only the operators
 * open it again.
 *
 * A report names an account, a reason, what happened and optionally the game it happened in. A
 * player may have one open report per account (ALREADY_REPORTED) and make REPORT_LIMITS a day.
 * Reports are for the operators only: nobody else, the reported player included, is told of them.
 */
import { reliability } from "../db/profiles.js";
import type { Reliability } from "../protocol/profiles.js";
import { randomBytes } from "node:crypto";
import type { Database } from "../db/client.js";
import { AppError, err } from "./errors.js";
import type { Player } from "./identity.js";
import { findAccount, heldFormerName, typedName, type Accounts, type ClosedBy, type Verified } from "./accounts.js";
import { enforce, record, type Limit, type RateLimiter } from "./rate-limit.js";
import { checkRoomId, type RoomService } from "./room-service.js";
import type { Room } from "./room.js";
import { removedMessage, silenceRunning, type ChatMessage, type ChatRemoval, type Silence } from "./chat.js";
import { removeRecordedChat } from "../db/finished-games.js";
import { REFUND_DAYS, refundRatingsLostTo, refundsGivenFor, type RefundResult } from "../db/rating-refunds.js";
import type { QueueService } from "./queue-service.js";
import type { LeaveRecord, Leaves } from "./leaves.js";

export const REPORT_REASONS = ["cheating", "abuse", "stalling", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_TEXT_MAX = 1000;
/** The operators' reason for closing an account, and their note on a report. */
export const OPERATOR_NOTE_MAX = 500;

export const REPORT_LIMITS = {
  /** Reports one player may make a day. */
  perPlayer: { max: 10, windowMs: 24 * 60 * 60_000 },
} as const;

export interface ReportInfo {
  id: string;
  reason: ReportReason;
  text: string;
  roomId: string | null;
  createdAt: number;
  resolvedAt: number | null;
  resolution: string | null;
  reporter: { id: string; name: string };
  target: { id: string; name: string; closed: boolean };
}

export interface AccountInfo {
  playerId: string;
  name: string;
  createdAt: number;
  closedAt: number | null;
  closedBy: ClosedBy | null;
  closedReason: string | null;
  liveSessions: number;
  /** Reports against the account, newest first (at most 50). */
  reportsAgainst: ReportInfo[];
  reportsMade: number;
  /** Ranked games the account left (leaves.ts), newest first (at most 20), and until when its ranked play is paused (null: it is not). */
  leaves: LeaveRecord[];
  rankedPausedUntil: number | null;
  /** Of its latest ranked games with people (at most 100), how many it left, as its profile says (db/profiles.ts). */
  reliability: Reliability;
  /** Rating given back for its games (refundRatings): players and games settled, and when last; null: never. */
  refunded: { players: number; games: number; lastAt: number } | null;
  /** Silenced in table chats now: until when and why (null: it is not). */
  silenced: Silence | null;
  /** The name it had before its last rename, while it is held for it (null: none). */
  formerly: { name: string; until: number } | null;
}

/** The longest the operators may silence an account in one go: 30 days, in minutes. */
export const SILENCE_MAX_MINUTES = 30 * 24 * 60;

/** What closing an account gave up. */
export interface ClosingResult {
  /** False: it was closed already (its first reason kept); what it still held is given up all the same. */
  closed: boolean;
  resigned: string[];
  left: string[];
  leftQueue: boolean;
}

/** Where closings, reopenings and resolved reports are written down (the server's log). */
export interface ModerationLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ModerationOptions {
  limiter: RateLimiter;
  /** Leavers (leaves.ts): the operators see and forgive an account's leaves. */
  leaves?: Leaves;
  now?: () => number;
  log?: ModerationLog;
}

const noSuchAccount = (name: string) => err("NO_SUCH_ACCOUNT", `No account is named "${name.slice(0, 40)}".`);

function reportReason(raw: unknown): ReportReason {
  if (typeof raw !== "string" || !(REPORT_REASONS as readonly string[]).includes(raw)) {
    throw err("BAD_REPORT", `Say why: one of ${REPORT_REASONS.join(", ")}.`);
  }
  return raw as ReportReason;
}

/** Free text from a form: trimmed, 1 to `max` characters, no control characters but line breaks. */
export function noteText(raw: unknown, max: number, code: string, what: string): string {
  const text = typeof raw === "string" ? raw.normalize("NFC").replace(/\r\n?/g, "\n").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "").trim() : "";
  if (text.length === 0 || text.length > max) throw err(code, `${what} must be 1 to ${max} characters.`);
  return text;
}

type ReportRow = {
  id: string;
  reason: string;
  text: string;
  roomId: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: string | null;
  reporter: { id: string; name: string; account: { name: string } | null };
  target: { id: string; name: string; account: { name: string; closedAt: Date | null } | null };
};
const REPORT_SELECT = {
  id: true,
  reason: true,
  text: true,
  roomId: true,
  createdAt: true,
  resolvedAt: true,
  resolution: true,
  reporter: { select: { id: true, name: true, account: { select: { name: true } } } },
  target: { select: { id: true, name: true, account: { select: { name: true, closedAt: true } } } },
} as const;

function reportInfo(r: ReportRow): ReportInfo {
  return {
    id: r.id,
    reason: r.reason as ReportReason,
    text: r.text,
    roomId: r.roomId,
    createdAt: r.createdAt.getTime(),
    resolvedAt: r.resolvedAt?.getTime() ?? null,
    resolution: r.resolution,
    reporter: { id: r.reporter.id, name: r.reporter.account?.name ?? r.reporter.name },
    target: { id: r.target.id, name: r.target.account?.name ?? r.target.name, closed: r.target.account?.closedAt != null },
  };
}

export class Moderation {
  private readonly limiter: RateLimiter;
  private readonly leaves: Leaves | undefined;
  private readonly now: () => number;
  private readonly log: ModerationLog;
  private readonly chatRemovedListeners: Array<(roomId: string, n: number, channel: ChatMessage["channel"], how: ChatRemoval) => void> = [];

  constructor(
    private readonly db: Database,
    private readonly accounts: Accounts,
    private readonly service: RoomService,
    private readonly queue: QueueService | null,
    opts: ModerationOptions,
  ) {
    this.limiter = opts.limiter;
    this.leaves = opts.leaves;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? { info: () => {}, warn: () => {} };
  }

  /** The account named `name` (any case), or `id:<player id>`'s. */
  async account(name: unknown) {
    const raw = typedName(name);
    const a = await findAccount(this.db, raw);
    if (!a) throw noSuchAccount(raw);
    return a;
  }

  /**
   * Closes an account and gives up what its player holds (see the file's comment). Safe to repeat,
   * and repeating finishes the job: a second call finds the account closed (`closed: false`, its
   * first reason kept) and gives up whatever is still held, say after the node that closed it died
   * half-way.
   */
  async close(playerId: string, by: ClosedBy, reason: string | null): Promise<ClosingResult> {
    const closed = await this.accounts.close(playerId, by, reason);
    const { resigned, left, leftQueue } = await this.giveUp(playerId);
    if (closed) this.log.info({ player: playerId, by, reason, resigned, left, leftQueue }, "account closed");
    else if (resigned.length + left.length > 0 || leftQueue) this.log.info({ player: playerId, resigned, left, leftQueue }, "closed account: what it still held was given up");
    return { closed, resigned, left, leftQueue };
  }

  /**
   * Gives up everything a player holds (closing, erasure): every game in play is resigned, every
   * open room left, their place in the quick play queue (or a table found for them) given up, the
   * invitations kept for them or made by them in open turn-based rooms dropped.
   * `seatedIn`: the rooms they sit in, when the caller has read them already (RoomService.roomsOf).
   */
  async giveUp(playerId: string, seatedIn?: readonly Room[]): Promise<Omit<ClosingResult, "closed">> {
    const player: Player = { id: playerId, name: "" };
    const resigned: string[] = [];
    const left: string[] = [];
    for (const room of seatedIn ?? (await this.service.roomsOf(playerId))) {
      try {
        if (room.status === "playing") {
          const seat = room.seats.find((s) => s.playerId === playerId);
          if (seat?.away === "resigned") continue;
          await this.service.resign(room.id, player);
          resigned.push(room.id);
        } else {
          await this.service.leave(room.id, player);
          left.push(room.id);
        }
      } catch (e) {
        // The room moved on meanwhile (it started, ended or closed): nothing of theirs is left there to give up but a seat a bot or a clock ends.
        if (!(e instanceof AppError)) throw e;
        this.log.warn({ room: room.id, player: playerId, code: e.code }, "closing an account: a room could not be given up");
      }
    }
    const leftQueue = this.queue ? await this.queue.leave(playerId).catch(() => false) : false;
    // Invitations kept in open rooms (turn-based, or for invited players only), for them or from them, go too.
    const invitations = await this.service.dropInvitations(playerId);
    if (invitations.length > 0) this.log.info({ player: playerId, rooms: invitations }, "giving up: invitations for or from the player dropped");
    return { resigned, left, leftQueue };
  }

  /** A player closes their own account: their password again, then close. */
  async closeOwn(v: Verified, password: unknown, client: { address: string }): Promise<ClosingResult> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "A guest has no account to close: a guest identity lives only in this browser.");
    await this.accounts.checkOwnPassword(v, password, client);
    return this.close(v.player.id, "player", null);
  }

  /**
   * The operators close an account by name, saying why (shown to its player when they try to log
   * in); with `refund`, then give back the rating it cost others (refundRatings).
   */
  async closeByOperators(name: unknown, reason: unknown, opts: { refund?: boolean } = {}): Promise<ClosingResult & { name: string; refund?: RefundResult & { days: number } }> {
    const a = await this.account(name);
    const why = noteText(reason, OPERATOR_NOTE_MAX, "BAD_REASON", "The reason");
    const closing = { name: a.name, ...(await this.close(a.playerId, "operators", why)) };
    if (!opts.refund) return closing;
    const { name: _name, ...refund } = await this.refundRatings(`id:${a.playerId}`);
    return { ...closing, refund };
  }

  /**
   * The operators give back the rating that players lost to an account they closed for breaking
   * the rules, in its ranked games of the last REFUND_DAYS days (db/rating-refunds.ts). Safe to
   * repeat: a game is refunded once.
   */
  async refundRatings(name: unknown): Promise<RefundResult & { name: string; days: number }> {
    const a = await this.account(name);
    if (a.closedAt === null || a.closedBy !== "operators") {
      throw err(
        "NOT_CLOSED_BY_OPERATORS",
        a.closedAt === null
          ? `${a.name} is open: ratings are given back only for games against an account the operators closed (close it first).`
          : `${a.name} was closed by its player, not by the operators: ratings are given back only for games against an account closed for breaking the rules.`,
      );
    }
    const result = await refundRatingsLostTo(this.db, a.playerId, this.now());
    this.log.info({ player: a.playerId, name: a.name, gamesLookedAt: result.gamesLookedAt, refunds: result.refunds }, "ratings refunded by the operators");
    return { name: a.name, days: REFUND_DAYS, ...result };
  }

  /** The operators forgive every leave of an account (a fault of ours made them leave, say): its ranked play is no longer paused for them. */
  async forgiveLeaves(name: unknown): Promise<{ name: string; forgiven: number }> {
    const a = await this.account(name);
    const forgiven = this.leaves ? await this.leaves.forgive(a.playerId) : 0;
    this.log.info({ player: a.playerId, name: a.name, forgiven }, "leaves forgiven by the operators");
    return { name: a.name, forgiven };
  }

  /** The operators open a closed account again. False: it was open. */
  async reopen(name: unknown): Promise<{ name: string; reopened: boolean }> {
    const a = await this.account(name);
    const reopened = await this.accounts.reopen(a.playerId);
    if (reopened) this.log.info({ player: a.playerId, name: a.name }, "account reopened by the operators");
    return { name: a.name, reopened };
  }

  /** A player reports an account. */
  async report(by: Verified, input: { name?: unknown; reason?: unknown; text?: unknown; room?: unknown }): Promise<{ id: string }> {
    if (!by.session) throw err("ACCOUNT_REQUIRED", "Only accounts can report players: register (keeping this guest's games) or log in.");
    const reason = reportReason(input.reason);
    const text = noteText(input.text, REPORT_TEXT_MAX, "BAD_REPORT", "What happened");
    const roomId = input.room === undefined || input.room === null || input.room === "" ? null : checkRoomId(input.room);
    const target = await this.account(input.name);
    if (target.playerId === by.player.id) throw err("BAD_REPORT", "You cannot report yourself.");
    if (roomId !== null && !(await this.roomExists(roomId))) throw err("NO_SUCH_ROOM", "No game has that room id.");
    const open = await this.db.prisma.report.findFirst({ where: { reporterId: by.player.id, targetId: target.playerId, resolvedAt: null }, select: { createdAt: true } });
    if (open) {
      throw err("ALREADY_REPORTED", `You reported ${target.name} on ${open.createdAt.toISOString().slice(0, 10)} and the operators have not dealt with it yet.`);
    }
    const limits: Limit[] = [{ key: `report:player:${by.player.id}`, ...REPORT_LIMITS.perPlayer }];
    await enforce(this.limiter, limits, this.now(), "reports today");
    await record(this.limiter, limits);
    const id = "r_" + randomBytes(9).toString("base64url");
    await this.db.prisma.report.create({
      data: { id, reporterId: by.player.id, targetId: target.playerId, reason, text, roomId, createdAt: new Date(this.now()) },
    });
    return { id };
  }

  /** Where a room is: live in the room store, recorded in Postgres (with its chat), either or both. */
  private async whereIs(id: string): Promise<{ live: boolean; game: { chat: unknown } | null }> {
    const [stored, game] = await Promise.all([this.service.store.get(id), this.db.prisma.game.findUnique({ where: { id }, select: { chat: true } })]);
    return { live: stored !== null, game };
  }

  private async roomExists(id: string): Promise<boolean> {
    const w = await this.whereIs(id);
    return w.live || w.game !== null;
  }

  /** Reports, newest first: open ones only unless `all`; `before`, a report id, pages on. */
  async reports(opts: { all?: boolean; limit?: number; before?: string }): Promise<{ reports: ReportInfo[]; more: boolean }> {
    const take = Math.max(1, Math.min(200, Math.floor(opts.limit ?? 50)));
    const cursor = opts.before ? await this.db.prisma.report.findUnique({ where: { id: opts.before }, select: { createdAt: true, id: true } }) : null;
    if (opts.before && !cursor) throw err("NO_SUCH_REPORT", "No report has that id.");
    const rows = await this.db.prisma.report.findMany({
      where: {
        ...(opts.all ? {} : { resolvedAt: null }),
        ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: take + 1,
      select: REPORT_SELECT,
    });
    return { reports: rows.slice(0, take).map(reportInfo), more: rows.length > take };
  }

  /** The operators mark a report dealt with, with a note. */
  async resolveReport(id: unknown, note: unknown): Promise<ReportInfo> {
    const text = noteText(note, OPERATOR_NOTE_MAX, "BAD_REASON", "The note");
    const r = typeof id === "string" ? await this.db.prisma.report.findUnique({ where: { id }, select: { id: true, resolvedAt: true } }) : null;
    if (!r) throw err("NO_SUCH_REPORT", "No report has that id.");
    if (r.resolvedAt) throw err("ALREADY_RESOLVED", "That report was dealt with already.");
    const done = await this.db.prisma.report.update({ where: { id: r.id }, data: { resolvedAt: new Date(this.now()), resolution: text }, select: REPORT_SELECT });
    this.log.info({ report: r.id, note: text }, "report resolved by the operators");
    return reportInfo(done);
  }

  /**
   * A room's chat as the operators read it, every channel: from the room store while the room
   * lives, else from the game's record. NO_SUCH_ROOM when neither has the room.
   */
  async roomChat(roomId: unknown): Promise<{ roomId: string; live: boolean; recorded: boolean; messages: ChatMessage[] }> {
    const id = checkRoomId(roomId);
    const { live, game } = await this.whereIs(id);
    if (!live && !game) throw err("NO_SUCH_ROOM", "No live room or recorded game has that id.");
    const messages = live ? await this.service.store.chat(id) : ((game!.chat ?? []) as ChatMessage[]);
    return { roomId: id, live, recorded: game !== null, messages };
  }

  /**
   * The operators remove chat message `n` of a room: its text is gone from the live room (every
   * watcher's page drops it: `chatRemoved` listeners) and from the game's record, wherever each
   * exists. The original text goes to the server's log only.
   */
  async removeChat(roomId: unknown, n: unknown): Promise<ChatMessage> {
    const id = checkRoomId(roomId);
    const at = typeof n === "number" ? n : Number(n);
    if (!Number.isInteger(at) || at < 1) throw err("NO_SUCH_MESSAGE", "Name a message by its number (1, 2, ...).");
    const before = (await this.roomChat(id)).messages.find((m) => m.n === at);
    if (!before) throw err("NO_SUCH_MESSAGE", `That room's chat has no message ${at}.`);
    const [live, recorded] = await Promise.all([this.service.store.removeChat(id, at), removeRecordedChat(this.db, id, at)]);
    const removed = live ?? recorded ?? removedMessage(before);
    if (!before.removed) this.log.info({ room: id, n: at, author: before.from, text: before.text }, "chat message removed by the operators");
    for (const l of this.chatRemovedListeners) l(id, at, before.channel, "removed");
    return removed;
  }

  /**
   * A player's data is erased (personal-data.ts): their messages in these live rooms' chats take
   * the erased form, and every watcher who could see one is told (`chatRemoved` listeners).
   * Returns how many messages.
   */
  async eraseLiveChat(playerId: string, roomIds: readonly string[]): Promise<number> {
    let erased = 0;
    // Read 50 rooms' chats at a time (one command each; erasures are rare, rooms many).
    for (let i = 0; i < roomIds.length; i += 50) {
      const batch = roomIds.slice(i, i + 50);
      const chats = await Promise.all(batch.map((id) => this.service.store.chat(id)));
      for (const [k, id] of batch.entries()) {
        for (const m of chats[k]!) {
          if (m.from.id !== playerId) continue;
          if (!(await this.service.store.removeChat(id, m.n, "erased"))) continue;
          erased++;
          for (const l of this.chatRemovedListeners) l(id, m.n, m.channel, "erased");
        }
      }
    }
    return erased;
  }

  /** Told of every removed or erased message (the socket layer tells the watchers who could see it). */
  onChatRemoved(listener: (roomId: string, n: number, channel: ChatMessage["channel"], how: ChatRemoval) => void): void {
    this.chatRemovedListeners.push(listener);
  }

  /** An account as the operators see it: its state, live sessions and the reports against it. */
  async accountInfo(name: unknown): Promise<AccountInfo> {
    const a = await this.account(name);
    const [liveSessions, against, made, leaves, leaveStatus, refunded, reliable] = await Promise.all([
      this.db.prisma.session.count({ where: { playerId: a.playerId, revokedAt: null } }),
      this.db.prisma.report.findMany({ where: { targetId: a.playerId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 50, select: REPORT_SELECT }),
      this.db.prisma.report.count({ where: { reporterId: a.playerId } }),
      this.leaves ? this.leaves.list(a.playerId) : [],
      this.leaves ? this.leaves.status(a.playerId) : null,
      refundsGivenFor(this.db, a.playerId),
      reliability(this.db, a.playerId),
    ]);
    return {
      playerId: a.playerId,
      name: a.name,
      createdAt: a.createdAt.getTime(),
      closedAt: a.closedAt?.getTime() ?? null,
      closedBy: (a.closedBy as ClosedBy | null) ?? null,
      closedReason: a.closedReason,
      liveSessions,
      reportsAgainst: against.map(reportInfo),
      reportsMade: made,
      leaves,
      rankedPausedUntil: leaveStatus?.pausedUntil ?? null,
      reliability: reliable,
      refunded,
      silenced: silenceRunning(a, this.now()),
      formerly: heldFormerName(a, this.now()),
    };
  }

  /**
   * The operators silence an account in table chats for `minutes` from now, with a reason the player
   * is shown (docs/operations.md, "Moderation"): its messages are refused (SILENCED) on every node
   * until then; it still plays, and its earlier messages stay unless removed. A new silence
   * replaces the one running.
   */
  async silence(name: unknown, minutes: unknown, reason: unknown): Promise<{ name: string } & Silence> {
    const a = await this.account(name);
    if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 1 || minutes > SILENCE_MAX_MINUTES) {
      throw err("BAD_DURATION", `Silence for a whole number of minutes from 1 to ${SILENCE_MAX_MINUTES} (30 days).`);
    }
    const why = noteText(reason, OPERATOR_NOTE_MAX, "BAD_REASON", "The reason");
    const until = this.now() + minutes * 60_000;
    await this.db.prisma.account.update({ where: { playerId: a.playerId }, data: { silencedUntil: new Date(until), silencedReason: why } });
    this.log.info({ player: a.playerId, name: a.name, until, reason: why }, "account silenced in chats by the operators");
    return { name: a.name, until, reason: why };
  }

  /** Ends an account's silence at once. `lifted` false: it was not silenced. */
  async unsilence(name: unknown): Promise<{ name: string; lifted: boolean }> {
    const a = await this.account(name);
    const lifted = silenceRunning(a, this.now()) !== null;
    await this.db.prisma.account.update({ where: { playerId: a.playerId }, data: { silencedUntil: null, silencedReason: null } });
    if (lifted) this.log.info({ player: a.playerId, name: a.name }, "account's silence lifted by the operators");
    return { name: a.name, lifted };
  }

  /** Whether the account of `playerId` is silenced now (null: it is not, or it is no account). */
  async silencedNow(playerId: string): Promise<Silence | null> {
    const a = await this.db.prisma.account.findUnique({ where: { playerId }, select: { silencedUntil: true, silencedReason: true } });
    return a ? silenceRunning(a, this.now()) : null;
  }
}
