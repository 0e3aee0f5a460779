import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands.js";
import { runCommand } from "../helpers/cli.js";

/** Issue 23: one `bitext:` line for every error, config files located by line and column, `where` on a broken config. */

const workspace = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-ws-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
const noHome = { BITEXT_HOME: undefined };

describe("usage errors are one bitext: line", () => {
  it("an unknown option names the command's help", async () => {
    const r = await runCommand(["harvest", "--bogus"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe("bitext: unknown option '--bogus' (bitext harvest --help shows the usage)\n");
  });

  it("a misspelt option of a sub-command, with commander's suggestion", async () => {
    const r = await runCommand(["export", "records", "--limt", "3"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe("bitext: unknown option '--limt' (did you mean --limit?) (bitext export records --help shows the usage)\n");
  });

  it("an unknown command", async () => {
    const r = await runCommand(["harvset"]);
    expect(r.stderr).toBe("bitext: unknown command 'harvset' (did you mean harvest?) (bitext --help shows the usage)\n");
  });
});

describe("config files", () => {
  it("a JSON syntax error gives the line and column", async () => {
    const dir = workspace({ "bitext.config.json": '{\n  "store": "x.db",\n  "engines": { "bing": {} },\n}\n' });
    const r = await runCommand(["export", "corpus"], { cwd: dir, env: noHome });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe("bitext: bitext.config.json:4:1: not valid JSON (Expected double-quoted property name)\n");
  });

  it("a JSON error V8 gives no position for still gets one", async () => {
    const dir = workspace({ "bitext.config.json": '{\n  "concurrency": 2,\n  "store": tru\n}\n' });
    const r = await runCommand(["where"], { cwd: dir, env: noHome });
    expect(r.stderr).toMatch(/^bitext: bitext\.config\.json:3:15: not valid JSON \(Unexpected token/);
  });

  it("a YAML syntax error gives the line and column", async () => {
    const dir = workspace({ "bitext.config.yaml": "concurrency: 2\nstore: a\n  bad: [\n" });
    const r = await runCommand(["runs"], { cwd: dir, env: noHome });
    expect(r.stderr).toMatch(/^bitext: bitext\.config\.yaml:2:8: not valid YAML \(/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("both bitext.config.json and bitext.config.yaml: an error naming both (the YAML was silently ignored)", async () => {
    const dir = workspace({ "bitext.config.json": "{}\n", "bitext.config.yaml": "concurrency: 3\n" });
    const r = await runCommand(["harvest", "--help"], { cwd: dir, env: noHome });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe(
      `bitext: bitext.config.json and bitext.config.yaml: two config files in ${dir}; keep one (bitext reads only one)\n`,
    );
  });

  it("where works on a broken config: every path, and the error", async () => {
    const dir = workspace({ "bitext.config.json": '{ "concurrency": "two" }' });
    const r = await runCommand(["where"], { cwd: dir, env: noHome });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`home          ${dir} (workspace)`);
    expect(r.stdout).toMatch(/config error +bitext\.config\.json: concurrency: .*expected number/);
    expect(r.stdout).toContain(join(dir, "data", "bitext.db"));
    expect(r.stderr).toMatch(/^bitext: bitext\.config\.json: concurrency: /);
    const json = await runCommand(["where", "--json"], { cwd: dir, env: noHome });
    expect(JSON.parse(json.stdout)).toMatchObject({ home: dir, configError: expect.stringMatching(/concurrency/) });
  });
});

describe("help texts", () => {
  it("show the effective defaults, as a user types them", async () => {
    const dir = workspace({ "bitext.config.json": JSON.stringify({ engines: { bing: { enabled: false }, baidu: {} }, concurrency: 5 }) });
    const r = await runCommand(["harvest", "--help"], { cwd: dir, env: noHome });
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain("(default: baidu)");
    expect(help).toContain("over all engines (default: 5)");
    expect(help).toContain("(default: 24h)");
    expect(help).not.toMatch(/default: "|default: \[\]/);
    // No absolute path computed from this machine's home in the help.
    expect(help).not.toContain(dir);
  });

  it("--home is in every command's help", async () => {
    for (const c of commands) {
      const r = await runCommand([c.name, "--help"]);
      expect(r.stdout, c.name).toMatch(/--home <dir>/);
    }
    const sub = await runCommand(["export", "records", "--help"]);
    expect(sub.stdout).toMatch(/--home <dir>/);
  });
});
