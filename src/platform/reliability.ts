/**
 * Tables for players who play their games out (docs/protocol.md, "Leaving ranked games"): the host
 * of a ranked room may keep its seats for players who left at most one in ten of their latest
 * ranked games (db/profiles.ts `reliability`: ran out of time for good, or never made a first
 * move), as Board Game Arena's tables filter by reputation. A player refused is told their own
 * numbers (LEFT_TOO_MANY); a newcomer with no ranked game yet may sit. The transport reads the
 * numbers (db/profiles.ts) through `unreliableReading`.
 */
import { err } from "./errors.js";
import type { Logger } from "../logger.js";
import type { Reliability } from "../protocol/profiles.js";

/** The most a player may have left of their latest ranked games to sit at such a table: one in ten. */
export const RELIABLE_LEFT_SHARE = 0.1;

export function isReliable(r: Reliability): boolean {
  return r.left <= r.games * RELIABLE_LEFT_SHARE;
}

/**
 * A player's numbers when they left too many ranked games (`read` them: db/profiles.ts), else null.
 * Null too (logged) when the database cannot answer: the check is skipped then, as the checks of
 * blocks, ratings and leaves are, so games go on through an outage.
 */
export async function unreliableReading(read: (playerId: string) => Promise<Reliability>, playerId: string, log: Pick<Logger, "warn">, what: string): Promise<Reliability | null> {
  try {
    const r = await read(playerId);
    return isReliable(r) ? null : r;
  } catch (e) {
    log.warn({ err: e, player: playerId }, `could not read a player's reliability (${what}); went ahead without the check`);
    return null;
  }
}

/** `reliableOnly` of a room:create: absent or false (anyone), true (ranked rooms only), else BAD_RELIABLE_ONLY. */
export function parseReliableOnly(raw: unknown, ranked: boolean): boolean {
  if (raw === undefined || raw === null || raw === false) return false;
  if (raw !== true) throw err("BAD_RELIABLE_ONLY", "reliableOnly is true or false.");
  if (!ranked) throw err("BAD_RELIABLE_ONLY", "Only ranked rooms can be kept for players who play their games out: leaving casual games is not counted.");
  return true;
}

/** LEFT_TOO_MANY: the refusal of a seat (or, for its host, of such a room) to a player who left too many. */
export function leftTooMany(r: Reliability, host: boolean): ReturnType<typeof err> {
  const theirs = `you left ${r.left} of ${r.games === 1 ? "your one ranked game" : `your latest ${r.games} ranked games`}`;
  return err(
    "LEFT_TOO_MANY",
    host
      ? `Only players who left at most 1 in 10 of their latest ranked games may sit at such a table, and ${theirs}, so you cannot make one. Play ranked games out to make it again.`
      : `This table is for players who play their games out (who left at most 1 in 10 of their latest ranked games); ${theirs}.`,
  );
}
