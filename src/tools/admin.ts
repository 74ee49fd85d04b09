/**
 * `npm run admin -- <command>`: the operators' command line for reports and closing accounts
 * (docs/operations.md, "Moderation"). It calls a running server's operators' routes
 * (transport/admin-routes.ts) at ADMIN_URL (default http://127.0.0.1:$PORT, PORT 3000) with
 * ADMIN_TOKEN, the same token the server was started with, so whatever it does reaches every node
 * at once (sockets disconnected, seats given up) as the server itself does it.
 *
 *   reports [--all] [--limit N]     open reports (--all: resolved ones too), newest first
 *   resolve <report id> <note...>   mark a report dealt with
 *   show <name>                     an account: closed or not, sessions, reports against it
 *   close <name> <reason...> [--refund]  close an account (the player is shown the reason); --refund: and refund
 *   reopen <name>                   open it again
 *   silence <name> <minutes> <reason...>  refuse its table chat messages for that long (1 to 43200: 30 days)
 *   unsilence <name>                end its silence now
 *   forgive <name>                  forgive the ranked games it left (its ranked play is not paused for them)
 *   refund <name>                   give back the rating players lost to it (closed by the operators) in its recent ranked games
 *   erase <name> --yes              delete the account and its player's data (their request made to you); cannot be undone
 *   chat <room id>                  a room's chat, numbered, every channel
 *   remove-chat <room id> <n>       remove message n from the table and the game's record
 * Add --json for the server's replies as they are.
 */
import { pathToFileURL } from "node:url";

type Reply = { ok: boolean; error?: { code: string; message: string }; [k: string]: any };

export const USAGE = `usage: npm run admin -- <command> [--json]
  reports [--all] [--limit N]     open reports (--all: resolved ones too), newest first
  resolve <report id> <note...>   mark a report dealt with, with a note
  show <name>                     an account: closed or not, live sessions, reports against it
  close <name> <reason...>        close an account; its player is shown the reason at login
                                  (add --refund for a cheater: then as refund <name>)
  reopen <name>                   open a closed account again
  silence <name> <minutes> <reason...>
                                  refuse its table chat messages for that many minutes (1 to 43200,
                                  30 days); it is shown the reason and the time left; it still plays
  unsilence <name>                end its silence now
  forgive <name>                  forgive the ranked games it left: its ranked play is no longer paused for them
  refund <name>                   for an account you closed: give back the rating players lost to it
                                  in its ranked games of the last 5 days (once per game)
  erase <name> --yes              delete the account and its player's data, as its player can
                                  (their request made to you); finished games keep an anonymous seat.
                                  It cannot be undone, hence --yes
  chat <room id>                  a room's chat, every channel, numbered (live, or the game's record)
  remove-chat <room id> <n>       remove message n: gone from the table and the record
Needs ADMIN_TOKEN (as the server has it) and the server at ADMIN_URL (default http://127.0.0.1:$PORT).`;

const day = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace("T", " ").slice(0, 16));

function reportLines(r: any): string[] {
  const where = r.roomId ? ` in room ${r.roomId}` : "";
  const state = r.resolvedAt === null ? "OPEN" : `resolved ${day(r.resolvedAt)}: ${r.resolution}`;
  return [
    `${r.id}  ${day(r.createdAt)}  ${r.reason.toUpperCase()}  ${r.reporter.name} reported ${r.target.name}${r.target.closed ? " (closed)" : ""}${where}  [${state}]`,
    ...String(r.text).split("\n").map((l: string) => `    ${l}`),
  ];
}

/** What a refund (refund-ratings, or close --refund) gave back, as lines. */
function refundLines(name: string, r: any): string[] {
  const looked = `${r.gamesLookedAt} ranked game${r.gamesLookedAt === 1 ? "" : "s"} of ${name} in the last ${r.days} days`;
  const given = r.refunds.filter((x: any) => x.points > 0);
  if (r.refunds.length === 0) return [`Nobody is owed rating for the ${looked} (none, or refunded already); nothing changed.`];
  return [
    `Gave back rating to ${given.length} player${given.length === 1 ? "" : "s"} for the ${looked}:`,
    ...r.refunds.map((x: any) => `    ${x.name}  ${x.gameType}  ${x.points > 0 ? `+${x.points}` : "0 (climbed since)"}  (${x.games} game${x.games === 1 ? "" : "s"})`),
  ];
}

