import { describe, expect, it } from "vitest";
import { forget, knows, learn, type Knowledge } from "./knowledge.js";

describe("per-seat knowledge", () => {
  it("a seat that has seen a hidden item keeps knowing it; others and spectators do not", () => {
    let k: Knowledge = {};
    k = learn(k, "face-down", [2]);
    k = learn(k, "other", [0]);
    k = learn(k, "face-down", [0, 2]);
    expect(k["face-down"]).toEqual([0, 2]);
    expect(knows(k, "face-down", { kind: "seat", seat: 2 })).toBe(true);
    expect(knows(k, "face-down", { kind: "seat", seat: 0 })).toBe(true);
    expect(knows(k, "face-down", { kind: "seat", seat: 1 })).toBe(false);
    expect(knows(k, "face-down", { kind: "spectator" })).toBe(false);
  });

  it("is plain immutable data", () => {
    const k0: Knowledge = learn({}, "x", [1]);
    const k1 = learn(k0, "x", [1]);
    expect(k1).toBe(k0); // nothing new learned, same object
    const k2 = learn(k0, "x", [3]);
    expect(k0.x).toEqual([1]);
    expect(k2.x).toEqual([1, 3]);
    expect(JSON.parse(JSON.stringify(k2))).toEqual(k2);
  });

  it("forgets an item that leaves play", () => {
    const k = forget(learn({}, "x", [1]), "x");
    expect(k).toEqual({});
    expect(knows(k, "x", { kind: "seat", seat: 1 })).toBe(false);
    expect(forget(k, "missing")).toBe(k);
  });
});
