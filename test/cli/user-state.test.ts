import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/cli.js";

import { hashTree, type Outside, outsideTheCheckout } from "../helpers/outside.js";
import { AQL } from "../helpers/serps.js";

/** Real Tatoeba pairs shipped with bitext (queries/), the same format as ../shared/data/parallel. */
const TATOEBA = join(ROOT, "queries", "tatoeba-cmn-eng.tsv");

/**
 * Issue 12, "where things live": run from a folder outside the checkout with a fresh HOME, commands that
 * learn or train write only into the user's folder (or the file given), never into the installation,
 * and the next command uses what they wrote.
 */

const SHIPPED = ["wrappers", "models", "queries", "data/annotations.bootstrap.jsonl", "src", "dist"];
const bingSample = join(AQL, "bing", "bing-crimson-coward-1640789839.html");
const bingOther = join(AQL, "bing", "bing-dash-investment-foundation-1644415217.html");

let user: Outside;
let userData: string;
let before: Map<string, string>;

beforeAll(() => {
  user = outsideTheCheckout();
  userData = join(user.home, ".local", "share", "bitext");
  before = hashTree(SHIPPED);
});

describe("a user's state goes to their folder, never into the installation", { timeout: 240_000 }, () => {
  it("the user's folder is the data folder of their HOME (read at start-up: a process of its own)", () => {
    const r = user.spawn(["where", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ home: userData, homeSource: "user data folder" });
  });

  it("wrapper learn without --out writes the user's wrappers/<engine>.json, keeping the shipped definition", async () => {
    const r = await user.run(["wrapper", "learn", "--engine", "bing", "--sample", bingSample]);
    expect(r.code, r.stderr).toBe(0);
    const mine = join(userData, "wrappers", "bing.json");
    expect(r.stdout).toContain(`wrote ${mine}`);
    const file = JSON.parse(readFileSync(mine, "utf8"));
    expect(file.definition.searchUrl).toMatch(/bing\.com/);
    expect(file.wrapper.sample.file).toBe(bingSample);
    // The next `records --engine bing` reads the user's wrapper: its sample is the page just learned from.
    const rec = await user.run(["records", bingOther, "--engine", "bing", "--json"]);
    expect(rec.code, rec.stderr).toBe(0);
    expect(JSON.parse(rec.stdout).length).toBeGreaterThan(3);
    const where = JSON.parse((await user.run(["where", "--json"])).stdout);
    expect(where.wrappers.find((w: { name: string }) => w.name === "bing.json")).toMatchObject({ path: mine, origin: "user" });
  });

  it("lexicon learn writes models/lexicon-<name>.tsv in the user's folder, and lookups use it", async () => {
    const corpus = join(user.cwd, "mini.tsv");
    const lines = readFileSync(TATOEBA, "utf8")
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .slice(0, 1000);
    writeFileSync(corpus, `${lines.join("\n")}\n`);
    const r = await user.run(["lexicon", "learn", corpus, "--iterations", "2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = join(userData, "models", "lexicon-mini.tsv");
    expect(JSON.parse(r.stdout).out).toBe(out);
    expect(existsSync(out)).toBe(true);
    const where = JSON.parse((await user.run(["where", "--json"])).stdout);
    expect(where.lexicons).toContain(out);
  });

  it("annotate bootstrap --out F writes F and nothing else", async () => {
    const out = join(user.cwd, "boot.jsonl");
    const r = await user.run([
      "annotate",
      "bootstrap",
      "--serps",
      AQL,
      "--parallel",
      TATOEBA,
      "--page",
      join(FIXTURES, "extract", "animal-farm-bilingual.html"),
      "--out",
      out,
      "--per-kind",
      "10",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).out).toBe(out);
    expect(readFileSync(out, "utf8").trim().split("\n").length).toBe(JSON.parse(r.stdout).size);
  });

  it("train writes the user's models/default.json, and classify then uses it", async () => {
    const annotations = join(user.cwd, "boot.jsonl");
    const r = await user.run(["train", "--annotations", annotations, "--c", "8", "--gamma", "2", "--folds", "2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const model = join(userData, "models", "default.json");
    expect(JSON.parse(r.stdout).out).toBe(model);
    const record = {
      query: { en: "I see.", zh: "我明白了。" },
      title: "I see. 我明白了。",
      url: "http://example.org/",
      snippet: "I see. 我明白了。 I quit! 我不干了!",
    };
    const c = await user.run(["classify", "--json"], { input: `${JSON.stringify(record)}\n` });
    expect(c.code, c.stderr).toBe(0);
    const out = JSON.parse(c.stdout.trim().split("\n")[0]!);
    // The model id names the file and 12 hex of its content: the user's model, not the shipped one.
    const where = JSON.parse((await user.run(["where", "--json"])).stdout);
    expect(where.model).toEqual({ path: model, origin: "user" });
    expect(out.model).toMatch(/^default@[0-9a-f]{12}$/);
    const shipped = await user.run(["classify", "--json", "--model", join(where.installation, "models", "default.json")], {
      input: `${JSON.stringify(record)}\n`,
    });
    expect(JSON.parse(shipped.stdout.trim()).model).not.toBe(out.model);
  });

  it("left the installation's files unchanged", () => {
    const after = hashTree(SHIPPED);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, hash] of before) expect(after.get(file), file).toBe(hash);
  });

  it("refuses an explicit --out into the installation with a one-line error", async () => {
    const where = JSON.parse((await user.run(["where", "--json"])).stdout);
    const r = await user.run([
      "train",
      "--annotations",
      join(user.cwd, "boot.jsonl"),
      "--c",
      "8",
      "--gamma",
      "2",
      "--folds",
      "2",
      "--out",
      join(where.installation, "models", "default.json"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^bitext: .*models\/default\.json: is a file of the bitext installation, which is read-only/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
