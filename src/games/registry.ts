/** The games this server offers. Adding a game = one line here; the platform needs nothing else. */
import type { AnyGame } from "./types.js";
import { goblinMarket } from "./goblin-market/index.js";
import { sorcerousFutures } from "./sorcerous-futures/index.js";
import { aucteraden } from "./aucteraden/index.js";
import { goblinTeeth } from "./goblin-teeth/index.js";

export const GAMES: readonly AnyGame[] = [goblinMarket, sorcerousFutures, aucteraden, goblinTeeth];

const byId = new Map(GAMES.map((g) => [g.id, g]));

export function findGame(id: unknown): AnyGame | undefined {
  return typeof id === "string" ? byId.get(id) : undefined;
}
