/**
 * The build's light-theme fallback for browsers without `light-dark()` (client/light-dark-fallback.ts):
 * every declaration holding one is preceded by its light value, and custom properties get theirs
 * in an `@supports not` block; checked on examples and on the client's own stylesheets.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addLightFallbacks, lightValue } from "../client/light-dark-fallback.js";

describe("light-dark() fallbacks", () => {
  it("takes the light argument, with colours in parentheses and several pairs in one value", () => {
    expect(lightValue("light-dark(#fff, #1d1a16)")).toBe("#fff");
    expect(lightValue("light-dark(rgb(255 255 255 / 0.7), rgb(0 0 0 / 0.3))")).toBe("rgb(255 255 255 / 0.7)");
    expect(lightValue("linear-gradient(160deg, light-dark(#fffdf6, #1d1c18) 0, light-dark(#f3e8cf, #2e281a) 100%)")).toBe("linear-gradient(160deg, #fffdf6 0, #f3e8cf 100%)");
    expect(lightValue("1px solid var(--line)")).toBe("1px solid var(--line)");
  });

  it("puts the light value before each declaration, and custom properties' light values under @supports not", () => {
    const css = ":root{color-scheme:light dark;--bg:light-dark(#f3ede1,#171411);--radius:12px}.btn{border:1.5px solid light-dark(#cbbba0,#514735);color:var(--ink)}"
      + "@media (max-width:600px){.card{background:light-dark(#fff,#000)}}.plain{color:red}";
    expect(addLightFallbacks(css)).toBe(
      ":root{color-scheme:light dark;--bg:light-dark(#f3ede1,#171411);--radius:12px}.btn{border:1.5px solid #cbbba0;border:1.5px solid light-dark(#cbbba0,#514735);color:var(--ink)}"
        + "@media (max-width:600px){.card{background:#fff;background:light-dark(#fff,#000)}}.plain{color:red}"
        + "@supports not (color: light-dark(#000, #fff)){:root{--bg:#f3ede1}:root,:root[data-theme]{color-scheme:light;--page-scheme:light}}",
    );
    expect(addLightFallbacks(".a{color:red}")).toBe(".a{color:red}");
  });

  it("covers every light-dark() of the client's stylesheets", () => {
    for (const file of ["client/src/styles.css", "client/src/rules/rules.css"]) {
      const source = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      const out = addLightFallbacks(source);
      const pairs = [...source.matchAll(/([{;]\s*)([a-zA-Z][-a-zA-Z]*)(\s*:\s*)([^;{}]*light-dark\([^;{}]*)(?=[;}])/g)];
      expect(pairs.length, file).toBeGreaterThan(10);
      for (const [, , prop, colon, value] of pairs) expect(out, `${file}: ${prop}`).toContain(`${prop}${colon}${lightValue(value!)};${prop}${colon}${value}`);
      const custom = [...source.matchAll(/(--[-\w]+)\s*:\s*([^;{}]*light-dark\([^;{}]*)(?=[;}])/g)];
      const supports = out.slice(out.indexOf("@supports not"));
      for (const [, prop, value] of custom) expect(supports, `${file}: ${prop}`).toContain(`${prop}:${lightValue(value!)}`);
    }
  });
});
