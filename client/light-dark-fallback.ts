/**
 * The light theme for browsers without CSS `light-dark()` (before Chrome 123, Firefox 120, Safari
 * 17.5). Such a browser drops every declaration holding one, and a custom property holding one
 * makes each use of it invalid: the page would lose its colours. At build time (a Vite plugin) each
 * declaration `p: light-dark(a, b)` gets `p: a` in front of it, which those browsers keep and the
 * others override; custom properties, which would not fall back that way, get their light values in
 * an `@supports not (color: light-dark(...))` block, with `color-scheme: light` so form controls
 * match. Old browsers show the light theme whatever the system prefers; the rest are unchanged.
 */
import type { Plugin } from "vite";

/** `light-dark(` up to its closing parenthesis, arguments holding at most one level of parentheses (rgb()). */
const LIGHT_DARK = /light-dark\(((?:[^(),]|\([^()]*\))+),\s*((?:[^(),]|\([^()]*\))+)\)/g;
const DECLARATION = /([{;]\s*)(--[-\w]+|[-a-zA-Z]+)(\s*:\s*)([^;{}]*light-dark\([^;{}]*)(?=[;}])/g;
const SUPPORTED = "@supports not (color: light-dark(#000, #fff))";

/** `value` with each `light-dark(a, b)` replaced by `a`. */
export function lightValue(value: string): string {
  return value.replace(LIGHT_DARK, (_, light: string) => light.trim());
}

/** The stylesheet with the fallbacks described above. Throws on a custom property it cannot place. */
export function addLightFallbacks(css: string): string {
  const custom = new Map<string, string[]>();
  const out = css.replace(/([^{}]*)\{([^{}]*)\}/g, (rule, selector: string, body: string) => {
    if (!body.includes("light-dark(")) return rule;
    // (Braces around the body let the first and the last declaration match like the others.)
    const newBody = `{${body}}`.replace(DECLARATION, (decl, before: string, prop: string, colon: string, value: string) => {
      if (!prop.startsWith("--")) return `${before}${prop}${colon}${lightValue(value)};${decl.slice(before.length)}`;
      const sel = selector.trim();
      if (sel.startsWith("@") || sel === "") throw new Error(`light-dark() in custom property ${prop} outside a plain rule`);
      custom.set(sel, [...(custom.get(sel) ?? []), `${prop}:${lightValue(value)}`]);
      return decl;
    });
    return `${selector}${newBody}`;
  });
  if (custom.size === 0) return out;
  const rules = [...custom].map(([sel, decls]) => `${sel}{${decls.join(";")}}`).join("");
  return `${out}${SUPPORTED}{${rules}:root,:root[data-theme]{color-scheme:light;--page-scheme:light}}`;
}

/** Applies addLightFallbacks to every stylesheet the build emits. */
export function lightDarkFallback(): Plugin {
  return {
    name: "goblin-bazaar-light-dark-fallback",
    apply: "build",
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === "asset" && file.fileName.endsWith(".css")) file.source = addLightFallbacks(String(file.source));
      }
    },
  };
}
