/** A table that may be wider than a phone: it scrolls sideways inside its own box. */
import { html, type TemplateResult } from "lit-html";

/**
 * `table` in a box that scrolls sideways when the screen is narrower than the table. The box is a
 * named region in the tab order, so a keyboard can reach it and scroll it with the arrow keys
 * (WCAG 2.1.1); `label` says what the table holds.
 */
export function scrollTable(label: string, table: TemplateResult): TemplateResult {
  return html`<div class="table-scroll" role="region" tabindex="0" aria-label=${label}>${table}</div>`;
}
