/**
 * Leavers (docs/protocol.md, "Leaving ranked games"): a player who leaves ranked games with other
 * people pauses their own ranked play for a while, as Lichess's play bans do, so strangers can rely
 * on a ranked table being played out.
 *
 * A *leave* is a ranked game between people that a player
 * - ran out of time in and never took their seat back, so a bot finished it ("timeout"; written in
 *   the finished game's own transaction, db/finished-games.ts), or
 * - never made their first move in, so it was called off ("no-show"; recorded by results.ts from
 *   the called-off room, as durably as a finished game).
 * Resigning is not leaving: it tells the table at once, a bot takes the seat without anyone
 * waiting on a clock, and the rating update already places the resigner last.
 *
 * The first leave within LEAVE_WINDOW_MS is a warning. Each later one starts a pause of ranked play
 * from the moment it is recorded: PAUSES_MS by how many leaves the window holds then (2: 15 min,
 * 3: 1 h, 4: 4 h, 5 or more: a day). Paused, a player may not create or join a ranked room, accept
 * a ranked rematch or queue for ranked quick play (RANKED_PAUSED); casual games and the daily
 * challenge stay open. The operators may forgive a player's leaves (a fault of ours, say).
 */
import type { Database } from "../db/client.js";
import type { Logger } from "../logger.js";
import { AppError, err } from "./errors.js";
import { spellWait } from "../protocol/durations.js";
import type { LeaveStatus } from "../protocol/wire.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** How long a leave counts. */
export const LEAVE_WINDOW_MS = 7 * 24 * HOUR;
/** The pause a leave starts, by how many leaves the window holds when it is recorded (2, 3, 4, 5+). */
export const PAUSES_MS = [15 * MIN, HOUR, 4 * HOUR, 24 * HOUR];

export type { LeaveStatus };

/**
 * What a player's leaves (epoch ms, any order, forgiven ones left out) mean at `now`. Pure. Each
 * leave counts the leaves of the window that ends at it (itself included); the pause it starts
 * runs from it; the latest end that is still ahead is the pause.
 */
export function leaveStatus(leaves: readonly number[], now: number): LeaveStatus {
  const at = [...leaves].filter((t) => t <= now).sort((a, b) => a - b);
  let until: number | null = null;
  at.forEach((t, i) => {
    let k = 0;
    for (let j = i; j >= 0 && at[j]! > t - LEAVE_WINDOW_MS; j--) k++;
    if (k < 2) return;
    const end = t + PAUSES_MS[Math.min(k - 2, PAUSES_MS.length - 1)]!;
    if (end > now && (until === null || end > until)) until = end;
  });
  return { recent: at.filter((t) => t > now - LEAVE_WINDOW_MS).length, pausedUntil: until };
}

export function rankedPaused(status: LeaveStatus, now: number) {
  const until = status.pausedUntil!;
  return err(
    "RANKED_PAUSED",
    `You left ${status.recent} ranked games in the last 7 days (ran out of time without coming back, or never made a first move), so your ranked play is paused for ${spellWait(until - now)} more (until ${new Date(until).toISOString().slice(0, 16).replace("T", " ")} UTC). Casual games are open to you meanwhile.`,
  );
}

export interface LeaveRecord {
  roomId: string;
  gameType: string;
  kind: "timeout" | "no-show";
  at: number;
  forgiven: boolean;
}

export class Leaves {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  private async times(playerId: string): Promise<number[]> {
    // A leave older than two windows can no longer start or lengthen a pause.
    const rows = await this.db.prisma.leave.findMany({
      where: { playerId, forgivenAt: null, at: { gt: new Date(this.now() - 2 * LEAVE_WINDOW_MS) } },
      select: { at: true },
    });
    return rows.map((r) => r.at.getTime());
  }

  async status(playerId: string): Promise<LeaveStatus> {
    return leaveStatus(await this.times(playerId), this.now());
  }

  /** RANKED_PAUSED while the player's ranked play is paused. */
  async mayPlayRanked(playerId: string): Promise<void> {
    const status = await this.status(playerId);
    if (status.pausedUntil !== null) throw rankedPaused(status, this.now());
  }

  /** A player's leaves, newest first (the operators' view). */
  async list(playerId: string, limit = 20): Promise<LeaveRecord[]> {
    const rows = await this.db.prisma.leave.findMany({ where: { playerId }, orderBy: { at: "desc" }, take: limit });
    return rows.map((r) => ({ roomId: r.roomId, gameType: r.gameType, kind: r.kind as LeaveRecord["kind"], at: r.at.getTime(), forgiven: r.forgivenAt !== null }));
  }

  /** The operators forgive every leave of a player not forgiven yet; returns how many. */
  async forgive(playerId: string): Promise<number> {
    const res = await this.db.prisma.leave.updateMany({ where: { playerId, forgivenAt: null }, data: { forgivenAt: new Date(this.now()) } });
    return res.count;
  }
}

/**
 * RANKED_PAUSED for an account whose ranked play is paused; nothing for a guest or without `leaves`.
 * Without the database (an outage) the player goes through, logged, as blocks and ratings do then:
 * games go on; the check is back with the database.
 */
export async function mayPlayRanked(leaves: Leaves | undefined, player: { id: string; account?: boolean }, log: Pick<Logger, "warn">): Promise<void> {
  if (!leaves || !player.account) return;
  try {
    await leaves.mayPlayRanked(player.id);
  } catch (e) {
    if (e instanceof AppError) throw e;
    log.warn({ err: e, player: player.id }, "could not read a player's leaves; ranked play allowed without the check");
  }
}
