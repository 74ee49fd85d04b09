import { describe, expect, it } from "vitest";
import { validateName } from "./identity.js";
import { hasInvisible, nameSkeleton, skeleton } from "./name-skeleton.js";

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

  it("keeps names apart that do not look alike", () => {
    const apart: [string, string][] = [
      ["Laura", "Lara"],
      ["Ape", "Apex"],
      ["Bob", "Rob"],
      ["José", "Jose"], // an accent shows
      ["Ann", "Anne"],
      ["Ian", "Lan"], // case shows: "Ian" looks like "lan", not "Lan"
      ["Аре", "APE"],
      ["B0B", "Bob"],
      ["山田", "田山"],
      ["Мария", "Мариа"],
    ];
    for (const [a, b] of apart) expect(nameSkeleton(a), `${a} / ${b}`).not.toBe(nameSkeleton(b));
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
