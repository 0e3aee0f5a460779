import { parallelText } from "../../src/language-pair.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerDaemonCommand } from "../../src/cli/daemon.js";
import { registerExportCommands } from "../../src/cli/export.js";
import { registerHarvestCommand } from "../../src/cli/harvest.js";
import { openStore, recordFetch, setClassification, sql } from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";
import { bench, DEMO } from "./helpers.js";

/** Run `bitext ARGS` in-process; UserErrors surface as rejections. */
async function cli(args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerHarvestCommand(program);
  registerDaemonCommand(program);
  registerExportCommands(program);
  await program.parseAsync(args, { from: "user" });
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bitext-cli-"));
}

describe("bitext harvest: bad input", () => {
  it("stops at a malformed query line with file:line, before any browser starts", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "q.tsv"), "# mine\nI see.\t我明白了。\nno tab on this line\n");
    await expect(cli(["harvest", join(dir, "q.tsv"), "--engines", "bing", "--db", join(dir, "x.db")])).rejects.toThrow(
      `${join(dir, "q.tsv")}:3: expected "English<TAB>Chinese", found no tab`,
    );
  });

  it("names the known engines when one is unknown, and rejects bad numbers", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "q.tsv"), "I see.\t我明白了。\n");
    await expect(cli(["harvest", join(dir, "q.tsv"), "--engines", "bing,altavista"])).rejects.toThrow(
      /unknown engine "altavista": no .*altavista\.json \(known: baidu, bing, duckduckgo, google, so, sogou, yahoo\)/,
    );
    await expect(cli(["harvest", join(dir, "q.tsv"), "--pages", "0"])).rejects.toThrow('--pages: expected a whole number ≥ 1, got "0"');
    await expect(cli(["harvest", join(dir, "q.tsv"), "--max-age", "a week"])).rejects.toThrow(
      /--max-age: expected a duration .*, got "a week"/,
    );
  });

  it("prints one line on stderr and exits 1 (the whole command line)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "q.tsv"), "I see.\n");
    const r = await runCommand(["harvest", join(dir, "q.tsv")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`bitext: ${join(dir, "q.tsv")}:1: expected "English<TAB>Chinese", found no tab\n`);
    expect(r.stdout).toBe("");
  });
});

describe("bitext export records", () => {
  async function filledStore(): Promise<string> {
    const db = join(tempDir(), "bitext.db");
    const store = await openStore(db);
    const at = new Date().toISOString();
    const q = parallelText(DEMO[0]!.source.text, DEMO[0]!.target.text);
    await recordFetch(
      store,
      {
        runId: null,
        engine: "bing",
        query: q,
        page: 1,
        url: "https://www.bing.com/search?q=x",
        status: "ok",
        startedAt: at,
        durationMs: 5,
      },
      [
        {
          url: "http://a.example/1",
          title: "Daily English 每日英语",
          snippet: 'They were always making jokes, "he said". 他们一直闹笑话。',
          rank: 1,
        },
        { url: "http://b.example/2", title: "Story Corner", snippet: "They were always making jokes.\nA second line.", rank: 2 },
      ],
    );
    await recordFetch(
      store,
      { runId: null, engine: "baidu", query: q, page: 1, url: "https://www.baidu.com/s?wd=x", status: "ok", startedAt: at, durationMs: 5 },
      [{ url: "http://c.example/3", title: "生活论坛", snippet: "他们一直闹笑话。", rank: 1 }],
    );
    await setClassification(store, 1, { label: "bilingual", probability: 0.93, model: "m@1" });
    await setClassification(store, 2, { label: "monolingual", probability: 0.12, model: "m@1" });
    await store.close();
    return db;
  }

  it("writes JSON lines with the query pair, and filters by engine, label and probability", async () => {
    const db = await filledStore();
    const out = join(tempDir(), "records.jsonl");
    await cli(["export", "records", "--db", db, "--out", out]);
    const all = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(all).toHaveLength(3);
    expect(all[1]).toMatchObject({
      engine: "bing",
      query: { en: DEMO[0]!.source.text, zh: DEMO[0]!.target.text },
      url: "http://a.example/1",
      rank: 1,
      label: "bilingual",
      probability: 0.93,
    });
    await cli(["export", "records", "--db", db, "--out", out, "--engines", "bing", "--label", "bilingual", "--min-probability", "0.9"]);
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).url),
    ).toEqual(["http://a.example/1"]);
    await cli(["export", "records", "--db", db, "--out", out, "--label", "unclassified"]);
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).url),
    ).toEqual(["http://c.example/3"]);
  });

  it("writes RFC 4180 CSV: a header, quotes around commas, quotes and line breaks", async () => {
    const db = await filledStore();
    const out = join(tempDir(), "records.csv");
    await cli(["export", "records", "--db", db, "--format", "csv", "--engines", "bing", "--out", out]);
    const text = readFileSync(out, "utf8");
    expect(text.split("\n")[0]).toBe(
      "id,engine,query_en,query_zh,rank,page,url,title,snippet,first_seen,last_seen,seen_count,label,probability,model,annotation",
    );
    expect(text).toContain(`,"They were always making jokes, ""he said"". 他们一直闹笑话。",`);
    expect(text).toContain(`,"They were always making jokes.\nA second line.",`);
    expect(text).toContain(",bilingual,0.93,m@1,");
  });

  it("refuses bad filters and a missing store", async () => {
    const db = await filledStore();
    await expect(cli(["export", "records", "--db", db, "--format", "xml"])).rejects.toThrow('--format: expected jsonl or csv, got "xml"');
    await expect(cli(["export", "records", "--db", db, "--label", "maybe"])).rejects.toThrow(
      /--label: expected bilingual, monolingual or unclassified/,
    );
    await expect(cli(["export", "records", "--db", db, "--since", "yesterday-ish"])).rejects.toThrow(/--since: cannot read the date/);
    await expect(cli(["export", "records", "--db", join(tempDir(), "none.db")])).rejects.toThrow(/none\.db: no store here yet/);
  });
});

