/**
 * The permanent record of a finished game: written once, in ONE database transaction, together
 * with the players' names and (for ranked games) their OpenSkill ratings for that game type.
 *
 * Concurrency:
 * - Two nodes writing the same room: the Game row is inserted with ON CONFLICT DO NOTHING
 *   (createMany skipDuplicates) as the first statement, so the loser blocks on the primary key
 *   until the winner commits, inserts nothing, writes nothing else and returns written:false
 *   with the stored rating changes.
 * - Two different games finishing at once for the same player: the Rating rows are created if
 *   missing and then locked with SELECT … FOR UPDATE, always in playerId order (and Player rows
 *   are upserted in the same order), so the second transaction waits and rates from the first's
 *   committed values; no update is lost and lock order cannot deadlock.
 *
 * Rating rules: only ranked games; only human seats (isBot false, playerId set) are rated, among
 * themselves (bots are stored but are neither rated nor used as opponents); a ranked game with
 * fewer than two distinct rated humans changes no rating. OpenSkill v5 defaults (Plackett-Luce,
 * mu 25, sigma 25/3), one-player teams, `rank` = places so ties share a rank, except that a seat
 * forfeited (its player resigned, or ran out of time and never took it back, so a bot finished it)
 * ranks below every seat that was not, whatever the bot scored (forfeited seats share that last
 * rank). If one player occupies several seats, only their first seat is rated. Each rated player's
 * sigma is first widened by their time away from the game type (protocol/rating-display.ts
 * idleSigma), and the seat's sigmaBefore is that widened one.
 */
import { ordinal, rate, rating } from "openskill";
import { Prisma } from "../generated/prisma/client.js";
import type { Database } from "./client.js";
import { erasedMessage, type ChatMessage } from "../platform/chat.js";
import { ERASED_NAME } from "../protocol/wire.js";
import { idleSigma } from "../protocol/rating-display.js";
import { lockAndFindErased } from "./personal-data.js";

export interface FinishedGameRecord {
  roomId: string;
  gameType: string;
  ranked: boolean;
  options: unknown;
  seed: string;
  commitment: string;
  /**
   * The game's rules version it was dealt and played under (GameDefinition.rulesVersion; absent:
   * 1, as in every record made before a game had a second version): its replay uses the same.
   */
  rules?: number;
  /** `bot`: made by the bot that played the seat of a player who was away. */
  actions: Array<{ seat: number; action: unknown; at: number /* epoch ms */; bot?: true }>;
  outcome: { scores: number[]; places: number[]; details?: unknown };
  startedAt: Date;
  finishedAt: Date;
  /**
   * `forfeit`: the seat's player resigned, or ran out of time and a bot played their seat to the
   * end; absent/null otherwise (older records have none).
   */
  seats: Array<{ seat: number; playerId: string | null; name: string; isBot: boolean; forfeit?: Forfeit | null }>;
  /** A daily-challenge deal: its UTC day; with `ranked`, the seat's day attempt is completed too. */
  daily?: string | null;
  /** The table chat when the game was recorded, both channels (absent: none; older records have []). */
  chat?: ChatMessage[];
}
export type Forfeit = "timeout" | "resigned";

export interface RatingSnapshot {
  mu: number;
  sigma: number;
  ordinal: number;
}
export interface RatingChange {
  seat: number;
  playerId: string;
  before: RatingSnapshot;
  after: RatingSnapshot;
}

export interface LeaderboardEntry {
  playerId: string;
  name: string;
  mu: number;
  sigma: number;
  ordinal: number;
  games: number;
}

export interface PlayerRating {
  gameType: string;
  mu: number;
  sigma: number;
  ordinal: number;
  games: number;
}

/** A rating transaction's limits, and how often one that lost a write conflict is tried (retryingTransaction). */
const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;
const MAX_ATTEMPTS = 3;

function snapshot(mu: number, sigma: number): RatingSnapshot {
  return { mu, sigma, ordinal: ordinal({ mu, sigma }) };
}

function json(value: unknown): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === undefined || value === null ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

/** A Json column's value as JSON text for raw SQL (`::jsonb`); absent is JSON null, as `json` makes it. */
function jsonText(value: unknown): string {
  return value === undefined ? "null" : JSON.stringify(value);
}

