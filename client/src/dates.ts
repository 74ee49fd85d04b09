/**
 * Days and moments as every page writes them: in the reader's time zone, day before month, a
 * 24-hour clock ("2 Dec 2026", "2 Dec 2026, 19:00", "Wed 2 Dec, 19:00", "19:00"), whatever the
 * browser's language (the site is in English). A UTC day is only the daily challenge's; the
 * server's own messages say UTC.
 */
export function dateWords(t: number | string): string {
  return new Date(t).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}

/** A moment, in local time: "2 Dec 2026, 19:00". */
export function dateTimeWords(t: number | string): string {
  return new Date(t).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** A moment in local time, short: "Wed 2 Dec, 19:00". */
export function shortWhen(t: number): string {
  return new Date(t).toLocaleString("en-GB", { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** A time of day in local time: "19:00" (with `seconds`, "19:00:05"). */
export function timeWords(t: number, seconds = false): string {
  return new Date(t).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}) });
}
