import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/browser/index.js";
import { type ReportData, reportCharts, writeReport } from "../../src/report/index.js";
import { SerpDriver } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import { learnWrapperLive } from "../../src/serp/index.js";
import { parseFaults } from "../../src/sim/index.js";
import { runCommand } from "../helpers/cli.js";
import { type Bench, bench, DEMO, FAST } from "../serp/helpers.js";

/**
 * `bitext report` on a small offline harvest of the engine simulator (three engines, a block, a redesign that
 * makes a wrapper be re-learned, each engine's sample page screenshot with its records outlined): the page opens
 * in Chromium without a console error and without asking the network for anything, every chart is there as SVG
 * with its marks, and a screenshot of it is left in the test output folder ($BITEXT_TEST_OUTPUT, else
 * bitext-test-output/ in the system's temporary folder).
 */

/** Outside the checkout, which is the installation (read-only); CI may name a folder it keeps. */
const OUTPUT = process.env.BITEXT_TEST_OUTPUT ?? join(tmpdir(), "bitext-test-output");
const ENGINES = ["sim-list", "sim-div", "sim-table"];

let b: Bench;
let driver: SerpDriver;
let out: string;
let data: ReportData;
beforeAll(async () => {
  driver = await SerpDriver.start({ timeoutMs: 5000 });
  // A 429 with a Retry-After of 1 s: the block is in the report without the default 30 s of waiting for it.
  b = await bench(parseFaults("sim-div:429@3:1000,sim-table:layout-switch@5"));
  const shots = join(b.dir, "shots");
  mkdirSync(shots, { recursive: true });
  for (const setup of b.engines(...ENGINES)) {
    await learnWrapperLive({ definition: setup.definition, file: setup.file, driver, preview: join(shots, `${setup.name}.preview.png`) });
  }
  await harvest(b.store, { queries: DEMO.slice(0, 5), engines: b.engines(...ENGINES), driver, pages: 2, concurrency: 3, ...FAST });
  mkdirSync(OUTPUT, { recursive: true });
  out = join(OUTPUT, "report.html");
  data = (await writeReport(b.store, out, { screenshotDirs: [shots] })).data;
}, 180_000);
afterAll(async () => {
  await driver?.close();
  await b?.close();
});

describe("the run report", () => {
  it("holds the run's figures: every engine, the block, the re-learned wrapper, the screenshots", () => {
    expect(data.engines.map((e) => e.engine)).toEqual([...ENGINES].sort());
    expect(data.engines.find((e) => e.engine === "sim-div")!.blocked).toBe(1);
    expect(data.events.some((e) => e.engine === "sim-table" && e.kind === "wrapper learned")).toBe(true);
    expect(data.screenshots.map((s) => s.name)).toEqual(ENGINES.map((e) => `${e}.preview.png`).sort());
    expect(data.failing.some((f) => f.engine === "sim-div" && f.status === "blocked")).toBe(true);
    const html = readFileSync(out, "utf8");
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
  });

  it("opens in Chromium with every chart drawn, no console error and no request beyond the file", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (err) => errors.push(String(err)));
      page.on("request", (r) => requests.push(r.url()));
      await page.goto(`file://${out}`, { waitUntil: "load" });
      for (const chart of reportCharts(data)) {
        const svg = page.locator(`#chart-${chart.id} > svg`);
        await expect(svg.count(), chart.id).resolves.toBe(1);
        const box = await svg.boundingBox();
        expect(box?.width, chart.id).toBeGreaterThan(200);
        // Vega draws each mark into a group of class mark-<type>; a chart with data has at least one item in it.
        const items = await page.locator(`#chart-${chart.id} g[class^="mark-"] > *`).count();
        expect(items, chart.id).toBeGreaterThan(0);
      }
      const lines = await page.locator("#chart-pages g.mark-line path").count();
      expect(lines).toBe(ENGINES.length);
      expect(await page.locator("figure.shot img").count()).toBe(ENGINES.length);
      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith("file://") && !u.startsWith("data:"))).toEqual([]);
      const shot = join(OUTPUT, "report.png");
      await page.screenshot({ path: shot, fullPage: true });
      expect(existsSync(shot) && statSync(shot).size > 10_000).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it("refuses a store that does not exist, in one line, writing nothing", async () => {
    const target = join(b.dir, "never.html");
    const r = await runCommand(["report", "--db", join(b.dir, "missing.db"), "--out", target]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/missing\.db: no store here yet/);
    expect(existsSync(target)).toBe(false);
  });
});