function validate(rec: FinishedGameRecord): void {
  const fail = (msg: string): never => {
    throw new Error(`recordFinishedGame(${JSON.stringify(rec.roomId)}): ${msg}`);
  };
  if (typeof rec.roomId !== "string" || rec.roomId === "") fail("roomId must be a non-empty string");
  if (typeof rec.gameType !== "string" || rec.gameType === "") fail("gameType must be a non-empty string");
  if (rec.rules !== undefined && (!Number.isInteger(rec.rules) || rec.rules < 1)) fail("rules must be an integer >= 1");
  const n = rec.seats.length;
  if (n === 0) fail("no seats");
  const seen = new Set<number>();
  for (const s of rec.seats) {
    if (!Number.isInteger(s.seat) || s.seat < 0 || s.seat >= n || seen.has(s.seat)) {
      fail(`seat numbers must be 0..${n - 1}, each once (got ${s.seat})`);
    }
    seen.add(s.seat);
    if (s.isBot === false && s.playerId === "") fail(`seat ${s.seat}: empty playerId`);
    if (s.forfeit != null && (s.isBot || (s.forfeit !== "timeout" && s.forfeit !== "resigned"))) fail(`seat ${s.seat}: bad forfeit`);
  }
  if (rec.outcome.scores.length !== n || rec.outcome.places.length !== n) {
    fail(`outcome.scores/places must have one entry per seat (${n})`);
  }
  if (!rec.outcome.scores.every((x) => Number.isFinite(x))) fail("outcome.scores must be finite numbers");
  if (!rec.outcome.places.every((p) => Number.isInteger(p) && p >= 1)) fail("outcome.places must be integers >= 1");
  for (const d of [rec.startedAt, rec.finishedAt]) {
    if (!(d instanceof Date) || Number.isNaN(d.getTime())) fail("startedAt/finishedAt must be valid Dates");
  }
}

/**
 * The ranks the rating update uses: the game's places, with every forfeited seat after all the
 * others (sharing one rank). Exported for tests.
 */
export function ratingRanks(rec: Pick<FinishedGameRecord, "outcome">, seats: ReadonlyArray<{ seat: number; forfeit?: Forfeit | null }>): number[] {
  const last = Math.max(0, ...seats.filter((s) => !s.forfeit).map((s) => rec.outcome.places[s.seat]!)) + 1;
  return seats.map((s) => (s.forfeit ? last : rec.outcome.places[s.seat]!));
}

type SeatRow = {
  seat: number;
  playerId: string | null;
  muBefore: number | null;
  sigmaBefore: number | null;
  muAfter: number | null;
  sigmaAfter: number | null;
};

function changesFromSeats(seats: SeatRow[]): RatingChange[] {
  return seats
    .filter((s) => s.playerId !== null && s.muBefore !== null && s.sigmaBefore !== null && s.muAfter !== null && s.sigmaAfter !== null)
    .sort((a, b) => a.seat - b.seat)
    .map((s) => ({
      seat: s.seat,
      playerId: s.playerId!,
      before: snapshot(s.muBefore!, s.sigmaBefore!),
      after: snapshot(s.muAfter!, s.sigmaAfter!),
    }));
}

function isRetryable(err: unknown): boolean {
  // P2034: "Transaction failed due to a write conflict or a deadlock. Please retry your transaction".
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2034";
}

/** Runs `fn` in one transaction (TX_OPTIONS), again up to MAX_ATTEMPTS times when it lost a write conflict. */
export async function retryingTransaction<T>(db: Database, fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.prisma.$transaction(fn, TX_OPTIONS);
    } catch (err) {
      if (attempt < MAX_ATTEMPTS && isRetryable(err)) continue;
      throw err;
    }
  }
}

/**
 * Writes a finished game once. Returns written:false (and the rating changes stored by the
 * first writer) when the room was already recorded.
 */
export async function recordFinishedGame(
  db: Database,
  rec: FinishedGameRecord,
): Promise<{ written: boolean; ratingChanges: RatingChange[] }> {
  validate(rec);
  return retryingTransaction(db, (tx) => writeGame(tx, rec));
}

