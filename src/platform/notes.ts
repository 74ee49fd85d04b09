/**
 * Private notes on players (docs/protocol.md, "Notes on players"), as Lichess keeps them: an account
 * writes a note about any other recorded player (an account or a guest, by player id), shown only
 * to its writer, on that player's profile. One note per writer and player; an empty text deletes
 * it. The player noted is never told, and no one else ever reads it (the operators neither: it is
 * the writer's own memo, in their data download and erased with them).
 */
import type { Database } from "../db/client.js";
import { profilePath } from "../protocol/profiles.js";
import type { Verified } from "./accounts.js";
import { err } from "./errors.js";
import { NOTE_MAX } from "../protocol/wire.js";

/** The longest note, in characters. */
export { NOTE_MAX };
/** The most notes one account keeps. */
export const MAX_NOTES = 1000;

export interface Note {
  /** The player noted. */
  id: string;
  name: string;
  profile: string;
  text: string;
  /** Last written, epoch ms. */
  at: number;
}

export class Notes {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every note the account wrote, newest first. */
  async list(playerId: string): Promise<Note[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string; name: string; account: string | null; text: string; at: Date }>>`
      SELECT n."aboutId" AS "id", p."name", a."name" AS "account", n."text", n."updatedAt" AS "at"
      FROM "Note" n JOIN "Player" p ON p."id" = n."aboutId" LEFT JOIN "Account" a ON a."playerId" = n."aboutId"
      WHERE n."playerId" = ${playerId}
      ORDER BY n."updatedAt" DESC, n."aboutId"`;
    return rows.map((r) => ({ id: r.id, name: r.account ?? r.name, profile: profilePath({ playerId: r.id, account: r.account }), text: r.text, at: new Date(r.at).getTime() }));
  }

  /** Writes (or, with an empty text, deletes) the account's note about player `about`; null once deleted. */
  async write(v: Verified, about: unknown, text: unknown): Promise<Note | null> {
    if (!v.session) throw err("ACCOUNT_REQUIRED", "Notes on players are for accounts: register (keeping this guest's games) or log in.");
    if (typeof text !== "string" || text.length > NOTE_MAX) throw err("BAD_NOTE", `A note is text of at most ${NOTE_MAX} characters (empty deletes it).`);
    if (typeof about !== "string" || about === "") throw err("NO_SUCH_PLAYER", "No such player.");
    if (about === v.player.id) throw err("BAD_NOTE", "Notes are about other players.");
    const trimmed = text.trim();
    if (trimmed === "") {
      await this.db.prisma.note.deleteMany({ where: { playerId: v.player.id, aboutId: about } });
      return null;
    }
    const target = await this.db.prisma.player.findUnique({ where: { id: about }, select: { id: true, name: true, account: { select: { name: true } } } });
    if (!target) throw err("NO_SUCH_PLAYER", "No such player: notes are about players who have finished a game here.");
    const at = new Date(this.now());
    const key = { playerId_aboutId: { playerId: v.player.id, aboutId: about } };
    const existing = await this.db.prisma.note.findUnique({ where: key, select: { aboutId: true } });
    if (!existing && (await this.db.prisma.note.count({ where: { playerId: v.player.id } })) >= MAX_NOTES) {
      throw err("TOO_MANY_NOTES", `You keep ${MAX_NOTES} notes already; delete one first.`);
    }
    await this.db.prisma.note.upsert({ where: key, create: { playerId: v.player.id, aboutId: about, text: trimmed, updatedAt: at }, update: { text: trimmed, updatedAt: at } });
    const account = target.account?.name ?? null;
    return { id: target.id, name: account ?? target.name, profile: profilePath({ playerId: target.id, account }), text: trimmed, at: at.getTime() };
  }
}
