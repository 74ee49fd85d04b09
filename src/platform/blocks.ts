/**
 * Blocking (docs/protocol.md, "Blocking"): an account that does not want to play with another.
 * Two players one of whom blocks the other never share a table: quick play does not seat them
 * together (the queue entry carries whom each must avoid, matchmaking.ts), and neither may join a
 * room where the other sits (BLOCKED). The blocker's client hides the blocked player's chat
 * messages. As on Lichess, a block ends following between the two, both ways (follows.ts: neither
 * may follow the other while it stands; an unblock does not bring a follow back). Only accounts
 * block, and only accounts are blocked (a guest's messages are muted in the browser). Nobody is
 * told they were blocked: the blocked player learns of it only when a join or a follow is refused
 * (or sees the follow gone).
 */
import type { Database } from "../db/client.js";
import { err } from "./errors.js";
import { findAccount, typedName, type Verified } from "./accounts.js";

/** Accounts one account may block. */
export const MAX_BLOCKS = 200;

export interface BlockedPlayer {
  id: string;
  name: string;
  /** When they were blocked (epoch ms). */
  since: number;
}

/** Why a player may not sit at a table: they block someone there, or someone there blocks them. */
export type SeatConflict = { kind: "blocks"; name: string } | { kind: "blocked" };

export class Blocks {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
    /**
     * Told of the two players of each block and unblock (server.ts: their quick play entries, if
     * queued, take the new avoid lists at once). Its failure does not undo the block.
     */
    private readonly changed: (playerIds: [string, string]) => Promise<void> = async () => {},
  ) {}

  private requireAccount(v: Verified): void {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Only accounts can block players: register (keeping this guest's games) or log in. Mute hides a player's chat messages.");
  }

  /** The account named `name` (any case) or `id:<player id>`. */
  private async target(name: unknown): Promise<{ playerId: string; name: string }> {
    const raw = typedName(name);
    const a = await findAccount(this.db, raw);
    if (!a) throw err("NO_SUCH_ACCOUNT", `No account is named "${raw.slice(0, 40)}". Guests cannot be blocked: Mute hides their messages.`);
    return a;
  }

  /** Blocks an account (again: nothing changes). */
  async block(v: Verified, name: unknown): Promise<BlockedPlayer> {
    this.requireAccount(v);
    const t = await this.target(name);
    if (t.playerId === v.player.id) throw err("BAD_BLOCK", "You cannot block yourself.");
    const existing = await this.db.prisma.block.findUnique({ where: { playerId_blockedId: { playerId: v.player.id, blockedId: t.playerId } } });
    if (existing) return { id: t.playerId, name: t.name, since: existing.createdAt.getTime() };
    if ((await this.db.prisma.block.count({ where: { playerId: v.player.id } })) >= MAX_BLOCKS) {
      throw err("TOO_MANY_BLOCKS", `You block ${MAX_BLOCKS} players already; unblock one first.`);
    }
    const at = new Date(this.now());
    const pair = (a: string, b: string) => ({ playerId: a, followedId: b });
    await this.db.prisma.$transaction([
      this.db.prisma.block.createMany({ data: [{ playerId: v.player.id, blockedId: t.playerId, createdAt: at }], skipDuplicates: true }),
      // As Lichess's: blocking someone unfollows them, and they stop following the blocker.
      this.db.prisma.follow.deleteMany({ where: { OR: [pair(v.player.id, t.playerId), pair(t.playerId, v.player.id)] } }),
    ]);
    await this.changed([v.player.id, t.playerId]);
    return { id: t.playerId, name: t.name, since: at.getTime() };
  }

  /** Unblocks an account. False: it was not blocked. */
  async unblock(v: Verified, name: unknown): Promise<{ id: string; name: string; unblocked: boolean }> {
    this.requireAccount(v);
    const t = await this.target(name);
    const r = await this.db.prisma.block.deleteMany({ where: { playerId: v.player.id, blockedId: t.playerId } });
    if (r.count > 0) await this.changed([v.player.id, t.playerId]);
    return { id: t.playerId, name: t.name, unblocked: r.count > 0 };
  }

  /** The accounts a player blocks, most recent first. */
  async list(playerId: string): Promise<BlockedPlayer[]> {
    const rows = await this.db.prisma.block.findMany({
      where: { playerId },
      orderBy: [{ createdAt: "desc" }, { blockedId: "asc" }],
      select: { createdAt: true, blocked: { select: { id: true, name: true, account: { select: { name: true } } } } },
    });
    return rows.map((r) => ({ id: r.blocked.id, name: r.blocked.account?.name ?? r.blocked.name, since: r.createdAt.getTime() }));
  }

  /** Whom a player must not share a table with: the players they block and those who block them. */
  async avoidOf(playerId: string): Promise<string[]> {
    const rows = await this.db.prisma.block.findMany({
      where: { OR: [{ playerId }, { blockedId: playerId }] },
      select: { playerId: true, blockedId: true },
    });
    return [...new Set(rows.map((r) => (r.playerId === playerId ? r.blockedId : r.playerId)))].sort();
  }

  /** Why `playerId` may not sit with these players (null: they may). */
  async conflict(playerId: string, seated: ReadonlyArray<{ id: string; name: string }>): Promise<SeatConflict | null> {
    const others = seated.filter((s) => s.id !== playerId);
    if (others.length === 0) return null;
    const ids = others.map((s) => s.id);
    const rows = await this.db.prisma.block.findMany({
      where: { OR: [{ playerId, blockedId: { in: ids } }, { playerId: { in: ids }, blockedId: playerId }] },
      select: { playerId: true, blockedId: true },
    });
    const mine = rows.find((r) => r.playerId === playerId);
    if (mine) return { kind: "blocks", name: others.find((s) => s.id === mine.blockedId)!.name };
    return rows.length > 0 ? { kind: "blocked" } : null;
  }
}

/** BLOCKED for a join refused by a conflict. */
export function blockedJoin(c: SeatConflict): Error {
  return c.kind === "blocks"
    ? err("BLOCKED", `You block ${c.name}, who sits at this table; unblock them to join.`)
    : err("BLOCKED", "You cannot sit at this table: a player there has blocked you.");
}
