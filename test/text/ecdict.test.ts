import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildLexicon, EN_ZH, ecdictEntries, ecdictTranslations, readLexiconFile } from "../../src/text/index.js";
import { FIXTURES, runCommand } from "../helpers/cli.js";

/** 14 real rows of ECDICT's CSV (test/fixtures/README.md), with its header. */
const SAMPLE = join(FIXTURES, "text", "ecdict-sample.csv");
const dir = mkdtempSync(join(tmpdir(), "bitext-ecdict-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ECDICT as lexicon entries", () => {
  it("reads a sense line without its part of speech, domain tag and bracketed notes, split at separators", () => {
    expect(ecdictTranslations("n. 访客, 召集员\\n[计] 呼叫方标识")).toEqual([
      { zh: "访客", domain: "" },
      { zh: "召集员", domain: "" },
      { zh: "呼叫方标识", domain: "计" },
    ]);
    // A definition longer than a word, a Latin-script part and a person's name are not translations.
    expect(ecdictTranslations("vt. 从语法上描述或分析句子中的词语成分, parse tree\\nn. (Alert)人名；(西)阿莱尔特")).toEqual([]);
  });

  it("keeps ranked words and the computing senses of the others, never names, from the real rows", async () => {
    const { parse } = await import("csv-parse/sync");
    const rows = parse(readFileSync(SAMPLE), { columns: true }) as Array<{ word: string; translation: string; frq: string; bnc: string }>;
    const entries = await ecdictEntries(rows);
    const of = (en: string) => entries.filter((e) => e.en === en).map((e) => e.zh);
    expect(of("iter")).toEqual(["迭代器", "迭代程序"]); // iterator: unranked, [计]
    expect(of("caller")).toContain("呼叫方标识");
    expect(of("immut")).toEqual(["不可变的", "不变的", "不能变的"]); // ranked, no domain
    expect(of("heap")).toEqual(expect.arrayContaining(["堆", "累积", "堆积"]));
    expect(of("ibuprofen")).toContain("布洛芬"); // ranked
    expect(entries.map((e) => e.zh)).not.toContain("内收"); // aaduction: unranked, a medical sense only
    expect(of("aasen")).toEqual([]); // a name
    expect(of("alert")).not.toContain("人名"); // "alerted" lemmatised; its name sense left out
    expect(entries.map((e) => e.zh)).not.toContain("甲板间"); // 'tween decks: a phrase is not a token
    // Each word pair once, weight 1.
    expect(new Set(entries.map((e) => `${e.en}\t${e.zh}`)).size).toBe(entries.length);
    expect(entries.every((e) => e.weight === 1)).toBe(true);
  });
});

describe("bitext lexicon import", { timeout: 60_000 }, () => {
  it("writes a lexicon file the shared lexicon reads, with its source and licence", async () => {
    const out = join(dir, "dictionary-ecdict.tsv");
    const r = await runCommand(["lexicon", "import", SAMPLE, "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ out, format: "ecdict" });
    const file = readLexiconFile(out);
    expect(file.languages).toEqual(["zh", "en"]);
    expect(file.header.licence).toMatch(/^MIT/);
    expect(file.header.source).toContain("ECDICT");
    const lex = buildLexicon(EN_ZH, [file], false);
    expect([...(lex.translations("迭代器", "zh")?.keys() ?? [])]).toEqual(["iter"]);
    expect(lex.translations("iterator", "en")?.get("迭代器")).toBe(1);
  });

  it("goes to models/ in your home by default", async () => {
    const home = join(dir, "home");
    const r = await runCommand(["lexicon", "import", SAMPLE, "--home", home]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(home, "models", "dictionary-ecdict.tsv"))).toBe(true);
  });

  it("refuses a file that is not ECDICT's CSV in one line naming the file and the column, writing nothing", async () => {
    const bad = join(dir, "not-ecdict.csv");
    writeFileSync(bad, "english,chinese\nheap,堆\n");
    const out = join(dir, "never.tsv");
    const r = await runCommand(["lexicon", "import", bad, "--out", out]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${bad}:1: word:`);
    expect(existsSync(out)).toBe(false);
    const missing = await runCommand(["lexicon", "import", join(dir, "absent.csv"), "--out", out]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/absent\.csv: cannot read \(ENOENT\)/);
  });
});
