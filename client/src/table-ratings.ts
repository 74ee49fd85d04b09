/**
 * Who sits at a table, with each player's rating in the table's game (GET
 * /api/games/:game/ratings), under the room's title: strangers at a ranked table see whom they
 * play, and each rated player's name opens their profile; beside a player who left some of their
 * latest ranked games, how many (as their profile says). Ratings are read once per table and
 * again when its game ends (the end screen shows the changes themselves); nothing here is hidden
 * information.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { RoomView } from "./types.js";
import type { Store } from "./store.js";
import type { TableRating, TableReliability } from "../../src/protocol/profiles.js";

export type { TableRating, TableReliability };

interface TableInfo {
  players: TableRating[];
  reliability: TableReliability[];
}

/** By "<game>|<moment>|<ids>": the ratings and reliability ("loading" while asked). */
const cache = new Map<string, TableInfo | "loading">();

/**
 * The ratings in `game` of players `ids`, and how reliably each plays ranked games out, read once
 * per `moment` (a table in play, the same table ended, a table found by quick play); null while
 * loading.
 */
export function tableInfo(s: Store, game: string, ids: readonly string[], moment: string): TableInfo | null {
  if (ids.length === 0) return { players: [], reliability: [] };
  const key = `${game}|${moment}|${ids.join(",")}`;
  const got = cache.get(key);
  if (got === "loading") return null;
  if (got) return got;
  cache.set(key, "loading");
  void fetch(`/api/games/${encodeURIComponent(game)}/ratings?players=${ids.map(encodeURIComponent).join(",")}`)
    .then((r) => r.json() as Promise<{ ok: boolean; players?: TableRating[]; reliability?: TableReliability[] }>)
    // An older server sends no reliability.
    .then((r) => cache.set(key, r.ok && r.players ? { players: r.players, reliability: r.reliability ?? [] } : { players: [], reliability: [] }))
    .catch(() => cache.delete(key))
    .finally(() => s.changed());
  return null;
}

/**
 * "left 2 of 30" beside a player who left some of their latest ranked games (ran out of time for
 * good, or never moved): what strangers deciding whether to sit down want to know (BGA shows the
 * like). Nothing for a player who left none, or while loading.
 */
export function leftBadge(info: TableInfo | null | undefined, playerId: string): TemplateResult | typeof nothing {
  const r = info?.reliability.find((x) => x.playerId === playerId);
  if (!r || r.left === 0) return nothing;
  const title = `Left ${r.left} of ${r.games === 1 ? "their one ranked game" : `their latest ${r.games} ranked games`}: ran out of time and never came back, or never made a first move`;
  return html`<span class="left-badge" data-testid="left-badge" title=${title}>left ${r.left} of ${r.games}</span>`;
}

function info(s: Store, room: RoomView): TableInfo | null {
  const ids = room.seats.flatMap((x) => (!x.bot && x.playerId ? [x.playerId] : []));
  return tableInfo(s, room.game, ids, room.status === "finished" ? "end" : "play");
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
  const got = info(s, room);
  const known = got?.players ?? null;
  const seats = room.seats.flatMap((seat, i) => {
    const name = seat.name ?? `Seat ${i + 1}`;
    if (seat.bot) return [html`<span class="table-player" data-seat=${i}>${name} <span class="muted">(bot)</span></span>`];
    if (!seat.playerId) return [];
    const r = known?.find((x) => x.playerId === seat.playerId);
    const left = leftBadge(got, seat.playerId);
    if (!r) return [html`<span class="table-player" data-seat=${i}>${name}${known ? html` <span class="muted">(unrated)</span>` : nothing}${left === nothing ? nothing : html` ${left}`}</span>`];
    const text = `${r.rating}${r.provisional ? "?" : ""}`;
    const title = `${r.rating}${r.provisional ? " (provisional)" : ""} in ${s.gameName(room.game)}, from ${r.games} rated game${r.games === 1 ? "" : "s"}`;
    return [html`<span class="table-player" data-seat=${i}><a href=${`/player/id:${encodeURIComponent(seat.playerId)}`} data-nav>${name}</a>
      <span class="table-rating" data-testid="table-rating" title=${title}>${text}</span>${left === nothing ? nothing : html` ${left}`}</span>`];
  });
  if (seats.length === 0) return nothing;
  return html`<p class="small table-players" data-testid="table-players">At the table: ${seats.map((x, i) => (i === 0 ? x : html` · ${x}`))}</p>`;
}
