import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/helpers/hermetic-home.ts"],
    // The type-check, which compiles the project once for the processes the tests start (test/helpers/build-cli.ts).
    globalSetup: ["test/helpers/build-cli.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The suite mostly waits (browsers, servers it starts, child processes): two files at a time even on two cores,
    // where vitest's default (one less than the cores) runs one (measured on 2 cores: 708 s → 536 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The files of a worker share its loaded modules instead of importing them again, file after file: on 2 cores the
    // imports took 138 s of the suite's work and the suite 679 s, without them 25 s and 542 s (same tests passing).
    // Each file still gets its own home (the setup file runs per file); no test mocks a module.
    isolate: false,
  },
});
