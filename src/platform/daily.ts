/**
 * The daily challenge: for each game that offers one, one deal per UTC day, the same for
 * everyone. The day's seed is an HMAC of the day under the server's secret (every node derives
 * the same seed; nobody without the secret can), its SHA-256 commitment is published before and
 * during the day, and the seed itself only once the day is over, so a finished player cannot hand
 * the deck order to someone who has yet to play. One ranked attempt per player per day (claimed in
 * Postgres when it starts, so abandoning it uses it up); casual replays of any past day, and of
 * today once your ranked attempt is over.
 */
import type { Database } from "../db/client.js";
import { claimDailyAttempt, getDailyAttempt, releaseDailyAttempt, type DailyAttemptRow } from "../db/daily.js";
import { findGame, GAMES } from "../games/registry.js";
import type { AnyGame } from "../games/types.js";
import { commit } from "./commitment.js";
import { err } from "./errors.js";
import type { Player } from "./identity.js";
import { accountRequired, createRoom, startRoom, type Room } from "./room.js";
import { newRoomId, type RoomService } from "./room-service.js";
import type { DailyInfo, DailyStatus } from "../protocol/wire.js";
import { dailySeed, DAY_MS, dayEnds, dayOver, FIRST_DAY, parseDay, utcDay } from "./daily-deal.js";

export { dailySeed, dayEnds, dayOver, FIRST_DAY, parseDay, seedPublic, utcDay } from "./daily-deal.js";

export function dailyGames(): AnyGame[] {
  return GAMES.filter((g) => g.daily);
}

function dailyGame(id: unknown): AnyGame {
  const g = findGame(id);
  if (!g) throw err("UNKNOWN_GAME", "Pick one of the games this server offers.");
  if (!g.daily) throw err("NO_DAILY", `${g.name} has no daily challenge.`);
  return g;
}

export class DailyChallenges {
  constructor(
    private readonly service: RoomService,
    private readonly db: Database,
    private readonly secret: string,
    /** The clock that decides days (and so when a daily seed is published). */
    readonly now: () => number = Date.now,
  ) {}

  /** Whether a day's deal is over (its seed may be published). */
  isOver(day: string): boolean {
    return dayOver(day, this.now());
  }

  seed(game: string, day: string): string {
    return dailySeed(this.secret, game, day);
  }

  /** The daily game named `gameId` (or NO_DAILY / UNKNOWN_GAME) and today's day. */
  today(gameId: unknown): { game: string; day: string } {
    return { game: dailyGame(gameId).id, day: utcDay(this.now()) };
  }

  info(gameId: unknown): DailyInfo {
    const g = dailyGame(gameId);
    const day = utcDay(this.now());
    const prev = utcDay(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS);
    const prevSeed = this.seed(g.id, prev);
    return {
      game: g.id,
      name: g.name,
      day,
      commitment: commit(this.seed(g.id, day)),
      endsAt: dayEnds(day),
      previous: { day: prev, commitment: commit(prevSeed), seed: prevSeed },
    };
  }

  async status(gameId: unknown, player: Player): Promise<DailyStatus> {
    const g = dailyGame(gameId);
    const day = utcDay(this.now());
    const a = await getDailyAttempt(this.db, g.id, day, player.id);
    if (a) return { game: g.id, day, attempt: await this.describe(a) };
    // With no ranked attempt, a finished unrated game of today's deal lets them watch others' (knowsDeal).
    const finished = await this.finishedUnrated(g.id, day, player.id);
    // An account that played today's deal as a guest has no rated attempt to come (DAILY_SEEN).
    const seen = player.account === true && (finished || (await this.playingUnrated(g.id, day, player.id)));
    return { game: g.id, day, attempt: null, ...(seen ? { seenUnrated: true } : {}), ...(finished ? { finishedUnrated: true } : {}) };
  }

  /** An attempt as the player sees it; "finished" also when the game ended but is not yet recorded. */
  private async describe(a: DailyAttemptRow): Promise<NonNullable<DailyStatus["attempt"]>> {
    if (a.finishedAt) return { roomId: a.roomId, finished: true, score: a.score };
    const room = await this.service.store.get(a.roomId);
    const live = room?.status === "playing";
    return { roomId: a.roomId, finished: !live, score: room?.status === "finished" ? (room.outcome?.scores[0] ?? null) : null };
  }

