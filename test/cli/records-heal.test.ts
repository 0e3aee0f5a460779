import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { runCommand, REAL_DATA } from "../helpers/cli.js";
import { NO_RESULTS } from "../helpers/serps.js";

// Two real Google pages of December 2020 whose layouts share no class name: a wrapper learned on one is
// refused on the other (`eval records --pages` lists the pair as a mismatch).
const GOOGLE = join(REAL_DATA, "serps", "aql-more", "google");
const sample = join(GOOGLE, "google-does-steve-has-a-beard-1601705030.html");
const other = join(GOOGLE, "google-susan-boyle-make-me-a-channel-of-your-peace-1607791072");

let wrapperFile: string;
let wrapperBytes: string;

beforeAll(async () => {
  wrapperFile = join(mkdtempSync(join(tmpdir(), "bitext-heal-")), "google.json");
  const learn = await runCommand(["wrapper", "learn", "--engine", "google", "--sample", sample, "--out", wrapperFile]);
  expect(learn.code, learn.stderr).toBe(0);
  wrapperBytes = readFileSync(wrapperFile, "utf8");
});

describe("bitext records --wrapper heals the way a harvest does", () => {
  it("reads a page the wrapper does not fit with a wrapper learned on it, says so in one line, and leaves the file alone", async () => {
    const r = await runCommand(["records", `${other}.html`, "--wrapper", wrapperFile, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("bitext:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^bitext: records: the wrapper did not fit \(mismatch: page layout differs from the google sample .*\); records from a wrapper learned on this page$/,
    );
    const titles = (JSON.parse(r.stdout) as Array<{ title: string }>).map((x) => normaliseTitle(x.title));
    const expected = (JSON.parse(readFileSync(`${other}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map(
      (x) => normaliseTitle(x.title),
    );
    expect(expected).toHaveLength(10);
    expect(expected.filter((t) => titles.includes(t)).length).toBeGreaterThanOrEqual(9);
    expect(titles.length).toBeLessThanOrEqual(11);
    expect(readFileSync(wrapperFile, "utf8")).toBe(wrapperBytes);
  });

  it("refuses the same page with --strict: [] on stdout, exit status 3", async () => {
    const r = await runCommand(["records", `${other}.html`, "--wrapper", wrapperFile, "--json", "--strict"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toMatch(/^bitext: records: mismatch: page layout differs from the google sample/m);
    expect(r.stderr).not.toMatch(/learned on this page/);
  });

  it("says nothing more when the wrapper fits (its own sample page)", async () => {
    const r = await runCommand(["records", sample, "--wrapper", wrapperFile, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/did not fit/);
    expect(JSON.parse(r.stdout).length).toBeGreaterThanOrEqual(8);
  });

  it("still reports a mismatch when nothing can be learned on the page either (a no-results page of another engine)", async () => {
    const r = await runCommand(["records", join(NO_RESULTS, "no_results_literal__bing.html"), "--wrapper", wrapperFile, "--json"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
