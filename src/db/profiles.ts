/**
 * Queries behind the profile page and the rating leaderboards (docs/protocol.md, "Profiles and
 * leaderboards"). Read-only: everything here comes from what recordFinishedGame wrote (Game,
 * GameSeat with each rated seat's OpenSkill values before and after, Rating) and from Account
 * (read here, written by the accounts code).
 */
import { Prisma } from "../generated/prisma/client.js";
import { displayedChange, displayRating, IDLE_VARIANCE_PER_DAY, idleSigma, isProvisional, PROVISIONAL_SIGMA, RATING_SCALE, RATING_SIGMA0 } from "../protocol/rating-display.js";
import { LEADERBOARD_ACTIVE_DAYS, profilePath } from "../protocol/profiles.js";
import type { GameListPlayer, HistoryPoint, LeaderboardRow, ProfileRating, Reliability, TableRating, TableReliability, Versus } from "../protocol/profiles.js";
import { nameKey } from "../platform/identity.js";
import { heldFormerName } from "../platform/accounts.js";
import type { Database } from "./client.js";

/** The most rating-history points a profile lists per game (the newest). */
export const HISTORY_POINTS = 500;

export interface ProfileOwner {
  id: string;
  name: string;
  /** The account's name, or null for a guest. */
  account: string | null;
  since: Date;
  /** The account is closed (platform/moderation.ts): by its player or by the operators. */
  closed: "player" | "operators" | null;
  /** The name before its last rename, while it is held for the account (until: epoch ms). */
  formerly: { name: string; until: number } | null;
}

/**
 * The player a profile key names: `id:<player id>` (any recorded player, guests included) or an
 * account's name, matched case-insensitively, or the name an account had before its last rename
 * while it is held for it (at `now`). Null when there is none.
 */
export async function findProfileOwner(db: Database, key: string, now: number): Promise<ProfileOwner | null> {
  type Row = { id: string; name: string; account: string | null; since: Date; closed: string | null; formerName: string | null; formerUntil: Date | null };
  const held = new Date(now);
  const byId = key.startsWith("id:");
  const k = nameKey(key.trim());
  // One select list; the key picks the row (by id, or by a name the account has or had).
  const where = byId
    ? Prisma.sql`FROM "Player" p LEFT JOIN "Account" a ON a."playerId" = p."id" WHERE p."id" = ${key.slice(3)}`
    : Prisma.sql`FROM "Account" a JOIN "Player" p ON p."id" = a."playerId"
        WHERE a."nameKey" = ${k} OR (a."formerNameKey" = ${k} AND a."formerUntil" > ${held})
        ORDER BY (a."nameKey" = ${k}) DESC
        LIMIT 1`;
  const rows = await db.prisma.$queryRaw<Row[]>`
    SELECT p."id", p."name", a."name" AS "account", CASE WHEN a."closedAt" IS NULL THEN NULL ELSE a."closedBy" END AS "closed", LEAST(p."createdAt", (SELECT min(g."startedAt") FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId" WHERE s."playerId" = p."id")) AS "since",
      a."formerName", a."formerUntil"
    ${where}`;
  const r = rows[0];
  if (!r) return null;
  return { id: r.id, name: r.account ?? r.name, account: r.account, since: new Date(r.since), closed: r.closed === "operators" ? "operators" : r.closed === null ? null : "player", formerly: heldFormerName(r, now) };
}

/**
 * Accounts whose name starts with `prefix` (compared as names are: case-insensitively, NFC), open
 * ones only (a closed account is on no list): the exact name first, then the shortest, then in
 * alphabetical order. The index on nameKey with text_pattern_ops serves the prefix whatever the
 * database's collation (migration 20261213000000_player_search).
 */
export async function searchPlayers(
  db: Database,
  prefix: string,
  limit: number,
  /**
   * Names to suggest to `by` for an invitation: not `by` itself nor those it blocks. Not filtered by
   * what `by` may not know (another's invitations switch, their blocks of `by`): the invitation's
   * refusal says those in one message, so that nobody can tell a block from the switch, and a list
   * would tell them in bulk.
   */
  invite?: { by: string | null },
): Promise<Array<{ playerId: string; name: string }>> {
  const k = nameKey(prefix.trim());
  const pattern = `${k.replace(/[\\%_]/g, "\\$&")}%`;
  const by = invite?.by ?? null;
  const invitable =
    by === null
      ? Prisma.empty
      : Prisma.sql`AND a."playerId" <> ${by} AND NOT EXISTS (SELECT 1 FROM "Block" b WHERE b."playerId" = ${by} AND b."blockedId" = a."playerId")`;
  return db.prisma.$queryRaw<Array<{ playerId: string; name: string }>>`
    SELECT a."playerId", a."name" FROM "Account" a
     WHERE a."nameKey" LIKE ${pattern} AND a."closedAt" IS NULL ${invitable}
     ORDER BY (a."nameKey" = ${k}) DESC, length(a."nameKey"), a."nameKey"
     LIMIT ${limit}`;
}

