import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { runCommand } from "../helpers/cli.js";
import { AQL, fixturePage } from "../helpers/serps.js";

let dir: string;
const bingPage = join(AQL, "bing", "bing-crimson-coward-1640789839.html");
const bingOther = join(AQL, "bing", "bing-dash-investment-foundation-1644415217.html");
const googlePage = join(AQL, "google", "google-conflict-middle-east-wikipedia-1636797028.html");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "bitext-cli-"));
});

describe("bitext wrapper learn / records", () => {
  it("lists its commands", async () => {
    const r = await runCommand(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["wrapper", "records", "eval"]) expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, "m"));
  });

  it("learns a wrapper from a sample page and extracts the records of another page with it", async () => {
    const out = join(dir, "bing.json");
    const learn = await runCommand(["wrapper", "learn", "--engine", "bing", "--sample", bingPage, "--out", out]);
    expect(learn.code, learn.stderr).toBe(0);
    expect(learn.stdout).toMatch(/10 records on the sample page · wrote/);
    expect(JSON.parse(readFileSync(out, "utf8")).engine).toBe("bing");

    const r = await runCommand(["records", bingOther, "--wrapper", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(10);
    expect(Object.keys(records[0]!).sort()).toEqual(["rank", "snippet", "title", "url"]);
    expect(records.map((x) => normaliseTitle(String(x.title)))).toEqual(fixturePage("bing-dash").expectedTitles.map(normaliseTitle));
  });

  it("learns from the page itself with --learn", async () => {
    const r = await runCommand(["records", googlePage, "--learn", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ rank: number; title: string; url: string }>;
    expect(records).toHaveLength(10);
    expect(records[0]!.url).toMatch(/^https:\/\/books\.google\.com\/books\?id=SxaDsuKUKp8C/);
  });

  it("reports a page of another engine as a mismatch with --strict: [] on stdout, exit status 3; without, reads it with a wrapper learned on it", async () => {
    const out = join(dir, "bing2.json");
    expect((await runCommand(["wrapper", "learn", "--engine", "bing", "--sample", bingPage, "--out", out])).code).toBe(0);
    const r = await runCommand(["records", googlePage, "--wrapper", out, "--json", "--strict"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toMatch(/^bitext: records: mismatch: page layout differs from the bing sample/);
    const healed = await runCommand(["records", googlePage, "--wrapper", out, "--json"]);
    expect(healed.code, healed.stderr).toBe(0);
    expect(healed.stderr).toMatch(/^bitext: records: the wrapper did not fit \(mismatch: page layout differs from the bing sample/);
    expect(JSON.parse(healed.stdout)[0].url).toMatch(/^https:\/\/books\.google\.com\/books\?id=SxaDsuKUKp8C/);
  });

  it("keeps the definition and the previous wrapper when re-learning into an existing file", async () => {
    const out = join(dir, "kept.json");
    writeFileSync(
      out,
      JSON.stringify({ formatVersion: 1, engine: "bing", definition: { search: "x{query}" }, wrapper: null, previous: [] }),
    );
    expect((await runCommand(["wrapper", "learn", "--engine", "bing", "--sample", bingPage, "--out", out])).code).toBe(0);
    expect((await runCommand(["wrapper", "learn", "--engine", "bing", "--sample", bingOther, "--out", out])).code).toBe(0);
    const file = JSON.parse(readFileSync(out, "utf8"));
    expect(file.definition).toEqual({ search: "x{query}" });
    expect(file.previous).toHaveLength(1);
    expect(file.wrapper.sample.file).toBe(bingOther);
  });

  it("fails with one clear line and a non-zero status on bad input", async () => {
    const missing = await runCommand(["records", join(dir, "nope.html"), "--learn"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^bitext: .*nope\.html: cannot read page \(no such file\)$/);

    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{"formatVersion": 1, "engine": "bing", "wrapper": {"engine": 3}}');
    const bad = await runCommand(["records", bingPage, "--wrapper", broken, "--json"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/broken\.json: wrapper\.engine: /);

    const both = await runCommand(["records", bingPage]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/give exactly one of --wrapper FILE\.json or --learn/);

    const engine = await runCommand(["wrapper", "learn", "--engine", "../evil", "--sample", bingPage]);
    expect(engine.code).toBe(1);
    expect(engine.stderr).toMatch(/--engine: "..\/evil" is not a valid engine name/);
  });
});

describe("bitext eval records", () => {
  it("scores self-learned and cross-page wrappers on pages with expected records", async () => {
    const r = await runCommand(["eval", "records", AQL, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.overall.pages).toBe(14);
    expect(report.overall.self.match.precision).toBeGreaterThanOrEqual(0.95);
    expect(report.overall.self.match.recall).toBeGreaterThanOrEqual(0.95);
    for (const e of report.engines) expect(e.self.match.recall, e.engine).toBeGreaterThanOrEqual(0.9);
    expect(report.overall.cross.pairs).toBeGreaterThan(0);
    const text = await runCommand(["eval", "records", AQL]);
    expect(text.stdout).toMatch(/^engine\s+pages\s+self P\s+self R\s+cross pairs\s+cross P\s+cross R/m);
    expect(text.stdout).toMatch(/^overall\s+14\s/m);
    // Leave-one-engine-out: every foreign wrapper × page pair is refused, none of its records taken.
    const folds = await runCommand(["eval", "records", AQL, "--folds", "engine"]);
    expect(folds.code, folds.stderr).toBe(0);
    const table = folds.stdout.split(
      /^held-out engine\s+foreign wrappers × pages\s+mismatch\s+empty\s+records taken\s+of them right$/m,
    )[1]!;
    const rows = table.trim().split("\n\n")[0]!.split("\n");
    expect(rows.length).toBe(report.engines.length);
    for (const row of rows) expect(row).toMatch(/^\w+\s+\d+\s+1\.000\s+0\s+0\s+0$/);
    const bad = await runCommand(["eval", "records", AQL, "--folds", "site"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--folds: "site" is not a fold kind/);
  });

  it("names the directory when it holds no gold pages", async () => {
    const r = await runCommand(["eval", "records", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no X\.html with an X\.expected\.json found/);
  });
});
