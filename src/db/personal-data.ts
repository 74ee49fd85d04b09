/**
 * A player's personal data (docs/protocol.md, "Your data"): everything stored about them, as one
 * download, and its erasure at their request (the GDPR's rights of access and erasure).
 *
 * What erasure keeps, and why (Lichess and most game sites do the same): a finished game belongs
 * to every player at its table (their histories, replays and rating changes are built from it),
 * so the erased player's games stay, with their seats anonymous: no player id, the name
 * ERASED_NAME, and their chat messages in those records emptied (the numbering of the others'
 * messages stays). Everything else hanging from the player goes in the same transaction: the
 * Player row, the account (its name is free again), sessions, ratings, daily attempts, reports they
 * made and reports against them, blocks, follows and notes either way, leaves, and refunds they received. Refunds
 * given to others for games against them stay (the points are the others'), without the link.
 * Only the random player id is kept (ErasedPlayer): a game still in play when they left is
 * recorded without them (finished-games.ts asks `lockAndFindErased`), and a guest token naming it
 * is refused (accounts.ts).
 *
 * Concurrency: an erasure and a finished game being recorded for the same player serialise on a
 * transaction-level advisory lock per player id (the game takes it shared, the erasure exclusive),
 * so a game recorded at the same moment either commits first (and the erasure then anonymises its
 * seat) or waits and sees the erasure.
 */
import { Prisma } from "../generated/prisma/client.js";
import { displayRating, RATING_SCALE } from "../protocol/rating-display.js";
import type { ChatMessage } from "../platform/chat.js";
import { ERASED_NAME } from "../protocol/wire.js";
import type { Database } from "./client.js";
import { retryingTransaction } from "./finished-games.js";

/** The advisory lock class of erasures (two-key advisory locks: this class, hashtext(player id)). */
const ERASURE_LOCK_CLASS = 0x4742_4552; // "GBER"

/**
 * In a transaction: takes the shared erasure lock of each of `ids` (so no erasure of theirs runs
 * until this transaction ends), then returns those erased already. Two statements, so the read
 * sees an erasure that committed while the lock was awaited.
 */
