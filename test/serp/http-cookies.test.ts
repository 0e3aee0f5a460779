import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SerpDriver } from "../../src/serp/index.js";
import { parseEngineDefinition } from "../../src/serp/index.js";
import { HttpLoader } from "../../src/serp/index.js";
import { cookieHeader, engineStateFile, parseSetCookie, readProfileCookies } from "../../src/serp/index.js";
import { type LocalServer, startServer } from "../net/local-server.js";

/**
 * Cookies set on the HTTP fast path belong to the engine's session: they go into the engine's profile
 * file (for later runs, browser or HTTP) and into the browser's open context (for this run).
 */

describe("Set-Cookie, read as browsers do", () => {
  const now = 1_700_000_000;
  it("keeps host, domain, path, expiry and secure; an expired cookie is a removal", () => {
    const c = parseSetCookie(
      "https://www.example.org/search/web?q=1",
      [
        "SID=a1; Path=/; Max-Age=3600; HttpOnly",
        "pref=zh; Domain=.example.org; Secure; SameSite=None",
        "old=x; Max-Age=0",
        "bad; Path=/",
        "other=1; Domain=elsewhere.net",
      ],
      now,
    );
    expect(c.set.map((x) => [x.name, x.domain, x.path, x.expires, x.secure, x.httpOnly, x.sameSite])).toEqual([
      ["SID", "www.example.org", "/", now + 3600, false, true, "Lax"],
      ["pref", ".example.org", "/search", -1, true, false, "None"],
    ]);
    expect(c.removed.map((x) => x.name)).toEqual(["old"]);
    expect(cookieHeader(c.set, "https://img.example.org/search/x", now)).toBe("pref=zh");
    expect(cookieHeader(c.set, "http://www.example.org/search/x", now)).toBe("SID=a1"); // pref is Secure
    expect(cookieHeader(c.set, "https://www.example.org/", now + 7200)).toBe(""); // SID expired, pref's path
  });
});

describe("cookies from the HTTP path reach the profile and the browser", () => {
  let server: LocalServer;
  const seen: Array<{ path: string; cookie: string }> = [];
  let dir: string;
  const def = parseEngineDefinition(
    { searchUrl: "http://127.0.0.1/search?q={query}", locale: "en-US", politeness: { minDelayMs: 0 } },
    "cookie-engine",
    "cookie-engine.json",
  );
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bitext-cookies-"));
    server = await startServer({}, (req, res) => {
      const path = req.url ?? "/";
      seen.push({ path, cookie: req.headers.cookie ?? "" });
      const headers: Record<string, string | string[]> = { "content-type": "text/html; charset=utf-8" };
      if (path.startsWith("/set"))
        headers["set-cookie"] = ["session=s42; Path=/; Max-Age=3600", "consent=yes; Path=/; Max-Age=3600", "gone=1; Path=/; Max-Age=0"];
      res.writeHead(200, headers);
      res.end("<!DOCTYPE html><title>ok</title><p>results</p>");
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const cookieAt = (path: string) => seen.filter((s) => s.path === path).map((s) => s.cookie);

  it("writes them to the engine's profile, hands them to the open browser context, and later runs send them", async () => {
    const profileDir = join(dir, "profiles");
    const file = engineStateFile(profileDir, def.engine);
    const driver = await SerpDriver.start({ timeoutMs: 10_000, profileDir });
    try {
      // The browser's context is open before the HTTP path hears of any cookie; it has one of its own to lose.
      await driver.load(def, server.url("/before"));
      expect(cookieAt("/before")).toEqual([""]);
      await driver.updateCookies(def, parseSetCookie(server.origin, "gone=1; Path=/"));
      const http = new HttpLoader({
        timeoutMs: 10_000,
        identity: driver.identity,
        profileDir,
        onCookies: (d, c) => driver.updateCookies(d, c),
      });
      const page = await http.load(def, server.url("/set"));
      expect(page.error).toBeNull();
      await http.load(def, server.url("/http-again"));
      await http.close(); // waits for the browser to take them
      expect(cookieAt("/http-again")).toEqual(["session=s42; consent=yes"]);
      // The profile file: Playwright's storage state, with them (and without the removed one).
      expect(existsSync(file)).toBe(true);
      const saved = readProfileCookies(file)
        .map((c) => `${c.name}=${c.value}@${c.domain}${c.path}`)
        .sort();
      expect(saved).toEqual(["consent=yes@127.0.0.1/", "session=s42@127.0.0.1/"]);
      // The browser, in this run: its open context sends them (and no longer the removed cookie).
      await driver.load(def, server.url("/browser-same-run"));
      expect(cookieAt("/browser-same-run")[0]!.split("; ").sort()).toEqual(["consent=yes", "session=s42"]);
    } finally {
      await driver.close(); // saves the context's state over the file: it must still hold them
    }
    expect(
      JSON.parse(readFileSync(file, "utf8"))
        .cookies.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(["consent", "session"]);
    // A later run: a fresh browser and a fresh HTTP client read them from the profile.
    const later = await SerpDriver.start({ timeoutMs: 10_000, profileDir });
    try {
      await later.load(def, server.url("/browser-next-run"));
      const http = new HttpLoader({ timeoutMs: 10_000, identity: later.identity, profileDir });
      await http.load(def, server.url("/http-next-run"));
      await http.close();
    } finally {
      await later.close();
    }
    expect(cookieAt("/browser-next-run")[0]!.split("; ").sort()).toEqual(["consent=yes", "session=s42"]);
    expect(cookieAt("/http-next-run")[0]!.split("; ").sort()).toEqual(["consent=yes", "session=s42"]);
  });

  it("without a profile, cookies last for the run only", async () => {
    const driver = await SerpDriver.start({ timeoutMs: 10_000, profileDir: null });
    try {
      const http = new HttpLoader({ timeoutMs: 10_000, identity: driver.identity, profileDir: null });
      await http.load(def, server.url("/set?no-profile"));
      await http.load(def, server.url("/no-profile-again"));
      await http.close();
      const next = new HttpLoader({ timeoutMs: 10_000, identity: driver.identity, profileDir: null });
      await next.load(def, server.url("/no-profile-next-run"));
      await next.close();
      expect(cookieAt("/no-profile-again")).toEqual(["session=s42; consent=yes"]);
      expect(cookieAt("/no-profile-next-run")).toEqual([""]);
    } finally {
      await driver.close();
    }
  });
});
