/**
 * Setup: shuffle the Item and Cheat decks, lay out the Offerings (the 6-Item one, plus a random A
 * and B; Advanced Play: an A and a B in front of each player), everyone rolls their dice (the
 * first round's roll) and draws a Cheat card; the highest dice sum goes first (ties: at random).
 */
import { randomInt, seedRng, shuffle } from "../rng.js";
import type { SetupContext, Step } from "../types.js";
import { drawCheats } from "./cards.js";
import { A_OFFERINGS, B_OFFERINGS, CHEAT_IDS, DICE_PER_PLAYER, ITEM_IDS } from "./data.js";
import { diceOf, rollAll } from "./dice.js";
import { emit, finish, type Draft } from "./draft.js";
import { settle } from "./flow.js";
import { startRound } from "./round.js";
import { GAME_ID, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, type GoblinTeethOptions, type GoblinTeethState } from "./state.js";

export function setup(ctx: SetupContext<GoblinTeethOptions>): Step<GoblinTeethState> {
  const { players, seed } = ctx;
  const advanced = ctx.options?.advanced === true;
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RangeError(`Goblin Teeth needs ${MIN_PLAYERS}-${MAX_PLAYERS} players, got ${players}`);
  }
  const rules = ctx.rules ?? RULES_VERSION;
  if (!Number.isInteger(rules) || rules < 1 || rules > RULES_VERSION) {
    throw new RangeError(`Goblin Teeth has rules versions 1-${RULES_VERSION}, not ${rules}`);
  }
  let rng = seedRng(seed);
  const items = shuffle(rng, ITEM_IDS);
  rng = items.rng;
  const cheats = shuffle(rng, CHEAT_IDS);
  rng = cheats.rng;
  const a = shuffle(rng, A_OFFERINGS);
  rng = a.rng;
  const b = shuffle(rng, B_OFFERINGS);
  rng = b.rng;
  const d: Draft = {
    game: GAME_ID,
    players,
    rng,
    advanced,
    phase: "start",
    round: 1,
    firstPlayer: 0,
    turn: null,
    itemDeck: items.value,
    cheatDeck: cheats.value,
    discard: [],
    hands: Array.from({ length: players }, () => []),
    ongoing: Array.from({ length: players }, () => []),
    offerings: advanced ? ["six"] : ["six", a.value[0], b.value[0]],
    seatOfferings: advanced ? Array.from({ length: players }, (_, seat) => [a.value[seat], b.value[seat]]) : null,
    pot: [],
    dice: Array.from({ length: players * DICE_PER_PLAYER }, (_, id) => ({ owner: Math.floor(id / DICE_PER_PLAYER), value: 1, at: "supply" as const })),
    knowledge: {},
    shown: [],
    turnState: { cheats: 0, passed: false, placed: false, poisoned: false, ended: false },
    inPlay: [],
    pending: [],
    patientDone: false,
    lastAwards: null,
    result: null,
    // Version 1 states have no field: a game dealt under it now is the same state as it was then.
    ...(rules > 1 ? { rules } : {}),
    events: [],
  };
  emit(d, { type: "game-start", players, advanced, offerings: d.offerings, seatOfferings: d.seatOfferings });
  for (let seat = 0; seat < players; seat++) rollAll(d, seat);
  emit(d, { type: "roll", dice: d.dice.map((x) => x.value) });
  for (let seat = 0; seat < players; seat++) drawCheats(d, seat, 1, "setup");
  // Highest sum of dice goes first; ties are broken at random (online stand-in for "the tallest").
  const sums = Array.from({ length: players }, (_, seat) => diceOf(seat).reduce((t, id) => t + d.dice[id].value, 0));
  const best = Math.max(...sums);
  const tied = sums.flatMap((x, seat) => (x === best ? [seat] : []));
  const pick = tied.length > 1 ? randomInt(d.rng, tied.length) : { value: 0, rng: d.rng };
  d.rng = pick.rng;
  d.firstPlayer = tied[pick.value];
  emit(d, { type: "first-player", seat: d.firstPlayer, sums, tied: tied.length > 1 ? tied : [] });
  startRound(d, false);
  settle(d);
  return finish(d);
}