/**
 * Every game rating of a player (by game id), with wins and the rating after each rated game; its
 * sigma (and so whether it is provisional) as it stands at `now`, after their time away (idleSigma).
 */
export async function profileRatings(db: Database, playerId: string, now: number): Promise<ProfileRating[]> {
  const ratings = await db.prisma.rating.findMany({ where: { playerId }, orderBy: { gameType: "asc" } });
  if (ratings.length === 0) return [];
  const [wins, points, refunds] = await Promise.all([
    db.prisma.$queryRaw<Array<{ gameType: string; wins: number }>>`
    SELECT g."gameType", count(*)::int AS "wins"
    FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId"
    WHERE s."playerId" = ${playerId} AND s."muAfter" IS NOT NULL AND s."place" = 1 AND s."forfeit" IS NULL
    GROUP BY g."gameType"`,
    db.prisma.$queryRaw<Array<{ gameType: string; gameId: string; at: Date; mu: number; sigma: number }>>`
    SELECT "gameType", "gameId", "at", "mu", "sigma" FROM (
      SELECT g."gameType", g."id" AS "gameId", g."finishedAt" AS "at", s."muAfter" AS "mu", s."sigmaAfter" AS "sigma",
        row_number() OVER (PARTITION BY g."gameType" ORDER BY g."finishedAt" DESC, g."id" DESC) AS "n"
      FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId"
      WHERE s."playerId" = ${playerId} AND s."muAfter" IS NOT NULL AND s."sigmaAfter" IS NOT NULL
    ) AS h
    WHERE "n" <= ${HISTORY_POINTS}
    ORDER BY "gameType", "at" ASC, "gameId" ASC`,
    // Rating given back (db/rating-refunds.ts): not in the history's points, which are the games'.
    db.prisma.ratingRefund.groupBy({ by: ["gameType"], where: { playerId }, _sum: { mu: true } }),
  ]);
  const refundedBy = new Map(refunds.map((r) => [r.gameType, Math.round((r._sum.mu ?? 0) * RATING_SCALE)]));
  const winsBy = new Map(wins.map((w) => [w.gameType, Number(w.wins)]));
  const historyBy = new Map<string, HistoryPoint[]>();
  for (const p of points) {
    const list = historyBy.get(p.gameType) ?? [];
    list.push({ at: new Date(p.at).toISOString(), rating: displayRating(Number(p.mu)), provisional: isProvisional(Number(p.sigma)), gameId: p.gameId });
    historyBy.set(p.gameType, list);
  }
  return ratings.map((r) => {
    const sigma = idleSigma(r.sigma, r.lastGameAt?.getTime() ?? null, now);
    return {
    game: r.gameType,
    rating: displayRating(r.mu),
    provisional: isProvisional(sigma),
    games: r.games,
    wins: winsBy.get(r.gameType) ?? 0,
    mu: r.mu,
    sigma,
    history: historyBy.get(r.gameType) ?? [],
    refunded: refundedBy.get(r.gameType) ?? 0,
    };
  });
}

/** How many of a player's latest ranked games with people their profile's reliability counts. */
export const RELIABILITY_GAMES = 100;

/**
 * How reliably a player plays ranked games out (docs/protocol.md, "Leaving ranked games"): of their
 * latest RELIABILITY_GAMES ranked games with people (each rated seat they had, and each ranked game
 * called off because they never moved), how many they left (platform/leaves.ts: ran out of time
 * and never came back, or never moved). A leave the operators forgave is not counted as left.
 */
export async function reliability(db: Database, playerId: string): Promise<Reliability> {
  const [r] = await reliabilities(db, [playerId]);
  return { games: r!.games, left: r!.left };
}

