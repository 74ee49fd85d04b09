/**
 * Rating refunds (as Lichess gives them): when the operators close an account for breaking the
 * rules, the players who lost rating to it in its recent ranked games get those points back.
 *
 * Which games: the closed account's ranked, rated games that finished in the REFUND_DAYS before
 * the refund, its newest REFUND_MAX_GAMES. What each cost a player: the rating update is redone
 * without the closed account at the table (the others' ratings before the game, their places, a
 * forfeited seat last as in finished-games.ts; a game left with one rated player changes nobody),
 * and what that would have given them minus what they got is their loss; a player who gained from
 * the closed account keeps it, so a refund only ever gives back. How much: a player's losses in
 * one game type are added up, in display points; if that would lift them above the highest rating
 * they had before one of those games or would have had after it without the closed account, half
 * the excess is kept back (they may have climbed since on their own), and no refund exceeds
 * REFUND_MAX_POINTS. It moves the rating's mu only: the
 * uncertainty and the game count stay.
 *
 * Once per game and player: each game a refund looked at is written down for each player it
 * settled (RatingRefund; a share of 0 included), in the same transaction as the ratings it
 * changes, so running it again (a second operator, a retry after a node died half-way) gives
 * nothing twice. The rating rows are locked in (gameType, playerId) order, the order
 * finished-games.ts locks them in, so a refund and a game being recorded for the same players wait
 * for each other and cannot deadlock; the games already refunded are read after the locks.
 */
import { ordinal, rate } from "openskill";
import { Prisma } from "../generated/prisma/client.js";
import { RATING_SCALE } from "../protocol/rating-display.js";
import type { RefundReceived } from "../protocol/wire.js";
import type { Database } from "./client.js";
import { ratingRanks, retryingTransaction, type Forfeit } from "./finished-games.js";

/** Games that finished this many days before the refund, at most, are looked at. */
export const REFUND_DAYS = 5;
/** The closed account's newest ranked games looked at, at most. */
export const REFUND_MAX_GAMES = 40;
/** Display points one player gets back per game type in one refund, at most. */
export const REFUND_MAX_POINTS = 150;

const DAY_MS = 24 * 60 * 60_000;

/** One seat of a recorded game as a refund reads it. */
export interface RefundSeat {
  seat: number;
  playerId: string | null;
  place: number;
  forfeit: Forfeit | null;
  muBefore: number | null;
  sigmaBefore: number | null;
  muAfter: number | null;
}

/**
 * What one game cost each other rated player because `closedId` sat at it, in mu (only players it
 * cost something), with `top`: the higher of their mu before the game and what it would have been
 * after it without the closed account.
 */
export function lossesTo(closedId: string, seats: readonly RefundSeat[]): Map<string, { lost: number; top: number }> {
  // A rated seat whose player's data was since erased (playerId null) still sat at the table: it
  // stays in the redo, and is owed nothing.
  const rated = seats.filter((s) => s.muBefore !== null && s.sigmaBefore !== null && s.muAfter !== null);
  const out = new Map<string, { lost: number; top: number }>();
  if (!rated.some((s) => s.playerId === closedId)) return out;
  const others = rated.filter((s) => s.playerId !== closedId);
  let without: number[];
  if (others.length < 2) {
    without = others.map((s) => s.muBefore!);
  } else {
    const places: number[] = [];
    for (const s of seats) places[s.seat] = s.place;
    const ranks = ratingRanks({ outcome: { places, scores: [] } }, others);
    without = rate(others.map((s) => [{ mu: s.muBefore!, sigma: s.sigmaBefore! }]), { rank: ranks }).map(([r]) => r!.mu);
  }
  others.forEach((s, i) => {
    const lost = without[i]! - s.muAfter!;
    if (lost > 1e-9 && s.playerId !== null) out.set(s.playerId, { lost, top: Math.max(s.muBefore!, without[i]!) });
  });
  return out;
}

