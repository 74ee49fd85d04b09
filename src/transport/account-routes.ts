/**
 * Identity routes: guests, accounts and login sessions (docs/protocol.md, "Accounts and
 * sessions"). The rules live in platform/accounts.ts; this file reads requests, applies renames
 * to the tables where the player sits (RoomService.renameEverywhere) and maps refusals to HTTP
 * statuses (Retry-After on RATE_LIMITED).
 *
 * The client address for rate limits is Fastify's `req.ip`: the socket's peer, or the
 * X-Forwarded-For client when TRUST_PROXY is set (config.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, err, toErrorReply } from "../platform/errors.js";
import { newPlayerId, validateName, type Player } from "../platform/identity.js";
import type { Accounts, Verified } from "../platform/accounts.js";
import type { RoomService } from "../platform/room-service.js";
import { arrayOf, bool, errors, int, nullable, num, obj, okReply, player as playerShape, routeDoc, str, type RouteDoc } from "./openapi.js";

export interface AccountRouteDeps {
  accounts: Accounts;
  service: RoomService;
}

const STATUS: Record<string, number> = {
  BAD_TOKEN: 401,
  BAD_LOGIN: 401,
  ACCOUNT_REQUIRED: 403,
  NAME_TAKEN: 409,
  NAME_IN_ROOM: 409,
  ALREADY_REGISTERED: 409,
  NOT_A_GUEST: 409,
  RATE_LIMITED: 429,
};

type Body = { [k: string]: unknown; name?: unknown; password?: unknown; token?: unknown };

function bodyOf(req: FastifyRequest): Body {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== "object" || Array.isArray(b)) throw err("BAD_REQUEST", "The request body must be a JSON object.");
  return b as Body;
}

/** The token of an `Authorization: Bearer <token>` header; undefined without one. */
function bearer(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header === "") return undefined;
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) throw err("BAD_TOKEN", "The Authorization header must be \"Bearer <token>\".");
  return m[1];
}

