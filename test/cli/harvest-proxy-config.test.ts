/** The config file's `proxies` feed the harvest's proxy pool when no --proxy/--proxies flag is given. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { browserFlags } from "../../src/cli/harvest.js";
import { readConfigFile, type Settings } from "../../src/config/index.js";

const dir = mkdtempSync(join(tmpdir(), "bitext-proxy-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function settingsFrom(config: unknown): Settings {
  const file = join(dir, "bitext.config.json");
  writeFileSync(file, JSON.stringify(config));
  return { home: { dir, source: "workspace", config: file }, config: readConfigFile(file) };
}

describe("proxies from the config file", () => {
  it("are the pool when no flag names one: the URLs and the list file (relative to the config file)", () => {
    writeFileSync(join(dir, "proxies.txt"), "# pool\nhttp://127.0.0.1:3129\n");
    const settings = settingsFrom({ proxies: { urls: ["http://user:pw@127.0.0.1:3128"], file: "proxies.txt" } });
    const { proxies } = browserFlags({}, settings);
    expect(proxies?.map((p) => p.label)).toEqual(["http://127.0.0.1:3128", "http://127.0.0.1:3129"]);
    expect(proxies?.[0]?.username).toBe("user");
  });

  it("give way to --proxy", () => {
    const settings = settingsFrom({ proxies: { urls: ["http://127.0.0.1:3128"] } });
    expect(browserFlags({ proxy: ["socks5://127.0.0.1:1080"] }, settings).proxies?.map((p) => p.label)).toEqual([
      "socks5://127.0.0.1:1080",
    ]);
  });

  it("name the config key of a bad proxy URL", () => {
    const settings = settingsFrom({ proxies: { urls: ["http://127.0.0.1:3128", "ftp://127.0.0.1:21"] } });
    expect(() => browserFlags({}, settings)).toThrow(/bitext\.config\.json: proxies\.urls\[1\]: proxy scheme ftp not supported/);
  });

  it("refuse keys the harvest does not have", () => {
    expect(() => settingsFrom({ proxies: { default: "http://127.0.0.1:3128" } })).toThrow(/proxies/);
  });
});
