/**
 * `npm run replay -- <room id>` (reads the finished game from DATABASE_URL, or the embedded
 * PGlite in PGLITE_DIR) or `npm run replay -- --file game.json` (the body of
 * GET /api/finished/<id>). Checks that the seed hashes to the commitment and that replaying
 * the action log from the seed gives the recorded outcome (for a record scored before a change to
 * its game's scoring, the outcome under the rules that scored it: records are never re-scored).
 */
import { readFileSync } from "node:fs";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { getFinishedGame, type FinishedGameRecord } from "../db/finished-games.js";
import { checkOutcome, replayGame } from "./replay-game.js";

async function load(args: string[]): Promise<FinishedGameRecord> {
  if (args[0] === "--file" && args[1]) {
    const body = JSON.parse(readFileSync(args[1], "utf8")) as { game?: FinishedGameRecord } & FinishedGameRecord;
    return body.game ?? body;
  }
  if (!args[0]) throw new Error("usage: npm run replay -- <room id> | --file <game.json>");
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir });
  try {
    const game = await getFinishedGame(db, args[0]);
    if (!game) throw new Error(`no finished game ${args[0]} in the database`);
    return game;
  } finally {
    await db.close();
  }
}

const rec = await load(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
console.log(`game        ${rec.roomId} (${rec.gameType}, ${rec.seats.length} players, ${rec.actions.length} actions, rules ${rec.rules ?? 1})`);
let result: ReturnType<typeof replayGame>;
try {
  // Under the rules version the game was played under (the record's `rules`).
  result = replayGame({ gameType: rec.gameType, players: rec.seats.length, options: rec.options, seed: rec.seed, rules: rec.rules, actions: rec.actions });
} catch (e) {
  console.log(`replay      FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
const seedOk = result.commitment === rec.commitment;
const check = checkOutcome(rec.gameType, result, rec.outcome);
console.log(`commitment  ${rec.commitment}`);
console.log(`sha256(seed) ${result.commitment}  ${seedOk ? "MATCHES" : "DOES NOT MATCH"}`);
console.log(`recorded scores ${JSON.stringify(rec.outcome.scores)} places ${JSON.stringify(rec.outcome.places)}`);
if (check.rules === undefined) {
  console.log(`replayed scores ${JSON.stringify(check.current?.scores)} places ${JSON.stringify(check.current?.places)}`);
  console.log(`outcome     ${check.matches ? "MATCHES the recorded result" : "DIFFERS from the recorded result"}`);
} else {
  // A record scored before a change to the game's scoring keeps its result: check it against those rules.
  console.log(
    check.matches
      ? `outcome     MATCHES the recorded result under ${check.rules}, which scored this record`
      : `outcome     DIFFERS from the recorded result, under today's scoring and under ${check.rules}, which the record names`,
  );
  console.log(`            (today's scoring gives scores ${JSON.stringify(check.current?.scores)} places ${JSON.stringify(check.current?.places)}${check.matches ? "; the record keeps its own" : ""})`);
}
process.exit(seedOk && check.matches ? 0 : 1);