function client(req: FastifyRequest): { address: string; userAgent?: string } {
  const ua = req.headers["user-agent"];
  return { address: req.ip || "unknown", ...(typeof ua === "string" ? { userAgent: ua } : {}) };
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  const { accounts, service } = deps;

  /** A route whose refusals get their own statuses (and Retry-After when rate-limited). */
  function route(path: string, method: "GET" | "POST", doc: RouteDoc, handler: (req: FastifyRequest) => Promise<Record<string, unknown>>): void {
    app.route({
      method,
      url: path,
      schema: routeDoc(doc),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        try {
          return { ok: true, ...(await handler(req)) };
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          if (e.code === "RATE_LIMITED") {
            const secs = /retry after (\d+) s/.exec(e.message)?.[1];
            if (secs) void reply.header("retry-after", secs);
          }
          return reply.status(STATUS[e.code] ?? 400).send(toErrorReply(e));
        }
      },
    });
  }

  /** The requester, who must be logged in to an account. */
  async function accountOf(req: FastifyRequest): Promise<Verified> {
    const token = bearer(req);
    if (token === undefined) throw err("ACCOUNT_REQUIRED", "Log in to your account first.");
    const v = await accounts.require(token);
    if (!v.session) throw err("ACCOUNT_REQUIRED", "That needs an account: register (keeping this guest's games) or log in.");
    return v;
  }

  /** Shows a new name at the player's tables; refuses (before anything is stored) a name someone there has. */
  async function tablesFor(player: Player, name: string) {
    if (player.name === name) return null;
    const rooms = await service.roomsOf(player.id);
    service.checkNameFree(rooms, player.id, name);
    return rooms;
  }
  async function showAtTables(playerId: string, name: string, rooms: Awaited<ReturnType<typeof tablesFor>>) {
    if (rooms === null) return;
    const r = await service.renameEverywhere(playerId, name, rooms);
    if (r.refused.length > 0) app.log.info({ player: playerId, rooms: r.refused }, "a rename met a name taken meanwhile at a table; the old name stays there");
  }

  /**
   * A guest identity: a name in, a signed token out. With the guest's own token, renames the same
   * player (at every table they sit at, too). A name an account holds is refused (NAME_TAKEN).
   */
  route("/api/guest", "POST", {
    summary: "Get a guest identity, or rename your guest",
    description: "A name in, a signed token out. With the guest's own token, renames the same player (at every table they sit at, too). A name an account holds is NAME_TAKEN; an account's token is NOT_A_GUEST.",
    tags: ["accounts"],
    body: obj({ name: str("1 to 24 letters, digits, spaces, _ . ' - (else BAD_NAME)."), token: str("Your guest token, to rename that guest.") }, { optional: ["token"] }),
    response: { 200: okReply({ token: str(), player: playerShape }), ...errors(400, 401, 409, 413) },
  }, async (req) => {
    const body = bodyOf(req);
    const name = validateName(body.name);
    const c = body.token !== undefined ? await accounts.resolve(body.token) : null;
    if (c?.session) throw err("NOT_A_GUEST", "You are logged in to an account: rename it from your account menu (POST /api/rename).");
    const existing = c?.player ?? null;
    if (await accounts.nameHeld(name)) throw err("NAME_TAKEN", `The name "${name}" belongs to an account; choose another, or log in if it is yours.`);
    const player: Player = { id: existing?.id ?? newPlayerId(), name };
    const rooms = existing ? await tablesFor(existing, name) : null;
    const token = accounts.guestToken(player);
    await showAtTables(player.id, name, rooms);
    return { token, player };
  });

  route("/api/register", "POST", {
    summary: "Register an account",
    description: "A new account, logged in. With a guest's token, the guest becomes the account (same id) and their guest tokens stop working. Names are unique case-insensitively.",
    tags: ["accounts"],
    body: obj({ name: str("1 to 24 letters, digits, spaces, _ . ' - (else BAD_NAME)."), password: str("8 to 200 characters (else WEAK_PASSWORD)."), token: str("A guest's token, to keep that guest's games.") }, { optional: ["token"] }),
    response: { 200: okReply({ token: str(), player: playerShape }), ...errors(400, 401, 409, 413, 429) },
  }, async (req) => {
    const checked = await accounts.checkRegistration(bodyOf(req));
    const rooms = checked.guest ? await tablesFor(checked.guest, checked.name) : null;
    const r = await accounts.register(checked, client(req));
    if (checked.guest) await showAtTables(r.player.id, r.player.name, rooms);
    return { token: r.token, player: r.player };
  });

  route("/api/login", "POST", {
    summary: "Log in",
    description: "A new session. The name is matched case-insensitively. A wrong name or password is BAD_LOGIN.",
    tags: ["accounts"],
    body: obj({ name: str(), password: str() }),
    response: { 200: okReply({ token: str(), player: playerShape }), ...errors(400, 401, 413, 429) },
  }, async (req) => {
    const r = await accounts.login(bodyOf(req), client(req));
    return { token: r.token, player: r.player };
  });

  route("/api/logout", "POST", {
    summary: "Log out this session",
    description: "This session ends: its token is refused from now on and its sockets are disconnected. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({}), ...errors(401, 403) },
  }, async (req) => {
    await accounts.logout(await accountOf(req));
    return {};
  });

  route("/api/logout-all", "POST", {
    summary: "Log out every session",
    description: "Every session of the account ends, this one too; every socket of the player is disconnected. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    response: { 200: okReply({ revoked: int("Sessions ended.") }), ...errors(401, 403) },
  }, async (req) => {
    return { revoked: await accounts.logoutAll(await accountOf(req)) };
  });

  route("/api/password", "POST", {
    summary: "Change your password",
    description: "Every other session ends; this one stays. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: obj({ old: str("The current password."), new: str("8 to 200 characters (else WEAK_PASSWORD).") }),
    response: { 200: okReply({ revoked: int("Other sessions ended.") }), ...errors(400, 401, 403, 413, 429) },
  }, async (req) => {
    const body = bodyOf(req);
    return await accounts.changePassword(await accountOf(req), { old: body.old, new: body.new }, client(req));
  });

  route("/api/me", "GET", {
    summary: "Who you are, and your sessions",
    description: "A guest's token gives account false and no sessions.",
    tags: ["accounts"],
    bearer: true,
    response: {
      200: okReply({
        player: playerShape,
        createdAt: nullable(num("When the account was made, epoch ms; null for a guest.")),
        sessions: arrayOf(obj({ id: str(), createdAt: num("epoch ms"), lastSeenAt: num("epoch ms"), userAgent: nullable(str()), current: bool("This request's session.") })),
      }),
      ...errors(401),
    },
  }, async (req) => {
    const token = bearer(req);
    if (token === undefined) throw err("BAD_TOKEN", "Send your token (Authorization: Bearer <token>) to see who you are.");
    const v = await accounts.require(token);
    const me = await accounts.me(v);
    return { player: { ...me.player, account: v.session !== null }, createdAt: me.createdAt, sessions: me.sessions };
  });

  route("/api/rename", "POST", {
    summary: "Rename your account",
    description: "The account's new display name, shown at its tables too. Needs an account's token.",
    tags: ["accounts"],
    bearer: true,
    body: obj({ name: str("1 to 24 letters, digits, spaces, _ . ' - (else BAD_NAME).") }),
    response: { 200: okReply({ player: playerShape }), ...errors(400, 401, 403, 409, 413) },
  }, async (req) => {
    const v = await accountOf(req);
    const name = validateName(bodyOf(req).name);
    if (await accounts.nameHeld(name, v.player.id)) throw err("NAME_TAKEN", `The name "${name}" belongs to another account; choose another.`);
    const rooms = await tablesFor(v.player, name);
    const player = await accounts.rename(v, name);
    await showAtTables(player.id, name, rooms);
    return { player };
  });
}
