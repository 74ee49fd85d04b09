/**
 * A ranked room's rating range (docs/protocol.md, "Rooms": `ratingRange`), as Lichess's seeks and
 * Board Game Arena's tables have one: its host asks for opponents within N points of their own
 * rating in that game (the one number players see, protocol/rating-display.ts), and a player
 * outside it is refused the seat (RATING_OUT_OF_RANGE, saying both). The range is fixed when the
 * room is made (the host's rating then, ± N), so it never moves under anyone while they wait; a
 * player with no rating in the game counts as a newcomer (1500). Quick play has its own window
 * (matchmaking.ts) and a rematch keeps the room's range for a seat given up.
 */
import { err } from "./errors.js";
import { RANGE_MAX, RANGE_MIN, RATING_RANGE_CHOICES } from "../protocol/wire.js";

export interface RatingRange {
  min: number;
  max: number;
}

export { RANGE_MAX, RANGE_MIN, RATING_RANGE_CHOICES };

/** The ± width a room:create asks for (null: any rating), or BAD_RATING_RANGE. */
export function parseRangeWidth(raw: unknown, ranked: boolean): number | null {
  if (raw === undefined || raw === null) return null;
  if (!ranked) throw err("BAD_RATING_RANGE", "Only ranked rooms have a rating range: casual rooms are open to everyone.");
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < RANGE_MIN || raw > RANGE_MAX) {
    throw err("BAD_RATING_RANGE", `A rating range is a whole number of points from ${RANGE_MIN} to ${RANGE_MAX} either side of your rating.`);
  }
  return raw;
}

export function rangeAround(rating: number, width: number): RatingRange {
  return { min: rating - width, max: rating + width };
}

/** A stored range as it must be (createRoom checks what the transport computed). */
export function isRange(r: unknown): r is RatingRange {
  const x = r as RatingRange;
  return typeof r === "object" && r !== null && Number.isInteger(x.min) && Number.isInteger(x.max) && x.min <= x.max;
}

export function outOfRange(range: RatingRange, rating: number, gameName: string): ReturnType<typeof err> {
  return err("RATING_OUT_OF_RANGE", `This table is for players rated ${range.min}–${range.max} in ${gameName}; your rating there is ${rating}.`);
}
