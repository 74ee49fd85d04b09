/**
 * Who sits at a table, with each player's rating in the table's game (GET
 * /api/games/:game/ratings), under the room's title: strangers at a ranked table see whom they
 * play, and each rated player's name opens their profile. Ratings are read once per table and
 * again when its game ends (the end screen shows the changes themselves); nothing here is hidden
 * information.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { RoomView } from "./types.js";
import type { Store } from "./store.js";
import type { TableRating } from "../../src/protocol/profiles.js";

export type { TableRating };

/** By "<game>|<moment>|<ids>": the ratings (undefined while loading). */
const cache = new Map<string, TableRating[] | "loading">();

/**
 * The ratings in `game` of players `ids`, read once per `moment` (a table in play, the same table
 * ended, a table found by quick play); null while loading.
 */
export function ratingsOf(s: Store, game: string, ids: readonly string[], moment: string): TableRating[] | null {
  if (ids.length === 0) return [];
  const key = `${game}|${moment}|${ids.join(",")}`;
  const got = cache.get(key);
  if (got === "loading") return null;
  if (got) return got;
  cache.set(key, "loading");
  void fetch(`/api/games/${encodeURIComponent(game)}/ratings?players=${ids.map(encodeURIComponent).join(",")}`)
    .then((r) => r.json() as Promise<{ ok: boolean; players?: TableRating[] }>)
    .then((r) => cache.set(key, r.ok && r.players ? r.players : []))
    .catch(() => cache.delete(key))
    .finally(() => s.changed());
  return null;
}

function ratings(s: Store, room: RoomView): TableRating[] | null {
  const ids = room.seats.flatMap((x) => (!x.bot && x.playerId ? [x.playerId] : []));
  return ratingsOf(s, room.game, ids, room.status === "finished" ? "end" : "play");
}

/** "1512", "1490?" (provisional) or "unrated"; null while loading. */
export function ratingText(known: TableRating[] | null, playerId: string): string | null {
  if (!known) return null;
  const r = known.find((x) => x.playerId === playerId);
  return r ? `${r.rating}${r.provisional ? "?" : ""}` : "unrated";
}

/** "At the table: Ada 1512 · Bea 1490? · Bot 2 (bot)", for tables of two or more. */
export function tablePlayers(s: Store, room: RoomView): TemplateResult | typeof nothing {
  if (room.seats.length < 2 || room.status === "closed") return nothing;
  const known = ratings(s, room);
  const seats = room.seats.flatMap((seat, i) => {
    const name = seat.name ?? `Seat ${i + 1}`;
    if (seat.bot) return [html`<span class="table-player" data-seat=${i}>${name} <span class="muted">(bot)</span></span>`];
    if (!seat.playerId) return [];
    const r = known?.find((x) => x.playerId === seat.playerId);
    if (!r) return [html`<span class="table-player" data-seat=${i}>${name}${known ? html` <span class="muted">(unrated)</span>` : nothing}</span>`];
    const text = `${r.rating}${r.provisional ? "?" : ""}`;
    const title = `${r.rating}${r.provisional ? " (provisional)" : ""} in ${s.gameName(room.game)}, from ${r.games} rated game${r.games === 1 ? "" : "s"}`;
    return [html`<span class="table-player" data-seat=${i}><a href=${`/player/id:${encodeURIComponent(seat.playerId)}`} data-nav>${name}</a>
      <span class="table-rating" data-testid="table-rating" title=${title}>${text}</span></span>`];
  });
  if (seats.length === 0) return nothing;
  return html`<p class="small table-players" data-testid="table-players">At the table: ${seats.map((x, i) => (i === 0 ? x : html` · ${x}`))}</p>`;
}
