/**
 * Every game's bot, at each strength, against bots that play a uniformly random legal action:
 * 1,000 seeded games per game and strength, player counts taken in turn over the game's range
 * and room options in turn over a few variants, the bot in a different seat each game. Every move
 * the bot makes goes through botMove (what the platform calls) and must be the bot's own legal
 * action: never an illegal one, never a failure that falls back to a random move.
 *
 * "The bot wins" a game when it is its sole or shared winner (place 1). Aucteraden is solitaire:
 * each seed is played once by the bot and once by a random bot, and the bot wins when its score
 * is at least the random bot's. It must win at least 80% of the games; the rates (overall, by
 * player count) and average scores are printed.
 *
 * Strong against casual: in every game for several players, one strong bot at a table of casual
 * bots (400 seeded games, player counts in turn, its seat moving) must win at least 1.25 times its
 * fair share (one game in n at n players), so the strength a room names means a stronger opponent.
 */
import { describe, expect, it } from "vitest";
import { BOT_STRENGTHS, botMove, botStrength } from "./bots.js";
import { matchesLegal, randomLegalAction } from "./legal.js";
import { GAMES } from "./registry.js";
import { seededRandom } from "./testing.js";
import type { Action, AnyGame, BotStrength, Seat } from "./types.js";

const GAMES_PER_RUN = 1000;
const MIN_WIN_RATE = 0.8;
const MAX_STEPS = 50_000;

/** Room options taken in turn (each game's default first). */
const VARIANTS: Record<string, unknown[]> = {
  "goblin-market": [{}],
  "sorcerous-futures": [{}, {}, { extended: "courts" }, { match: 3 }],
  aucteraden: [{}, { extended: true }],
  "goblin-teeth": [{}, { advanced: true }],
};

/** Plays one game to its end, each move from `moveOf` (the state, the seat to act, the step). */
function playOut(game: AnyGame, players: number, options: unknown, seed: string, moveOf: (state: unknown, seat: Seat, step: number) => Action) {
  let state = game.setup({ players, options, seed }).state;
  for (let step = 0; !game.isOver(state); step++) {
    if (step > MAX_STEPS) throw new Error(`${game.id} ${seed}: no end after ${MAX_STEPS} moves`);
    const seat = game.activeSeats(state)[0]!;
    const action = moveOf(state, seat, step);
    const r = game.apply(state, seat, action);
    if (!r.ok) throw new Error(`${game.id} ${seed} step ${step}: ${JSON.stringify(action)} refused: ${r.error.message}`);
    state = r.value.state;
  }
  return game.outcome(state)!;
}

/** The game's bot at `strength` in `seat`, through botMove: never a fallback to a random move. */
function botPlays(game: AnyGame, seed: string, strength: BotStrength, state: unknown, seat: Seat, step: number, random: () => number): Action {
  const move = botMove(game, state, seat, strength, random);
  expect(move.fellBack, `${game.id} ${strength} ${seed} step ${step}`).toBeUndefined();
  return move.action!;
}

/** Plays one game to its end: `smart` (or nobody) is the bot under test, every other seat random. */
function play(game: AnyGame, players: number, options: unknown, seed: string, smart: Seat | null, strength: BotStrength) {
  const randomBots = seededRandom(`random-bots:${seed}`);
  const bot = seededRandom(`bot:${seed}`);
  return playOut(game, players, options, seed, (state, seat, step) =>
    seat === smart ? botPlays(game, seed, strength, state, seat, step, bot) : randomLegalAction(game.legalActions(state, seat), randomBots)!,
  );
}