  /**
   * Whether a player has played `day`'s deal unrated (as a guest, before registering under the
   * same id): a finished game of that deal with their seat, or a live room of it where they sit.
   */
  private async playedUnrated(game: string, day: string, playerId: string): Promise<boolean> {
    return (await this.finishedUnrated(game, day, playerId)) || (await this.playingUnrated(game, day, playerId));
  }

  /** Whether the player sits in a live room of `day`'s deal (not yet recorded). */
  private async playingUnrated(game: string, day: string, playerId: string): Promise<boolean> {
    return (await this.service.roomsOf(playerId)).some((r) => r.daily === day && r.game === game);
  }

  /**
   * Starts (or resumes) today's ranked attempt, or a casual replay of `day`.
   * Returns the room, playing, with the player in its only seat.
   */
  async start(player: Player, input: { game: unknown; ranked?: unknown; day?: unknown }): Promise<Room> {
    const g = dailyGame(input.game);
    // Absent: ranked for an account, unrated for a guest (the rated attempt is for accounts).
    const ranked = input.ranked ?? player.account === true;
    if (typeof ranked !== "boolean") throw err("BAD_REQUEST", "ranked must be true or false.");
    const today = utcDay(this.now());
    if (ranked) {
      if (!player.account) throw accountRequired();
      if (input.day !== undefined && input.day !== today) {
        throw err("DAILY_NOT_TODAY", `Only today's deal (${today}) can be played ranked; replay other days casually.`);
      }
      for (let attempt = 0; attempt < 3; attempt++) {
        const existing = await getDailyAttempt(this.db, g.id, today, player.id);
        if (existing) {
          const seen = await this.describe(existing);
          if (!seen.finished) return this.service.get(existing.roomId);
          throw err(
            "DAILY_DONE",
            `You have already played today's ${g.name} challenge${seen.score !== null ? ` (score ${seen.score})` : ""}. ` +
              "There is one ranked attempt a day; a new deal opens at 00:00 UTC, and you can replay today's deal casually.",
          );
        }
        if (attempt === 0 && (await this.playedUnrated(g.id, today, player.id))) {
          throw err(
            "DAILY_SEEN",
            `You have already played today's ${g.name} deal unrated (as a guest), so you know its cards: the rated attempt is for players who have not seen it. A new deal opens at 00:00 UTC.`,
          );
        }
        const room = this.dailyRoom(g, player, today, true);
        const claim = await claimDailyAttempt(this.db, {
          gameType: g.id,
          day: today,
          playerId: player.id,
          name: player.name,
          roomId: room.id,
          startedAt: new Date(room.startedAt!),
        });
        if (!claim.claimed) continue; // another tab or node claimed it first: report that attempt
        try {
          return await this.service.insert(room);
        } catch (e) {
          await releaseDailyAttempt(this.db, room.id);
          throw e;
        }
      }
      throw err("BUSY", "Could not start the daily challenge; please try again.");
    }
    const day = input.day === undefined ? today : parseDay(input.day);
    if (!day) throw err("BAD_DAY", "A day is written YYYY-MM-DD, for example 2026-11-21.");
    if (day < FIRST_DAY) throw err("BAD_DAY", `The first daily challenge was on ${FIRST_DAY}.`);
    if (day > today) throw err("DAILY_NOT_YET", `The deal for ${day} is not out yet; today is ${today} (UTC).`);
    // An account plays today's deal casually only after its rated attempt, or once it has played
    // the deal unrated as a guest (it knows the cards, and may not play it rated: DAILY_SEEN); a
    // guest (no rated attempt to protect) may play it unrated at once.
    if (day === today && player.account) {
      const mine = await getDailyAttempt(this.db, g.id, today, player.id);
      const over = mine ? (await this.describe(mine)).finished : await this.playedUnrated(g.id, today, player.id);
      if (!over) {
        throw err("DAILY_PLAY_RANKED_FIRST", "Play today's ranked attempt first; after it you can replay today's deal casually.");
      }
    }
    return this.service.insert(this.dailyRoom(g, player, day, false));
  }

