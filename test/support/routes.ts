/** The HTTP API of a test server, as the server registers it (for tests that must cover every route). */
import type { RunningServer } from "../../src/server.js";

/**
 * The server's HTTP API as it is registered (not as this test remembers it): a route added later
 * fails the secrecy test below until it is added to it and checked.
 */
export function apiRoutes(server: RunningServer): string[] {
  // printRoutes draws a tree: each line's depth is its indent (4 columns a level), its path the
  // segments above it joined with its own.
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join("");
    if (m[3] && path.startsWith("/api/")) for (const v of m[3].split(", ")) if (v !== "HEAD") out.push(`${v} ${path}`);
  }
  return out.sort();
}
