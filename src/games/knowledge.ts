/**
 * Per-seat knowledge of hidden things (a face-down card, a valuation): which seats have
 * seen which hidden item. Once a seat knows something it keeps knowing it until the
 * item is revealed to all or leaves play. Plain data, stored inside a game state.
 */
import type { Seat, Viewer } from "./types.js";

/** Hidden item key (e.g. a card id or a slot name) -> sorted seats that know it. */
export type Knowledge = Record<string, Seat[]>;

export function learn(k: Knowledge, item: string, seats: readonly Seat[]): Knowledge {
  const cur = k[item] ?? [];
  const merged = [...new Set([...cur, ...seats])].sort((a, b) => a - b);
  if (merged.length === cur.length) return k;
  return { ...k, [item]: merged };
}

export function forget(k: Knowledge, item: string): Knowledge {
  if (!(item in k)) return k;
  const { [item]: _gone, ...rest } = k;
  return rest;
}

export function knows(k: Knowledge, item: string, viewer: Viewer): boolean {
  return viewer.kind === "seat" && (k[item]?.includes(viewer.seat) ?? false);
}
