/**
 * Profiles and leaderboards over HTTP (docs/protocol.md, "Profiles and leaderboards"): the reply
 * shapes, shared by the server and the browser client, and how a player's profile is addressed.
 * No Node imports.
 */

/**
 * The profile path of a player: `/player/<account name>` for a registered player, else
 * `/player/id:<player id>` (a guest's name is not unique, their id is).
 */
export function profilePath(p: { playerId: string; account: string | null }): string {
  return p.account !== null ? `/player/${encodeURIComponent(p.account)}` : `/player/id:${encodeURIComponent(p.playerId)}`;
}

export interface ProfilePlayer {
  id: string;
  /** The account's name, or a guest's last display name. */
  name: string;
  /** Registered (has an account): the profile is also at /player/<name>. */
  account: boolean;
  /** When this player was first seen: their first recorded game's start, or when they were first recorded (ISO 8601). */
  since: string;
  /** This profile's path (see profilePath). */
  profile: string;
  /**
   * The account is closed (its player closed it, or the operators did): it plays no more and is
   * left off the leaderboards; its games and ratings stay. Null: open, or a guest.
   */
  closed: "player" | "operators" | null;
  /**
   * The account's name before its last rename, while it is held for it (30 days): the profile
   * says "formerly" and still answers to it. Null: none held.
   */
  formerly: { name: string; until: string } | null;
  /**
   * On vacation from turn-based games until then (ISO 8601): their clocks there are stopped and
   * they take on no new turn-based game meanwhile (docs/protocol.md, "Vacations"). Null: not now.
   */
  vacationUntil: string | null;
}

export interface HistoryPoint {
  /** When the game finished (ISO 8601). */
  at: string;
  /** The displayed rating after that game. */
  rating: number;
  provisional: boolean;
  /** The game (its replay is /game/<id>). */
  gameId: string;
}

export interface ProfileRating {
  game: string;
  /** Displayed rating (src/protocol/rating-display.ts). */
  rating: number;
  provisional: boolean;
  /** Rated games. */
  games: number;
  /** Rated games won (first place, shared or not, without forfeiting). */
  wins: number;
  mu: number;
  sigma: number;
  /** Oldest first: one point per rated game (the last HISTORY_POINTS games at most). */
  history: HistoryPoint[];
  /** Display points given back for games against accounts the operators closed (db/rating-refunds.ts), in all; the history's points do not show them. */
  refunded: number;
}

export interface ProfileReply {
  ok: true;
  player: ProfilePlayer;
  ratings: ProfileRating[];
  /** Every finished game per game type, ranked or not (daily challenges included). */
  played: Array<{ game: string; games: number }>;
  /** How reliably they play ranked games out. */
  reliability: Reliability;
}

/**
 * Of a player's latest ranked games with people (at most 100: each rated seat, and each ranked game
 * called off because they never moved), how many they left: ran out of time and never came back,
 * or never made a first move (forgiven leaves not counted). Both 0 before their first ranked game.
 */
export interface Reliability {
  games: number;
  left: number;
}

export interface GameListPlayer {
  seat: number;
  name: string;
  playerId: string | null;
  bot: boolean;
  place: number;
  score: number;
  /** "timeout" | "resigned": a bot finished the seat for its player. */
  forfeit: string | null;
  /** Profile path, or null for a bot. */
  profile: string | null;
}

export interface GameListEntry {
  /**
   * The game (its replay: /game/<id>); null for a daily deal the asker may not see yet (today's,
   * before their own attempt at it is over), whose score is still listed.
   */
  id: string | null;
  game: string;
  finishedAt: string;
  ranked: boolean;
  /** A daily-challenge deal: its UTC day. */
  daily: string | null;
  players: GameListPlayer[];
  /** The profile owner's seat in it (their first, if several). */
  me: { seat: number; place: number; score: number; forfeit: string | null };
  /** The profile owner's rating change in displayed numbers, or null (not rated). */
  ratingChange: { before: number; after: number; delta: number; beforeProvisional: boolean; afterProvisional: boolean } | null;
}

export interface GamesPageReply {
  ok: true;
  games: GameListEntry[];
  /** Pass as `before` for the next (older) page; null when this is the last page. */
  next: string | null;
}

export interface LeaderboardRow {
  playerId: string;
  name: string;
  mu: number;
  sigma: number;
  ordinal: number;
  games: number;
  /** Displayed rating. */
  rating: number;
  provisional: boolean;
  /**
   * Settled, but no rated game of this type in the last LEADERBOARD_ACTIVE_DAYS days: listed after
   * the ranked players, unranked, until their next rated game.
   */
  inactive: boolean;
  /** When their latest rated game of this type finished (ISO 8601); null if none is recorded. */
  lastGameAt: string | null;
  /** 1-based place among players whose rating is settled and active; null otherwise. */
  rank: number | null;
  profile: string;
}

/** A leaderboard ranks only players with a rated game within this many days (as Lichess does, with a week). */
export const LEADERBOARD_ACTIVE_DAYS = 30;

/** GET /api/players?q=: the shortest and longest start of a name it searches by (names are 1 to 24 characters). */
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 24;
/** How many names it returns at most, and by default. */
export const SEARCH_LIMIT_MAX = 20;
export const SEARCH_LIMIT_DEFAULT = 10;

export interface LeaderboardReply {
  ok: true;
  game: string;
  players: LeaderboardRow[];
}

/**
 * Two players' record against each other (GET /api/players/:name/versus/:other), from the first
 * player's side: finished games both sat in as people, and who finished ahead (a seat a bot
 * finished for its player is behind every other; tied places are level).
 */
export interface Versus {
  games: number;
  ahead: number;
  behind: number;
  level: number;
  byGame: Array<{ game: string; games: number; ahead: number; behind: number; level: number }>;
  /** Their latest games together, newest first (at most 10): each one's replay is /game/<id>. */
  recent: Array<{ id: string; game: string; finishedAt: string; ranked: boolean; result: "ahead" | "behind" | "level" }>;
}

export interface VersusReply extends Versus {
  ok: true;
  player: { id: string; name: string; profile: string };
  other: { id: string; name: string; profile: string };
}

/** How reliably one player at a table plays ranked games out (GET /api/games/:game/ratings). */
export interface TableReliability extends Reliability {
  playerId: string;
}

/** One seated player's rating in a game, as a table shows it (GET /api/games/:game/ratings). */
export interface TableRating {
  playerId: string;
  rating: number;
  provisional: boolean;
  games: number;
}
