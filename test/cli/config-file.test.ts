import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outsideTheCheckout } from "../helpers/outside.js";

/** `bitext init`, the config file's settings as the commands' defaults, and its errors naming the key. */
describe("a workspace and its config file", { timeout: 180_000 }, () => {
  const user = outsideTheCheckout();

  it("bitext init makes the folder the home of every command run inside it", async () => {
    const r = await user.run(["init", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const config = join(user.cwd, "bitext.config.json");
    expect(JSON.parse(r.stdout).config).toBe(config);
    expect(JSON.parse(readFileSync(config, "utf8"))).toMatchObject({ store: "data/bitext.db" });
    const where = JSON.parse((await user.run(["where", "--json"])).stdout);
    expect(where).toMatchObject({ home: user.cwd, homeSource: "workspace", config });
    expect(where.store.path).toBe(join(user.cwd, "data", "bitext.db"));
    expect((await user.run(["init"])).stderr).toMatch(/already a bitext workspace/);
  });

  it("gives the commands their defaults, which flags override", async () => {
    writeFileSync(
      join(user.cwd, "bitext.config.json"),
      JSON.stringify({ store: "stores/main.db", engines: { so: {}, bing: { enabled: false } }, concurrency: 5 }),
    );
    const help = (await user.run(["harvest", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--engines <list> .*?\(default: so\)/);
    expect(help).toMatch(/--concurrency <n> .*?\(default: 5\)/);
    // The store is resolved when the command runs (bitext where shows it), not printed as a path of this machine.
    expect(help).not.toContain(join(user.cwd, "stores"));
    expect(JSON.parse((await user.run(["where", "--json"])).stdout).store.path).toBe(join(user.cwd, "stores", "main.db"));
    const exp = await user.run(["export", "records"]);
    expect(exp.stderr).toContain(`${join(user.cwd, "stores", "main.db")}: no store here yet`);
    const flag = await user.run(["export", "records", "--db", "other.db"]);
    expect(flag.stderr).toMatch(/^bitext: other\.db: no store here yet/);
    expect(existsSync(join(user.cwd, "other.db"))).toBe(false);
  });

  it("names the file and the key of a wrong setting, in one line", async () => {
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ engines: { bing: { fetch: "always" } } }));
    const r = await user.run(["where"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('bitext: bitext.config.json: engines.bing: Unrecognized key: "fetch"\n');
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ politeness: { minDelay: "3 seconds" } }));
    expect((await user.run(["where"])).stderr).toMatch(
      /^bitext: bitext\.config\.json: politeness\.minDelay: expected a duration such as 500ms, 30s/,
    );
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ blocks: { maxWait: "a while" } }));
    expect((await user.run(["where"])).stderr).toMatch(/^bitext: bitext\.config\.json: blocks\.maxWait: expected a duration such as 500ms/);
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ blocks: { pauseAfter: 0 } }));
    expect((await user.run(["where"])).stderr).toMatch(/^bitext: bitext\.config\.json: blocks\.pauseAfter: /);
  });

  it("--home wins over the workspace", async () => {
    writeFileSync(join(user.cwd, "bitext.config.json"), "{}");
    const r = await user.run(["where", "--json", "--home", join(user.cwd, "elsewhere")]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ home: join(user.cwd, "elsewhere"), homeSource: "--home" });
  });

  it("runs the daemon's example schedule (shipped query lists by name) outside the checkout", async () => {
    writeFileSync(
      join(user.cwd, "bitext.schedule.json"),
      JSON.stringify({
        db: "data/bitext.db",
        runs: [
          {
            name: "tatoeba-nightly",
            cron: "0 3 * * *",
            timezone: "Asia/Shanghai",
            queries: ["queries/tatoeba-cmn-eng.tsv"],
            engines: ["bing", "baidu"],
            pages: 2,
            maxAge: "20h",
          },
        ],
      }),
    );
    const r = await user.run(["daemon", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^tatoeba-nightly {2}0 3 \* \* \* \(Asia\/Shanghai\) {2}next: /);
  });

  it("reads the daemon's schedule from the config file (one schema for both)", async () => {
    const run = { name: "nightly", cron: "0 3 * * *", queries: ["queries/demo.tsv"], engines: ["bing"] };
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ schedule: { runs: [run] } }));
    const r = await user.run(["daemon", "--dry-run"], { cwd: user.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^nightly {2}0 3 \* \* \* {2}next: /);
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ schedule: { runs: [{ ...run, cron: "every night" }] } }));
    expect((await user.run(["daemon", "--dry-run"])).stderr).toMatch(/^bitext: bitext\.config\.json: schedule: runs\.0\.cron: /);
    writeFileSync(join(user.cwd, "bitext.config.json"), JSON.stringify({ schedule: { runs: [{ ...run, timeout: 30 }] } }));
    expect((await user.run(["daemon", "--dry-run"])).stderr).toBe(
      'bitext: bitext.config.json: schedule.runs.0: Unrecognized key: "timeout"\n',
    );
  });
});
