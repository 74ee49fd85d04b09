/**
 * Finding players by the start of their name (GET /api/players?q=), as Lichess's player search:
 * the Leaderboards page's "Find a player" box, and the same in the top bar's menu on every page,
 * list the names that match as links to their profiles while one types, and the waiting room's
 * invite field suggests names (a datalist: only accounts this player may invite, `for=invite`, as
 * the invitation would refuse the others). One
 * request per pause in typing, the newest 200 answers kept, and an answer to an older query
 * never replaces a newer one's (a refusal is shown, and asked again at the next keystroke).
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { api, refusal, type ApiReply } from "./api.js";
import type { Store } from "./store.js";
import { SEARCH_MAX, SEARCH_MIN } from "../../src/protocol/profiles.js";
/** How long typing pauses before the names are asked for (ms). */
const PAUSE_MS = 200;

/** `retry`: a refusal (the server unreachable, too many requests...): shown, and asked again at the next keystroke. */
type Found = { names: string[]; error?: string; retry?: true };
/** What a field's names are for: any account, or only those this player may invite. */
export type SearchPurpose = "any" | "invite";

/** Answers by purpose and query (trimmed, lower case): the same start asked again costs nothing. The newest ANSWERS_KEPT are kept. */
const answers = new Map<string, Found>();
const ANSWERS_KEPT = 200;
const keyOf = (q: string, purpose: SearchPurpose) => `${purpose}|${q.trim().toLowerCase()}`;

/** What each field last asked for, for what, and its timer: by the field's id. */
const fields = new Map<string, { q: string; purpose: SearchPurpose; timer: ReturnType<typeof setTimeout> | null }>();

async function ask(s: Store, q: string, purpose: SearchPurpose): Promise<void> {
  const k = keyOf(q, purpose);
  if (answers.has(k) && !answers.get(k)!.retry) return;
  const r = await api<ApiReply & { players?: Array<{ name: string }> }>(s, "GET", `/api/players?q=${encodeURIComponent(q.trim())}${purpose === "invite" ? "&for=invite" : ""}`);
  answers.set(k, r.ok ? { names: (r.players ?? []).map((p) => p.name) } : { names: [], error: refusal(r), retry: true });
  if (answers.size > ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
}

/** The field `id` now holds `q`: ask for its names (for `purpose`) after a pause (nothing for a query too short). */
export function typed(s: Store, id: string, q: string, purpose: SearchPurpose = "any"): void {
  const f = fields.get(id) ?? { q: "", purpose, timer: null };
  f.q = q;
  f.purpose = purpose;
  if (f.timer) clearTimeout(f.timer);
  f.timer = null;
  fields.set(id, f);
  const t = q.trim();
  const known = answers.get(keyOf(q, purpose));
  if (t.length < SEARCH_MIN || t.length > SEARCH_MAX || (known && !known.retry)) {
    s.changed();
    return;
  }
  f.timer = setTimeout(() => {
    f.timer = null;
    void ask(s, q, purpose).then(() => {
      // Drawn only if the field still holds this query (a newer one draws its own).
      if (fields.get(id)?.q === q) s.changed();
    });
  }, PAUSE_MS);
}

/** The answer for what field `id` holds now: undefined while there is none yet (or the query is too short). */
function answerFor(id: string): { q: string; found: Found | undefined } {
  const f = fields.get(id);
  const q = f?.q ?? "";
  return { q, found: q.trim().length >= SEARCH_MIN ? answers.get(keyOf(q, f?.purpose ?? "any")) : undefined };
}

/** A datalist of the names that start with what field `id` holds (its `list` attribute names `${id}-names`). */
export function nameSuggestions(id: string): TemplateResult {
  const { found } = answerFor(id);
  return html`<datalist id=${`${id}-names`}>${(found?.names ?? []).map((n) => html`<option value=${n}></option>`)}</datalist>`;
}

/**
 * "Find a player": a name field whose matches are listed below it as links to their profiles;
 * Enter opens the exact one, or the only one. `id`: the field's (the Leaderboards page's box and
 * the top bar's each keep their own query); `chosen`: told when a profile is opened from it (the
 * top bar's menu closes).
 */
export function findPlayerBox(s: Store, opts: { id?: string; chosen?: () => void } = {}): TemplateResult {
  const id = opts.id ?? "find-player";
  const { q, found } = answerFor(id);
  const t = q.trim();
  const open = (name: string) => {
    opts.chosen?.();
    s.navigate(`/player/${encodeURIComponent(name)}`);
  };
  return html`<section class="panel find-player" aria-labelledby=${`${id}-h`}>
    <h2 id=${`${id}-h`} class="panel-title">Find a player</h2>
    <form class="row" role="search" @submit=${async (e: Event) => {
      e.preventDefault();
      // What the field holds now, answered now if typing has not paused yet (Enter right after a letter).
      const held = ((e.currentTarget as HTMLFormElement).elements.namedItem(id) as HTMLInputElement).value;
      const name = held.trim();
      if (name.length === 0 || name.length > SEARCH_MAX) return;
      // Too short to search by its start, but a whole name (one letter is one): its profile, exactly.
      if (name.length < SEARCH_MIN) return open(name);
      typed(s, id, held);
      await ask(s, held, "any");
      // Typed on meanwhile: the newer text is the one to answer.
      if (fields.get(id)?.q !== held) return;
      s.changed();
      const names = answers.get(keyOf(held, "any"))?.names ?? [];
      const pick = names.find((n) => n.toLowerCase() === name.toLowerCase()) ?? (names.length === 1 ? names[0] : undefined);
      // Several names and none exactly this: the first of them takes the focus, to choose from (once drawn).
      if (pick) open(pick);
      else if (names.length > 0) await Promise.resolve().then(() => (document.querySelector(`#${id}-found .found-players a`) as HTMLAnchorElement | null)?.focus());
    }}>
      <input id=${id} type="search" .value=${q} maxlength=${SEARCH_MAX} autocomplete="off" spellcheck="false" aria-label="A player's name, or its start"
        aria-describedby=${`${id}-found`} placeholder="Name (2 letters or more)" @input=${(e: Event) => typed(s, id, (e.target as HTMLInputElement).value)} />
      <button class="btn small">Open profile</button>
    </form>
    <div id=${`${id}-found`} aria-live="polite" data-testid=${`${id}-found`} @click=${(e: Event) => {
      if ((e.target as HTMLElement).closest("a")) opts.chosen?.();
    }}>
      ${t.length === 0
        ? nothing
        : t.length < SEARCH_MIN
          ? html`<p class="muted small">Type at least ${SEARCH_MIN} letters to list names, or press Enter to open the player named “${t}”.</p>`
          : !found
            ? html`<p class="muted small">Looking…</p>`
            : found.error
              ? html`<p class="form-error" role="alert">${found.error}</p>`
              : found.names.length === 0
                ? html`<p class="muted small">No player's name starts with “${t}”.</p>`
                : html`<ul class="found-players">${found.names.map((n) => html`<li><a href=${`/player/${encodeURIComponent(n)}`} data-nav>${n}</a></li>`)}</ul>`}
    </div>
  </section>`;
}
