/**
 * Durations in words, as players read them. Pure, no imports: the server's messages and the
 * browser client use the same code, so a refusal and the page beside it say the same wait.
 */

/** "14 min", "3 h 5 min", "1 h": a wait, rounded up to the minute (at least 1 min). */
export function spellWait(ms: number): string {
  const mins = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** "42 s", "1 min", "1 min 12 s": a stretch, rounded to the second. */
export function spellSpan(ms: number): string {
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  if (m === 0) return `${s} s`;
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}

/**
 * "45 seconds", "about 29 minutes", "about 2 hours": when to try again, in words (a rate limit's
 * refusal). Seconds exactly while under 100 (rounded up, at least 1), then "about" the minutes
 * (rounded up) while under 100, then "about" the hours (rounded).
 */
export function waitInWords(ms: number): string {
  const secs = Math.max(1, Math.ceil(ms / 1000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (secs < 100) return plural(secs, "second");
  const mins = Math.ceil(secs / 60);
  if (mins < 100) return `about ${plural(mins, "minute")}`;
  return `about ${plural(Math.round(mins / 60), "hour")}`;
}
