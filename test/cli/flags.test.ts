import { describe, expect, it } from "vitest";
import { durationMs, positiveDurationMs } from "../../src/cli/flags.js";

describe("duration flags", () => {
  it("take units everywhere", () => {
    expect(durationMs("--delay", "500ms", "ms")).toBe(500);
    expect(durationMs("--delay", "30s", "ms")).toBe(30_000);
    expect(durationMs("--timeout", "2h", "s")).toBe(7_200_000);
    expect(durationMs("--timeout", "1h30m", "s")).toBe(5_400_000);
  });

  it("read a bare number in the flag's old unit, so old command lines keep their meaning", () => {
    expect(durationMs("--delay", "1000", "ms")).toBe(1000);
    expect(durationMs("--timeout", "30", "s")).toBe(30_000);
  });

  it("name the flag in a one-line error", () => {
    expect(() => durationMs("--delay", "soon", "ms")).toThrow('--delay: expected a duration such as 500ms, 30s, 2m or 1h30m, got "soon"');
    expect(() => positiveDurationMs("--timeout", "0", "s")).toThrow("--timeout: expected a duration above 0");
  });
});
