/**
 * Every Decktet card drawn by the client's own cardFace, in each size and in each place whose
 * styles resize it (card-fit.test.ts builds this page with Vite and measures it in chromium).
 */
import { html, render } from "lit-html";
import data from "../../../src/games/decktet/decktet.json";
import { cardFace } from "../../../client/src/decktet.js";
import "../../../client/src/styles.css";

/** The wrappers whose styles give cards another size: none, Aucteraden's market, Sorcerous Futures' table and hand. */
const PLACES: { name: string; wrap: (inner: unknown) => unknown }[] = [
  { name: "plain", wrap: (inner) => html`<div style="display: flex; flex-wrap: wrap; gap: 6px">${inner}</div>` },
  { name: "auct-market", wrap: (inner) => html`<div class="auct-table"><div class="auct-market">${inner}</div></div>` },
  { name: "sf-table", wrap: (inner) => html`<div class="sf-table">${inner}</div>` },
  { name: "sf-private", wrap: (inner) => html`<div class="sf-private">${inner}</div>` },
];

const ids = (data.cards as { id: string }[]).map((c) => c.id);
render(
  html`${PLACES.map(
    (p) => html`<section data-place=${p.name}>${(["lg", "md"] as const).map((size) => p.wrap(ids.map((id) => cardFace(id, { size }))))}</section>`,
  )}`,
  document.getElementById("cards")!,
);
document.body.dataset.ready = "1";
