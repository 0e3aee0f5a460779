/** A network failure says what failed: a refused connection is not "robots.txt unreachable" (issue 23). */
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { createFetcher, FetchError } from "../../src/net/index.js";
import { runCommand } from "../helpers/cli.js";

/** A port on 127.0.0.1 nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

describe("network errors", () => {
  it("a refused connection is named so, with robots.txt on", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/page.html`;
    const err = await createFetcher({ delayMs: 0 })
      .fetch(url)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).kind).toBe("network");
    expect((err as FetchError).message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/page\.html: network error \(connection refused: ECONNREFUSED\)/,
    );
    expect((err as FetchError).message).not.toContain("robots.txt unreachable");
  });

  it("the CLI says it in one line (extract skips the URL and exits 2)", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/page.html`;
    const r = await runCommand(["extract", url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bitext: http:\/\/127\.0\.0\.1:\d+\/page\.html: network error \(connection refused: ECONNREFUSED\)/);
    expect(r.stderr).not.toMatch(/robots\.txt unreachable/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
