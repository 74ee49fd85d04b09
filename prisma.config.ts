// Prisma 7 CLI configuration. The first two lines must stay first: this machine (and CI)
// cannot download Prisma's native schema engine, and `prisma generate` does not need it.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";
process.env.CHECKPOINT_DISABLE ??= "1";

import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/postgres" },
});
