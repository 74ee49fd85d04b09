/**
 * Days and seeds of the daily challenge (see daily.ts): pure functions, no I/O, shared by the
 * room views (a daily deal's seed stays secret until its day is over) and the challenge service.
 */
import { createHmac } from "node:crypto";
import type { Room } from "./room.js";

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DAY_MS = 86_400_000;
/** The first day with a daily challenge; earlier days cannot be replayed. */
export const FIRST_DAY = "2026-11-01";

/** The UTC day of an instant, "YYYY-MM-DD". */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** A real calendar day in the "YYYY-MM-DD" form, or null. */
export function parseDay(day: unknown): string | null {
  if (typeof day !== "string") return null;
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return utcDay(t) === day ? day : null;
}

/** When a day's deal stops being today's (the next 00:00 UTC), epoch ms. */
export function dayEnds(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
}

export function dayOver(day: string, now: number): boolean {
  return now >= dayEnds(day);
}

/** Whether a room's seed may be shown: every game's at its end, a daily deal's once its day is over. */
export function seedPublic(room: Pick<Room, "status" | "daily">, now: number): boolean {
  return room.status === "finished" && (!room.daily || dayOver(room.daily, now));
}

export function dailySeed(secret: string, game: string, day: string): string {
  return createHmac("sha256", secret).update(`goblin-bazaar daily ${game} ${day}`).digest("hex");
}

