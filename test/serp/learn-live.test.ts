import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { SerpDriver } from "../../src/serp/index.js";
import { searchUrl } from "../../src/serp/index.js";
import { learnWrapperLive } from "../../src/serp/index.js";
import { parseFaults } from "../../src/sim/index.js";
import { bench, DEMO } from "./helpers.js";

let driver: SerpDriver;
beforeAll(async () => {
  driver = await SerpDriver.start();
});
afterAll(async () => {
  await driver.close();
});

describe("the tag paths collected inside Chromium", () => {
  it("are the very sequence parse5 gives offline, on every simulated layout and on a linked bilingual page", async () => {
    const b = await bench(parseFaults("sim-div:layout-switch@2"));
    try {
      const urls = b
        .engines("sim-list", "sim-div", "sim-table")
        .map((e) => searchUrl(e.definition, `${DEMO[3]!.source.text} ${DEMO[3]!.target.text}`, 1));
      urls.push(searchUrl(b.engines("sim-div")[0]!.definition, `${DEMO[4]!.source.text} ${DEMO[4]!.target.text}`, 1)); // the redesigned layout
      urls.push(b.sim.origin + b.sim.collection.pages.find((p) => p.style === "glossary")!.path);
      const def = b.engines("sim-list")[0]!.definition;
      for (const url of urls) {
        const loaded = await driver.load(def, url, { keepBody: true });
        expect(loaded.error).toBeNull();
        expect(loaded.seq!.pathIds.length).toBeGreaterThan(50);
        expect(loaded.seq, url).toEqual(tagPathsFromHtml(loaded.body!.toString("utf8")));
      }
    } finally {
      await b.close();
    }
  });
});

describe("bitext wrapper learn --engine NAME (live, no --sample)", () => {
  it("loads the engine's page in Chromium, saves it beside the wrapper, learns, and outlines every record on a preview", async () => {
    const b = await bench();
    try {
      const [setup] = b.engines("sim-div");
      const preview = join(b.dir, "preview.png");
      const r = await learnWrapperLive({
        definition: setup!.definition,
        file: setup!.file,
        driver,
        query: `${DEMO[2]!.source.text} ${DEMO[2]!.target.text}`,
        preview,
      });
      expect(r.records).toHaveLength(b.sim.log[0]!.results);
      expect(r.outlined).toBe(r.records.length);
      expect(readFileSync(preview).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a"); // a PNG
      expect(r.sampleFile).toBe(join(b.dir, "sim-div.sample.html"));
      expect(readFileSync(r.sampleFile, "utf8")).toContain("百度一下");
      const file = JSON.parse(readFileSync(setup!.file, "utf8"));
      expect(file.definition.searchUrl).toContain(b.sim.origin); // the definition is kept
      expect(file.wrapper.sample.url).toBe(r.url);
      // Learning again pushes the old wrapper to `previous`.
      await learnWrapperLive({ definition: setup!.definition, file: setup!.file, driver });
      const again = JSON.parse(readFileSync(setup!.file, "utf8"));
      expect(again.previous).toHaveLength(1);
      expect(again.previous[0].learnedAt).toBe(file.wrapper.learnedAt);
    } finally {
      await b.close();
    }
  });

  it("refuses to learn from a block page", async () => {
    const b = await bench(parseFaults("sim-list:captcha@1,sim-div:verify-redirect@1"));
    try {
      for (const name of ["sim-list", "sim-div"]) {
        const [setup] = b.engines(name);
        await expect(learnWrapperLive({ definition: setup!.definition, file: setup!.file, driver })).rejects.toThrow(
          new RegExp(`^${name}: the engine answered with a block page`),
        );
        expect(JSON.parse(readFileSync(setup!.file, "utf8")).wrapper).toBeNull();
      }
    } finally {
      await b.close();
    }
  });
});
