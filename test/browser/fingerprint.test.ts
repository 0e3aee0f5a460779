import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveChromiumPath } from "../../src/browser/index.js";
import { SerpDriver } from "../../src/serp/index.js";
import { type EngineDefinition, parseEngineDefinition } from "../../src/serp/index.js";
import { HttpLoader } from "../../src/serp/index.js";
import { hasXvfb, XVFB_RUN, xvfbDisplayArgs } from "../helpers/xvfb.js";
import { type FingerprintPage, type Report, startFingerprintPage } from "./fingerprint-page.js";

/**
 * What an engine can see of the harvest's browser, taken by a page on 127.0.0.1 (its script reports navigator,
 * client hints, time zone; the server keeps the headers of the page and of a sub-request), against the same
 * page opened by a person's Chromium: a headed one under Xvfb, started without any automation.
 */

if (!hasXvfb) console.warn(`fingerprint comparison with a headed Chromium skipped: ${XVFB_RUN} is not installed (apt-get install xvfb)`);

/** Headers that make the identity: they must be the same in browser and HTTP mode, and as a person's Chromium sends them. */
const IDENTITY_HEADERS = ["user-agent", "accept-language", "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform"];
const pick = (h: Record<string, string>) => Object.fromEntries(IDENTITY_HEADERS.map((k) => [k, h[k]]));

let page: FingerprintPage;
let driver: SerpDriver;
let http: HttpLoader;
const engine = (locale: string): EngineDefinition =>
  parseEngineDefinition({ searchUrl: `${page.server.origin}/s?q={query}`, locale }, `probe-${locale}`, "probe.json"); // a context per engine

beforeAll(async () => {
  page = await startFingerprintPage();
  driver = await SerpDriver.start({ timeoutMs: 15_000, profileDir: null });
  http = new HttpLoader({ timeoutMs: 5000, identity: driver.identity });
});
afterAll(async () => {
  await http?.close();
  await driver?.close();
  await page?.close();
});

async function viaBrowser(locale: string, tag: string): Promise<Report> {
  const loaded = await driver.load(engine(locale), page.url(tag));
  expect(loaded.error).toBeNull();
  return page.report(tag);
}

describe("the harvest's browser, as a page sees it", () => {
  it("is not automated, speaks the engine's languages well-formed on the page and its sub-requests, in the locale's time zone", async () => {
    const r = await viaBrowser("zh-CN", "zh");
    expect(r.seen.webdriver).toBe(false);
    expect(r.seen.languages).toEqual(["zh-CN", "zh", "en"]);
    expect(r.seen.language).toBe("zh-CN");
    expect(r.page["accept-language"]).toBe("zh-CN,zh;q=0.9,en;q=0.8");
    expect(r.sub["accept-language"]).toBe("zh-CN,zh;q=0.9,en;q=0.8");
    expect(r.seen.timeZone).toBe("Asia/Shanghai");
    expect(r.seen.locale).toBe("zh-CN");
    expect(r.seen.userAgent).not.toMatch(/Headless/);
    expect(r.seen.userAgent).toBe(r.page["user-agent"]);
    // Client hints match the user agent's version, in the page's script and on the wire.
    const major = /Chrome\/(\d+)/.exec(r.seen.userAgent)![1];
    expect(r.seen.brands?.map((b) => b.brand)).toContain("Chromium");
    expect(r.seen.brands?.find((b) => b.brand === "Chromium")?.version).toBe(major);
    expect(r.page["sec-ch-ua"]).toBe(r.seen.brands!.map((b) => `"${b.brand}";v="${b.version}"`).join(", "));
    expect(r.seen.uaPlatform).toBe("Linux");
    expect(r.sub["sec-ch-ua-full-version-list"]).toMatch(new RegExp(`"Chromium";v="${major}\\.\\d+\\.\\d+\\.\\d+"`));
  }, 60_000);

  it("an English engine: two languages, the same way", async () => {
    const r = await viaBrowser("en-US", "en");
    expect(r.seen.languages).toEqual(["en-US", "en"]);
    expect(r.page["accept-language"]).toBe("en-US,en;q=0.9");
    expect(r.sub["accept-language"]).toBe("en-US,en;q=0.9");
    expect(r.seen.timeZone).toBe("America/New_York");
  }, 60_000);

  it("HTTP mode sends the browser's identity headers, value for value", async () => {
    const browser = await viaBrowser("zh-CN", "zh-again");
    const loaded = await http.load(engine("zh-CN"), page.url("http"));
    expect(loaded.error).toBeNull();
    const sent = page.server.requests.length;
    expect(sent).toBeGreaterThan(0);
    const got = await Promise.race([page.report("http"), new Promise<null>((r) => setTimeout(() => r(null), 300))]);
    expect(got).toBeNull(); // no script ran: only the page's headers are there
    const headers = page.headersOf("http");
    expect(pick(headers!)).toEqual(pick(browser.page));
  }, 60_000);
});

describe.skipIf(!hasXvfb)("compared with a person's Chromium (headed, under Xvfb, not automated)", () => {
  let person: ChildProcess | null = null;
  const profile = mkdtempSync(join(tmpdir(), "bitext-person-"));
  afterAll(async () => {
    const group = person?.pid;
    if (group) {
      // xvfb-run and every Chromium process under it write into the profile until they are gone: end the whole
      // process group, and wait (at most 10 s) until none of it is left before removing the profile.
      const alive = () => {
        try {
          process.kill(-group, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(-group, "SIGTERM");
      for (let waited = 0; alive() && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      if (alive()) process.kill(-group, "SIGKILL");
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it("sees the same webdriver, languages, user agent, client hints and time zone, and gets the same headers", async () => {
    const chromium = resolveChromiumPath() ?? "chromium";
    person = spawn(
      XVFB_RUN,
      [
        ...xvfbDisplayArgs(120),
        chromium,
        "--no-sandbox",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        "--lang=zh-CN",
        "--accept-lang=zh-CN,zh,en",
        page.url("person"),
      ],
      { env: { ...process.env, TZ: "Asia/Shanghai" }, stdio: "ignore", detached: true },
    );
    const theirs = await page.report("person");
    const ours = await viaBrowser("zh-CN", "ours");
    const { locale: _l1, ...theirSeen } = theirs.seen; // Intl's locale follows LANG, not the browser's languages
    const { locale: _l2, ...ourSeen } = ours.seen;
    expect(ourSeen).toEqual(theirSeen);
    expect(pick(ours.page)).toEqual(pick(theirs.page));
    expect(ours.sub["accept-language"]).toBe(theirs.sub["accept-language"]);
    expect(ours.sub["sec-ch-ua-full-version-list"]).toBe(theirs.sub["sec-ch-ua-full-version-list"]);
  }, 90_000);
});