async function writeGame(
  tx: Prisma.TransactionClient,
  given: FinishedGameRecord,
): Promise<{ written: boolean; ratingChanges: RatingChange[] }> {
  // 0. A player whose data was erased while the game was in play (personal-data.ts) is recorded
  //    anonymous: their seat and their chat messages. Reads only; the claim stays the first write.
  const erased = await lockAndFindErased(tx, [
    ...given.seats.flatMap((s) => (s.playerId === null ? [] : [s.playerId])),
    ...(given.chat ?? []).map((m) => m.from.id),
  ]);
  const rec = erased.size === 0 ? given : withoutErased(given, erased);
  const seats = [...rec.seats].sort((a, b) => a.seat - b.seat);

  // 1. Claim the room. Must stay the first write (see the header comment). Raw SQL: Prisma's
  //    createMany walks every action object of the game through its argument serialiser, which
  //    cost the server ~15 ms of one event loop per finished game; the JSON text goes as is.
  const inserted = await tx.$executeRaw`
    INSERT INTO "Game" ("id", "gameType", "ranked", "options", "playerCount", "seed", "commitment", "rules", "actions", "outcome", "startedAt", "finishedAt", "daily", "chat")
    VALUES (${rec.roomId}, ${rec.gameType}, ${rec.ranked}, ${jsonText(rec.options)}::jsonb, ${seats.length}::integer, ${rec.seed}, ${rec.commitment}, ${rec.rules ?? 1}::integer,
      ${jsonText(rec.actions)}::jsonb, ${jsonText(rec.outcome)}::jsonb, ${rec.startedAt}, ${rec.finishedAt}, ${rec.daily ?? null}, ${jsonText(rec.chat ?? [])}::jsonb)
    ON CONFLICT ("id") DO NOTHING`;
  if (inserted === 0) {
    const stored = await tx.gameSeat.findMany({ where: { gameId: rec.roomId }, orderBy: { seat: "asc" } });
    return { written: false, ratingChanges: changesFromSeats(stored) };
  }

  // 2. Players (every seat that names a player, so the foreign key holds). The name is taken
  //    unless the stored one comes from a game that finished later (a late, retried write).
  const names = new Map<string, string>();
  for (const s of seats) if (s.playerId !== null) names.set(s.playerId, s.name);
  const playerIds = [...names.keys()].sort();
  if (playerIds.length > 0) {
    await tx.$executeRaw`
      INSERT INTO "Player" ("id", "name", "lastSeenAt")
      VALUES ${Prisma.join(playerIds.map((id) => Prisma.sql`(${id}, ${names.get(id)!}, ${rec.finishedAt})`))}
      ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "lastSeenAt" = EXCLUDED."lastSeenAt"
      WHERE "Player"."lastSeenAt" <= EXCLUDED."lastSeenAt"`;
  }

  // 3. Ratings (ranked games, humans only, first seat per player).
  const ratedSeats: typeof seats = [];
  for (const s of seats) {
    if (!s.isBot && s.playerId !== null && !ratedSeats.some((r) => r.playerId === s.playerId)) ratedSeats.push(s);
  }
  const after = new Map<number, { before: { mu: number; sigma: number }; after: { mu: number; sigma: number } }>();
  if (rec.ranked && ratedSeats.length >= 2) {
    const ids = ratedSeats.map((s) => s.playerId!).sort();
    const initial = rating();
    await tx.$executeRaw`
      INSERT INTO "Rating" ("playerId", "gameType", "mu", "sigma", "ordinal", "games", "updatedAt")
      VALUES ${Prisma.join(
        ids.map(
          (id) =>
            Prisma.sql`(${id}, ${rec.gameType}, ${initial.mu}::double precision, ${initial.sigma}::double precision, ${ordinal(initial)}::double precision, 0, CURRENT_TIMESTAMP)`,
        ),
      )}
      ON CONFLICT ("playerId", "gameType") DO NOTHING`;
    const current = await tx.$queryRaw<Array<{ playerId: string; mu: number; sigma: number; lastGameAt: Date | null }>>`
      SELECT "playerId", "mu", "sigma", "lastGameAt" FROM "Rating"
      WHERE "gameType" = ${rec.gameType} AND "playerId" IN (${Prisma.join(ids)})
      ORDER BY "playerId"
      FOR UPDATE`;
    // Each rated as they stand when the game finished: sigma widened by their time away (idleSigma);
    // that is the "before" a seat keeps, so a refund's redo starts from it too.
    const at = rec.finishedAt.getTime();
    const byId = new Map(current.map((r) => [r.playerId, { mu: Number(r.mu), sigma: idleSigma(Number(r.sigma), r.lastGameAt ? new Date(r.lastGameAt).getTime() : null, at) }]));
    const teams = ratedSeats.map((s) => {
      const r = byId.get(s.playerId!);
      if (!r) throw new Error(`Rating row for ${s.playerId}/${rec.gameType} vanished inside the transaction`);
      return [r];
    });
    const result = rate(teams, { rank: ratingRanks(rec, ratedSeats) });
    ratedSeats.forEach((s, i) => {
      const [next] = result[i];
      after.set(s.seat, { before: teams[i][0], after: { mu: next.mu, sigma: next.sigma } });
    });
    const values = ratedSeats.map((s) => {
      const a = after.get(s.seat)!.after;
      return Prisma.sql`(${s.playerId}, ${a.mu}::double precision, ${a.sigma}::double precision, ${ordinal(a)}::double precision)`;
    });
    await tx.$executeRaw`
      UPDATE "Rating" AS r
      SET "mu" = v.mu, "sigma" = v.sigma, "ordinal" = v.ord, "games" = r."games" + 1, "updatedAt" = CURRENT_TIMESTAMP,
        "lastGameAt" = GREATEST(r."lastGameAt", ${rec.finishedAt})
      FROM (VALUES ${Prisma.join(values)}) AS v(pid, mu, sigma, ord)
      WHERE r."playerId" = v.pid AND r."gameType" = ${rec.gameType}`;
  }

  // 4. Seats, with the rating before/after for rated ones.
  const double = (x: number | null | undefined) => Prisma.sql`${x ?? null}::double precision`;
  await tx.$executeRaw`
    INSERT INTO "GameSeat" ("gameId", "seat", "playerId", "name", "isBot", "score", "place", "forfeit", "muBefore", "sigmaBefore", "muAfter", "sigmaAfter")
    VALUES ${Prisma.join(
      seats.map((s) => {
        const r = after.get(s.seat);
        return Prisma.sql`(${rec.roomId}, ${s.seat}::integer, ${s.playerId}, ${s.name}, ${s.isBot}, ${double(rec.outcome.scores[s.seat])},
          ${rec.outcome.places[s.seat]}::integer, ${s.forfeit ?? null}, ${double(r?.before.mu)}, ${double(r?.before.sigma)}, ${double(r?.after.mu)}, ${double(r?.after.sigma)})`;
      }),
    )}`;

  // 5. A ranked daily-challenge attempt (claimed when it started) gets its score.
  if (rec.daily && rec.ranked) {
    await tx.dailyAttempt.updateMany({
      where: { roomId: rec.roomId, finishedAt: null },
      data: { finishedAt: rec.finishedAt, score: rec.outcome.scores[0], details: json(rec.outcome.details) },
    });
  }

  // 6. A ranked game between people that a player left (ran out of time, never came back): a
  //    leave, which may pause their ranked play (platform/leaves.ts).
  const left = rec.ranked && ratedSeats.length >= 2 ? ratedSeats.filter((s) => s.forfeit === "timeout") : [];
  if (left.length > 0) {
    await tx.$executeRaw`
      INSERT INTO "Leave" ("roomId", "playerId", "gameType", "kind", "at")
      VALUES ${Prisma.join(left.map((s) => Prisma.sql`(${rec.roomId}, ${s.playerId}, ${rec.gameType}, 'timeout', ${rec.finishedAt})`))}
      ON CONFLICT DO NOTHING`;
  }

  const ratingChanges: RatingChange[] = [...after.entries()]
    .sort(([a], [b]) => a - b)
    .map(([seat, r]) => ({
      seat,
      playerId: seats[seat].playerId!,
      before: snapshot(r.before.mu, r.before.sigma),
      after: snapshot(r.after.mu, r.after.sigma),
    }));
  return { written: true, ratingChanges };
}

