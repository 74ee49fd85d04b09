/** Display names (identity.ts validateName): the character rule, and one script per name so a name cannot imitate another. */
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.js";
import { scriptsOf, validateName } from "./identity.js";

const refusal = (name: unknown): string | null => {
  try {
    validateName(name);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("BAD_NAME");
    return (e as AppError).message;
  }
};

describe("display names", () => {
  it("take letters of any one script, digits and a little punctuation, tidied", () => {
    for (const name of ["Laura", "Zoë", "José-María", "O'Neill", "Ali 2", "Лаура", "Ζευς", "محمد", "김민준", "山田太郎", "Привет123"]) expect(refusal(name), name).toBeNull();
    expect(validateName("  Kit   Marlowe ")).toBe("Kit Marlowe");
    // Decomposed and composed "é" are one name.
    expect(validateName("Jose\u0301")).toBe("José");
    for (const bad of ["", " ", "-Laura", "a".repeat(25), "Laura!", "Lau\u200bra", "\u202eLaura"]) expect(refusal(bad), JSON.stringify(bad)).not.toBeNull();
  });

  it("say what a name may hold, and which character breaks it", () => {
    const only = (shown: string) => `A name may have letters, digits, spaces and _ . ' - only: ${shown} is not allowed.`;
    expect(refusal("Lizzie_Guest!")).toBe(only('"!"'));
    expect(refusal("Lizzie_Guest. O'Neill-2")).toBeNull(); // each of _ . ' - is allowed
    expect(refusal("Ann@home!")).toBe(only('"@"')); // the first one
    expect(refusal("!!")).toBe(only('"!"'));
    expect(refusal("Jose\u0301\u0302")).toBe(only("U+0302")); // a mark left alone after NFC shows nothing by itself
    expect(refusal("-Laura")).toBe('A name must start with a letter or digit, not "-".');
    expect(refusal("a".repeat(25))).toBe("A name may have 24 characters at most; this one has 25.");
    const rule = "Choose a name of 1 to 24 characters: letters, digits, spaces and _ . ' -, starting with a letter or digit.";
    expect(refusal("  ")).toBe(rule);
    expect(refusal(42)).toBe(rule);
    expect(refusal("Lau\u200bra")).toContain("invisible");
  });

  it("refuse the name that stands for an erased player's seat, in any case", () => {
    for (const name of ["Deleted player", "deleted  PLAYER", " Deleted Player "]) expect(refusal(name), name).toBe('"Deleted player" stands for players who erased their data; choose another name.');
    expect(refusal("Deleted players")).toBeNull();
  });

  it("refuse letters of two scripts, which is how a name imitates another", () => {
    // Each reads as a Latin name but holds a Cyrillic or a Greek letter.
    expect(refusal("Lаura")).toBe("Write a name in one alphabet: this one mixes Latin and Cyrillic letters, which can make it look like someone else's.");
    expect(refusal("Pаypal")).toContain("Latin and Cyrillic");
    expect(refusal("Ζeus")).toContain("Greek and Latin");
    expect(refusal("Иван Ivan")).toContain("Cyrillic and Latin");
    expect([...scriptsOf("Lаura 2")]).toEqual(["Latin", "Cyrillic"]);
  });

  it("allow the scripts written together: Japanese, Chinese and Korean names with Latin", () => {
    for (const name of ["やまだ Taro", "田中 Kenji", "カタカナ漢字ひらがな", "王小明 Wang", "ㄅㄆ 王", "김 Kim 金"]) expect(refusal(name), name).toBeNull();
    // Hangul with Japanese kana is not one of them.
    expect(refusal("김やま")).toContain("Hangul and Hiragana");
  });
});
