/** Small English words shared by the server's notices and the web client (one place, one rule). */

/** "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", ... */
export function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return n % 10 === 1 ? `${n}st` : n % 10 === 2 ? `${n}nd` : n % 10 === 3 ? `${n}rd` : `${n}th`;
}