  /**
   * Whether `playerId` (null: no identity) may know what `game`'s deal of `day` holds: its cards,
   * their order, the action logs and score breakdowns played on it. Everyone once the day is
   * over; before that only a player whose own attempt at that deal is over: their ranked attempt,
   * or, with none, a game of the deal they played to its end unrated (a guest's, or an account's
   * from its guest days). That player has seen the deal, and no ranked attempt of theirs is left
   * to protect: a guest has none, and an account that played it unrated may not play it rated
   * (DAILY_SEEN). This is the one place that decides it, for watching rooms, finished records
   * and the boards alike.
   */
  async knowsDeal(game: string, day: string, playerId: string | null): Promise<boolean> {
    if (dayOver(day, this.now())) return true;
    if (playerId === null) return false;
    const mine = await getDailyAttempt(this.db, game, day, playerId);
    if (mine !== null) return (await this.describe(mine)).finished;
    return this.finishedUnrated(game, day, playerId);
  }

  /** Whether the player sat in a recorded (finished) game of `day`'s deal: with no ranked attempt, an unrated one. */
  private async finishedUnrated(game: string, day: string, playerId: string): Promise<boolean> {
    const seat = await this.db.prisma.gameSeat.findFirst({ where: { playerId, game: { daily: day, gameType: game } }, select: { gameId: true } });
    return seat !== null;
  }

  /** A player sees a game on a daily deal if they sat in it or may know that deal (knowsDeal). */
  private async seatedOrKnows(game: string, day: string, seats: ReadonlyArray<{ playerId: string | null }>, playerId: string | null): Promise<boolean> {
    if (playerId !== null && seats.some((s) => s.playerId === playerId)) return true;
    return this.knowsDeal(game, day, playerId);
  }

  /**
   * Whether `playerId` (null: no name yet) may watch `room`. Today's deal is hidden from watchers
   * who have not played it themselves (knowsDeal: a finished ranked attempt, or a guest's finished
   * unrated one): watching it would show them the deal before their own attempt. Everything else
   * may be watched by anyone.
   */
  async mayWatch(room: Room, playerId: string | null): Promise<void> {
    if (!room.daily || (await this.seatedOrKnows(room.game, room.daily, room.seats, playerId))) return;
    throw err("DAILY_SPOILER", "This is today's daily deal: you can watch it once you have played your own attempt today.");
  }

  /**
   * A finished game's record as `playerId` may see it. A record of a daily deal whose day is not
   * over is refused (DAILY_SPOILER) to anyone who neither sat in it nor finished their own
   * attempt at that deal, and its seed is withheld (null, with `seedRevealedAt`) from everyone
   * until the day is over.
   */
  async finishedRecord<T extends { gameType: string; daily?: string | null; seed: string; seats: ReadonlyArray<{ playerId: string | null }> }>(
    record: T,
    playerId: string | null,
  ): Promise<T | (Omit<T, "seed"> & { seed: null; seedRevealedAt: number })> {
    if (!record.daily || dayOver(record.daily, this.now())) return record;
    if (!(await this.seatedOrKnows(record.gameType, record.daily, record.seats, playerId))) {
      throw err("DAILY_SPOILER", "This game was played on today's daily deal: its record opens once you have played your own attempt today, and to everyone when the day is over.");
    }
    return { ...record, seed: null, seedRevealedAt: dayEnds(record.daily) };
  }

  /**
   * Board entries as `playerId` may see them: an entry on a deal this player may not know yet
   * (knowsDeal) keeps its place, name and score, and loses its room (whose record would show
   * the deal) and its score breakdown (which names the cards).
   */
  async boardFor<E extends { day: string; roomId: string | null; details: unknown }>(
    game: string,
    entries: readonly E[],
    playerId: string | null,
  ): Promise<Array<E | (E & { roomId: null; details: null })>> {
    const known = new Map<string, boolean>();
    const out: Array<E | (E & { roomId: null; details: null })> = [];
    for (const e of entries) {
      let k = known.get(e.day);
      if (k === undefined) known.set(e.day, (k = await this.knowsDeal(game, e.day, playerId)));
      out.push(k ? e : { ...e, roomId: null, details: null });
    }
    return out;
  }

  private dailyRoom(g: AnyGame, player: Player, day: string, ranked: boolean): Room {
    const now = this.now();
    // Created casual (a lobby room of one seat cannot be ranked), then marked: a daily attempt's
    // "ranked" means it counts on the day's board.
    const open = createRoom(newRoomId(), player, { game: g.id, seats: 1, ranked: false }, now);
    return { ...startRoom(open, player, this.seed(g.id, day), now), ranked, daily: day };
  }
}
