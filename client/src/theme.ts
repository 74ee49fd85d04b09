/**
 * Light or dark pages. The stylesheet pairs every colour (`light-dark()`, styles.css) and follows
 * the system's preference; a reader who chooses Light or Dark in the account menu has it kept in
 * localStorage and set as `data-theme` on <html>. `/theme-boot.js` (client/public) sets it from
 * localStorage before the first paint, so a page never flashes the other theme.
 */
import { html, type TemplateResult } from "lit-html";

export type Theme = "system" | "light" | "dark";

/** The localStorage key; /theme-boot.js reads the same one. */
const THEME_KEY = "goblin-bazaar.theme";

export function chosenTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === "light" || t === "dark" ? t : "system";
  } catch {
    return "system";
  }
}

export function setTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage refused (a private window): the choice lasts for this page.
  }
  applyTheme(theme);
}

/** The page's theme now (/theme-boot.js does the same for the stored choice before the first paint). */
function applyTheme(theme: Theme): void {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** The account menu's Light / Dark / System choice; `changed` redraws the page. */
export function themePicker(changed: () => void): TemplateResult {
  const current = chosenTheme();
  return html`<div class="theme-picker">
    <span class="label" id="theme-l">Theme</span>
    <div class="seg" role="radiogroup" aria-labelledby="theme-l" data-testid="theme">
      ${(["system", "light", "dark"] as const).map((t) => html`<label class="seg-opt"><input type="radio" name="theme" value=${t} .checked=${current === t}
        @change=${() => { setTheme(t); changed(); }} /> ${LABELS[t]}</label>`)}
    </div>
  </div>`;
}
