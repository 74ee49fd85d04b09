/** The room rules accounts bring: ranked tables for accounts, one display name per table, renames. */
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.js";
import { createRoom, joinRoom, renameSeat, startRoom } from "./room.js";
import { roomView, viewerFor } from "./views.js";

const ann = { id: "p_ann", name: "Ann", account: true };
const bob = { id: "p_bob", name: "Bob", account: true };
const guestCy = { id: "p_cy", name: "Cy" };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected an error");
}

describe("ranked tables are for accounts", () => {
  it("refuses a guest creating or joining a ranked room, with a sentence saying to register", () => {
    expect(code(() => createRoom("r1", guestCy, { game: "goblin-market", seats: 3, ranked: true }, 1))).toBe("ACCOUNT_REQUIRED");
    const ranked = createRoom("r1", ann, { game: "goblin-market", seats: 3, ranked: true }, 1);
    let message = "";
    try {
      joinRoom(ranked, guestCy, undefined, 2);
    } catch (e) {
      message = (e as AppError).message;
    }
    expect(message).toMatch(/create an account/i);
    expect(joinRoom(ranked, bob, undefined, 2).seats[1]!.playerId).toBe("p_bob");
  });

  it("lets a guest create and join casual rooms", () => {
    const casual = createRoom("r2", guestCy, { game: "goblin-market", seats: 3 }, 1);
    expect(joinRoom(casual, { id: "p_dee", name: "Dee" }, undefined, 2).seats[1]!.name).toBe("Dee");
  });
});

describe("one display name per table", () => {
  it("refuses a join under a seated player's name, whatever its case (bots do not count)", () => {
    const r = createRoom("r3", ann, { game: "goblin-market", seats: 4, bots: 1 }, 1);
    expect(code(() => joinRoom(r, { id: "p_x", name: "ANN" }, undefined, 2))).toBe("NAME_IN_ROOM");
    expect(joinRoom(r, { id: "p_x", name: "Bot 1" }, undefined, 2).seats[1]!.name).toBe("Bot 1");
  });
});

describe("renameSeat", () => {
  it("shows the new name in a new version of an open or playing table, and in every view", () => {
    const open = joinRoom(createRoom("r4", ann, { game: "goblin-market", seats: 3, bots: 1 }, 1), bob, undefined, 2);
    const renamed = renameSeat(open, "p_bob", "Robert", 3)!;
    expect(renamed.version).toBe(open.version + 1);
    expect(renamed.seats.map((s) => s.name)).toEqual(["Ann", "Robert", "Bot 1"]);
    const playing = startRoom(renamed, ann, "seed", 4);
    const again = renameSeat(playing, "p_ann", "Annie", 5)!;
    expect((roomView(again, viewerFor(again, "p_bob")) as { seats: Array<{ name: string }> }).seats[0]!.name).toBe("Annie");
    expect(again.state).toBe(playing.state);
  });

  it("changes nothing for a player not seated, the same name, or a table that is over", () => {
    const r = createRoom("r5", ann, { game: "goblin-market", seats: 3 }, 1);
    expect(renameSeat(r, "p_bob", "Robert", 2)).toBeNull();
    expect(renameSeat(r, "p_ann", "Ann", 2)).toBeNull();
    expect(renameSeat({ ...r, status: "finished" }, "p_ann", "Annie", 2)).toBeNull();
    expect(renameSeat({ ...r, status: "closed" }, "p_ann", "Annie", 2)).toBeNull();
  });

  it("refuses a name another seated player goes by", () => {
    const r = joinRoom(createRoom("r6", ann, { game: "goblin-market", seats: 3 }, 1), bob, undefined, 2);
    expect(code(() => renameSeat(r, "p_bob", "aNN", 3))).toBe("NAME_IN_ROOM");
    // Changing only the case of one's own name is fine.
    expect(renameSeat(r, "p_ann", "ANN", 3)!.seats[0]!.name).toBe("ANN");
  });
});
