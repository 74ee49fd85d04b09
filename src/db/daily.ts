/**
 * Daily-challenge attempts and boards. One ranked attempt per player, game type and UTC day,
 * claimed when it starts (a primary key makes the claim atomic across nodes) and completed by
 * the transaction that records the finished game (finished-games.ts), so a finished attempt
 * still costs one transaction.
 */

import type { Database } from "./client.js";
import { Prisma } from "../generated/prisma/client.js";

/**
 * The boards read each attempt `d` with its player's account `a`, if any (one join, not a lookup per
 * row): `withAccount` joins it, `byOpenAccount` leaves out closed accounts' attempts
 * (platform/moderation.ts), and `currentName` is the name the board shows: the account's name as it
 * is now (renames follow), else the name the attempt was played under.
 */
const withAccount = Prisma.sql`LEFT JOIN "Account" a ON a."playerId" = d."playerId"`;
const byOpenAccount = Prisma.sql`a."closedAt" IS NULL`;
const currentName = Prisma.sql`COALESCE(a."name", d."name") AS "name"`;

export interface DailyAttemptRow {
  gameType: string;
  day: string;
  playerId: string;
  name: string;
  roomId: string;
  startedAt: Date;
  finishedAt: Date | null;
  score: number | null;
}

export interface DailyBoardEntry {
  /** 1-based; equal scores share a place. */
  place: number;
  playerId: string;
  name: string;
  score: number;
  day: string;
  roomId: string;
  finishedAt: Date;
  details: unknown;
}

function row(r: DailyAttemptRow & Record<string, unknown>): DailyAttemptRow {
  return {
    gameType: r.gameType,
    day: r.day,
    playerId: r.playerId,
    name: r.name,
    roomId: r.roomId,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    score: r.score === null ? null : Number(r.score),
  };
}

/**
 * Claims the day's attempt for a player. Returns the claim, or the attempt already stored
 * (claimed: false) when the player has one for that day.
 */
export async function claimDailyAttempt(
  db: Database,
  a: { gameType: string; day: string; playerId: string; name: string; roomId: string; startedAt: Date },
): Promise<{ claimed: boolean; attempt: DailyAttemptRow }> {
  const res = await db.prisma.dailyAttempt.createMany({ data: [a], skipDuplicates: true });
  if (res.count === 1) return { claimed: true, attempt: { ...a, finishedAt: null, score: null } };
  const existing = await getDailyAttempt(db, a.gameType, a.day, a.playerId);
  if (!existing) throw new Error(`daily attempt claim for ${a.playerId} ${a.gameType} ${a.day} neither inserted nor found`);
  return { claimed: false, attempt: existing };
}

/** Withdraws a claim whose room could not be created (nothing was played on it). */
export async function releaseDailyAttempt(db: Database, roomId: string): Promise<void> {
  await db.prisma.dailyAttempt.deleteMany({ where: { roomId, finishedAt: null } });
}

export async function getDailyAttempt(db: Database, gameType: string, day: string, playerId: string): Promise<DailyAttemptRow | null> {
  const r = await db.prisma.dailyAttempt.findUnique({ where: { gameType_day_playerId: { gameType, day, playerId } } });
  return r ? row(r) : null;
}

function places<T extends { score: number }>(rows: T[]): Array<T & { place: number }> {
  let place = 0;
  return rows.map((r, i) => {
    if (i === 0 || rows[i - 1]!.score !== r.score) place = i + 1;
    return { ...r, place };
  });
}

/** Finished attempts of one day, best first (equal scores: the earlier finish first, same place). Closed accounts' attempts are left out. */
export async function dailyBoard(db: Database, gameType: string, day: string, limit = 100): Promise<DailyBoardEntry[]> {
  const take = Math.max(1, Math.min(1000, Math.floor(limit)));
  const rows = await db.prisma.$queryRaw<Array<{ playerId: string; name: string; score: number; day: string; roomId: string; finishedAt: Date; details: unknown }>>`
    SELECT d."playerId", ${currentName}, d."score", d."day", d."roomId", d."finishedAt", d."details"
    FROM "DailyAttempt" d ${withAccount}
    WHERE d."gameType" = ${gameType} AND d."day" = ${day} AND d."finishedAt" IS NOT NULL
      AND ${byOpenAccount}
    ORDER BY d."score" DESC, d."finishedAt" ASC, d."playerId" ASC
    LIMIT ${take}`;
  return places(rows.map((r) => ({ ...r, score: Number(r.score), finishedAt: new Date(r.finishedAt) })));
}

/** All-time best: each player's best daily score (their earliest day with it), best first; closed accounts left out. */
export async function dailyBest(db: Database, gameType: string, limit = 100): Promise<DailyBoardEntry[]> {
  const take = Math.max(1, Math.min(1000, Math.floor(limit)));
  const rows = await db.prisma.$queryRaw<Array<{ playerId: string; name: string; score: number; day: string; roomId: string; finishedAt: Date; details: unknown }>>`
    SELECT * FROM (
      SELECT DISTINCT ON (d."playerId") d."playerId", ${currentName}, d."score", d."day", d."roomId", d."finishedAt", d."details"
      FROM "DailyAttempt" d ${withAccount}
      WHERE d."gameType" = ${gameType} AND d."finishedAt" IS NOT NULL
        AND ${byOpenAccount}
      ORDER BY d."playerId", d."score" DESC, d."day" ASC
    ) AS best
    ORDER BY "score" DESC, "day" ASC, "playerId" ASC
    LIMIT ${take}`;
  return places(rows.map((r) => ({ ...r, score: Number(r.score) })));
}

/** Place a score would take on a day's board (1 + finished attempts strictly above it, closed accounts' left out). */
export async function dailyPlaceOf(db: Database, gameType: string, day: string, score: number): Promise<number> {
  const rows = await db.prisma.$queryRaw<Array<{ above: number }>>`
    SELECT count(*)::int AS "above" FROM "DailyAttempt" d ${withAccount}
    WHERE d."gameType" = ${gameType} AND d."day" = ${day} AND d."finishedAt" IS NOT NULL AND d."score" > ${score}::double precision
      AND ${byOpenAccount}`;
  return Number(rows[0]?.above ?? 0) + 1;
}

