/**
 * What no viewer may know about a room at a given version, as JSON fragments to look for in
 * payloads. Card ids are matched as whole JSON string values ("id" not followed by a colon),
 * because ids such as "end" or "market" are ordinary words.
 */
import type { Room } from "../../src/platform/room.js";
import type { GoblinMarketState } from "../../src/games/goblin-market/state.js";

export function secretsOf(room: Room): string[] {
  const out: string[] = [];
  if (room.seed && room.status !== "finished") out.push(room.seed);
  if (room.game === "goblin-market" && room.state) {
    const s = room.state as GoblinMarketState;
    out.push(JSON.stringify(s.rng));
    for (const id of s.auctionDeck) out.push(`"${id}"`);
    if (s.goblinDeck.length >= 2) out.push(JSON.stringify(s.goblinDeck));
  }
  return out;
}

/** True when `text` (a JSON payload) contains `secret` as a value, not as an object key. */
export function leaks(text: string, secret: string): boolean {
  if (!secret.startsWith('"') || !secret.endsWith('"')) return text.includes(secret);
  let i = text.indexOf(secret);
  while (i >= 0) {
    if (text[i + secret.length] !== ":") return true;
    i = text.indexOf(secret, i + 1);
  }
  return false;
}