/** `rec` with the seats and chat messages of `erased` players anonymous (personal-data.ts). */
function withoutErased(rec: FinishedGameRecord, erased: ReadonlySet<string>): FinishedGameRecord {
  return {
    ...rec,
    seats: rec.seats.map((s) => (s.playerId !== null && erased.has(s.playerId) ? { ...s, playerId: null, name: ERASED_NAME } : s)),
    ...(rec.chat ? { chat: rec.chat.map((m) => (erased.has(m.from.id) ? erasedMessage(m) : m)) } : {}),
  };
}

/**
 * A ranked game called off because a seat never made its first move: that player's leave
 * ("no-show", platform/leaves.ts), in one transaction with their Player row. Written once per room
 * (written:false when it already was).
 */
export async function recordNoShow(db: Database, r: { roomId: string; gameType: string; playerId: string; name: string; at: Date }): Promise<{ written: boolean }> {
  return db.prisma.$transaction(async (tx) => {
    if ((await lockAndFindErased(tx, [r.playerId])).size > 0) return { written: false };
    await tx.$executeRaw`
      INSERT INTO "Player" ("id", "name", "lastSeenAt") VALUES (${r.playerId}, ${r.name}, ${r.at})
      ON CONFLICT ("id") DO NOTHING`;
    const n = await tx.$executeRaw`
      INSERT INTO "Leave" ("roomId", "playerId", "gameType", "kind", "at")
      VALUES (${r.roomId}, ${r.playerId}, ${r.gameType}, 'no-show', ${r.at})
      ON CONFLICT DO NOTHING`;
    return { written: n > 0 };
  }, TX_OPTIONS);
}

