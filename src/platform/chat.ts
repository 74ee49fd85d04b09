/**
 * Chat per table (issue 25; docs/protocol.md, "Chat"). Chat is not game state: messages are kept
 * beside the room in the room store (RoomStore.appendChat / chat), never change the room's
 * version and never pass through views.
 *
 * Two channels: "players" (the sender sits in the room when sending) and "spectators" (everyone
 * else). In a ranked room the players never see the spectators' messages: nobody outside the game
 * (a friend watching, a player's second name, anyone with an engine) can pass a player advice or
 * information it should not have, whatever the spectator view shows. In a casual room everyone
 * sees everything. Players' messages are seen by every watcher.
 */
import { AppError, err } from "./errors.js";
import { NO_METRICS, type PlatformMetrics } from "./metrics.js";
import type { Player } from "./identity.js";
import { enforce, record, type Limit, type RateLimiter } from "./rate-limit.js";
import type { Room } from "./room.js";
import type { RoomStore } from "./room-store.js";
import { ERASED_NAME } from "../protocol/wire.js";
import { spellWait } from "../protocol/durations.js";

export type ChatChannel = "players" | "spectators";

export interface ChatMessage {
  /** 1, 2, ... in the order the store accepted them (per room). */
  n: number;
  /** Epoch ms, by the server's clock. */
  at: number;
  /** `account`: the author wrote as a logged-in account (they can be reported; a guest is muted). */
  from: { id: string; name: string; account?: true };
  channel: ChatChannel;
  /** "" once the operators removed the message (`removed`). */
  text: string;
  /** The operators removed it (moderation.ts): its text is gone everywhere, the game's record included. */
  removed?: true;
  /** Its author's data was erased at their request (db/personal-data.ts): text "", and `from` is no one's. */
  erased?: true;
}

/** A message as it stands once the operators removed it. */
export function removedMessage(m: ChatMessage): ChatMessage {
  return { ...m, text: "", removed: true };
}

/** A message as it stands once its author's data was erased (db/personal-data.ts): its place and time, nothing of theirs. */
export function erasedMessage(m: ChatMessage): ChatMessage {
  return { n: m.n, at: m.at, from: { id: "", name: ERASED_NAME }, channel: m.channel, text: "", erased: true };
}

/** How a message is taken out: by the operators (`removed`), or with its author's data (`erased`). */
export type ChatRemoval = "removed" | "erased";

export function takenOut(m: ChatMessage, how: ChatRemoval): ChatMessage {
  return how === "erased" ? erasedMessage(m) : removedMessage(m);
}

/** Longest message, in characters (code points). */
export const CHAT_MAX_CHARS = 280;
/** Messages a room keeps; beyond it the room's chat is full (CHAT_FULL). */
export const CHAT_MAX_MESSAGES = 500;

const SEC = 1000;
/** Per player per room: a short burst, and a sustained pace. */
export const CHAT_LIMITS = {
  burst: { max: 5, windowMs: 10 * SEC },
  sustained: { max: 30, windowMs: 5 * 60 * SEC },
} as const;

/**
 * Line breaks and tabs become spaces; other control characters and the bidirectional overrides
 * (which can make a message display as something else, e.g. another name) are removed.
 */
// eslint-disable-next-line no-control-regex
const BREAKS = /[\r\n\t\u2028\u2029]+/g;
const INVISIBLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** The text as it is stored and shown, or CHAT_EMPTY / CHAT_TOO_LONG / BAD_REQUEST. */
export function cleanChatText(raw: unknown): string {
  if (typeof raw !== "string") throw err("BAD_REQUEST", "text must be a string.");
  // A message far beyond the limit is refused before it is scanned.
  if (raw.length > CHAT_MAX_CHARS * 8) throw err("CHAT_TOO_LONG", `A message is at most ${CHAT_MAX_CHARS} characters.`);
  const text = raw.replace(BREAKS, " ").replace(INVISIBLE, "").trim();
  if (text === "") throw err("CHAT_EMPTY", "Write something first: the message is empty.");
  if ([...text].length > CHAT_MAX_CHARS) throw err("CHAT_TOO_LONG", `A message is at most ${CHAT_MAX_CHARS} characters.`);
  return text;
}

export function seated(room: Room, playerId: string | null): boolean {
  return playerId !== null && room.seats.some((s) => s.playerId === playerId);
}

/** The channel a message from this player goes to: "players" if they sit in the room now. */
export function channelOf(room: Room, playerId: string): ChatChannel {
  return seated(room, playerId) ? "players" : "spectators";
}

/**
 * Whether a viewer (a player id, or null: a socket without a name) may see a message: everything,
 * except spectators' messages for anyone seated in a ranked room.
 */
export function visibleTo(room: Room, viewerId: string | null, message: ChatMessage): boolean {
  if (message.channel === "players" || !room.ranked) return true;
  return !seated(room, viewerId);
}