/** reliability() of each of `playerIds` (a table's players), in the order given. */
export async function reliabilities(db: Database, playerIds: readonly string[]): Promise<TableReliability[]> {
  if (playerIds.length === 0) return [];
  const rows = await db.prisma.$queryRaw<Array<{ id: string; games: number; left: number }>>`
    SELECT p."id", r."games", r."left"
    FROM unnest(${[...playerIds]}::text[]) AS p("id")
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS "games", count(l."roomId")::int AS "left"
      FROM (
        SELECT s."gameId" AS "room", g."finishedAt" AS "at"
        FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId"
        WHERE s."playerId" = p."id" AND s."muBefore" IS NOT NULL
        UNION
        SELECT n."roomId" AS "room", n."at" FROM "Leave" n WHERE n."playerId" = p."id" AND n."kind" = 'no-show'
        ORDER BY "at" DESC, "room" DESC
        LIMIT ${RELIABILITY_GAMES}
      ) AS latest
      LEFT JOIN "Leave" l ON l."roomId" = latest."room" AND l."playerId" = p."id" AND l."forgivenAt" IS NULL
    ) AS r`;
  const by = new Map(rows.map((r) => [r.id, r]));
  return playerIds.map((playerId) => ({ playerId, games: Number(by.get(playerId)?.games ?? 0), left: Number(by.get(playerId)?.left ?? 0) }));
}

/** How many of two players' latest games together `versus` lists. */
export const VERSUS_RECENT = 10;

/**
 * Two players' record against each other (Lichess's crosstable): every finished game both sat in,
 * as people, and who finished ahead. A seat a bot finished for its player (they ran out of time or
 * resigned: `forfeit`) is behind every seat that did not; otherwise the places decide (tied places
 * are level). Per game type, and their latest games together, newest first. Daily-challenge deals
 * are solitaire, and left out all the same (a game list must not give today's deal away).
 */
export async function versus(db: Database, playerId: string, otherId: string): Promise<Versus> {
  const ahead = Prisma.sql`((a."forfeit" IS NULL AND b."forfeit" IS NOT NULL) OR ((a."forfeit" IS NULL) = (b."forfeit" IS NULL) AND a."place" < b."place"))`;
  const behind = Prisma.sql`((b."forfeit" IS NULL AND a."forfeit" IS NOT NULL) OR ((a."forfeit" IS NULL) = (b."forfeit" IS NULL) AND b."place" < a."place"))`;
  const together = Prisma.sql`
    FROM "GameSeat" a
    JOIN "GameSeat" b ON b."gameId" = a."gameId" AND b."playerId" = ${otherId} AND b."seat" <> a."seat" AND NOT b."isBot"
    JOIN "Game" g ON g."id" = a."gameId"
    WHERE a."playerId" = ${playerId} AND NOT a."isBot" AND g."daily" IS NULL`;
  const [counts, recent] = await Promise.all([
    db.prisma.$queryRaw<Array<{ game: string; games: number; ahead: number; behind: number }>>`
      SELECT g."gameType" AS "game", count(DISTINCT g."id")::int AS "games",
        count(DISTINCT g."id") FILTER (WHERE ${ahead})::int AS "ahead", count(DISTINCT g."id") FILTER (WHERE ${behind})::int AS "behind"
      ${together}
      GROUP BY g."gameType" ORDER BY g."gameType"`,
    db.prisma.$queryRaw<Array<{ id: string; game: string; finishedAt: Date; ranked: boolean; ahead: boolean; behind: boolean }>>`
      SELECT DISTINCT ON (g."finishedAt", g."id") g."id", g."gameType" AS "game", g."finishedAt", g."ranked", ${ahead} AS "ahead", ${behind} AS "behind"
      ${together}
      ORDER BY g."finishedAt" DESC, g."id" DESC
      LIMIT ${VERSUS_RECENT}`,
  ]);
  const byGame = counts.map((c) => {
    const games = Number(c.games);
    const a = Number(c.ahead);
    const b = Number(c.behind);
    return { game: c.game, games, ahead: a, behind: b, level: games - a - b };
  });
  const sum = (k: "games" | "ahead" | "behind" | "level") => byGame.reduce((n, g) => n + g[k], 0);
  return {
    games: sum("games"),
    ahead: sum("ahead"),
    behind: sum("behind"),
    level: sum("level"),
    byGame,
    recent: recent.map((r) => ({ id: r.id, game: r.game, finishedAt: new Date(r.finishedAt).toISOString(), ranked: r.ranked, result: r.ahead ? "ahead" : r.behind ? "behind" : "level" })),
  };
}

/** How many finished games of each type the player sat in (ranked, casual and daily alike). */
export async function playedCounts(db: Database, playerId: string): Promise<Array<{ game: string; games: number }>> {
  const rows = await db.prisma.$queryRaw<Array<{ game: string; games: number }>>`
    SELECT g."gameType" AS "game", count(DISTINCT g."id")::int AS "games"
    FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId"
    WHERE s."playerId" = ${playerId}
    GROUP BY g."gameType" ORDER BY g."gameType"`;
  return rows.map((r) => ({ game: r.game, games: Number(r.games) }));
}

