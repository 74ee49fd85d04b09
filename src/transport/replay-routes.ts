/**
 * GET /api/replay/:id: a finished game replayed step by step with its own rules, with the proof
 * (seed check, every action accepted, outcome equal to the recorded one) and, for a window of at
 * most REPLAY_WINDOW steps, the chosen viewer's view at each step (platform/replay.ts). Only
 * finished games are in the database, so a live room is NOT_FOUND here: nothing served from a
 * live room ever carries the all-seeing view.
 *
 * A daily deal's replay waits until its day is over, for everyone: DAILY_SPOILER (403) to whoever
 * may not know the deal yet (as GET /api/finished/:id), DAILY_REPLAY_LATER (403) to the players
 * who do know it (its seed is still withheld, and a replay would show the deck to come).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Database } from "../db/client.js";
import { getFinishedGame } from "../db/finished-games.js";
import { AppError, err } from "../platform/errors.js";
import type { DailyChallenges } from "../platform/daily.js";
import { parseViewer, replayRecord } from "../platform/replay.js";
import { arrayOf, bool, errors, int, nullable, num, obj, okReply, roomIdParam, routeDoc, str } from "./openapi.js";
import { refusing } from "./validation.js";

/** At most this many steps' views per request (a long five-player Goblin Teeth game: ~4 KB a view, 160+ steps). */
export const REPLAY_WINDOW = 50;

const step = (name: string, description: string) =>
  refusing({ type: "integer", minimum: 0, maximum: 999_999, description: `${description} (else BAD_RANGE).` }, "BAD_RANGE", `${name} is a step number: a whole number from 0.`);

export interface ReplayDeps {
  db: Database;
  daily: DailyChallenges;
  /** Who asks (a Bearer token), null when anonymous; throws BAD_TOKEN for a token we did not sign (http.ts). */
  requester: (req: FastifyRequest) => Promise<{ id: string } | null>;
}

export function registerReplayRoutes(app: FastifyInstance, deps: ReplayDeps): void {
  const { db, daily, requester } = deps;

  app.get<{ Params: { id: string }; Querystring: { viewer: string; from: number; to?: number } }>("/api/replay/:id", {
    schema: routeDoc({
      summary: "A finished game replayed step by step",
      description: `Replayed with its own rules, with the proof (seed check, every action accepted, outcome as recorded) and one viewer's view at each step of a window of at most ${REPLAY_WINDOW} steps. A game on today's daily deal waits until the day is over (DAILY_SPOILER, DAILY_REPLAY_LATER). The token is optional.`,
      tags: ["replays"],
      bearer: true,
      params: roomIdParam,
      querystring: obj(
        {
          // parseViewer checks the seat against the game's players.
          viewer: refusing(
            { type: "string", pattern: "^(all|spectator|seat:[0-9]{1,2})$", default: "all", description: "Whose view: all, spectator or seat:N (else BAD_VIEWER)." },
            "BAD_VIEWER",
            "viewer is all, spectator, or seat:N with N a seat of the game.",
          ),
          from: { ...step("from", "First step"), default: 0 },
          to: step("to", `Last step; default from + ${REPLAY_WINDOW - 1} or the last step`),
        },
        { optional: ["viewer", "from", "to"] },
      ),
      response: {
        200: okReply(
          {
            roomId: str(), game: str(), rules: int("The game's rules version the record was played and replayed under."), rulesToday: int("The game's rules version a game started now is played under."), options: { description: "The room's options." },
            players: arrayOf(obj({ seat: int(), name: str(), bot: bool(), forfeit: nullable(str()) })),
            ranked: bool(), startedAt: nullable(num("epoch ms")), finishedAt: nullable(num("epoch ms")), daily: nullable(str()),
            ratingChanges: arrayOf({ type: "object", additionalProperties: true }),
            viewer: str(),
            seedCheck: obj({ seed: str(), commitment: str(), sha256: str(), ok: bool() }),
            actionsCheck: obj({ ok: bool(), refused: { type: "object", additionalProperties: true } }, { optional: ["refused"] }),
            outcomeCheck: obj({ ok: bool(), recorded: { type: "object", additionalProperties: true }, replayed: { type: ["object", "null"], additionalProperties: true }, rules: str() }, { optional: ["rules"] }),
            proven: bool("Every check passed."),
            total: int("The number of steps (actions)."), from: int(), to: int(),
            steps: arrayOf(obj(
              {
                n: int(), seat: nullable(int()), action: { description: "The step's action; null at step 0." }, at: nullable(num("epoch ms")), bot: { type: "boolean", const: true },
                log: arrayOf({ type: "object", additionalProperties: true }), active: arrayOf(int()),
                view: { type: "object", additionalProperties: true, description: "The viewer's view after this step (the room:state view)." },
              },
              { optional: ["bot", "view"] },
            )),
          },
          { open: true },
        ),
        ...errors(400, 401, 403, 404, 503),
      },
    }),
  }, async (req) => {
    const who = await requester(req);
    const record = await getFinishedGame(db, req.params.id);
    if (!record) throw err("NOT_FOUND", "No finished game with that id: only finished games can be replayed.");
    let shown;
    try {
      shown = await daily.finishedRecord(record, who?.id ?? null);
    } catch (e) {
      if (e instanceof AppError && e.code === "DAILY_SPOILER") {
        throw err("DAILY_SPOILER", "This game was played on today's daily deal: its replay opens to everyone when the day is over (00:00 UTC).");
      }
      throw e;
    }
    if (shown.seed === null) {
      // Said to one who may know the deal (they played it, or finished their own attempt): the
      // replay waits for everyone all the same, as the seed does. The day ends at 00:00 UTC.
      const opens = new Date((shown as { seedRevealedAt: number }).seedRevealedAt).toISOString().slice(11, 16);
      throw err(
        "DAILY_REPLAY_LATER",
        `This game was played on today's daily deal: its replay waits for everyone until the day is over, at ${opens} UTC, so that no one can study the deck before the day's attempts are over.`,
      );
    }
    const viewer = parseViewer(req.query.viewer, record.seats.length);
    const last = record.actions.length; // the last possible step
    const from = req.query.from;
    const to = req.query.to ?? Math.min(last, from + REPLAY_WINDOW - 1);
    if (from > last) throw err("BAD_RANGE", `This game has steps 0 to ${last}.`);
    if (to < from || to - from >= REPLAY_WINDOW) throw err("BAD_RANGE", `Ask for at most ${REPLAY_WINDOW} steps' views at a time, with to >= from.`);
    return { ok: true, ...replayRecord(record, { viewer, from, to }) };
  });
}
