import { describe, expect, it } from "vitest";
import { HealthMonitor, type PageReading, pageMetrics } from "../../src/health/index.js";
import type { ResultRecord } from "../../src/wrapper/index.js";

/**
 * The health monitor's decisions (mechanism tests on generated readings; its accuracy on real page sequences is
 * the replay in bench/health.bench.ts): a profile judges by its own spread, a far page is looked at again by a
 * re-learned wrapper, which confirms it, fixes it or leaves it drifting, and three drifts in a row stop the engine.
 */

const WORDS = ["translation", "example", "sentence", "bilingual", "dictionary", "meaning", "phrase", "usage", "learn", "english"];

/** A reading of `n` result-like records for `query`; `titleWords` sets the title length. */
function reading(n: number, query = "example", o: { titleWords?: number; snippet?: boolean; seed?: number } = {}): PageReading {
  const seed = o.seed ?? 0;
  const records: ResultRecord[] = Array.from({ length: n }, (_, i) => ({
    rank: i + 1,
    title: `${query} ${Array.from({ length: o.titleWords ?? 6 + ((i + seed) % 4) }, (_, k) => WORDS[(i + k + seed) % WORDS.length]).join(" ")}`,
    url: `http://site${i + seed * 100}.example/page/${i}`,
    snippet:
      o.snippet === false ? "" : `The ${query} in context: ${WORDS.slice(0, 8 + ((i * 3 + seed) % 6)).join(" ")} and its translation.`,
  }));
  return { records, template: 0.9, query };
}

/** A wrong list: short navigation links of one site, no snippet, no query word. */
function wrongList(n: number): PageReading {
  return {
    records: Array.from({ length: n }, (_, i) => ({
      rank: i + 1,
      title: `Trending ${i}`,
      url: `http://engine.example/trending/${i}`,
      snippet: "",
    })),
    template: 0.5,
    query: "example",
  };
}

function warmed(pages = 6): HealthMonitor {
  const m = new HealthMonitor();
  for (let p = 0; p < pages; p++) m.observe(reading(10, "example", { seed: p }));
  return m;
}

describe("an engine's health profile", () => {
  it("judges nothing before it has seen a page, then keeps pages like its own", () => {
    const m = new HealthMonitor();
    expect(m.judge(reading(10)).assessment).toMatchObject({ drift: false, worst: null });
    for (let p = 0; p < 6; p++) expect(m.observe(reading(10, "example", { seed: p })).action).toBe("ok");
    expect(m.profile.pages).toBe(6);
    expect(m.judge(reading(9, "example", { seed: 7 })).assessment.drift).toBe(false);
  });

  it("finds a page of short navigation links far outside, naming the figure that put it there", () => {
    const { assessment } = warmed().judge(wrongList(8));
    expect(assessment.drift).toBe(true);
    expect(["snippetShare", "titleLength", "queryEcho", "siteShare"]).toContain(assessment.worst!.metric);
  });

  it("measures distance in its own spread: the same titles drift from a steady engine, not from one whose titles vary", () => {
    const steady = new HealthMonitor();
    const varied = new HealthMonitor();
    for (let p = 0; p < 8; p++) {
      steady.observe(reading(10, "example", { seed: p, titleWords: 8 }));
      varied.observe(reading(10, "example", { seed: p, titleWords: p % 2 === 0 ? 3 : 14 }));
    }
    const page = reading(10, "example", { seed: 9, titleWords: 3 });
    expect(steady.judge(page).assessment.scores.titleLength!.bad).toBeGreaterThan(3.5);
    expect(varied.judge(page).assessment.scores.titleLength!.bad).toBeLessThan(3.5);
  });

  it("is not blinded by one odd page among its pages (median and MAD)", () => {
    const m = warmed(8);
    m.accept(pageMetrics(wrongList(8)));
    expect(m.judge(wrongList(8)).assessment.drift).toBe(true);
  });
});

describe("the monitor's decisions", () => {
  it("keeps a far page whose re-learned reading finds the same records: the profile had not seen such pages", () => {
    const m = warmed();
    const odd = reading(10, "example", { titleWords: 30, seed: 40 });
    expect(m.judge(odd).assessment.drift).toBe(true);
    const v = m.observe(odd, () => ({ ...odd }));
    expect(v.action).toBe("confirmed");
    expect(m.profile.pages).toBe(7);
  });

  it("fixes a drifted page with a re-learned reading within the profile, and hands that reading back", () => {
    const m = warmed();
    const fix = reading(10, "example", { seed: 11 });
    const v = m.observe(wrongList(4), () => fix, true);
    expect(v.action).toBe("relearned");
    expect(v.fix).toBe(fix);
  });

  it("stops the engine after three drifted pages in a row no re-learned wrapper reads better, and a good page resets the count", () => {
    const m = warmed();
    expect([1, 2].map(() => m.observe(wrongList(4), () => null, true)).map((v) => [v.action, v.streak, v.stop])).toEqual([
      ["drift", 1, false],
      ["drift", 2, false],
    ]);
    expect(m.observe(reading(10, "example", { seed: 3 })).streak).toBe(0);
    // The re-learned wrapper reads another wrong list (the page's menu): no fix.
    const menu = (): PageReading => ({
      ...wrongList(5),
      records: wrongList(5).records.map((r) => ({ ...r, url: r.url.replace("trending", "menu") })),
    });
    const three = [1, 2, 3].map(() => m.observe(wrongList(4), menu, true));
    expect(three.map((v) => v.stop)).toEqual([false, false, true]);
  });

  it("lets a short page stand when only its count is low and no re-learned wrapper reads more (the last page of a query)", () => {
    const m = warmed();
    const short = reading(2, "example", { seed: 5 });
    expect(m.judge(short).assessment.drift).toBe(true);
    expect(m.judge(short).assessment.worst!.metric).toBe("records");
    const v = m.observe(short, () => null, true);
    expect(v.action).toBe("ok");
    expect(m.profile.pages).toBe(6); // not joined: a short page would blunt the count
  });

  it("starts the profile again from the page of a new wrapper", () => {
    const m = warmed();
    m.restart(pageMetrics(wrongList(8)));
    expect(m.profile.pages).toBe(1);
    expect(m.judge(wrongList(8)).assessment.drift).toBe(false);
  });
});
