import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBullmq, type PageJob, parseRedisUrl, queueName } from "../../src/queue/index.js";
import { runCommand, spawnCli } from "../helpers/cli.js";
import { type RedisServer, redisUnavailable, startRedis } from "../helpers/redis.js";

/** The daemon with a queue: its cron runs are BullMQ job schedulers, so two daemons enqueue each tick once. */

const unavailable = redisUnavailable();

describe.skipIf(unavailable !== null)("bitext daemon --queue", () => {
  let redis: RedisServer;
  let dir: string;
  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "bitext-daemon-queue-"));
  });
  afterAll(async () => {
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("two daemons, one schedule: every tick enqueued by exactly one of them", async () => {
    const config = join(dir, "schedule.json");
    writeFileSync(join(dir, "two.tsv"), "I see.\t我明白了。\nThank you.\t谢谢。\n");
    // Every second (cron with seconds), on a shipped engine definition; nothing is fetched here (no worker).
    writeFileSync(
      config,
      JSON.stringify({ runs: [{ name: "every-second", cron: "* * * * * *", queries: ["two.tsv"], engines: ["bing"] }] }),
    );
    // Daemons are processes of their own: two at once, stopped with SIGTERM.
    const daemon = (): { child: ChildProcess; text: () => string; out: Promise<string> } => {
      const child = spawnCli(["daemon", "--config", config, "--queue", redis.url, "--json"]);
      let out = "";
      let err = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (err += d));
      return { child, text: () => out, out: new Promise((resolve) => child.on("exit", () => resolve(out + err))) };
    };
    const daemons = [daemon(), daemon()];
    // Until both daemons have scheduled and three ticks have been enqueued (between them).
    const count = (kind: string) => daemons.reduce((n, d) => n + d.text().split(`"kind":"${kind}"`).length - 1, 0);
    const deadline = Date.now() + 25_000;
    while (Date.now() < deadline && (count("scheduled") < 2 || count("finished") < 4)) await new Promise((r) => setTimeout(r, 100));
    for (const d of daemons) d.child.kill("SIGTERM");
    const events = (await Promise.all(daemons.map((d) => d.out))).flatMap((o) =>
      o
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { kind: string; outcome?: { run: string; added: number } }),
    );
    const finished = events.filter((e) => e.kind === "finished").map((e) => e.outcome!);
    // One enqueue per tick: each tick's run added its two pages exactly once. (A tick job whose lock lapsed on
    // a loaded machine may be run again by the other daemon: BullMQ's delivery is at least once, and the
    // deterministic page-job ids make the second enqueue add nothing.)
    const added = new Map<string, number>();
    for (const f of finished) added.set(f.run, (added.get(f.run) ?? 0) + f.added);
    expect(added.size).toBeGreaterThanOrEqual(3);
    expect([...added.values()].every((n) => n === 2)).toBe(true);

    const status = await runCommand(["queue", "status", "--queue", redis.url, "--json"]);
    const runs = (JSON.parse(status.stdout) as { runs: Array<{ run: string; waiting: number }> }).runs;
    expect(runs.map((r) => r.run).sort()).toEqual([...added.keys()].sort());
  }, 90_000);
});

describe.skipIf(unavailable !== null)("bitext daemon --queue --once: the language pair travels in the page jobs", () => {
  let redis: RedisServer;
  let dir: string;
  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "bitext-daemon-pair-"));
  });
  afterAll(async () => {
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a run's own pair, else the daemon's --pair; each job's query with its languages, list, line and note", async () => {
    writeFileSync(join(dir, "ja.tsv"), "Good morning.\tおはようございます。\tja #1\n");
    writeFileSync(join(dir, "ko.tsv"), "# Korean\nThank you.\t감사합니다.\n");
    const config = join(dir, "schedule.json");
    const run = (name: string, extra: object = {}) => ({ name, cron: "0 3 * * *", queries: [`${name}.tsv`], engines: ["bing"], ...extra });
    writeFileSync(config, JSON.stringify({ runs: [run("ja", { pair: "en-ja" }), run("ko")] }));
    const r = await runCommand(["daemon", "--config", config, "--queue", redis.url, "--once", "--pair", "en-ko", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const bull = await loadBullmq();
    const queue = new bull.Queue<PageJob>(queueName("bing"), { connection: parseRedisUrl(redis.url) });
    try {
      const jobs = (await queue.getJobs(["waiting", "prioritized", "delayed"])).map((j) => j.data.query);
      expect(jobs.sort((a, b) => a.source.text.localeCompare(b.source.text))).toEqual([
        {
          source: { lang: "en", text: "Good morning." },
          target: { lang: "ja", text: "おはようございます。" },
          file: join(dir, "ja.tsv"),
          line: 1,
          note: "ja #1",
        },
        {
          source: { lang: "en", text: "Thank you." },
          target: { lang: "ko", text: "감사합니다." },
          file: join(dir, "ko.tsv"),
          line: 2,
          note: null,
        },
      ]);
    } finally {
      await queue.close();
    }
  }, 60_000);
});
