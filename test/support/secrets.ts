/**
 * What a viewer may not know about a room at a given version, as JSON fragments to look for in
 * payloads. Card ids are matched as whole JSON string values ("id" not followed by a colon),
 * because ids such as "end" or "market" are ordinary words.
 *
 * Goblin Market's secrets are the same for every viewer. Sorcerous Futures' differ per seat:
 * a seat's own valuations and the face-down cards it has seen are not secret to itself.
 */
import type { Room } from "../../src/platform/room.js";
import type { Seat } from "../../src/games/types.js";
import type { GoblinMarketState } from "../../src/games/goblin-market/state.js";
import type { SorcerousFuturesState } from "../../src/games/sorcerous-futures/state.js";
import type { AucteradenState } from "../../src/games/aucteraden/state.js";
import type { GoblinTeethState } from "../../src/games/goblin-teeth/state.js";

/** What no viewer (seat or spectator) may know. */
export function secretsOf(room: Room): string[] {
  if (room.game === "sorcerous-futures" && room.state) {
    const per = [null, ...room.seats.map((_, i) => i)].map((v) => new Set(secretsFor(room, v)));
    return [...per[0]!].filter((x) => per.every((s) => s.has(x)));
  }
  if (room.game === "goblin-teeth" && room.state) {
    const per = [null, ...room.seats.map((_, i) => i)].map((v) => new Set(secretsFor(room, v)));
    return [...per[0]!].filter((x) => per.every((s) => s.has(x)));
  }
  return secretsFor(room, null);
}

/** What the viewer in `seat` (null: a spectator) may not know. */
export function secretsFor(room: Room, seat: Seat | null): string[] {
  const out: string[] = [];
  if (room.seed && room.status !== "finished") out.push(room.seed);
  if (room.game === "goblin-market" && room.state) {
    const s = room.state as GoblinMarketState;
    out.push(JSON.stringify(s.rng));
    for (const id of s.auctionDeck) out.push(`"${id}"`);
    if (s.goblinDeck.length >= 2) out.push(JSON.stringify(s.goblinDeck));
  }
  if (room.game === "sorcerous-futures" && room.state) {
    const s = room.state as SorcerousFuturesState;
    out.push(JSON.stringify(s.rng));
    if (s.phase !== "over") {
      if (s.deck.length >= 2) out.push(JSON.stringify(s.deck));
      const hidden = new Set<string>([...s.deck, ...s.extraValuations, ...s.extraSetAside]);
      for (let other = 0; other < s.players; other++) {
        if (other !== seat) for (const id of s.valuations[other]) hidden.add(id);
        for (const id of s.faceDown[other]) if (seat === null || !(s.knowledge[id] ?? []).includes(seat)) hidden.add(id);
      }
      // Pawns/Courts revealed in setup are public by name (shuffled back: where they are is not).
      for (const id of s.revealed) hidden.delete(id);
      for (const id of hidden) out.push(`"${id}"`);
    }
  }
  if (room.game === "aucteraden" && room.state) {
    // One seat, no per-seat secrets: the undrawn deck (which cards, in what order) and the RNG,
    // hidden from the player and spectators alike, even after the end.
    const s = room.state as AucteradenState;
    out.push(JSON.stringify(s.rng));
    if (s.deck.length >= 2) out.push(JSON.stringify(s.deck));
    for (const id of s.deck) out.push(`"${id}"`);
  }
  if (room.game === "goblin-teeth" && room.state) {
    // Per seat: the decks (cards and order), other hands, the face-down Item; minus what this seat
    // knows is where it is (its own hand, cards it gave or put on the deck, the face-down Item it
    // peeked at or put there) and what everyone knows (cards shown with Sneak Preview).
    const s = room.state as GoblinTeethState;
    out.push(JSON.stringify(s.rng));
    if (s.phase !== "over") {
      if (s.itemDeck.length >= 2) out.push(JSON.stringify(s.itemDeck));
      if (s.cheatDeck.length >= 2) out.push(JSON.stringify(s.cheatDeck));
      const hidden = new Set<string>([...s.itemDeck, ...s.cheatDeck]);
      for (let other = 0; other < s.players; other++) if (other !== seat) for (const id of s.hands[other]) hidden.add(id);
      for (const p of s.pot) if (p.faceDown) hidden.add(p.item);
      const known = (id: string) => s.shown.includes(id) || (seat !== null && (s.knowledge[id] ?? []).includes(seat));
      for (const id of hidden) if (!known(id)) out.push(`"${id}"`);
    }
  }
  return out;
}

/**
 * The text of a payload (a room view, an update, or an ack carrying one) to scan for the secrets
 * of `room`'s current game. For Sorcerous Futures this leaves out what names cards by design
 * without placing them or belongs to earlier games: `view.unaccounted` (every card the viewer
 * cannot place, per suit; the engine's view tests check it), `view.results` (finished games of a
 * match, revealed), and log entries of earlier games of the match; in an update, the same members
 * wherever its patch sets them (a patch of `view`, or a whole new `view`). Other games: the whole
 * payload.
 */
export function payloadText(room: Room, payload: unknown): string {
  if (room.game !== "sorcerous-futures" || !room.state || typeof payload !== "object" || payload === null) {
    return JSON.stringify(payload);
  }
  const current = (room.state as SorcerousFuturesState).matchGame;
  const p = payload as Record<string, unknown>;
  // An update (it has a patch, `p`) carries its log entries as `l`; a whole view as `log`.
  const update = typeof p.p === "object" && p.p !== null;
  const logKey = update ? "l" : "log";
  const log = p[logKey] as Array<{ game?: number }> | undefined;
  const cut = (view: Record<string, unknown>) => ({ ...view, unaccounted: null, results: null });
  const out: Record<string, unknown> = { ...p, [logKey]: Array.isArray(log) ? log.filter((e) => e.game === undefined || e.game >= current) : log };
  if (update) {
    // An update: `view` in its patch is either a patch of the view (members to go into, or
    // operations) or an operation setting the whole view ([view]).
    const patch = p.p as Record<string, unknown>;
    const view = patch.view;
    if (Array.isArray(view)) out.p = { ...patch, view: view.length === 1 && typeof view[0] === "object" && view[0] !== null ? [cut(view[0] as Record<string, unknown>)] : view };
    else if (typeof view === "object" && view !== null) out.p = { ...patch, view: cut(view as Record<string, unknown>) };
  } else {
    const view = p.view as Record<string, unknown> | null | undefined;
    out.view = view ? cut(view) : view;
  }
  return JSON.stringify(out);
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
