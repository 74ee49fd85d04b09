/**
 * Server-side bots. After every change made on this node, a bot seat that must act gets a
 * random legal action (from the same legal-action templates a thin client sees), applied only
 * to the exact room version it looked at. Bots hold no rules code.
 */
import { randomLegalAction } from "../games/legal.js";
import type { Logger } from "../logger.js";
import { AppError } from "./errors.js";
import { gameOf, type Room } from "./room.js";
import type { RoomService } from "./room-service.js";

export class BotDriver {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly service: RoomService,
    private readonly delayMs: number,
    private readonly log: Logger,
    private readonly random: () => number = Math.random,
  ) {
    service.onChange((_prev, next) => this.consider(next));
  }

  /** Schedule the move of a bot that must act in this room version, if any. */
  consider(room: Room): void {
    if (this.stopped || room.status !== "playing") return;
    const game = gameOf(room);
    for (const seat of game.activeSeats(room.state)) {
      if (!room.seats[seat]?.bot) continue;
      const t = setTimeout(() => {
        this.timers.delete(t);
        void this.move(room, seat);
      }, this.delayMs);
      this.timers.add(t);
    }
  }

  private async move(room: Room, seat: number): Promise<void> {
    if (this.stopped) return;
    const game = gameOf(room);
    const action = randomLegalAction(game.legalActions(room.state, seat), this.random);
    if (!action) return;
    try {
      await this.service.botAct(room.id, seat, action, room.version);
    } catch (e) {
      if (e instanceof AppError && e.code === "STALE") return; // someone else moved the game on
      this.log.error({ err: e, room: room.id, seat }, "bot move failed");
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