describe("bitext daemon", () => {
  it("--once runs every configured harvest against the engines, one after the other", async () => {
    const b = await bench();
    try {
      writeFileSync(
        join(b.dir, "q.tsv"),
        DEMO.slice(0, 2)
          .map((q) => `${q.source.text}\t${q.target.text}`)
          .join("\n"),
      );
      writeFileSync(join(b.dir, "ja.tsv"), "Good morning.\tおはようございます。\n");
      const config = join(b.dir, "bitext.schedule.json");
      writeFileSync(
        config,
        JSON.stringify({
          db: "daemon.db",
          wrappers: ".",
          runs: [
            { name: "lists", cron: "0 3 * * *", queries: ["q.tsv"], engines: ["sim-list"], model: null },
            { name: "tables", cron: "0 4 * * *", queries: ["q.tsv"], engines: ["sim-table"], model: null },
            // A run of its own language pair; the others take the daemon's.
            { name: "japanese", cron: "0 5 * * *", queries: ["ja.tsv"], engines: ["sim-list"], model: null, pair: "en-ja" },
          ],
        }),
      );
      const lines: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string) => {
        lines.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
      try {
        await cli(["daemon", "--config", config, "--once", "--json", "--no-profile"]);
      } finally {
        process.stdout.write = write;
      }
      const events = lines.map((l) => JSON.parse(l) as { kind: string; run: string });
      expect(events.filter((e) => e.kind === "started" || e.kind === "finished").map((e) => `${e.kind}:${e.run}`)).toEqual([
        "started:lists",
        "finished:lists",
        "started:tables",
        "finished:tables",
        "started:japanese",
        "finished:japanese",
      ]);
      const store = await openStore(join(b.dir, "daemon.db"));
      const runs = await store.sql.all(sql`SELECT status FROM runs`);
      const pairs = await store.sql.all(sql`SELECT tgt_lang, count(*) AS n FROM queries GROUP BY tgt_lang ORDER BY tgt_lang`);
      await store.close();
      expect(runs).toEqual([{ status: "completed" }, { status: "completed" }, { status: "completed" }]);
      expect(pairs).toEqual([
        { tgt_lang: "ja", n: 1 },
        { tgt_lang: "zh", n: 2 },
      ]);
    } finally {
      await b.close();
    }
  });
});
