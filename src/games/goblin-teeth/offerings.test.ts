/** Completing an Offering: specific Items, teeth (each tooth counts), "?" and "??", one card per slot. */
import { describe, expect, it } from "vitest";
import { completes, progress } from "./offerings.js";

describe("offerings", () => {
  it("6-Item: one of each type", () => {
    const all = ["item-tooth-1", "item-emerald-1", "item-worms-1", "item-mushroom-1", "item-bone-1", "item-button-1"];
    expect(completes(all, "six")).toBe(true);
    expect(completes(all.slice(1), "six")).toBe(false);
    expect(completes([...all.slice(1), "item-emerald-2", "cheat-pass"], "six")).toBe(false);
  });

  it("teeth: Goblin Tooth cards adding up to N, each tooth counted (A2: 3 teeth, a bone, a mushroom)", () => {
    expect(completes(["item-tooth-6", "item-tooth-1", "item-bone-1", "item-mushroom-1"], "A2")).toBe(true);
    expect(completes(["item-tooth-1", "item-tooth-2", "item-tooth-3", "item-bone-1", "item-mushroom-1"], "A2")).toBe(true);
    expect(completes(["item-tooth-6", "item-bone-1", "item-mushroom-1"], "A2")).toBe(false);
    expect(completes(["item-tooth-6", "item-tooth-7", "item-emerald-1"], "B2")).toBe(true);
    expect(completes(["item-tooth-6", "item-tooth-1", "item-tooth-2", "item-emerald-1"], "B2")).toBe(true);
    expect(completes(["item-tooth-6", "item-tooth-1", "item-emerald-1"], "B2")).toBe(false);
  });

  it('"?" is any Item (not a Cheat card); each card fills one slot', () => {
    // A1: 2 emeralds, 2 worms, any.
    const base = ["item-emerald-1", "item-emerald-2", "item-worms-1", "item-worms-2"];
    expect(completes(base, "A1")).toBe(false);
    expect(completes([...base, "cheat-pass"], "A1")).toBe(false);
    expect(completes([...base, "item-bone-3"], "A1")).toBe(true);
    expect(completes([...base, "item-emerald-3"], "A1")).toBe(true);
  });

  it('"??" is 2 Items of one type (two Tooth cards count, whatever their teeth)', () => {
    expect(completes(["item-bone-1", "item-bone-2", "item-tooth-1", "item-tooth-6"], "B4")).toBe(true);
    expect(completes(["item-bone-1", "item-bone-2", "item-bone-3", "item-tooth-6"], "B4")).toBe(false);
    expect(completes(["item-bone-1", "item-bone-2", "item-bone-3", "item-bone-4"], "B4")).toBe(true);
    // A3: 2 buttons, a pair, any: the pair may not reuse the buttons.
    expect(completes(["item-button-1", "item-button-2", "item-worms-1", "item-worms-2"], "A3")).toBe(false);
    expect(completes(["item-button-1", "item-button-2", "item-worms-1", "item-worms-2", "item-tooth-1"], "A3")).toBe(true);
    expect(completes(["item-button-1", "item-button-2", "item-button-3", "item-button-4", "item-tooth-1"], "A3")).toBe(true);
  });

  it("a Tooth needed as an Item and teeth elsewhere are not counted twice (A5: 2 teeth, emerald, button, any)", () => {
    expect(completes(["item-tooth-6", "item-emerald-1", "item-button-1"], "A5")).toBe(false);
    expect(completes(["item-tooth-6", "item-emerald-1", "item-button-1", "item-tooth-1"], "A5")).toBe(true);
    expect(completes(["item-tooth-1", "item-tooth-7", "item-emerald-1", "item-worms-1", "item-mushroom-1", "item-bone-1", "item-button-1"], "six")).toBe(true);
  });
  it("progress: what a hand covers, need by need, and whether it completes the Offering", () => {
    // A2: 3 teeth, a bone, a mushroom.
    expect(progress(["item-tooth-6", "item-bone-1", "cheat-pass"], "A2")).toEqual({ offering: "A2", complete: false, covered: [false, true, false] });
    expect(progress(["item-tooth-6", "item-tooth-1", "item-bone-1", "item-mushroom-1"], "A2")).toEqual({
      offering: "A2",
      complete: true,
      covered: [true, true, true],
    });
    expect(progress([], "six").covered.every((c) => !c)).toBe(true);
  });
});
