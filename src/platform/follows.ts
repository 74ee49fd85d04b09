/**
 * Following (docs/protocol.md, "Following"): an account follows another, as on Lichess, to see
 * whether it is online and to invite it to a table in one click (invitations.ts). One-way and
 * quiet: the followed account is not told, and following gives nothing but the online dot. As on
 * Lichess, a block ends following between the two, both ways (blocks.ts), and neither may follow
 * the other while it stands (BLOCKED, saying whose block it is); an unblock brings no follow back.
 * An account that hides its online status (Account.showOnline, a switch in its menu, as
 * chess.com's) is seen as offline by everyone.
 */
import type { Database } from "../db/client.js";
import { findAccount, typedName, type Verified } from "./accounts.js";
import { err } from "./errors.js";

/** The most accounts one account follows. */
export const MAX_FOLLOWS = 500;

/** An account followed, as its follower sees it. */
export interface Followed {
  id: string;
  name: string;
  /** Since when (epoch ms). */
  since: number;
  /** A device of it is connected now, on any node (false while a block stands between the two, or it hides its online status). */
  online: boolean;
  /** Online and seated in a game of one sitting under way (not a daily deal nor a turn-based game), which the follower may watch; else null. */
  playing: { roomId: string; game: string } | null;
}

export class Follows {
  /** Which of these players have a device connected now, on any node (the socket layer's; server.ts sets it). */
  onlineOf: (playerIds: readonly string[]) => Promise<Set<string>> = async () => new Set();
  /**
   * The game of one sitting a player sits in now, under way (not a daily deal, not turn-based), or
   * null: by their id, from their own rooms (server.ts sets it: RoomService.roomsOf).
   */
  playingNow: (playerId: string) => Promise<{ roomId: string; game: string } | null> = async () => null;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  private requireAccount(v: Verified): void {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Only accounts follow players: register (keeping this guest's games) or log in.");
  }

  private async target(name: unknown): Promise<{ playerId: string; name: string }> {
    const raw = typedName(name);
    const a = await findAccount(this.db, raw);
    if (!a || a.closedAt) throw err("NO_SUCH_ACCOUNT", `No account is named "${raw.slice(0, 40)}". Guests cannot be followed.`);
    return a;
  }

  /** Follows an account (again: nothing changes). */
  async follow(v: Verified, name: unknown): Promise<Omit<Followed, "online" | "playing">> {
    this.requireAccount(v);
    const t = await this.target(name);
    if (t.playerId === v.player.id) throw err("BAD_FOLLOW", "You cannot follow yourself.");
    await this.refuseAcrossBlock(v.player.id, t);
    const existing = await this.db.prisma.follow.findUnique({ where: { playerId_followedId: { playerId: v.player.id, followedId: t.playerId } } });
    if (existing) return { id: t.playerId, name: t.name, since: existing.createdAt.getTime() };
    if ((await this.db.prisma.follow.count({ where: { playerId: v.player.id } })) >= MAX_FOLLOWS) {
      throw err("TOO_MANY_FOLLOWS", `You follow ${MAX_FOLLOWS} players already; unfollow one first.`);
    }
    const at = new Date(this.now());
    await this.db.prisma.follow.createMany({ data: [{ playerId: v.player.id, followedId: t.playerId, createdAt: at }], skipDuplicates: true });
    return { id: t.playerId, name: t.name, since: at.getTime() };
  }

  /**
   * A follow across a block is refused either way: the follower's own block in the words of a
   * seat's and an invitation's refusals ("You block Bob; unblock them to..."), the other's plainly,
   * as a refused join says it (such a follow would show nothing: a block hides the online dot).
   */
  private async refuseAcrossBlock(playerId: string, t: { playerId: string; name: string }): Promise<void> {
    const rows = await this.db.prisma.block.findMany({
      where: { OR: [{ playerId, blockedId: t.playerId }, { playerId: t.playerId, blockedId: playerId }] },
      select: { playerId: true },
    });
    if (rows.some((r) => r.playerId === playerId)) throw err("BLOCKED", `You block ${t.name}; unblock them to follow them.`);
    if (rows.length > 0) throw err("BLOCKED", `You cannot follow ${t.name}: they have blocked you.`);
  }

  /** Stops following an account. `unfollowed` false: it was not followed. */
  async unfollow(v: Verified, name: unknown): Promise<{ id: string; name: string; unfollowed: boolean }> {
    this.requireAccount(v);
    const t = await this.target(name);
    const r = await this.db.prisma.follow.deleteMany({ where: { playerId: v.player.id, followedId: t.playerId } });
    return { id: t.playerId, name: t.name, unfollowed: r.count > 0 };
  }

  /** An account shows its online status to the players who follow it, or hides it (Account.showOnline). */
  async setShowOnline(playerId: string, on: boolean): Promise<boolean> {
    await this.db.prisma.account.update({ where: { playerId }, data: { showOnline: on } });
    return on;
  }

  /** The open accounts a player follows, online ones first, then by name; each with its online dot (hidden: never online). */
  async list(playerId: string): Promise<Followed[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string; name: string; since: Date; blocked: boolean; shown: boolean }>>`
      SELECT f."followedId" AS "id", a."name", f."createdAt" AS "since", a."showOnline" AS "shown",
        EXISTS (SELECT 1 FROM "Block" b WHERE (b."playerId" = f."playerId" AND b."blockedId" = f."followedId")
                                           OR (b."playerId" = f."followedId" AND b."blockedId" = f."playerId")) AS "blocked"
      FROM "Follow" f JOIN "Account" a ON a."playerId" = f."followedId"
      WHERE f."playerId" = ${playerId} AND a."closedAt" IS NULL`;
    // Online status only of those who show it (Account.showOnline), and never across a block (a
    // block removes the follows between the two; this covers one racing a follow).
    const seen = (r: (typeof rows)[number]) => !r.blocked && r.shown;
    const reachable = rows.filter(seen).map((r) => r.id);
    const online = reachable.length ? await this.onlineOf(reachable).catch(() => new Set<string>()) : new Set<string>();
    // Where the ones online play now, by their id (their own rooms only: player-rooms.ts).
    const playing = new Map<string, { roomId: string; game: string } | null>();
    await Promise.all([...online].map(async (id) => playing.set(id, await this.playingNow(id).catch(() => null))));
    return rows
      .map((r) => {
        const on = seen(r) && online.has(r.id);
        return { id: r.id, name: r.name, since: new Date(r.since).getTime(), online: on, playing: on ? (playing.get(r.id) ?? null) : null };
      })
      .sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }
}
