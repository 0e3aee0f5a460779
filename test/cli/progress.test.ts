import { describe, expect, it } from "vitest";
import { createProgress, progressLine } from "../../src/cli/progress.js";

function fakeStream(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  return { stream: { isTTY, columns, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream, writes };
}

describe("the progress line", () => {
  it("shows done/total, percentage, elapsed and ETA with a bar on a wide terminal", () => {
    const line = progressLine({ label: "train", current: 406, total: 1625, elapsedMs: 10_000, fields: { phase: "features" } }, 120);
    expect(line).toBe("train [#######-----------------------] 406/1625 (24%) · 10s · ETA 30s · phase features");
  });

  it("drops whole parts on a narrow terminal, never cutting a count (1625 stays 1625)", () => {
    for (const width of [70, 50, 40, 30, 25]) {
      const line = progressLine(
        { label: "train", current: 1625, total: 1625, elapsedMs: 5000, fields: { phase: "C × gamma grid", done: "30/30" } },
        width,
      );
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line).toContain("1625/1625");
    }
  });

  it("advances with update() as well as tick(): the train bar moves before the end", () => {
    const { stream, writes } = fakeStream(true);
    let t = 0;
    const p = createProgress({ label: "train", stream, intervalMs: 0, now: () => t });
    p.setTotal(30);
    t = 1000;
    p.update(15, { phase: "grid" });
    expect(writes.at(-1)).toContain("15/30 (50%)");
    expect(writes.at(-1)).toContain("ETA 1.0s");
    p.done();
    expect(writes.at(-1)).toBe("\r\x1b[2K");
  });

  it("writes nothing when stderr is not a terminal, or with --json", () => {
    for (const [tty, quiet] of [
      [false, false],
      [true, true],
    ] as const) {
      const { stream, writes } = fakeStream(tty);
      const p = createProgress({ label: "x", total: 3, stream, quiet, intervalMs: 0 });
      p.tick();
      p.update(2);
      p.done();
      expect(writes).toEqual([]);
    }
  });
});
