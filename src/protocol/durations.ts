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
