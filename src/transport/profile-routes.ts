/**
 * Profiles over HTTP (docs/protocol.md, "Profiles and leaderboards"):
 *   GET /api/players?q=           accounts whose name starts with q (finding a player)
 *   GET /api/players/:name        a player's ratings (displayed numbers), counts and rating history
 *   GET /api/players/:name/games  their finished games, newest first, a page at a time
 *   GET /api/players/:name/versus/:other  two players' record against each other
 * `:name` is an account's name (any case) or `id:<player id>` (guests have no account).
 * Registered by http.ts, which lends its `requester` (who asks decides whether today's daily
 * deals in a game list may be opened).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Database } from "../db/client.js";
import { decodeCursor, encodeCursor, findProfileOwner, playedCounts, playerGames, profileRatings, reliability, RELIABILITY_GAMES, searchPlayers, versus, VERSUS_RECENT, type ProfileOwner } from "../db/profiles.js";
import { err } from "../platform/errors.js";
import type { Player } from "../platform/identity.js";
import type { DailyChallenges } from "../platform/daily.js";
import { profilePath, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_MAX, SEARCH_MIN, type GameListEntry, type GamesPageReply, type ProfileReply, type VersusReply } from "../protocol/profiles.js";
import type { Vacations } from "../platform/vacations.js";
import { arrayOf, bool, errors, gameId, int, limitQuery, nullable, num, obj, okReply, routeDoc, str } from "./openapi.js";
import { refusing } from "./validation.js";

export interface ProfileDeps {
  db: Database;
  daily: DailyChallenges;
  /** Who asks (a Bearer token), null when anonymous; throws BAD_TOKEN for a forged token. */
  requester: (req: FastifyRequest) => Player | null | Promise<Player | null>;
  /** The server's clock (epoch ms): a rating's uncertainty grows with time away. */
  now: () => number;
  /** Vacations from turn-based games: a profile says until when its player is away. */
  vacations: Pick<Vacations, "until">;
}

/** Page sizes of GET /api/players/:name/games. */
export const GAMES_PAGE_DEFAULT = 20;
export const GAMES_PAGE_MAX = 100;
const BAD_CURSOR_MESSAGE = "before is the `next` value of the previous page.";

/** `:name`: an account's name or id:<player id>; longer than any of those names nobody (NOT_FOUND). */
const nameSchema = refusing({ type: "string", minLength: 1, maxLength: 80, description: "An account's name (any case), or id:<player id>." }, "NOT_FOUND", "No player is registered under that name.");
const nameParam = obj({ name: nameSchema });
/** `:name` and `:other` of /api/players/:name/versus/:other. */
const pairParams = obj({ name: nameSchema, other: nameSchema });

async function owner(db: Database, key: string, now: number): Promise<ProfileOwner> {
  const found = await findProfileOwner(db, key, now);
  if (!found) throw err("NOT_FOUND", key.startsWith("id:") ? "No player with that id has finished a game here." : "No player is registered under that name.");
  return found;
}

const SEARCH_MESSAGE = `q is the start of a player's name, ${SEARCH_MIN} to ${SEARCH_MAX} characters.`;