/** What to print for a reply of `command`. */
export function describeReply(command: string, body: Reply): string[] {
  switch (command) {
    case "reports":
      return body.reports.length === 0 ? ["No reports."] : [...body.reports.flatMap(reportLines), ...(body.more ? ["(more: --limit, or ask the route with before=<last id>)"] : [])];
    case "resolve":
      return reportLines(body.report);
    case "show": {
      const a = body.account;
      const state = a.closedAt === null ? "open" : `CLOSED ${day(a.closedAt)} by ${a.closedBy}${a.closedReason ? `: ${a.closedReason}` : ""}`;
      return [
        `${a.name} (${a.playerId}), account since ${day(a.createdAt)}: ${state}`,
        ...(a.formerly ? [`formerly "${a.formerly.name}" (held for it until ${day(a.formerly.until)})`] : []),
        `live sessions: ${a.liveSessions}; reports made: ${a.reportsMade}; reports against: ${a.reportsAgainst.length}`,
        ...a.reportsAgainst.flatMap(reportLines),
        `ranked games left: ${a.leaves.length === 0 ? "none" : a.leaves.length}; ranked play ${a.rankedPausedUntil === null ? "not paused" : `PAUSED until ${day(a.rankedPausedUntil)}`}`,
        `plays ranked games out: left ${a.reliability.left} of its latest ${a.reliability.games}`,
        ...a.leaves.map((l: any) => `    ${day(l.at)}  ${l.kind === "timeout" ? "ran out of time" : "never moved   "}  ${l.gameType}  room ${l.roomId}${l.forgiven ? "  (forgiven)" : ""}`),
        a.refunded
          ? `rating given back for its games: ${a.refunded.players} player${a.refunded.players === 1 ? "" : "s"}, ${a.refunded.games} game${a.refunded.games === 1 ? "" : "s"} (last ${day(a.refunded.lastAt)})`
          : a.closedBy === "operators" ? "rating given back for its games: none so far (refund <name> if it cheated)" : "rating given back for its games: none",
        a.silenced ? `SILENCED in table chats until ${day(a.silenced.until)}${a.silenced.reason ? `: ${a.silenced.reason}` : ""}` : "not silenced in table chats",
      ];
    }
    case "silence":
      return [`Silenced ${body.name} in table chats until ${day(body.until)} UTC: ${body.reason}`];
    case "unsilence":
      return [body.lifted ? `${body.name} may write in table chats again.` : `${body.name} was not silenced; nothing changed.`];
    case "close": {
      const gaveUp = `Games resigned: ${body.resigned.join(", ") || "none"}; open rooms left: ${body.left.join(", ") || "none"}; quick play queue left: ${body.leftQueue ? "yes" : "no"}.`;
      const refunded = body.refund ? refundLines(body.name, body.refund) : [];
      if (body.closed) return [`Closed ${body.name}.`, gaveUp, ...refunded];
      return [
        ...(body.resigned.length + body.left.length > 0 || body.leftQueue ? [`${body.name} was closed already; what it still held is given up now.`, gaveUp] : [`${body.name} was closed already; nothing changed.`]),
        ...refunded,
      ];
    }
    case "forgive":
      return [body.forgiven === 0 ? `${body.name} had no leaves to forgive; nothing changed.` : `Forgave ${body.forgiven} leave${body.forgiven === 1 ? "" : "s"} of ${body.name}: they no longer pause their ranked play.`];
    case "refund":
      return refundLines(body.name, body);
    case "erase":
      return [
        body.erased ? `Erased ${body.name}: the account and its data are gone, and the name is free.` : `${body.name}'s data was erased already.`,
        `Games resigned: ${body.resigned.join(", ") || "none"}; open rooms left: ${body.left.join(", ") || "none"}; quick play queue left: ${body.leftQueue ? "yes" : "no"}.`,
        `Finished games now with an anonymous seat: ${body.games}; with its chat messages emptied: ${body.chats}.`,
      ];
    case "reopen":
      return [body.reopened ? `Reopened ${body.name}: their password works again.` : `${body.name} was open; nothing changed.`];
    case "chat":
      return [
        `Room ${body.roomId}: ${body.live ? "live" : "not live"}, ${body.recorded ? "recorded" : "not recorded"}; ${body.messages.length} message${body.messages.length === 1 ? "" : "s"}.`,
        ...body.messages.map((m: any) => `${String(m.n).padStart(3)}  ${day(m.at)}  ${m.channel === "players" ? "table" : "spect"}  ${m.from.name}: ${m.removed ? "(removed)" : m.erased ? "(erased with its author's data)" : m.text}`),
      ];
    case "remove-chat":
      return [`Removed message ${body.message.n} (${body.message.from.name}) from the table and the game's record.`];
    default:
      return [JSON.stringify(body)];
  }
}

