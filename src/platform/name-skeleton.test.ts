import { describe, expect, it } from "vitest";
import { validateName } from "./identity.js";
import { hasInvisible, looksAlike, nameLooks, nameSkeleton, skeleton } from "./name-skeleton.js";

describe("name skeletons (UTS #39)", () => {
  it("gives names that look alike one key, whatever their script", () => {
    const alike: [string, string][] = [
      ["Аре", "Ape"], // all Cyrillic
      ["АРЕ", "APE"],
      ["ΑΡΕ", "APE"], // all Greek capitals
      ["B0B", "BOB"], // zero for O
      ["Sarn", "Sam"], // r n for m
      ["Ial", "lal"], // capital i for l
      ["Ｌａｕｒａ", "Laura"], // full-width forms
      ["Nik1", "Nikl"],
      ["Dıana", "Diana"], // dotless i
      ["ﬁona", "fiona"], // a ligature
    ];
    for (const [a, b] of alike) expect(nameSkeleton(a), `${a} / ${b}`).toBe(nameSkeleton(b));
  });

  it("holds names alike that look alike in small letters or in capitals: a name is one name in any case", () => {
    const alike: [string, string][] = [
      ["аре", "Ape"], // "аре" reads as "ape", which is "Ape"
      ["АРЕ", "Ape"], // reads as "APE"
      ["Аре", "APE"],
      ["ΑΡΕ", "ape"], // Greek capitals: alike only in capitals
      ["КАТЕ", "kate"], // Cyrillic capitals ("кате" does not look like "kate")
      ["sarn", "Sam"], // "sam"
      ["B0bby", "Bobby"], // "BOBBY" (Unicode's table gives the zero a capital O)
      ["B0B", "Bob"],
      ["Ial", "lal"], // as written: a capital i for a small L
      ["Ape", "aPE"], // the same name
    ];
    for (const [a, b] of alike) {
      expect(looksAlike(a, b), `${a} / ${b}`).toBe(true);
      expect(looksAlike(b, a), `${b} / ${a}`).toBe(true);
    }
  });

  it("keeps names apart that do not look alike in any one case", () => {
    const apart: [string, string][] = [
      ["Laura", "Lara"],
      ["Ape", "Apex"],
      ["Bob", "Rob"],
      ["Sam", "Sum"],
      ["José", "Jose"], // an accent shows
      ["Ann", "Anne"],
      // A capital i looks like a small L, not a capital one: "Ian" looks like "lan" but "Lan" is
      // written "Lan" or "LAN" ("IAN"), never with a small L in front of capitals.
      ["Ian", "Lan"],
      ["Il", "Ii"],
      ["山田", "田山"],
      ["Мария", "Мариа"],
    ];
    for (const [a, b] of apart) expect(looksAlike(a, b), `${a} / ${b}`).toBe(false);
  });

  it("gives each name three keys: its skeleton as written, in small letters and in capitals", () => {
    expect(nameLooks("B0bby")).toEqual({ written: "BObby", lower: "bObby", upper: "BOBBY" });
    expect(nameLooks("аре")).toEqual({ written: "ape", lower: "ape", upper: "APE" });
    expect(nameLooks("Sam").lower).toBe(nameLooks("sarn").lower);
    expect(nameLooks("Ｌａｕｒａ")).toEqual(nameLooks("Laura"));
  });

  it("is UTS #39's skeleton: NFD, invisible characters dropped, prototypes, NFD", () => {
    expect(skeleton("Ape\u3164")).toBe("Ape"); // a Hangul filler is default-ignorable
    expect(skeleton("A\u200Dpe")).toBe("Ape");
    expect(skeleton("é")).toBe("e\u0301");
    expect(skeleton("m")).toBe("rn");
    // A skeleton is its own skeleton.
    for (const n of ["Аре", "B0B", "Sam", "José", "ﬁx"]) expect(nameSkeleton(nameSkeleton(n))).toBe(nameSkeleton(n));
  });

  it("refuses names holding characters that draw nothing", () => {
    expect(hasInvisible("Laura\u3164")).toBe(true);
    expect(hasInvisible("Laura")).toBe(false);
    expect(() => validateName("Laura\u3164")).toThrow(/invisible/);
    expect(() => validateName("\u115FLaura")).toThrow(/invisible|1 to 24/);
    expect(validateName("Laura")).toBe("Laura");
  });
});