describe("game bots against random bots", () => {
  for (const game of GAMES) {
    for (const strength of BOT_STRENGTHS) {
      it(`${game.id}, ${strength}: wins at least ${MIN_WIN_RATE * 100}% of ${GAMES_PER_RUN} seeded games`, () => {
        expect(game.bot, `${game.id} has a bot`).toBeTypeOf("function");
        const counts = game.maxPlayers - game.minPlayers + 1;
        const variants = VARIANTS[game.id] ?? [{}];
        const byPlayers = new Map<number, { won: number; games: number }>();
        let won = 0;
        let botScore = 0;
        let randomScore = 0;
        for (let g = 0; g < GAMES_PER_RUN; g++) {
          const players = game.minPlayers + (g % counts);
          const parsed = game.parseOptions(variants[Math.floor(g / counts) % variants.length]);
          if (!parsed.ok) throw new Error(parsed.error.message);
          const seed = `bot-strength:${game.id}:${g}`;
          let wins: boolean;
          if (players === 1) {
            const mine = play(game, 1, parsed.value, seed, 0, strength).scores[0]!;
            const theirs = play(game, 1, parsed.value, seed, null, strength).scores[0]!;
            wins = mine >= theirs;
            botScore += mine;
            randomScore += theirs;
          } else {
            const seat = g % players;
            const o = play(game, players, parsed.value, seed, seat, strength);
            wins = o.places[seat] === 1;
            botScore += o.scores[seat]!;
            randomScore += Math.max(...o.scores.filter((_, s) => s !== seat));
          }
          const p = byPlayers.get(players) ?? { won: 0, games: 0 };
          p.games++;
          if (wins) {
            p.won++;
            won++;
          }
          byPlayers.set(players, p);
        }
        const rate = won / GAMES_PER_RUN;
        const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
        const split = [...byPlayers].map(([n, p]) => `${n}p ${pct(p.won / p.games)}`).join(", ");
        const rival = game.maxPlayers === 1 ? "the random bot's" : "the best random bot's";
        console.log(
          `${game.id} bot (${strength}) won ${won}/${GAMES_PER_RUN} = ${pct(rate)} against random bots (${split}); ` +
            `average score ${(botScore / GAMES_PER_RUN).toFixed(1)}, ${rival} ${(randomScore / GAMES_PER_RUN).toFixed(1)}`,
        );
        expect(rate).toBeGreaterThanOrEqual(MIN_WIN_RATE);
      });
    }
  }
});

const HEAD_TO_HEAD_GAMES = 400;
const MIN_SHARE_RATIO = 1.25;

describe("the strong bot against casual bots", () => {
  for (const game of GAMES.filter((g) => g.maxPlayers > 1)) {
    it(`${game.id}: one strong bot wins at least ${MIN_SHARE_RATIO}x its fair share against casual bots`, () => {
      const counts = game.maxPlayers - game.minPlayers + 1;
      const variants = VARIANTS[game.id] ?? [{}];
      const byPlayers = new Map<number, { won: number; games: number }>();
      let won = 0;
      let fair = 0;
      for (let g = 0; g < HEAD_TO_HEAD_GAMES; g++) {
        const players = game.minPlayers + (g % counts);
        const parsed = game.parseOptions(variants[Math.floor(g / counts) % variants.length]);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const seed = `strong-vs-casual:${game.id}:${g}`;
        const strongSeat = g % players;
        const rng = seededRandom(`bots:${seed}`);
        const outcome = playOut(game, players, parsed.value, seed, (state, seat, step) => botPlays(game, seed, seat === strongSeat ? "strong" : "casual", state, seat, step, rng));
        const wins = outcome.places[strongSeat] === 1;
        const p = byPlayers.get(players) ?? { won: 0, games: 0 };
        p.games++;
        if (wins) (p.won++, won++);
        byPlayers.set(players, p);
        fair += 1 / players;
      }
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      const split = [...byPlayers].map(([n, p]) => `${n}p ${pct(p.won / p.games)} (fair ${pct(1 / n)})`).join(", ");
      console.log(`${game.id}: a strong bot among casual bots won ${won}/${HEAD_TO_HEAD_GAMES} = ${(won / fair).toFixed(2)}x its fair share (${split})`);
      expect(won / fair).toBeGreaterThanOrEqual(MIN_SHARE_RATIO);
    });
  }
});

describe("botMove, as the platform calls it", () => {
  const game = GAMES.find((g) => g.id === "goblin-market")!;
  const state = game.setup({ players: 3, options: {}, seed: "bot-move" }).state;
  const seat = game.activeSeats(state)[0]!;

  it("plays a random legal move, and says why, when a game's bot fails or answers illegally", () => {
    const failing: AnyGame = { ...game, bot: () => { throw new Error("boom"); } };
    const failed = botMove(failing, state, seat, "strong", seededRandom("a"));
    expect(failed.fellBack).toMatch(/goblin-market bot failed: boom/);
    expect(matchesLegal(game.legalActions(state, seat), failed.action!)).toBe(true);
    const cheating: AnyGame = { ...game, bot: () => ({ type: "bid", amount: 999 }) };
    const refused = botMove(cheating, state, seat, "strong", seededRandom("a"));
    expect(refused.fellBack).toMatch(/illegal action/);
    expect(matchesLegal(game.legalActions(state, seat), refused.action!)).toBe(true);
    expect(botMove(game, state, seat, "casual", seededRandom("a")).fellBack).toBeUndefined();
  });

  it("reads a room's strength, strong unless it names casual", () => {
    expect(botStrength("casual")).toBe("casual");
    expect(botStrength("strong")).toBe("strong");
    expect(botStrength(undefined)).toBe("strong");
    expect(botStrength("grandmaster")).toBe("strong");
  });
});