/**
 * Where a page of a player's games ends: the last game's finishedAt and the md5 of its id (the
 * order's tie-break). A cursor holds no room id, so a page whose last game is a daily deal the
 * asker may not see yet does not give its id away.
 */
export interface GamesCursor {
  at: Date;
  key: string;
}

const CURSOR_RE = /^(\d{1,15})\.([0-9a-f]{32})$/;

export function encodeCursor(c: GamesCursor): string {
  return `${c.at.getTime()}.${c.key}`;
}

/** The cursor in a `before` parameter, or null when it is not one. */
export function decodeCursor(raw: string): GamesCursor | null {
  const m = CURSOR_RE.exec(raw);
  if (!m) return null;
  const at = new Date(Number(m[1]));
  return Number.isNaN(at.getTime()) ? null : { at, key: m[2]! };
}

export interface PlayerGameRow {
  id: string;
  game: string;
  finishedAt: Date;
  ranked: boolean;
  daily: string | null;
  players: GameListPlayer[];
  me: { seat: number; place: number; score: number; forfeit: string | null };
  ratingChange: ReturnType<typeof displayedChange> | null;
  cursor: GamesCursor;
}

/**
 * A page of the finished games a player sat in, newest first (finishedAt, then md5 of the id),
 * strictly after `before`; `limit` + 1 are read to know whether another page follows.
 */
export async function playerGames(
  db: Database,
  playerId: string,
  before: GamesCursor | null,
  limit: number,
  only: { game?: string; with?: string } = {},
): Promise<{ rows: PlayerGameRow[]; more: boolean }> {
  const after = before ? Prisma.sql`AND (g."finishedAt", md5(g."id")) < (${before.at}, ${before.key})` : Prisma.empty;
  // Only one game type; only games with another player (a person's seat, not a bot's).
  const ofGame = only.game ? Prisma.sql`AND g."gameType" = ${only.game}` : Prisma.empty;
  const withOther = only.with ? Prisma.sql`AND EXISTS (SELECT 1 FROM "GameSeat" o WHERE o."gameId" = g."id" AND o."playerId" = ${only.with} AND NOT o."isBot")` : Prisma.empty;
  const games = await db.prisma.$queryRaw<Array<{ id: string; gameType: string; finishedAt: Date; ranked: boolean; daily: string | null; key: string }>>`
    SELECT g."id", g."gameType", g."finishedAt", g."ranked", g."daily", md5(g."id") AS "key"
    FROM "Game" g
    WHERE EXISTS (SELECT 1 FROM "GameSeat" s WHERE s."gameId" = g."id" AND s."playerId" = ${playerId}) ${ofGame} ${withOther} ${after}
    ORDER BY g."finishedAt" DESC, md5(g."id") DESC
    LIMIT ${limit + 1}`;
  const more = games.length > limit;
  const page = games.slice(0, limit);
  if (page.length === 0) return { rows: [], more: false };
  const seats = await db.prisma.$queryRaw<
    Array<{ gameId: string; seat: number; playerId: string | null; name: string; isBot: boolean; score: number; place: number; forfeit: string | null; account: string | null; muBefore: number | null; sigmaBefore: number | null; muAfter: number | null; sigmaAfter: number | null }>
  >`
    SELECT s."gameId", s."seat", s."playerId", s."name", s."isBot", s."score", s."place", s."forfeit", a."name" AS "account",
      s."muBefore", s."sigmaBefore", s."muAfter", s."sigmaAfter"
    FROM "GameSeat" s LEFT JOIN "Account" a ON a."playerId" = s."playerId"
    WHERE s."gameId" IN (${Prisma.join(page.map((g) => g.id))})
    ORDER BY s."gameId", s."seat"`;
  const bySeats = new Map<string, typeof seats>();
  for (const s of seats) bySeats.set(s.gameId, [...(bySeats.get(s.gameId) ?? []), s]);
  const rows = page.map((g): PlayerGameRow => {
    const list = bySeats.get(g.id) ?? [];
    const mine = list.find((s) => s.playerId === playerId)!;
    const rated = list.find((s) => s.playerId === playerId && s.muBefore !== null && s.sigmaBefore !== null && s.muAfter !== null && s.sigmaAfter !== null);
    return {
      id: g.id,
      game: g.gameType,
      finishedAt: new Date(g.finishedAt),
      ranked: g.ranked,
      daily: g.daily,
      players: list.map((s) => ({
        seat: s.seat,
        name: s.isBot || s.playerId === null ? s.name : (s.account ?? s.name),
        playerId: s.playerId,
        bot: s.isBot,
        place: s.place,
        score: Number(s.score),
        forfeit: s.forfeit,
        profile: s.playerId === null ? null : profilePath({ playerId: s.playerId, account: s.account }),
      })),
      me: { seat: mine.seat, place: mine.place, score: Number(mine.score), forfeit: mine.forfeit },
      ratingChange: rated ? displayedChange({ mu: Number(rated.muBefore), sigma: Number(rated.sigmaBefore) }, { mu: Number(rated.muAfter), sigma: Number(rated.sigmaAfter) }) : null,
      cursor: { at: new Date(g.finishedAt), key: g.key },
    };
  });
  return { rows, more };
}