export function registerProfileRoutes(app: FastifyInstance, deps: ProfileDeps): void {
  const { db, daily } = deps;

  app.get<{ Querystring: { q: string; limit: number; for?: "invite" } }>("/api/players", {
    schema: routeDoc({
      summary: "Find players by the start of their name",
      description: `Accounts whose name starts with \`q\` (any case), open ones only: the exact name first, then the shortest, then alphabetically. As Lichess's player search: to open a profile, follow, invite or block by name. With \`for=invite\` and a Bearer token, names to suggest for an invitation: not the asker, nor those the asker blocks (not filtered by another's invitations switch or blocks, which the invitation's refusal alone says, and in the same words).`,
      tags: ["profiles"],
      bearer: true,
      querystring: obj(
        {
          q: refusing({ type: "string", minLength: SEARCH_MIN, maxLength: SEARCH_MAX, description: `The start of a name, ${SEARCH_MIN} to ${SEARCH_MAX} characters.` }, "BAD_QUERY", SEARCH_MESSAGE),
          limit: limitQuery(SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT),
          for: refusing({ type: "string", enum: ["invite"], description: "invite: names to suggest for an invitation (with a token: not the asker, nor those it blocks)." }, "BAD_QUERY", "for is invite, or absent."),
        },
        { optional: ["limit", "for"] },
      ),
      response: { 200: okReply({ players: arrayOf(obj({ name: str(), profile: str("Its profile page's path.") })) }), ...errors(400, 401) },
    }),
  }, async (req) => {
    if (req.query.q.trim().length < SEARCH_MIN) throw err("BAD_QUERY", SEARCH_MESSAGE);
    const invite = req.query.for === "invite" ? { by: (await deps.requester(req))?.id ?? null } : undefined;
    const found = await searchPlayers(db, req.query.q, req.query.limit, invite);
    return { ok: true, players: found.map((p) => ({ name: p.name, profile: profilePath({ playerId: p.playerId, account: p.name }) })) };
  });

  app.get<{ Params: { name: string } }>("/api/players/:name", {
    schema: routeDoc({
      summary: "A player's profile",
      description: "Ratings (displayed numbers) with their history, and finished games counted by game type.",
      tags: ["profiles"],
      params: nameParam,
      response: {
        200: okReply({
          player: obj({ id: str(), name: str(), account: bool("Registered."), since: str("First seen, ISO 8601."), profile: str("The web client's page."), closed: { type: ["string", "null"], enum: ["player", "operators", null], description: "Closed by its player or by the operators; null while open (or a guest)." }, formerly: nullable(obj({ name: str(), until: str("ISO 8601.") }, { description: "The account's name before its last rename, held for it until then (its profile still answers to it); null: none." })), vacationUntil: nullable(str("On vacation from turn-based games until then (ISO 8601): their clocks there are stopped; null: not now.")) }),
          ratings: arrayOf(obj({
            game: str(), rating: num(), provisional: bool(), games: int("Rated games."), wins: int(), mu: num(), sigma: num("As it stands now: widened by the time since the last rated game (docs/protocol.md, \"Ratings\")."),
            history: arrayOf(obj({ at: str("ISO 8601."), rating: num(), provisional: bool(), gameId: str() }), "Oldest first, the newest 500 at most."),
            refunded: int("Display points given back for games against accounts closed for breaking the rules (not in the history's points)."),
          })),
          played: arrayOf(obj({ game: str(), games: int() })),
          reliability: obj({
            games: int(`Their latest ranked games with people, at most ${RELIABILITY_GAMES}: rated seats, and ranked games called off because they never moved.`),
            left: int("Of those, the games they left: ran out of time and never came back, or never made a first move (forgiven leaves not counted)."),
          }, { description: "How reliably they play ranked games out (docs/protocol.md, \"Leaving ranked games\")." }),
        }),
        ...errors(404),
      },
    }),
  }, async (req): Promise<ProfileReply> => {
    const p = await owner(db, req.params.name, deps.now());
    const [ratings, played, reliable, away] = await Promise.all([profileRatings(db, p.id, deps.now()), playedCounts(db, p.id), reliability(db, p.id), p.account !== null ? deps.vacations.until(p.id) : null]);
    return {
      ok: true,
      player: { id: p.id, name: p.name, account: p.account !== null, since: p.since.toISOString(), profile: profilePath({ playerId: p.id, account: p.account }), closed: p.closed, formerly: p.formerly && { name: p.formerly.name, until: new Date(p.formerly.until).toISOString() }, vacationUntil: away === null ? null : new Date(away).toISOString() },
      ratings,
      played,
      reliability: reliable,
    };
  });

  const side = (p: ProfileOwner) => ({ id: p.id, name: p.name, profile: profilePath({ playerId: p.id, account: p.account }) });

  app.get<{ Params: { name: string; other: string } }>("/api/players/:name/versus/:other", {
    schema: routeDoc({
      summary: "Two players' record against each other",
      description: `Every finished game both sat in as people, from the first player's side: who finished ahead (a seat a bot finished for its player, who ran out of time or resigned, is behind every other; tied places are level), in all and per game, and their latest ${VERSUS_RECENT} games together. A guest with no finished game yet is known here to no one but themselves: asking with its token about \`id:<its id>\`, it has played nobody (games 0).`,
      tags: ["profiles"],
      bearer: true,
      params: pairParams,
      response: {
        200: okReply({
          player: obj({ id: str(), name: str(), profile: str() }),
          other: obj({ id: str(), name: str(), profile: str() }),
          games: int(), ahead: int(), behind: int(), level: int(),
          byGame: arrayOf(obj({ game: str(), games: int(), ahead: int(), behind: int(), level: int() })),
          recent: arrayOf(obj({ id: str("The game: its replay is /game/<id>."), game: str(), finishedAt: str("ISO 8601."), ranked: bool(), result: { type: "string", enum: ["ahead", "behind", "level"], description: "The first player's result against the other." } }), "Newest first."),
        }),
        ...errors(400, 401, 404),
      },
    }),
  }, async (req): Promise<VersusReply> => {
    const now = deps.now();
    const viewer = await deps.requester(req);
    // You, asking about yourself before your first finished game (a guest has no record until then): no games with anyone.
    const first = async (): Promise<ProfileOwner> =>
      (await findProfileOwner(db, req.params.name, now)) ??
      (viewer && req.params.name === `id:${viewer.id}` ? { id: viewer.id, name: viewer.name, account: null, since: new Date(now), closed: null, formerly: null } : owner(db, req.params.name, now));
    const [p, o] = await Promise.all([first(), owner(db, req.params.other, now)]);
    if (p.id === o.id) throw err("SAME_PLAYER", "Name two different players.");
    return { ok: true, player: side(p), other: side(o), ...(await versus(db, p.id, o.id)) };
  });

  app.get<{ Params: { name: string }; Querystring: { before?: string; limit: number; game?: string; with?: string } }>("/api/players/:name/games", {
    schema: routeDoc({
      summary: "A player's finished games, a page at a time",
      description: "Newest first. `next` is null on the last page, else pass it as `before` (with the same `game` and `with`). `game`: one game's only; `with`: only games another player sat in too. A game on today's daily deal has id null for whoever may not know that deal yet (the token is optional).",
      tags: ["profiles"],
      bearer: true,
      params: nameParam,
      querystring: obj(
        {
          before: refusing(str("The `next` of the previous page (else BAD_CURSOR)."), "BAD_CURSOR", BAD_CURSOR_MESSAGE),
          limit: limitQuery(GAMES_PAGE_MAX, GAMES_PAGE_DEFAULT),
          game: gameId,
          with: { ...nameSchema, description: "Only games with this player too (a person's seat): an account's name, or id:<player id>." },
        },
        { optional: ["before", "limit", "game", "with"] },
      ),
      response: {
        200: okReply({
          games: arrayOf(obj({
            id: nullable(str()), game: str(), finishedAt: str("ISO 8601."), ranked: bool(), daily: nullable(str("A daily deal's day.")),
            players: arrayOf(obj({ seat: int(), name: str(), playerId: nullable(str()), bot: bool(), place: int(), score: num(), forfeit: nullable(str()), profile: nullable(str()) })),
            me: obj({ seat: int(), place: int(), score: num(), forfeit: nullable(str()) }),
            ratingChange: nullable(obj({ before: num(), after: num(), delta: num(), beforeProvisional: bool(), afterProvisional: bool() })),
          })),
          next: nullable(str("The cursor of the next, older page.")),
        }),
        ...errors(400, 401, 404),
      },
    }),
  }, async (req): Promise<GamesPageReply> => {
    const viewer = await deps.requester(req);
    const limit = req.query.limit;
    let before = null;
    if (req.query.before !== undefined && req.query.before !== "") {
      before = decodeCursor(req.query.before);
      if (!before) throw err("BAD_CURSOR", BAD_CURSOR_MESSAGE);
    }
    const p = await owner(db, req.params.name, deps.now());
    const other = req.query.with === undefined || req.query.with === "" ? null : await owner(db, req.query.with, deps.now());
    const { rows, more } = await playerGames(db, p.id, before, limit, { ...(req.query.game ? { game: req.query.game } : {}), ...(other ? { with: other.id } : {}) });
    // Today's daily deal: listed with its score, but its id (the way to its record and room) only
    // for who may know that deal (sat in it, or has finished their own attempt at it).
    const knows = new Map<string, boolean>();
    const games: GameListEntry[] = [];
    for (const r of rows) {
      let id: string | null = r.id;
      if (r.daily !== null && !(viewer !== null && r.players.some((s) => s.playerId === viewer.id))) {
        const k = `${r.game}|${r.daily}`;
        let ok = knows.get(k);
        if (ok === undefined) knows.set(k, (ok = await daily.knowsDeal(r.game, r.daily, viewer?.id ?? null)));
        if (!ok) id = null;
      }
      games.push({ id, game: r.game, finishedAt: r.finishedAt.toISOString(), ranked: r.ranked, daily: r.daily, players: r.players, me: r.me, ratingChange: r.ratingChange });
    }
    const last = rows[rows.length - 1];
    return { ok: true, games, next: more && last ? encodeCursor(last.cursor) : null };
  });
}
