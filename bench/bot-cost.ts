/**
 * What the games' bots cost, move by move, and what they decide: `npm run prebench && node
 * bench/dist/bench/bot-cost.js [--games N] [--game ID]` (docs/performance.md, "Smaller mechanisms").
 *
 * Plays N seeded games of each game (default 12 per player count and strength, every player count
 * the game allows, both strengths), every seat a bot, and times each bot decision alone (the rules
 * and views around it are not counted). Bots run on the server's event loop, so their slowest
 * decision is a stall every player on that node waits through. Prints, per game: the moves, the
 * CPU of all decisions, the median, 99th percentile and slowest decision, and a fingerprint of
 * every action chosen: a change meant only to make a bot faster must leave its fingerprint as it
 * was (same seeds, same decisions).
 */
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { BOT_STRENGTHS, botMove } from "../src/games/bots.js";
import { GAMES } from "../src/games/registry.js";
import { seededRandom } from "../src/games/testing.js";

const { values } = parseArgs({ options: { games: { type: "string", default: "12" }, game: { type: "string" } } });
const perSetting = Number(values.games);

for (const game of GAMES.filter((g) => !values.game || g.id === values.game)) {
  const hash = createHash("sha256");
  const times: number[] = [];
  for (const strength of BOT_STRENGTHS) {
    for (let players = game.minPlayers; players <= game.maxPlayers; players++) {
      for (let g = 0; g < perSetting; g++) {
        const random = seededRandom(`bot-cost ${g} ${strength}`);
        let { state } = game.setup({ players, options: {} as never, seed: (g + 101).toString(16).padStart(64, "0") });
        for (let steps = 0; !game.isOver(state) && steps < 5000; steps++) {
          const seat = game.activeSeats(state)[0]!;
          const t0 = process.cpuUsage();
          const { action, fellBack } = botMove(game, state, seat, strength, random);
          const used = process.cpuUsage(t0);
          if (fellBack) throw new Error(fellBack);
          times.push((used.user + used.system) / 1000);
          hash.update(JSON.stringify(action));
          const r = game.apply(state, seat, action!);
          if (!r.ok) throw new Error(`${game.id}: ${r.error.code} ${r.error.message}`);
          state = r.value.state;
        }
      }
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(
    `${game.id.padEnd(18)} ${String(times.length).padStart(6)} moves, ${total.toFixed(0).padStart(6)} ms in all; per decision p50 ${at(0.5)}, p99 ${at(0.99)}, max ${times.at(-1)!.toFixed(2)} ms; decisions ${hash.digest("hex").slice(0, 16)}`,
  );
}