/** Chat is open in every room that exists: open, playing, and finished (to say "well played"). */
function checkChatRoom(room: Room): void {
  if (room.status === "closed") throw err("NO_SUCH_ROOM", "There is no such room (it may have ended and expired).");
}

const limitsFor = (roomId: string, playerId: string): Limit[] =>
  Object.values(CHAT_LIMITS).map((l) => ({ key: `chat:${roomId}:${playerId}`, max: l.max, windowMs: l.windowMs }));

/** Posting and reading a room's chat, with its limits. The room is read by the caller. */
/** An account the operators silenced in table chats (Moderation.silence): until when (epoch ms), and why. */
export interface Silence {
  until: number;
  reason: string | null;
}

/** An account row's silence, if it still runs at `now` (null: none, or over). */
export function silenceRunning(a: { silencedUntil: Date | null; silencedReason: string | null }, now: number): Silence | null {
  return a.silencedUntil && a.silencedUntil.getTime() > now ? { until: a.silencedUntil.getTime(), reason: a.silencedReason } : null;
}

/** SILENCED: the refusal a silenced account's message gets, saying for how long and why. */
export function silencedError(s: Silence, now: number): AppError {
  const at = new Date(s.until).toISOString().slice(0, 16).replace("T", " ");
  return err("SILENCED", `The operators have silenced you in table chats for ${spellWait(s.until - now)} more (until ${at} UTC)${s.reason ? `: ${s.reason}` : "."}`);
}

export class TableChat {
  constructor(
    private readonly store: RoomStore,
    private readonly limiter: RateLimiter,
    private readonly now: () => number = Date.now,
    /** Told of each message refused with RATE_LIMITED (GET /metrics). */
    private readonly metrics: Pick<PlatformMetrics, "rateLimited"> = NO_METRICS,
    /**
     * Whether the operators silenced an account in chats now (Moderation.silencedNow); absent: no
     * check. Asked for accounts only (a guest cannot be silenced), each message, after its text is
     * checked; if the answer cannot be read (a database outage), the message goes through.
     */
    private readonly silenced?: (playerId: string) => Promise<Silence | null>,
  ) {}

  /**
   * Stores a message from `player` in `room` (as read just now) and returns it, numbered.
   * `beforeStore`: run once the message is accepted (text, silence, rate limits), before it is
   * stored, with its channel (chat-events.ts owes its notices there); if it throws, nothing is stored.
   */
  async send(room: Room, player: Player, rawText: unknown, beforeStore?: (channel: ChatChannel) => Promise<void>): Promise<ChatMessage> {
    checkChatRoom(room);
    const text = cleanChatText(rawText);
    if (player.account && this.silenced) {
      const silence = await this.silenced(player.id).catch(() => null);
      if (silence) throw silencedError(silence, this.now());
    }
    const limits = limitsFor(room.id, player.id);
    try {
      await enforce(this.limiter, limits, this.now(), "chat messages");
    } catch (e) {
      if (e instanceof AppError && e.code === "RATE_LIMITED") this.metrics.rateLimited("chat");
      throw e;
    }
    const channel = channelOf(room, player.id);
    await beforeStore?.(channel);
    const stored = await this.store.appendChat(
      room.id,
      { at: this.now(), from: { id: player.id, name: player.name, ...(player.account ? { account: true as const } : {}) }, channel, text },
      CHAT_MAX_MESSAGES,
    );
    if (stored === null) throw err("NO_SUCH_ROOM", "There is no such room (it may have ended and expired).");
    if (stored === "full") throw err("CHAT_FULL", `This table's chat is full (${CHAT_MAX_MESSAGES} messages).`);
    // Only accepted messages count: a refused one (empty, too long) costs nothing.
    await record(this.limiter, limits);
    // One's own message is seen (Your games marks the others' new ones: markSeen).
    if (stored.channel === "players") await this.store.markChatSeen(room.id, player.id, stored.n).catch(() => {});
    return stored;
  }

  /**
   * A seated player has seen the players' chat of `room` up to message `n` (the web client says so
   * as it shows them): Your games marks a table with players' messages after it (RoomStore
   * unreadChat). BAD_REQUEST for a number that is not one; nothing for anyone not seated.
   */
  async markSeen(room: Room, playerId: string, n: unknown): Promise<void> {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > CHAT_MAX_MESSAGES) throw err("BAD_REQUEST", `n must be a message number from 1 to ${CHAT_MAX_MESSAGES}.`);
    if (seated(room, playerId)) await this.store.markChatSeen(room.id, playerId, n);
  }

  /** The messages of `room` that `viewerId` may see, oldest first. */
  async history(room: Room, viewerId: string | null): Promise<ChatMessage[]> {
    checkChatRoom(room);
    return (await this.store.chat(room.id)).filter((m) => visibleTo(room, viewerId, m));
  }
}