/**
 * idleSigma in SQL, of the Rating row `r` at `now` (epoch ms), for the leaderboard's parts.
 * "lastGameAt" is a timestamp without time zone holding UTC, whose epoch is read as UTC.
 */
const IDLE_SIGMA_SQL = (now: number) => Prisma.sql`LEAST(${RATING_SIGMA0}::double precision, sqrt(r."sigma" * r."sigma"
  + ${IDLE_VARIANCE_PER_DAY}::double precision * GREATEST(0, COALESCE((${now / 1000}::double precision - EXTRACT(EPOCH FROM r."lastGameAt")) / 86400, 0))))`;

/**
 * A game's rating leaderboard, in three parts: players whose rating is settled and who played a
 * rated game of it in the last LEADERBOARD_ACTIVE_DAYS days (at `now`, the server's clock), each
 * with its rank; then settled but inactive ones; then provisional ones; each part by displayed
 * rating (mu; then the conservative ordinal, more games, id), the last two unranked. Closed accounts
 * are left out.
 */
export async function ratingLeaderboard(db: Database, gameType: string, limit: number, now: number): Promise<LeaderboardRow[]> {
  const take = Math.max(1, Math.min(1000, Math.floor(limit)));
  const activeSince = new Date(now - LEADERBOARD_ACTIVE_DAYS * 86_400_000);
  const rows = await db.prisma.$queryRaw<Array<{ playerId: string; name: string; account: string | null; mu: number; sigma: number; ordinal: number; games: number; lastGameAt: Date | null; part: number }>>`
    SELECT r."playerId", p."name", a."name" AS "account", r."mu", r."sigma", r."ordinal", r."games", r."lastGameAt", part
    FROM "Rating" r JOIN "Player" p ON p."id" = r."playerId" LEFT JOIN "Account" a ON a."playerId" = r."playerId",
      LATERAL (SELECT CASE WHEN ${IDLE_SIGMA_SQL(now)} > ${PROVISIONAL_SIGMA}::double precision THEN 2
                           WHEN r."lastGameAt" IS NULL OR r."lastGameAt" < ${activeSince} THEN 1 ELSE 0 END AS part) AS parts
    WHERE r."gameType" = ${gameType} AND a."closedAt" IS NULL
    ORDER BY part ASC, r."mu" DESC, r."ordinal" DESC, r."games" DESC, r."playerId" ASC
    LIMIT ${take}`;
  let rank = 0;
  return rows.map((r) => {
    const sigma = idleSigma(Number(r.sigma), r.lastGameAt ? new Date(r.lastGameAt).getTime() : null, now);
    const provisional = isProvisional(sigma);
    const inactive = Number(r.part) === 1;
    return {
      playerId: r.playerId,
      name: r.account ?? r.name,
      mu: Number(r.mu),
      sigma,
      ordinal: Number(r.ordinal),
      games: Number(r.games),
      rating: displayRating(Number(r.mu)),
      provisional,
      inactive,
      lastGameAt: r.lastGameAt ? new Date(r.lastGameAt).toISOString() : null,
      rank: provisional || inactive ? null : ++rank,
      profile: profilePath({ playerId: r.playerId, account: r.account }),
    };
  });
}

/** The ratings in `gameType` of those of `playerIds` who have one (the others are left out), at `now`. */
export async function ratingsOf(db: Database, gameType: string, playerIds: readonly string[], now: number): Promise<TableRating[]> {
  if (playerIds.length === 0) return [];
  const rows = await db.prisma.rating.findMany({ where: { gameType, playerId: { in: [...playerIds] } }, select: { playerId: true, mu: true, sigma: true, games: true, lastGameAt: true } });
  return rows
    .map((r) => ({ playerId: r.playerId, rating: displayRating(r.mu), provisional: isProvisional(idleSigma(r.sigma, r.lastGameAt?.getTime() ?? null, now)), games: r.games }))
    .sort((a, b) => playerIds.indexOf(a.playerId) - playerIds.indexOf(b.playerId));
}
