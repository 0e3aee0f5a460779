import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FRESH_BUILD, ROOT, REAL_DATA } from "../helpers/cli.js";

/*
 * The library as another package sees it: the package staged in a temporary folder (package.json and its
 * `files`, dist/ built there with declarations: the checkout stays untouched), `npm pack`, the tarball
 * unpacked into a scratch package's node_modules, the package's dependencies linked from ours (installing
 * them again would rebuild the native modules: minutes; test/install/global-install.sh does that in CI),
 * then a consumer written in TypeScript is type-checked against the packed .d.ts and run with node.
 */

const BING = join(REAL_DATA, "serps", "aql", "bing");
const SAMPLE = join(BING, "bing-crimson-coward-1640789839.html");
const OTHER = join(BING, "bing-connecticut-covid-deaths-1628019384.html");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const work = mkdtempSync(join(tmpdir(), "bitext-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CONSUMER = `
import { readFileSync } from "node:fs";
import { extractRecords, learnWrapper, type PairVerdict, type ResultRecord, scorePairs, type Wrapper } from "bitext";
import { tagPathsFromHtml } from "bitext/html";

const [sample, other] = process.argv.slice(2) as [string, string];
const wrapper: Wrapper = learnWrapper(readFileSync(sample, "utf8"), { engine: "bing" });
const result = extractRecords(wrapper, tagPathsFromHtml(readFileSync(other, "utf8")));
const records: ResultRecord[] = result.records;
const verdicts: PairVerdict[] = await scorePairs([["Accuracy is important in arithmetic.", "准确性在计算中很重要。"], ["Home", "版权所有"]]);
console.log(JSON.stringify({ status: result.status, titles: records.map((r) => r.title), urls: records.map((r) => r.url), verdicts }));
`;

describe("the packed library, imported from another package", () => {
  it("packs dist/ with declarations, type-checks a consumer against them, learns a wrapper, extracts records and scores pairs", () => {
    const staged = join(work, "package");
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
    for (const entry of ["package.json", "README.md", ...manifest.files.filter((f) => !f.startsWith("!") && f !== "dist")]) {
      cpSync(join(ROOT, entry), join(staged, entry), { recursive: true });
    }
    // The test run's build of src/ (the global setup's, with the same options as tsconfig.build.json: the same
    // JavaScript and declarations), else a build of its own. The package's build adds only these to tsconfig.json
    // (another option would make the two differ: test/helpers/build-cli.ts must then pass it too).
    expect(JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8"))).toEqual({
      extends: "./tsconfig.json",
      compilerOptions: { noEmit: false, rootDir: "src", outDir: "dist", sourceMap: true, declaration: true },
      include: ["src"],
    });
    if (FRESH_BUILD) cpSync(FRESH_BUILD, join(staged, "dist"), { recursive: true });
    else
      execFileSync(process.execPath, [TSC, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", join(staged, "dist")], { stdio: "pipe" });
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
        cwd: staged,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("dist/wrapper/index.d.ts");
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);

    const consumer = join(work, "consumer");
    const modules = join(consumer, "node_modules");
    mkdirSync(join(modules, "bitext"), { recursive: true });
    execFileSync("tar", ["-xzf", join(work, packed[0]!.filename), "-C", join(modules, "bitext"), "--strip-components=1"]);
    // What `npm install bitext` brings: its dependencies (not its devDependencies), and the consumer's own
    // @types/node. A declaration that needs one of our dev-only packages fails the type-check below.
    const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: object }).dependencies);
    for (const dep of [...deps, "@types/node"]) {
      mkdirSync(dirname(join(modules, dep)), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", dep), join(modules, dep));
    }
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(join(consumer, "main.ts"), CONSUMER);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2023",
          strict: true,
          types: ["node"],
          skipLibCheck: false,
        },
      }),
    );
    // Type-checks main.ts against the packed declarations (an error fails the test), and emits main.js.
    const check = spawnSync(process.execPath, [TSC, "-p", consumer], { cwd: consumer, encoding: "utf8" });
    expect(check.status, `tsc on the consumer:\n${check.stdout}${check.stderr}`).toBe(0);
    const out = JSON.parse(
      execFileSync(process.execPath, [join(consumer, "main.js"), SAMPLE, OTHER], { cwd: consumer, encoding: "utf8" }),
    ) as {
      status: string;
      titles: string[];
      urls: string[];
      verdicts: Array<{ score: number; keep: boolean; reasons: string[] }>;
    };

    const expected = (
      JSON.parse(readFileSync(OTHER.replace(/\.html$/, ".expected.json"), "utf8")) as { results: Array<{ title: string }> }
    ).results.map((r) => r.title.replace(/<[^>]+>/g, "").trim());
    expect(out.status).toBe("ok");
    const found = expected.filter((t) => out.titles.includes(t));
    expect(found.length).toBeGreaterThanOrEqual(Math.ceil(expected.length * 0.8));
    expect(out.urls.every((u) => /^https?:\/\//.test(u))).toBe(true);
    // A translation kept, a navigation label beside a copyright line not, with the rules that say why.
    expect(out.verdicts[0]).toMatchObject({ keep: true, reasons: [] });
    expect(out.verdicts[1]!.keep).toBe(false);
    expect(out.verdicts[1]!.reasons.length).toBeGreaterThan(0);
  }, 300_000); // a TypeScript compilation or two and a pack: minutes on a loaded 2-core machine
});
