/** Ongoing Cheat cards in front of players: who holds which effect. */
import { cheat } from "./data.js";
import type { GoblinTeethState } from "./state.js";
import type { Seat } from "../types.js";

/** True when an Ongoing card of this kind (data id, e.g. "cursed") is in front of `seat`. */
export function hasOngoing(s: GoblinTeethState, seat: Seat, kind: string): boolean {
  return s.ongoing[seat]?.some((id) => cheat(id).kind === kind) ?? false;
}

/** The seats with an Ongoing card of this kind in front of them, in seat order. */
export function holders(s: GoblinTeethState, kind: string): Seat[] {
  return s.ongoing.flatMap((cards, seat) => (cards.some((id) => cheat(id).kind === kind) ? [seat] : []));
}