export async function lockAndFindErased(tx: Prisma.TransactionClient, ids: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)].sort();
  if (unique.length === 0) return new Set();
  await tx.$queryRaw`SELECT pg_advisory_xact_lock_shared(${ERASURE_LOCK_CLASS}::int, hashtext(x))::text FROM unnest(${unique}::text[]) AS x`;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "ErasedPlayer" WHERE "id" = ANY(${unique}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** What an erasure changed. */
export interface ErasureResult {
  /** False: this player was erased already (nothing was left to change). */
  erased: boolean;
  /** Recorded games whose seat became anonymous. */
  games: number;
  /** Recorded games whose chat held their messages. */
  chats: number;
  /**
   * Those of the games (seat or chat) that finished after `recentSince`: their rooms may still be
   * kept in the room store for the end screen, where the caller erases them too.
   */
  recent: string[];
}

/**
 * Erases `playerId`'s personal data (see the file's comment), at `at`. Safe to repeat. `recentSince`
 * (default: a day before `at`): which of their games `recent` lists.
 */
export async function erasePersonalData(db: Database, playerId: string, at: Date, recentSince = new Date(at.getTime() - 24 * 60 * 60_000)): Promise<ErasureResult> {
  return retryingTransaction(db, (tx) => erase(tx, playerId, at, recentSince));
}

async function erase(tx: Prisma.TransactionClient, playerId: string, at: Date, recentSince: Date): Promise<ErasureResult> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${ERASURE_LOCK_CLASS}::int, hashtext(${playerId}))::text`;
  const marked = await tx.$executeRaw`INSERT INTO "ErasedPlayer" ("id", "erasedAt") VALUES (${playerId}, ${at}) ON CONFLICT ("id") DO NOTHING`;
  const [seats] = await tx.$queryRaw<[{ n: number; recent: string[] }]>`
    WITH s AS (UPDATE "GameSeat" SET "playerId" = NULL, "name" = ${ERASED_NAME} WHERE "playerId" = ${playerId} RETURNING "gameId")
    SELECT count(*)::int AS n, coalesce(array_agg(g."id") FILTER (WHERE g."finishedAt" > ${recentSince}), '{}') AS recent
    FROM s JOIN "Game" g ON g."id" = s."gameId"`;
  // Their messages in every recorded chat (they may have chatted as a spectator too): each
  // becomes erasedMessage's form, in place.
  const author = JSON.stringify([{ from: { id: playerId } }]);
  const [chats] = await tx.$queryRaw<[{ n: number; recent: string[] }]>`
    WITH c AS (UPDATE "Game" SET "chat" = (
      SELECT jsonb_agg(
        CASE WHEN m -> 'from' ->> 'id' = ${playerId}
          THEN jsonb_build_object('n', m -> 'n', 'at', m -> 'at', 'from', jsonb_build_object('id', '', 'name', ${ERASED_NAME}::text), 'channel', m -> 'channel', 'text', '', 'erased', true)
          ELSE m END
        ORDER BY i)
      FROM jsonb_array_elements("chat") WITH ORDINALITY AS e(m, i))
    WHERE "chat" @> ${author}::jsonb RETURNING "id", "finishedAt")
    SELECT count(*)::int AS n, coalesce(array_agg("id") FILTER (WHERE "finishedAt" > ${recentSince}), '{}') AS recent FROM c`;
  await tx.$executeRaw`DELETE FROM "DailyAttempt" WHERE "playerId" = ${playerId}`;
  // The rest cascades from the Player row (schema.prisma): account, sessions, ratings, reports,
  // blocks, follows and notes either way, leaves, vacations, refunds received, push subscriptions; refunds caused lose their link only.
  await tx.$executeRaw`DELETE FROM "Player" WHERE "id" = ${playerId}`;
  return { erased: marked > 0, games: seats.n, chats: chats.n, recent: [...new Set([...seats.recent, ...chats.recent])].sort() };
}

/** Everything stored about a player, as they download it (dates as ISO text). */
export interface PersonalData {
  exportedAt: string;
  playerId: string;
  /** Null: nothing stored under this id yet (a guest with no finished game). */
  player: { name: string; createdAt: string; lastSeenAt: string } | null;
  account: { name: string; createdAt: string; updatedAt: string; closedAt: string | null; recoveryCode: boolean; twoFactor: boolean; invitations: boolean; showOnline: boolean; silencedUntil: string | null; silencedReason: string | null; renamedAt: string | null; formerName: string | null } | null;
  sessions: Array<{ createdAt: string; lastSeenAt: string; endedAt: string | null; userAgent: string | null }>;
  ratings: Array<{ game: string; rating: number; mu: number; sigma: number; games: number; lastGameAt: string | null }>;
  games: Array<{
    id: string;
    game: string;
    ranked: boolean;
    daily: string | null;
    startedAt: string;
    finishedAt: string;
    seat: number;
    place: number;
    score: number;
    forfeit: string | null;
    ratingBefore: number | null;
    ratingAfter: number | null;
    players: Array<{ seat: number; name: string; bot: boolean }>;
  }>;
  /** The messages they wrote in recorded games' chats. */
  chat: Array<{ game: string; n: number; at: string; channel: string; text: string; removed: boolean }>;
  dailyAttempts: Array<{ game: string; day: string; startedAt: string; finishedAt: string | null; score: number | null }>;
  /** Reports they made (the operators' notes on them are the operators'). */
  reportsMade: Array<{ reported: string; reason: string; text: string; room: string | null; createdAt: string; resolved: boolean }>;
  blocks: Array<{ name: string; since: string }>;
  /** The accounts they follow. */
  follows: Array<{ name: string; since: string }>;
  /** Their private notes on other players (what others wrote about them is the writers' own). */
  notes: Array<{ about: string; text: string; updatedAt: string }>;
  leaves: Array<{ room: string; game: string; kind: string; at: string; forgiven: boolean }>;
  /** Their vacations from turn-based games: each one's start and (planned, or early) end. */
  vacations: Array<{ from: string; until: string }>;
  refundsReceived: Array<{ gameId: string; game: string; points: number; at: string }>;
  /** Browsers subscribed to notifications while their pages are closed: each one's push service and when (its endpoint and keys are that browser's, kept back). */
  pushSubscriptions: Array<{ service: string; since: string }>;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** Everything stored about `playerId` (see PersonalData), as of `now`. */
export async function exportPersonalData(db: Database, playerId: string, now: Date): Promise<PersonalData> {
  const p = db.prisma;
  const [player, account, sessions, ratings, seats, chat, daily, reports, blocks, follows, notes, leaves, vacations, refunds, pushes] = await Promise.all([
    p.player.findUnique({ where: { id: playerId }, select: { name: true, createdAt: true, lastSeenAt: true } }),
    p.account.findUnique({ where: { playerId }, select: { name: true, createdAt: true, updatedAt: true, closedAt: true, recoveryHash: true, totpSecret: true, invitations: true, showOnline: true, silencedUntil: true, silencedReason: true, renamedAt: true, formerName: true } }),
    p.session.findMany({ where: { playerId }, orderBy: { createdAt: "asc" }, select: { createdAt: true, lastSeenAt: true, revokedAt: true, userAgent: true } }),
    p.rating.findMany({ where: { playerId }, orderBy: { gameType: "asc" } }),
    p.gameSeat.findMany({
      where: { playerId },
      orderBy: [{ game: { finishedAt: "asc" } }, { gameId: "asc" }],
      select: {
        seat: true, place: true, score: true, forfeit: true, muBefore: true, muAfter: true,
        game: { select: { id: true, gameType: true, ranked: true, daily: true, startedAt: true, finishedAt: true, seats: { orderBy: { seat: "asc" }, select: { seat: true, name: true, isBot: true } } } },
      },
    }),
    p.$queryRaw<Array<{ game: string; m: ChatMessage | string }>>`
      SELECT g."id" AS "game", m FROM "Game" g, jsonb_array_elements(g."chat") AS m
      WHERE g."chat" @> ${JSON.stringify([{ from: { id: playerId } }])}::jsonb AND m -> 'from' ->> 'id' = ${playerId}
      ORDER BY g."finishedAt", g."id", (m ->> 'n')::int`,
    p.dailyAttempt.findMany({ where: { playerId }, orderBy: [{ day: "asc" }, { gameType: "asc" }] }),
    p.report.findMany({ where: { reporterId: playerId }, orderBy: { createdAt: "asc" }, select: { reason: true, text: true, roomId: true, createdAt: true, resolvedAt: true, target: { select: { name: true, account: { select: { name: true } } } } } }),
    p.block.findMany({ where: { playerId }, orderBy: { createdAt: "asc" }, select: { createdAt: true, blocked: { select: { name: true, account: { select: { name: true } } } } } }),
    p.follow.findMany({ where: { playerId }, orderBy: { createdAt: "asc" }, select: { createdAt: true, followed: { select: { name: true, account: { select: { name: true } } } } } }),
    p.note.findMany({ where: { playerId }, orderBy: { updatedAt: "asc" }, select: { text: true, updatedAt: true, about: { select: { name: true, account: { select: { name: true } } } } } }),
    p.leave.findMany({ where: { playerId }, orderBy: { at: "asc" } }),
    p.vacation.findMany({ where: { playerId }, orderBy: { startedAt: "asc" } }),
    p.ratingRefund.findMany({ where: { playerId }, orderBy: [{ at: "asc" }, { gameId: "asc" }] }),
    p.pushSubscription.findMany({ where: { playerId }, orderBy: [{ createdAt: "asc" }, { endpoint: "asc" }], select: { endpoint: true, createdAt: true } }),
  ]);
  return {
    exportedAt: now.toISOString(),
    playerId,
    player: player && { name: player.name, createdAt: player.createdAt.toISOString(), lastSeenAt: player.lastSeenAt.toISOString() },
    account: account && { name: account.name, createdAt: account.createdAt.toISOString(), updatedAt: account.updatedAt.toISOString(), closedAt: iso(account.closedAt), recoveryCode: account.recoveryHash !== null, twoFactor: account.totpSecret !== null, invitations: account.invitations, showOnline: account.showOnline, silencedUntil: iso(account.silencedUntil), silencedReason: account.silencedReason, renamedAt: iso(account.renamedAt), formerName: account.formerName },
    sessions: sessions.map((s) => ({ createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), endedAt: iso(s.revokedAt), userAgent: s.userAgent })),
    ratings: ratings.map((r) => ({ game: r.gameType, rating: displayRating(r.mu), mu: r.mu, sigma: r.sigma, games: r.games, lastGameAt: iso(r.lastGameAt) })),
    games: seats.map((s) => ({
      id: s.game.id,
      game: s.game.gameType,
      ranked: s.game.ranked,
      daily: s.game.daily,
      startedAt: s.game.startedAt.toISOString(),
      finishedAt: s.game.finishedAt.toISOString(),
      seat: s.seat,
      place: s.place,
      score: s.score,
      forfeit: s.forfeit,
      ratingBefore: s.muBefore === null ? null : displayRating(s.muBefore),
      ratingAfter: s.muAfter === null ? null : displayRating(s.muAfter),
      players: s.game.seats.map((o) => ({ seat: o.seat, name: o.name, bot: o.isBot })),
    })),
    chat: chat.map((r) => {
      const m = (typeof r.m === "string" ? JSON.parse(r.m) : r.m) as ChatMessage;
      return { game: r.game, n: m.n, at: new Date(m.at).toISOString(), channel: m.channel, text: m.text, removed: m.removed === true };
    }),
    dailyAttempts: daily.map((d) => ({ game: d.gameType, day: d.day, startedAt: d.startedAt.toISOString(), finishedAt: iso(d.finishedAt), score: d.score })),
    reportsMade: reports.map((r) => ({ reported: r.target.account?.name ?? r.target.name, reason: r.reason, text: r.text, room: r.roomId, createdAt: r.createdAt.toISOString(), resolved: r.resolvedAt !== null })),
    blocks: blocks.map((b) => ({ name: b.blocked.account?.name ?? b.blocked.name, since: b.createdAt.toISOString() })),
    follows: follows.map((f) => ({ name: f.followed.account?.name ?? f.followed.name, since: f.createdAt.toISOString() })),
    notes: notes.map((n) => ({ about: n.about.account?.name ?? n.about.name, text: n.text, updatedAt: n.updatedAt.toISOString() })),
    leaves: leaves.map((l) => ({ room: l.roomId, game: l.gameType, kind: l.kind, at: l.at.toISOString(), forgiven: l.forgivenAt !== null })),
    vacations: vacations.map((v) => ({ from: v.startedAt.toISOString(), until: v.until.toISOString() })),
    refundsReceived: refunds.map((r) => ({ gameId: r.gameId, game: r.gameType, points: Math.round(r.mu * RATING_SCALE), at: r.at.toISOString() })),
    pushSubscriptions: pushes.map((x) => ({ service: new URL(x.endpoint).host, since: x.createdAt.toISOString() })),
  };
}
