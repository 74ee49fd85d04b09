/**
 * The one number players see for an OpenSkill rating (docs/protocol.md, "Ratings"). Pure, no
 * imports: the server and the browser client use
 * the same code, so the end screen, the profile and the leaderboards always agree.
 *
 * OpenSkill keeps two numbers per player and game: mu (the estimated skill, 25 for a newcomer)
 * and sigma (how unsure that estimate still is, 25/3 ≈ 8.33 for a newcomer, shrinking as games
 * are played). Players see:
 *
 *   rating = round(1500 + 30 × (mu − 25))
 *
 * so a newcomer starts at 1500, as on Lichess. The scale is chosen so that differences read like
 * Elo/Glicko ones: with OpenSkill's default beta (25/6) two settled players whose mu differ by 13.3
 * (400 rating points) are expected to finish in that order about 10 times to 1, which is what a
 * 400-point gap means in chess ratings.
 *
 * The rating is **provisional** (shown with a "?", like Lichess's) while sigma is above 7, that
 * is while the system still knows little about the player: a newcomer's first 6 or so games in
 * two-player games, 7 to 12 in games of three to five (each game lowers sigma a little; larger
 * tables spread the information over more players). The rule depends on sigma alone, so anything
 * that carries a rating snapshot (the end screen's rating changes, a profile's history point, a
 * leaderboard row) marks it the same way.
 *
 * **Time away widens sigma**, as Glicko's rating deviation grows between rating periods (Lichess
 * does this): the longer a player has not played a rated game of a type, the less the system knows
 * of their skill today. Before each rated game, and whenever a rating is shown "now", sigma is
 * taken as sqrt(sigma² + IDLE_VARIANCE_PER_DAY × days since their last rated game of the type),
 * never above a newcomer's 25/3 (idleSigma). The rate is chosen so a settled player (sigma 2)
 * becomes provisional again after a year away; a month away adds little (2 → 2.8). So a returning
 * player's rating moves faster in their first games back, and after a long absence it shows
 * "?" until they have played again. mu never changes with time.
 */

/** The rating of a newcomer (mu = 25). */
export const RATING_BASE = 1500;
/** Rating points per unit of OpenSkill mu. */
export const RATING_SCALE = 30;
/** OpenSkill's starting mu. */
export const RATING_MU0 = 25;
/** A rating is provisional while its sigma is above this. A newcomer has 25/3 ≈ 8.33. */
export const PROVISIONAL_SIGMA = 7;

/** OpenSkill's starting sigma, a newcomer's: also the most time away can widen a sigma to. */
export const RATING_SIGMA0 = 25 / 3;
/** sigma² grows by this much per day without a rated game of the type: from 2 to 7 in a year. */
export const IDLE_VARIANCE_PER_DAY = (PROVISIONAL_SIGMA ** 2 - 2 ** 2) / 365;
const DAY_MS = 86_400_000;

/**
 * A rating's sigma at `at` (epoch ms) after time away: its stored `sigma`, widened by the days since
 * `lastGameAt` (the finish of their latest rated game of the type; null: unknown, no widening).
 */
export function idleSigma(sigma: number, lastGameAt: number | null, at: number): number {
  if (lastGameAt === null || !(at > lastGameAt) || !(sigma < RATING_SIGMA0)) return sigma;
  return Math.min(RATING_SIGMA0, Math.sqrt(sigma * sigma + (IDLE_VARIANCE_PER_DAY * (at - lastGameAt)) / DAY_MS));
}

/** The displayed rating of an OpenSkill mu: a whole number, 1500 for a newcomer. */
export function displayRating(mu: number): number {
  return Math.round(RATING_BASE + RATING_SCALE * (mu - RATING_MU0));
}

/** Whether a rating with this sigma is still provisional (shown with "?"). */
export function isProvisional(sigma: number): boolean {
  return !(sigma <= PROVISIONAL_SIGMA);
}

/** A rating as players read it: "1512", or "1512?" while provisional. */
export function ratingText(r: { mu: number; sigma: number }): string {
  return `${displayRating(r.mu)}${isProvisional(r.sigma) ? "?" : ""}`;
}

export interface DisplayedChange {
  before: number;
  after: number;
  /** after − before, of the displayed (rounded) numbers, so the three always add up. */
  delta: number;
  beforeProvisional: boolean;
  afterProvisional: boolean;
}

/** One game's rating change in displayed numbers (e.g. 1512 → 1540, +28). */
export function displayedChange(before: { mu: number; sigma: number }, after: { mu: number; sigma: number }): DisplayedChange {
  const b = displayRating(before.mu);
  const a = displayRating(after.mu);
  return { before: b, after: a, delta: a - b, beforeProvisional: isProvisional(before.sigma), afterProvisional: isProvisional(after.sigma) };
}

/** "+28", "−5" (a real minus sign), "±0". */
export function deltaText(delta: number): string {
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "±0";
}