/**
 * The display points given back for losses `lostPoints` (display points) by a player whose rating
 * is `current` now and was at most `top` before those games (both display points): the losses,
 * less half of whatever would lift them above `top`, at most REFUND_MAX_POINTS, whole points.
 */
export function refundPoints(lostPoints: number, current: number, top: number): number {
  const excess = Math.max(0, lostPoints + current - top);
  return Math.max(0, Math.min(REFUND_MAX_POINTS, Math.round(lostPoints - excess / 2)));
}

/** One player's refund in one game type. */
export interface Refund {
  playerId: string;
  name: string;
  gameType: string;
  /** Display points given back (0: their losses are outweighed by their climb since). */
  points: number;
  /** The games it covers. */
  games: number;
}

export interface RefundResult {
  /** The closed account's ranked games looked at. */
  gamesLookedAt: number;
  /** Refunds given now, by player then game type (games refunded before are not counted again). */
  refunds: Refund[];
}

/** Refunds the players who lost rating to `closedId` in its recent ranked games (see the file's comment), as of `now`. */
export async function refundRatingsLostTo(db: Database, closedId: string, now: number): Promise<RefundResult> {
  return retryingTransaction(db, (tx) => refund(tx, closedId, now));
}

async function refund(tx: Prisma.TransactionClient, closedId: string, now: number): Promise<RefundResult> {
  const since = new Date(now - REFUND_DAYS * DAY_MS);
  const games = await tx.$queryRaw<Array<{ id: string; gameType: string }>>`
    SELECT g."id", g."gameType" FROM "Game" g JOIN "GameSeat" s ON s."gameId" = g."id"
    WHERE s."playerId" = ${closedId} AND s."muAfter" IS NOT NULL AND g."ranked" AND g."finishedAt" >= ${since} AND g."finishedAt" <= ${new Date(now)}
    GROUP BY g."id", g."gameType", g."finishedAt"
    ORDER BY g."finishedAt" DESC, g."id" DESC
    LIMIT ${REFUND_MAX_GAMES}`;
  if (games.length === 0) return { gamesLookedAt: 0, refunds: [] };
  const seatRows = await tx.gameSeat.findMany({
    where: { gameId: { in: games.map((g) => g.id) } },
    orderBy: [{ gameId: "asc" }, { seat: "asc" }],
    select: { gameId: true, seat: true, playerId: true, place: true, forfeit: true, muBefore: true, sigmaBefore: true, muAfter: true },
  });
  const seatsOf = new Map<string, RefundSeat[]>();
  for (const s of seatRows) {
    const list = seatsOf.get(s.gameId) ?? [];
    list.push({ ...s, forfeit: (s.forfeit as Forfeit | null) ?? null });
    seatsOf.set(s.gameId, list);
  }
  // Every game's losses, by game type and player.
  const losses: Array<{ gameId: string; gameType: string; playerId: string; lost: number; top: number }> = [];
  for (const g of games) {
    for (const [playerId, l] of lossesTo(closedId, seatsOf.get(g.id) ?? [])) losses.push({ gameId: g.id, gameType: g.gameType, playerId, ...l });
  }
  if (losses.length === 0) return { gamesLookedAt: games.length, refunds: [] };

  // Lock the ratings to change, in the order finished-games.ts locks them; then leave out games refunded already.
  const keys = [...new Set(losses.map((l) => `${l.gameType}\u0000${l.playerId}`))].sort().map((k) => k.split("\u0000") as [string, string]);
  const current = await tx.$queryRaw<Array<{ playerId: string; gameType: string; mu: number; sigma: number; name: string }>>`
    SELECT r."playerId", r."gameType", r."mu", r."sigma", p."name" FROM "Rating" r JOIN "Player" p ON p."id" = r."playerId"
    WHERE (r."gameType", r."playerId") IN (${Prisma.join(keys.map(([t, p]) => Prisma.sql`(${t}, ${p})`))})
    ORDER BY r."gameType", r."playerId"
    FOR UPDATE OF r`;
  const done = await tx.ratingRefund.findMany({
    where: { OR: losses.map((l) => ({ gameId: l.gameId, playerId: l.playerId })) },
    select: { gameId: true, playerId: true },
  });
  const refunded = new Set(done.map((d) => `${d.gameId}\u0000${d.playerId}`));
  const rows: Prisma.RatingRefundCreateManyInput[] = [];
  const updates: Array<{ playerId: string; gameType: string; mu: number; sigma: number }> = [];
  const refunds: Refund[] = [];
  for (const r of current) {
    const mine = losses.filter((l) => l.playerId === r.playerId && l.gameType === r.gameType && !refunded.has(`${l.gameId}\u0000${l.playerId}`));
    if (mine.length === 0) continue;
    const lostMu = mine.reduce((sum, l) => sum + l.lost, 0);
    const topMu = Math.max(...mine.map((l) => l.top));
    const points = refundPoints(lostMu * RATING_SCALE, Number(r.mu) * RATING_SCALE, topMu * RATING_SCALE);
    const mu = points / RATING_SCALE;
    for (const l of mine) rows.push({ gameId: l.gameId, playerId: l.playerId, cheaterId: closedId, gameType: l.gameType, mu: (mu * l.lost) / lostMu, at: new Date(now) });
    if (points > 0) updates.push({ playerId: r.playerId, gameType: r.gameType, mu: Number(r.mu) + mu, sigma: Number(r.sigma) });
    refunds.push({ playerId: r.playerId, name: r.name, gameType: r.gameType, points, games: mine.length });
  }
  if (rows.length > 0) await tx.ratingRefund.createMany({ data: rows });
  if (updates.length > 0) {
    const values = updates.map((u) => Prisma.sql`(${u.playerId}, ${u.gameType}, ${u.mu}::double precision, ${ordinal({ mu: u.mu, sigma: u.sigma })}::double precision)`);
    await tx.$executeRaw`
      UPDATE "Rating" AS r SET "mu" = v.mu, "ordinal" = v.ord, "updatedAt" = CURRENT_TIMESTAMP
      FROM (VALUES ${Prisma.join(values)}) AS v(pid, gt, mu, ord)
      WHERE r."playerId" = v.pid AND r."gameType" = v.gt`;
  }
  refunds.sort((a, b) => (a.name === b.name ? a.gameType.localeCompare(b.gameType) : a.name.localeCompare(b.name)));
  return { gamesLookedAt: games.length, refunds };
}

