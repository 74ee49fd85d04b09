/**
 * Prisma's `?schema=` connection-URL parameter for node-postgres. `pg` ignores it, so it
 * becomes the session search_path: the migrator, our raw SQL (unqualified table names) and the
 * Prisma adapter (given the same schema) then all use one schema. Default: the server's
 * search_path (normally "public", which is also the Prisma adapter's default).
 */
import type pg from "pg";

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function pgConnection(url: string): { config: pg.ClientConfig; schema?: string } {
  const schema = new URL(url).searchParams.get("schema") || undefined;
  return {
    config: { connectionString: url, ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}) },
    schema,
  };
}

/** A connection URL safe to print: the password is masked. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<unparseable URL>";
  }
}
