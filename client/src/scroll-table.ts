/** A table that may be wider than a phone: it scrolls sideways inside its own box, and says so. */
import { html, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";

/**
 * `table` in a box that scrolls sideways when the screen is narrower than the table. The box is a
 * named region in the tab order, so a keyboard can reach it and scroll it with the arrow keys
 * (WCAG 2.1.1); `label` says what the table holds. While part of the table is out of the box, it
 * shows: a line above the table says to scroll sideways, and a shade marks each edge with more of
 * the table past it (the frame's data-more: "left", "right" or both), so that a column cut off at
 * the edge does not pass for the table's last.
 */
export function scrollTable(label: string, table: TemplateResult): TemplateResult {
  return html`<p class="scroll-hint" aria-hidden="true">Scroll sideways to see the whole table ↔</p><div class="table-scroll-frame">
    <div class="table-scroll" role="region" tabindex="0" aria-label=${label} ${ref(watch)}>${table}</div></div>`;
}

const watched = new WeakSet<Element>();

/** Keeps the frame's data-more current as the box scrolls and as the box or its table change size. */
function watch(box: Element | undefined): void {
  if (!(box instanceof HTMLElement) || watched.has(box)) return;
  watched.add(box);
  const update = () => {
    const frame = box.parentElement;
    if (!frame) return;
    const more = [box.scrollLeft > 1 ? "left" : "", box.scrollLeft + box.clientWidth < box.scrollWidth - 1 ? "right" : ""].filter(Boolean).join(" ");
    if (more) frame.dataset.more = more;
    else delete frame.dataset.more;
  };
  box.addEventListener("scroll", update, { passive: true });
  const resized = new ResizeObserver(update);
  resized.observe(box);
  // The table is drawn into the box after this is called, in the same render.
  queueMicrotask(() => {
    if (box.firstElementChild) resized.observe(box.firstElementChild);
    update();
  });
}
