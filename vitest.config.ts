import { defineConfig } from "vitest/config";

const heavy = ["test/browser/**/*.test.ts", "test/bench.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/support/services.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: socket tests run a few servers each; keep the machine responsive.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "unit+integration", include: ["src/**/*.test.ts", "bench/*.test.ts", "test/**/*.test.ts"], exclude: heavy, sequence: { groupOrder: 0 } },
      },
      {
        // The browser game and the load benchmark each want the whole machine: run them after
        // everything else, one at a time, so neither starves the other of CPU.
        extends: true,
        test: { name: "heavy", include: heavy, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
