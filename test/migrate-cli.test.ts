/**
 * `npm run migrate` (src/db/migrate-cli.ts) migrates the database `npm start` would open: the
 * settings are read by config.ts as the server reads them (DATABASE_URL, else PGLITE_DIR, else
 * $DATA_DIR/pglite), a second run finds nothing to do, and a bad setting is refused naming its
 * variable without repeating a password. Run as an operator runs it: a separate process.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshPgDatabase, PG_URL } from "./support/harness.js";

const root = join(import.meta.dirname, "..");

function migrateCli(env: Record<string, string>): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", "src/db/migrate-cli.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: "", DATA_DIR: "", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm run migrate", () => {
  it("migrates $DATA_DIR/pglite when no DATABASE_URL or PGLITE_DIR is set, and a second run finds nothing to do", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gb-migrate-"));
    const first = migrateCli({ DATA_DIR: dataDir });
    expect(first.out).toContain(`Migrating embedded PGlite in ${dataDir}/pglite`);
    expect(first.out).toMatch(/Applied \d+ migration\(s\)/);
    expect(first.status).toBe(0);
    expect(existsSync(join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    const second = migrateCli({ DATA_DIR: dataDir });
    expect(second.out).toContain("No pending migrations");
    expect(second.status).toBe(0);
  }, 240_000);

  it("takes PGLITE_DIR over DATA_DIR, as the server does", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gb-migrate-"));
    const pgliteDir = join(mkdtempSync(join(tmpdir(), "gb-migrate-own-")), "db");
    const run = migrateCli({ DATA_DIR: dataDir, PGLITE_DIR: pgliteDir });
    expect(run.status).toBe(0);
    expect(run.out).toContain(`Migrating embedded PGlite in ${pgliteDir}`);
    expect(existsSync(join(pgliteDir, "PG_VERSION"))).toBe(true);
    expect(existsSync(join(dataDir, "pglite"))).toBe(false);
  }, 120_000);

  it("refuses a bad setting, naming it, without repeating its password, and touches nothing", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gb-migrate-"));
    const run = migrateCli({ DATA_DIR: dataDir, DATABASE_URL: "mysql://u:hunter2@db/x" });
    expect(run.status).toBe(1);
    expect(run.out).toContain("DATABASE_URL");
    expect(run.out).not.toContain("hunter2");
    expect(existsSync(join(dataDir, "pglite"))).toBe(false);
  });

  it.skipIf(!PG_URL)("migrates the Postgres of DATABASE_URL into the schema its ?schema= names", async () => {
    const db = await freshPgDatabase();
    try {
      const url = `${db.url}${db.url.includes("?") ? "&" : "?"}schema=ops`;
      const first = migrateCli({ DATABASE_URL: url });
      expect(first.status).toBe(0);
      expect(first.out).toMatch(/Applied \d+ migration\(s\)/);
      expect(migrateCli({ DATABASE_URL: url }).out).toContain("No pending migrations");
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'ops' AND table_name = '_prisma_migrations'`,
        );
        expect(rows[0]!.n).toBe("1");
      } finally {
        await client.end();
      }
    } finally {
      await db.drop();
    }
  }, 240_000);
});
