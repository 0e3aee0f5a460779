import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDuration } from "../../src/duration.js";
import { readScheduleConfig, type ScheduledRun, Scheduler, type SchedulerEvent } from "../../src/serp/index.js";

function configFile(json: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "bitext-sched-"));
  writeFileSync(join(dir, "queries.tsv"), "I see.\t我明白了。\n");
  const file = join(dir, "bitext.schedule.json");
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
  return file;
}

const RUN = { name: "nightly", cron: "0 3 * * *", queries: ["queries.tsv"], engines: ["bing", "baidu"] };

describe("reading a schedule config", () => {
  it("fills defaults and resolves paths against the config file", () => {
    const file = configFile({ db: "data/x.db", runs: [{ ...RUN, timezone: "Asia/Shanghai", maxAge: "12h", pages: 2 }] });
    const c = readScheduleConfig(file);
    expect(c.db).toBe(join(file, "..", "data/x.db"));
    expect(c.runs[0]).toMatchObject({ name: "nightly", pages: 2, concurrency: 2, maxAgeMs: 12 * 3600_000, timezone: "Asia/Shanghai" });
    expect(c.runs[0]!.queries).toEqual([join(file, "..", "queries.tsv")]);
  });

  it("names the file and field of every mistake", () => {
    expect(() => readScheduleConfig(configFile("{ nope"))).toThrow(/bitext\.schedule\.json: not valid JSON/);
    expect(() => readScheduleConfig(configFile({ runs: [] }))).toThrow(/bitext\.schedule\.json: runs: /);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, cron: "every night" }] }))).toThrow(/runs\.0\.cron: /);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, engines: [] }] }))).toThrow(/runs\.0\.engines: /);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, queries: ["missing.tsv"] }] }))).toThrow(
      /runs\.0\.queries: no such file .*missing\.tsv/,
    );
    expect(() => readScheduleConfig(configFile({ runs: [RUN, RUN] }))).toThrow(/runs\.1\.name: "nightly" is used twice/);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, maxAge: "soon" }] }))).toThrow(/runs\.0\.maxAge: cannot read "soon"/);
    expect(() => readScheduleConfig("/nonexistent/bitext.schedule.json")).toThrow(/cannot read schedule config \(no such file\)/);
  });

  it("reads a run's language pair, refusing one that is not two known, different languages", () => {
    const c = readScheduleConfig(
      configFile({
        runs: [
          { ...RUN, pair: "en-ja" },
          { ...RUN, name: "other" },
        ],
      }),
    );
    expect(c.runs.map((r) => r.pair)).toEqual([{ a: "en", b: "ja" }, null]);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, pair: "english" }] }))).toThrow(/runs\.0\.pair: /);
    expect(() => readScheduleConfig(configFile({ runs: [{ ...RUN, pair: "en-en" }] }))).toThrow(
      /runs\.0\.pair: the two languages must differ/,
    );
  });

  it("reads durations", () => {
    expect(parseDuration("0")).toBe(0);
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("7d")).toBe(7 * 86_400_000);
    expect(() => parseDuration("7 days", "--max-age")).toThrow('--max-age: cannot read "7 days"');
  });
});

describe("the scheduler", () => {
  it("fires runs on their cron schedule and never runs two at once", async () => {
    const run = (name: string): ScheduledRun => ({
      name,
      cron: "* * * * * *", // every second
      timezone: null,
      queries: [],
      engines: [],
      pages: 1,
      concurrency: 1,
      maxAgeMs: 0,
      keepHtml: false,
      retries: 0,
      timeoutMs: 1000,
      model: null,
      pair: null,
    });
    let active = 0;
    let maxActive = 0;
    const started: string[] = [];
    const events: SchedulerEvent[] = [];
    const scheduler = new Scheduler([run("a"), run("b")], {
      execute: async (r) => {
        active++;
        maxActive = Math.max(maxActive, active);
        started.push(r.name);
        await new Promise((res) => setTimeout(res, 1300)); // longer than the period
        active--;
        return { ok: true };
      },
      onEvent: (e) => events.push(e),
    });
    scheduler.start();
    await new Promise((res) => setTimeout(res, 4200));
    await scheduler.stop();
    expect(maxActive).toBe(1);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(new Set(started)).toEqual(new Set(["a", "b"]));
    expect(events.some((e) => e.kind === "queued")).toBe(true);
    expect(events.filter((e) => e.kind === "finished").length).toBe(started.length);
  });

  it("waits while a harvest of another process is in progress", async () => {
    let busy = true;
    const events: SchedulerEvent[] = [];
    const ran: string[] = [];
    const scheduler = new Scheduler(
      [
        {
          name: "x",
          cron: "0 3 * * *",
          timezone: null,
          queries: [],
          engines: [],
          pages: 1,
          concurrency: 1,
          maxAgeMs: 0,
          keepHtml: false,
          retries: 0,
          timeoutMs: 1,
          model: null,
          pair: null,
        },
      ],
      {
        execute: async (r) => {
          ran.push(r.name);
        },
        busyElsewhere: () => (busy ? "harvest run 7 (pid 123) is in progress" : null),
        pollMs: 50,
        onEvent: (e) => events.push(e),
      },
    );
    const once = scheduler.runAllOnce();
    await new Promise((res) => setTimeout(res, 120));
    expect(ran).toEqual([]);
    busy = false;
    await once;
    expect(ran).toEqual(["x"]);
    expect(events[0]).toEqual({ kind: "waiting", run: "x", reason: "harvest run 7 (pid 123) is in progress" });
  });
});
