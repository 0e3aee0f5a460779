import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerSimCommand } from "../../src/cli/sim.js";
import { UserError } from "../../src/errors.js";
import { runCommand, spawnCli } from "../helpers/cli.js";
import { writeDemoQueries } from "../serp/helpers.js";

/** `bitext sim` as a user runs it: a process serving until Ctrl-C, and a harvest in another "terminal" (this process). */
describe("bitext sim", () => {
  it("serves the simulated engines, writes their definitions, takes a harvest, and stops at Ctrl-C", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-sim-"));
    const wrappers = join(dir, "wrappers");
    // A process of its own: it serves until Ctrl-C (SIGINT).
    const child = spawnCli(["sim", "--port", "0", "--wrappers", wrappers, "--json"]);
    try {
      let out = "";
      const banner = await new Promise<{ origin: string; wrappers: string; engines: Array<{ name: string; trait: string }> }>(
        (resolve, reject) => {
          child.stdout!.on("data", (d) => {
            out += String(d);
            const nl = out.indexOf("\n");
            if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
          });
          child.on("exit", (code) => reject(new Error(`bitext sim exited ${code}`)));
        },
      );
      expect(banner.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(banner.engines.map((e) => `${e.name}:${e.trait}`)).toEqual([
        "sim-list:plain",
        "sim-div:plain",
        "sim-table:plain",
        "sim-eu:consent",
        "sim-script:script",
        "sim-strict:strict-agent",
        "sim-proxied:proxy-only",
      ]);
      const def = JSON.parse(readFileSync(join(wrappers, "sim-list.json"), "utf8")).definition;
      expect(def.searchUrl).toBe(`${banner.origin}/list/search?q={query}&first={offset}`);

      const queries = join(dir, "q.tsv");
      writeDemoQueries(queries, 2);
      const h = await runCommand(
        ["harvest", queries, "--engines", "sim-list", "--wrappers", wrappers, "--db", join(dir, "bitext.db"), "--no-classify", "--json"],
        {
          env: { BITEXT_HOME: dir },
        },
      );
      expect(h.code, h.stderr).toBe(0);
      expect(JSON.parse(h.stdout)).toMatchObject({ status: "completed", ok: 2, left: 0 });

      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bad port or an unknown engine in one line", async () => {
    const sim = (args: string[]) => {
      const program = new Command().exitOverride();
      registerSimCommand(program);
      return program.parseAsync(["sim", ...args], { from: "user" });
    };
    await expect(sim(["--port", "70000"])).rejects.toThrow(new UserError('--port: expected 0–65535, got "70000"'));
    await expect(sim(["--engines", "sim-nope"])).rejects.toThrow(/^--engines: unknown simulated engine "sim-nope" \(sim-list, /);
  });
});