/** The request a command line makes, or a usage error. */
export function requestFor(args: string[]): { method: "GET" | "POST"; path: string; body?: unknown } | { error: string } {
  const [command, ...rest] = args.filter((a) => a !== "--json");
  const words = (from: string[]) => from.join(" ").trim();
  const name = (n: string | undefined) => encodeURIComponent(n ?? "");
  switch (command) {
    case "reports": {
      const q = new URLSearchParams();
      if (rest.includes("--all")) q.set("all", "true");
      const at = rest.indexOf("--limit");
      if (at >= 0) q.set("limit", rest[at + 1] ?? "");
      return { method: "GET", path: `/api/admin/reports${q.size ? `?${q}` : ""}` };
    }
    case "resolve":
      if (!rest[0] || !words(rest.slice(1))) return { error: "resolve needs a report id and a note" };
      return { method: "POST", path: `/api/admin/reports/${name(rest[0])}/resolve`, body: { note: words(rest.slice(1)) } };
    case "show":
      if (!rest[0]) return { error: "show needs an account's name" };
      return { method: "GET", path: `/api/admin/accounts/${name(words(rest))}` };
    case "close": {
      const refund = rest.includes("--refund");
      const text = rest.filter((w) => w !== "--refund");
      if (!text[0] || !words(text.slice(1))) return { error: "close needs an account's name and a reason (a name with spaces: quote it)" };
      return { method: "POST", path: `/api/admin/accounts/${name(text[0])}/close`, body: { reason: words(text.slice(1)), ...(refund ? { refund: true } : {}) } };
    }
    case "chat":
      if (!rest[0]) return { error: "chat needs a room id" };
      return { method: "GET", path: `/api/admin/rooms/${name(rest[0])}/chat` };
    case "remove-chat":
      if (!rest[0] || !/^\d+$/.test(rest[1] ?? "")) return { error: "remove-chat needs a room id and a message number" };
      return { method: "POST", path: `/api/admin/rooms/${name(rest[0])}/chat/${rest[1]}/remove`, body: {} };
    case "silence": {
      const minutes = Number(rest[1]);
      if (!rest[0] || !/^\d+$/.test(rest[1] ?? "") || !words(rest.slice(2))) return { error: "silence needs an account's name, the minutes and a reason (a name with spaces: quote it)" };
      return { method: "POST", path: `/api/admin/accounts/${name(rest[0])}/silence`, body: { minutes, reason: words(rest.slice(2)) } };
    }
    case "unsilence":
      if (!rest[0]) return { error: "unsilence needs an account's name" };
      return { method: "POST", path: `/api/admin/accounts/${name(words(rest))}/unsilence`, body: {} };
    case "forgive":
      if (!rest[0]) return { error: "forgive needs an account's name" };
      return { method: "POST", path: `/api/admin/accounts/${name(words(rest))}/forgive-leaves`, body: {} };
    case "refund":
      if (!rest[0]) return { error: "refund needs an account's name" };
      return { method: "POST", path: `/api/admin/accounts/${name(words(rest))}/refund-ratings`, body: {} };
    case "erase": {
      const text = rest.filter((w) => w !== "--yes");
      if (!text[0]) return { error: "erase needs an account's name" };
      if (!rest.includes("--yes")) return { error: `erase cannot be undone: add --yes to erase ${words(text)}` };
      return { method: "POST", path: `/api/admin/accounts/${name(words(text))}/erase`, body: {} };
    }
    case "reopen":
      if (!rest[0]) return { error: "reopen needs an account's name" };
      return { method: "POST", path: `/api/admin/accounts/${name(words(rest))}/reopen`, body: {} };
    default:
      return { error: command ? `unknown command "${command}"` : "no command" };
  }
}

/** Runs a command line against `env`'s server; returns the exit code (0 done, 1 refused, 2 usage or unreachable). */
export async function main(args: string[], env: NodeJS.ProcessEnv, out: (line: string) => void, fail: (line: string) => void): Promise<number> {
  const req = requestFor(args);
  if ("error" in req) {
    fail(`${req.error}\n${USAGE}`);
    return 2;
  }
  const token = env.ADMIN_TOKEN;
  if (!token) {
    fail("ADMIN_TOKEN is not set: use the token the server was started with.");
    return 2;
  }
  const base = (env.ADMIN_URL || `http://127.0.0.1:${env.PORT || 3000}`).replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(base + req.path, {
      method: req.method,
      headers: { authorization: `Bearer ${token}`, ...(req.body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
    });
  } catch (e) {
    fail(`Could not reach the server at ${base} (${(e as Error).message}); set ADMIN_URL.`);
    return 2;
  }
  const body = (await res.json().catch(() => ({ ok: false, error: { code: "BAD_REPLY", message: `HTTP ${res.status}, not JSON` } }))) as Reply;
  if (res.status === 404 && body.error?.code === "NOT_FOUND") {
    fail(`The server at ${base} has no operators' routes: start it with ADMIN_TOKEN set.`);
    return 2;
  }
  if (!body.ok) {
    fail(`${body.error?.code}: ${body.error?.message}`);
    return 1;
  }
  const command = args.find((a) => a !== "--json")!;
  for (const line of args.includes("--json") ? [JSON.stringify(body, null, 2)] : describeReply(command, body)) out(line);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main(process.argv.slice(2), process.env, (l) => console.log(l), (l) => console.error(l));
}
