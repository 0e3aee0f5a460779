import { describe, expect, it } from "vitest";
import { durationMs, positiveDurationMs } from "../../src/cli/flags.js";
import { runCommand } from "../helpers/cli.js";

describe("duration flags", () => {
  it("take units everywhere", () => {
    expect(durationMs("--delay", "500ms")).toBe(500);
    expect(durationMs("--delay", "30s")).toBe(30_000);
    expect(durationMs("--timeout", "2h")).toBe(7_200_000);
    expect(durationMs("--timeout", "1h30m")).toBe(5_400_000);
    expect(durationMs("--delay", "0")).toBe(0);
  });

  it("refuse a bare number, which meant seconds in one command and milliseconds in another", () => {
    expect(() => durationMs("--timeout", "30")).toThrow("--timeout: give the unit: 30s or 30ms");
    expect(() => durationMs("--delay", "1000")).toThrow("--delay: give the unit: 1000s or 1000ms");
  });

  it("a bare --timeout is refused alike by harvest and fetch-pages (it was seconds in one, milliseconds in the other)", async () => {
    for (const args of [
      ["harvest", "--timeout", "30", "nothing.tsv"],
      ["fetch-pages", "--timeout", "30", "--db", "nowhere.db"],
    ]) {
      const r = await runCommand(args);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(r.stderr, args.join(" ")).toBe(
        "bitext: --timeout: give the unit: 30s or 30ms (durations take units: 500ms, 30s, 2m, 1h30m)\n",
      );
    }
  });

  it("name the flag in a one-line error", () => {
    expect(() => durationMs("--delay", "soon")).toThrow('--delay: expected a duration such as 500ms, 30s, 2m or 1h30m, got "soon"');
    expect(() => positiveDurationMs("--timeout", "0")).toThrow("--timeout: expected a duration above 0");
  });
});
