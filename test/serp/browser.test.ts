import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromeIdentity, timezoneForLocale } from "../../src/browser/index.js";
import { SerpDriver } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import { defaultProfileDir } from "../../src/serp/index.js";
import { userDataFolder } from "../../src/config/index.js";
import { countRecords, listFetches } from "../../src/store/index.js";
import { bench, DEMO, FAST } from "./helpers.js";

/**
 * The realistic browser against the simulator's hard engines: one that serves captchas to
 * HeadlessChrome, one whose results only its script writes, one behind a consent interstitial
 * (reported as consent, or accepted through its own button and remembered by the profile).
 */

let driver: SerpDriver;
beforeAll(async () => {
  driver = await SerpDriver.start({ timeoutMs: 5000 });
});
afterAll(async () => {
  await driver.close();
});

describe("what the browser says about itself", () => {
  it("is a real Chrome of the browser's version, with matching client hints, never HeadlessChrome", () => {
    expect(driver.userAgent).not.toMatch(/Headless/);
    const major = driver.browser.version().split(".")[0];
    expect(driver.userAgent).toBe(
      `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    );
    // Chrome 121's own brands (its GREASE follows from the major version), the full version where hints ask for it.
    expect(chromeIdentity("121.0.6167.85", "win32").clientHints).toEqual({
      "sec-ch-ua": '"Chromium";v="121", "Not A(Brand";v="99"',
      "sec-ch-ua-mobile": "?0",
      "sec-ch-ua-platform": '"Windows"',
    });
    expect(chromeIdentity("120.0.6099.224").clientHints["sec-ch-ua"]).toBe('"Not_A Brand";v="8", "Chromium";v="120"');
    expect(chromeIdentity("121.0.6167.85").metadata.fullVersionList).toEqual([
      { brand: "Chromium", version: "121.0.6167.85" },
      { brand: "Not A(Brand", version: "99.0.0.0" },
    ]);
  });

  it("takes the time zone of the locale's region unless the engine names one", () => {
    expect(timezoneForLocale("zh-CN")).toBe("Asia/Shanghai");
    expect(timezoneForLocale("en-GB")).toBe("Europe/London");
    expect(timezoneForLocale("xx")).toBe("UTC");
  });

  it("keeps profiles in the user data folder, never in the installation", () => {
    expect(defaultProfileDir({ BITEXT_HOME: "/srv/bitext" })).toBe("/srv/bitext/profiles");
    expect(defaultProfileDir({})).toBe(join(userDataFolder(), "profiles")); // no workspace above the checkout
  });
});

describe("the simulator's hard engines, harvested", () => {
  it("an engine that blocks HeadlessChrome gives its results; the page sees the engine's locale and time zone", async () => {
    const b = await bench();
    try {
      const url = `${b.sim.origin}/strict/s?wd=${encodeURIComponent(`${DEMO[0]!.source.text} ${DEMO[0]!.target.text}`)}`;
      const headless = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36";
      expect(await (await fetch(url, { headers: { "user-agent": headless } })).text()).toContain("unusual traffic");
      expect(await (await fetch(url, { headers: { "sec-ch-ua": '"HeadlessChrome";v="120"' } })).text()).toContain("unusual traffic");
      const s = await harvest(b.store, { queries: DEMO.slice(0, 3), engines: b.engines("sim-strict"), driver, ...FAST });
      expect(s).toMatchObject({ ok: 3, blocked: 0, left: 0 });
      expect(await countRecords(b.store)).toBe(b.served("sim-strict"));
      const [setup] = b.engines("sim-eu");
      const page = await driver.loadPage(setup!.definition, `${b.sim.origin}/`, { keepPage: true });
      try {
        const seen = await page.page!.evaluate(() => ({
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
          lang: navigator.language,
          ua: navigator.userAgent,
          brands:
            (navigator as unknown as { userAgentData?: { brands: Array<{ brand: string }> } }).userAgentData?.brands.map((x) => x.brand) ??
            [],
        }));
        expect(seen).toMatchObject({ tz: "Europe/Dublin", lang: "en-GB", ua: driver.userAgent });
        expect(seen.brands.join(" ")).not.toMatch(/Headless/);
      } finally {
        await page.page!.close();
      }
    } finally {
      await b.close();
    }
  });

  it("an engine whose results only its script writes is read from the page after the script ran", async () => {
    const b = await bench();
    try {
      const html = await (
        await fetch(`${b.sim.origin}/script/search?q=${encodeURIComponent(`${DEMO[0]!.source.text} ${DEMO[0]!.target.text}`)}`)
      ).text();
      expect(html).toContain('<div id="app"></div><script>');
      const s = await harvest(b.store, { queries: DEMO.slice(0, 3), engines: b.engines("sim-script"), driver, ...FAST });
      expect(s).toMatchObject({ ok: 3, left: 0 });
      expect(await countRecords(b.store)).toBe(b.served("sim-script"));
    } finally {
      await b.close();
    }
  });

  it("a consent interstitial is reported as consent; accepted through its button, it is remembered by the profile", async () => {
    const b = await bench();
    const profile = mkdtempSync(join(tmpdir(), "bitext-profile-"));
    try {
      const refused = await harvest(b.store, { queries: DEMO.slice(0, 2), engines: b.engines("sim-eu"), driver, ...FAST, blockRetries: 0 });
      expect(refused).toMatchObject({ ok: 0, left: 2, status: "failed" });
      expect(refused.causes.consent).toBe(2);

      const accepting = await SerpDriver.start({ timeoutMs: 5000, profileDir: profile, acceptConsent: true });
      let first: Awaited<ReturnType<typeof harvest>>;
      try {
        first = await harvest(b.store, {
          queries: DEMO.slice(0, 3),
          engines: b.engines("sim-eu"),
          driver: accepting,
          ...FAST,
          concurrency: 1,
        });
      } finally {
        await accepting.close();
      }
      expect(first).toMatchObject({ ok: 3, left: 0, status: "completed" });
      const accepted = (await listFetches(b.store, { runId: first.runId })).filter((f) =>
        /^consent accepted \("accept all"\)/.test(f.detail ?? ""),
      );
      expect(accepted).toHaveLength(1); // once: the cookie holds for the rest of the run
      expect(readdirSync(profile)).toEqual(["sim-eu.json"]);
      expect(readFileSync(join(profile, "sim-eu.json"), "utf8")).toContain("SIMCONSENT");

      // A later run with the same profile (consent no longer accepted automatically) meets no interstitial.
      const later = await SerpDriver.start({ timeoutMs: 5000, profileDir: profile });
      try {
        const s = await harvest(b.store, { queries: DEMO.slice(3, 5), engines: b.engines("sim-eu"), driver: later, ...FAST });
        expect(s).toMatchObject({ ok: 2, blocked: 0, left: 0 });
      } finally {
        await later.close();
      }
      expect(await countRecords(b.store)).toBe(b.served("sim-eu"));
    } finally {
      rmSync(profile, { recursive: true, force: true });
      await b.close();
    }
  });

  it("--trace keeps a Playwright trace of each failed page, and none of the pages that succeeded", async () => {
    const b = await bench();
    const traces = mkdtempSync(join(tmpdir(), "bitext-traces-"));
    const tracing = await SerpDriver.start({ timeoutMs: 5000, traceDir: traces });
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 2),
        engines: b.engines("sim-eu", "sim-list"),
        driver: tracing,
        ...FAST,
        blockRetries: 0,
      });
      expect(s.engines["sim-list"]).toMatchObject({ ok: 2 });
      const zips = readdirSync(traces);
      expect(zips).toHaveLength(2);
      expect(zips.every((z) => /^sim-eu-.*\.zip$/.test(z))).toBe(true);
      expect((await listFetches(b.store, { engine: "sim-eu" })).every((f) => f.detail!.includes(`(trace: ${traces}`))).toBe(true);
      expect(existsSync(join(traces, zips[0]!))).toBe(true);
    } finally {
      await tracing.close();
      rmSync(traces, { recursive: true, force: true });
      await b.close();
    }
  });
});
