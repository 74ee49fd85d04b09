/**
 * Writing finished games to Postgres (and a called-off ranked game's no-show: leaves.ts). The node that finishes a game writes it at once; a sweep
 * on every node retries any finished room whose write has not completed by its next sweep (a
 * crash, a database outage), so nothing a player did is lost. Writes are idempotent, so racing
 * nodes are harmless; the sweep's wait keeps them from racing in the ordinary case.
 */
import type { Database } from "../db/client.js";
import { recordFinishedGame, recordNoShow, type FinishedGameRecord } from "../db/finished-games.js";
import type { Logger } from "../logger.js";
import { awaitsRecord, noShowSeat, type Room } from "./room.js";
import type { ChatMessage } from "./chat.js";
import type { RoomService } from "./room-service.js";
import { NO_METRICS, type PlatformMetrics } from "./metrics.js";

/** The record of a finished room, with its table chat as it stands (both channels: the game is over). */
export function toRecord(room: Room, chat: ChatMessage[] = []): FinishedGameRecord {
  if (room.status !== "finished" || !room.outcome || !room.seed || !room.commitment || room.startedAt === undefined) {
    throw new Error(`room ${room.id} is not a finished game`);
  }
  return {
    roomId: room.id,
    gameType: room.game,
    ranked: room.ranked,
    options: room.options,
    seed: room.seed,
    commitment: room.commitment,
    rules: room.playedUnder ?? 1,
    actions: room.actions.map((a) => (a.bot ? { seat: a.seat, action: a.action, at: a.at, bot: true as const } : { seat: a.seat, action: a.action, at: a.at })),
    outcome: room.outcome,
    startedAt: new Date(room.startedAt),
    finishedAt: new Date(room.finishedAt ?? room.updatedAt),
    seats: room.seats.map((s, seat) => ({
      seat,
      playerId: s.bot ? null : s.playerId,
      name: s.name ?? `Seat ${seat + 1}`,
      isBot: s.bot,
      forfeit: !s.bot && s.away ? s.away : null,
    })),
    daily: room.daily ?? null,
    chat,
  };
}

export class ResultRecorder {
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<string>();
  private waitingAtLastSweep = new Set<string>();
  /** Told of each finished game this node has just written (not of one found already written): server.ts tells the lobbies of a daily board that changed. */
  onRecorded: ((room: Room) => void) | undefined;

  constructor(
    private readonly service: RoomService,
    private readonly db: Database,
    private readonly log: Logger,
    /** Told how each write ended (GET /metrics). */
    private readonly metrics: PlatformMetrics = NO_METRICS,
  ) {
    service.onChange((prev, next) => {
      if (awaitsRecord(next) && (prev === null || !awaitsRecord(prev))) void this.persist(next.id, next);
    });
  }

  /**
   * Write one finished room and mark it persisted. Safe to call any number of times. `written`:
   * the room as this node has just stored it (saves reading it back); without it, it is read.
   */
  async persist(roomId: string, written?: Room): Promise<void> {
    if (this.inFlight.has(roomId)) return;
    this.inFlight.add(roomId);
    try {
      const room = written ?? (await this.service.store.get(roomId));
      if (!room || !awaitsRecord(room)) return;
      if (room.status === "closed") {
        await this.recordNoShow(room);
        return;
      }
      const { written: inserted, ratingChanges } = await recordFinishedGame(this.db, toRecord(room, await this.service.store.chat(roomId)));
      await this.service.markPersisted(roomId, ratingChanges);
      this.metrics.finishedGameWrite(inserted ? "written" : "already-written");
      if (inserted) this.onRecorded?.(room);
      this.log.info({ room: roomId, game: room.game, written: inserted }, "finished game recorded");
    } catch (e) {
      this.metrics.finishedGameWrite("failed");
      this.log.error({ err: e, room: roomId }, "could not record finished game; will retry");
    } finally {
      this.inFlight.delete(roomId);
    }
  }

  /** A called-off ranked game: its no-show's leave, then the room is marked recorded. */
  private async recordNoShow(room: Room): Promise<void> {
    const seat = noShowSeat(room);
    const s = seat === null ? undefined : room.seats[seat];
    if (s?.playerId && !s.bot) {
      const { written } = await recordNoShow(this.db, { roomId: room.id, gameType: room.game, playerId: s.playerId, name: s.name ?? `Seat ${seat! + 1}`, at: new Date(room.updatedAt) });
      this.log.info({ room: room.id, player: s.playerId, written }, "no-show recorded");
    }
    await this.service.markPersisted(room.id, []);
  }

  /**
   * Records the finished rooms that were already waiting at the previous sweep. A game that has
   * only just finished is being recorded by the node that finished it: writing it here too would
   * be harmless (the write is idempotent) but a second Postgres transaction for the same game,
   * which the benchmark caught with two nodes (227 transactions for 226 games). A room still
   * waiting one sweep later was not recorded (a crash, a database outage) and is written then.
   */
  async sweep(): Promise<void> {
    const waiting = await this.service.store.unpersisted();
    const due = waiting.filter((id) => this.waitingAtLastSweep.has(id));
    this.waitingAtLastSweep = new Set(waiting);
    for (const id of due) await this.persist(id);
  }

  startSweeping(everyMs: number): void {
    this.sweepTimer = setInterval(() => void this.sweep().catch((e) => this.log.error({ err: e }, "sweep failed")), everyMs);
    this.sweepTimer.unref();
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
  }
}