/** The stored record (as written) plus its rating changes, or null if the room is unknown. */
export async function getFinishedGame(
  db: Database,
  roomId: string,
): Promise<(FinishedGameRecord & { ratingChanges: RatingChange[] }) | null> {
  const game = await db.prisma.game.findUnique({
    where: { id: roomId },
    include: { seats: { orderBy: { seat: "asc" } } },
  });
  if (!game) return null;
  return {
    roomId: game.id,
    gameType: game.gameType,
    ranked: game.ranked,
    options: game.options,
    seed: game.seed,
    commitment: game.commitment,
    rules: game.rules,
    actions: (game.actions ?? []) as unknown as FinishedGameRecord["actions"],
    outcome: game.outcome as unknown as FinishedGameRecord["outcome"],
    startedAt: game.startedAt,
    finishedAt: game.finishedAt,
    seats: game.seats.map((s) => ({ seat: s.seat, playerId: s.playerId, name: s.name, isBot: s.isBot, forfeit: (s.forfeit as Forfeit | null) ?? null })),
    daily: game.daily,
    chat: (game.chat ?? []) as unknown as ChatMessage[],
    ratingChanges: changesFromSeats(game.seats),
  };
}

/**
 * Replaces chat message `n` of a recorded game with its removed form (the operators removed it:
 * platform/moderation.ts); the message as it now stands, or null when the game or the message is
 * not recorded. One statement, so a concurrent removal of another message is not lost.
 */
export async function removeRecordedChat(db: Database, gameId: string, n: number): Promise<ChatMessage | null> {
  if (!Number.isInteger(n) || n < 1) return null;
  const rows = await db.prisma.$queryRaw<Array<{ msg: ChatMessage }>>`
    UPDATE "Game" SET "chat" = jsonb_set("chat", ARRAY[(${n} - 1)::text], ("chat" -> (${n} - 1)) || '{"text": "", "removed": true}'::jsonb)
    WHERE "id" = ${gameId} AND jsonb_array_length("chat") >= ${n}
    RETURNING "chat" -> (${n} - 1) AS "msg"`;
  const msg = rows[0]?.msg;
  return msg ? (typeof msg === "string" ? (JSON.parse(msg) as ChatMessage) : msg) : null;
}

/** Best ratings for a game type by ordinal (then more games, then id). limit 1..1000, default 50. */
export async function leaderboard(db: Database, gameType: string, limit = 50): Promise<LeaderboardEntry[]> {
  const take = Math.max(1, Math.min(1000, Math.floor(limit)));
  const rows = await db.prisma.rating.findMany({
    where: { gameType },
    orderBy: [{ ordinal: "desc" }, { games: "desc" }, { playerId: "asc" }],
    take,
    include: { player: { select: { name: true } } },
  });
  return rows.map((r) => ({
    playerId: r.playerId,
    name: r.player.name,
    mu: r.mu,
    sigma: r.sigma,
    ordinal: r.ordinal,
    games: r.games,
  }));
}

/** Every game type the player has a rating in, by game type. */
export async function playerRatings(db: Database, playerId: string): Promise<PlayerRating[]> {
  const rows = await db.prisma.rating.findMany({ where: { playerId }, orderBy: { gameType: "asc" } });
  return rows.map((r) => ({ gameType: r.gameType, mu: r.mu, sigma: r.sigma, ordinal: r.ordinal, games: r.games }));
}
