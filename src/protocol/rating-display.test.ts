import { describe, expect, it } from "vitest";
import { rate, rating } from "openskill";
import { deltaText, displayedChange, displayRating, IDLE_VARIANCE_PER_DAY, idleSigma, isProvisional, PROVISIONAL_SIGMA, RATING_SIGMA0, ratingText } from "./rating-display.js";

describe("displayed ratings", () => {
  it("a newcomer is 1500, provisional", () => {
    const r = rating();
    expect(displayRating(r.mu)).toBe(1500);
    expect(isProvisional(r.sigma)).toBe(true);
    expect(ratingText(r)).toBe("1500?");
  });

  it("is a whole number, monotone in mu (never lower for a higher mu)", () => {
    let prev = -Infinity;
    for (let mu = -20; mu <= 70; mu += 0.037) {
      const d = displayRating(mu);
      expect(Number.isInteger(d)).toBe(true);
      expect(d).toBeGreaterThanOrEqual(prev);
      prev = d;
    }
    expect(displayRating(26)).toBeGreaterThan(displayRating(25));
    // 400 points are 13.3 mu: about 10 to 1 between settled players, as in Elo.
    expect(displayRating(25 + 40 / 3)).toBe(1900);
  });

  it("is provisional exactly while sigma is above the threshold (sigma alone decides)", () => {
    expect(isProvisional(PROVISIONAL_SIGMA + 1e-9)).toBe(true);
    expect(isProvisional(PROVISIONAL_SIGMA)).toBe(false);
    expect(isProvisional(2)).toBe(false);
    expect(isProvisional(Number.NaN)).toBe(true);
    expect(ratingText({ mu: 30, sigma: 5 })).toBe("1650");
  });

  it("leaves provisional after a handful of games: 2-player within 8, 4-player within 12", () => {
    for (const [players, within] of [[2, 8], [3, 10], [4, 12]] as const) {
      let table = Array.from({ length: players }, () => rating());
      let games = 0;
      while (isProvisional(table[0]!.sigma)) {
        games++;
        const ranks = table.map((_, i) => ((i + games) % players) + 1);
        table = rate(table.map((r) => [r]), { rank: ranks }).map((t) => t[0]!);
        expect(games).toBeLessThanOrEqual(within);
      }
      // Not after a single game either: the mark means "too few games to tell".
      expect(games).toBeGreaterThan(3);
    }
  });

  it("changes read as before → after with a delta that adds up", () => {
    const c = displayedChange({ mu: 25, sigma: 8.33 }, { mu: 25.95, sigma: 6.9 });
    expect(c).toEqual({ before: 1500, after: 1529, delta: 29, beforeProvisional: true, afterProvisional: false });
    const down = displayedChange({ mu: 30.01, sigma: 5 }, { mu: 29.2, sigma: 4.9 });
    expect(down.after - down.before).toBe(down.delta);
    expect(deltaText(down.delta)).toBe("−24");
    expect(deltaText(28)).toBe("+28");
    expect(deltaText(0)).toBe("±0");
  });
});

describe("time away (idleSigma)", () => {
  const DAY = 86_400_000;
  it("widens sigma with the days since the latest rated game: a settled 2 is provisional again after a year, a month adds little", () => {
    expect(idleSigma(2, 0, 0)).toBe(2);
    expect(idleSigma(2, 0, 30 * DAY)).toBeCloseTo(Math.sqrt(4 + 30 * IDLE_VARIANCE_PER_DAY), 12);
    expect(idleSigma(2, 0, 30 * DAY)).toBeLessThan(2.9);
    expect(isProvisional(idleSigma(2, 0, 364 * DAY))).toBe(false);
    expect(isProvisional(idleSigma(2, 0, 366 * DAY))).toBe(true);
    expect(idleSigma(2, 0, 365 * DAY)).toBeCloseTo(PROVISIONAL_SIGMA, 9);
  });

  it("never passes a newcomer's sigma, never narrows, and leaves an unknown or later last game alone", () => {
    expect(idleSigma(2, 0, 5000 * DAY)).toBe(RATING_SIGMA0);
    expect(idleSigma(RATING_SIGMA0, 0, 10 * DAY)).toBe(RATING_SIGMA0);
    expect(idleSigma(3, null, 10 * DAY)).toBe(3);
    expect(idleSigma(3, 10 * DAY, 5 * DAY)).toBe(3);
    for (let d = 0; d < 800; d += 7) expect(idleSigma(3, 0, (d + 7) * DAY)).toBeGreaterThanOrEqual(idleSigma(3, 0, d * DAY));
  });
});