/** A player's refunds received since `since` (epoch ms), newest first: one per refund and game type. */
export async function refundsReceived(db: Database, playerId: string, since: number): Promise<RefundReceived[]> {
  const rows = await db.prisma.$queryRaw<Array<{ gameType: string; at: Date; mu: number; games: number }>>`
    SELECT "gameType", "at", sum("mu")::double precision AS "mu", count(*)::int AS "games" FROM "RatingRefund"
    WHERE "playerId" = ${playerId} AND "at" >= ${new Date(since)}
    GROUP BY "gameType", "at"
    HAVING sum("mu") > 0
    ORDER BY "at" DESC, "gameType"`;
  return rows.map((r) => ({ game: r.gameType, points: Math.round(Number(r.mu) * RATING_SCALE), games: Number(r.games), at: new Date(r.at).getTime() }));
}

/** The refunds given for games against `closedId`: players and games settled, and when last; null: none. */
export async function refundsGivenFor(db: Database, closedId: string): Promise<{ players: number; games: number; lastAt: number } | null> {
  const [r] = await db.prisma.$queryRaw<Array<{ players: number; games: number; lastAt: Date | null }>>`
    SELECT count(DISTINCT "playerId")::int AS "players", count(DISTINCT "gameId")::int AS "games", max("at") AS "lastAt"
    FROM "RatingRefund" WHERE "cheaterId" = ${closedId}`;
  return r?.lastAt ? { players: Number(r.players), games: Number(r.games), lastAt: new Date(r.lastAt).getTime() } : null;
}
