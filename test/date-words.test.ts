/**
 * Every page writes days and moments one way (client/src/dates.ts): day before month and a 24-hour
 * clock, whatever the browser's language, in the reader's time zone. This runs under Node's own
 * language (en-US here), whose forms ("Dec 2, 07:00 PM") the pages used to mix with these.
 */
import { describe, expect, it } from "vitest";
import { dateTimeWords, dateWords, shortWhen, timeWords } from "../client/src/dates.js";

const t = new Date(2026, 11, 2, 19, 0, 5).getTime(); // local time, as the pages write it

describe("the client's dates and times", () => {
  it("are written day first, with a 24-hour clock, in any browser language", () => {
    expect(dateWords(t)).toBe("2 Dec 2026");
    expect(dateTimeWords(t)).toBe("2 Dec 2026, 19:00");
    expect(shortWhen(t)).toBe("Wed 2 Dec, 19:00");
    expect(timeWords(t)).toBe("19:00");
    expect(timeWords(t, true)).toBe("19:00:05");
  });
});
