import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  currentHome,
  withHome,
  describeResource,
  findWorkspaceConfig,
  isInstallationPath,
  listResources,
  readConfigFile,
  resolveResource,
  storePath,
} from "../../src/config/index.js";
import { PACKAGE_ROOT } from "../../src/paths.js";

let base: string;
const saved = { cwd: process.cwd(), home: process.env.BITEXT_HOME };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "bitext-ws-"));
  delete process.env.BITEXT_HOME;
});
afterEach(() => {
  process.chdir(saved.cwd);
  if (saved.home === undefined) delete process.env.BITEXT_HOME;
  else process.env.BITEXT_HOME = saved.home;
});

describe("the home: --home, BITEXT_HOME, the nearest workspace upward, the user data folder", () => {
  it("finds the nearest bitext.config.json upward, like git finds .git", () => {
    writeFileSync(join(base, "bitext.config.json"), "{}\n");
    const deep = join(base, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(findWorkspaceConfig(deep)).toBe(join(base, "bitext.config.json"));
    expect(currentHome(deep)).toMatchObject({ dir: base, source: "workspace", config: join(base, "bitext.config.json") });
  });

  it("takes --home over BITEXT_HOME over the workspace", () => {
    writeFileSync(join(base, "bitext.config.yaml"), "concurrency: 3\n");
    expect(currentHome(base, { BITEXT_HOME: "/elsewhere" }).source).toBe("BITEXT_HOME");
    expect(withHome(join(base, "h"), () => currentHome(base, { BITEXT_HOME: "/elsewhere" }))).toMatchObject({
      dir: join(base, "h"),
      source: "given",
    });
    // Only for the work it wraps: nothing stays set after it.
    expect(currentHome(base, { BITEXT_HOME: "/elsewhere" }).source).toBe("BITEXT_HOME");
  });

  it("refuses the installation itself as a home", () => {
    expect(() => withHome(PACKAGE_ROOT, () => currentHome())).toThrow(/is the bitext installation.*read-only/);
  });

  it("lets a user's file shadow the shipped one of the same name", () =>
    withHome(base, () => {
      expect(describeResource("wrappers", "bing.json")).toMatchObject({
        origin: "shipped",
        path: join(PACKAGE_ROOT, "wrappers", "bing.json"),
      });
      mkdirSync(join(base, "wrappers"));
      writeFileSync(join(base, "wrappers", "bing.json"), "{}");
      writeFileSync(join(base, "wrappers", "mine.json"), "{}");
      expect(resolveResource("wrappers", "bing.json")).toBe(join(base, "wrappers", "bing.json"));
      const all = listResources("wrappers", (n) => n.endsWith(".json"));
      expect(all.find((r) => r.name === "bing.json")?.origin).toBe("user");
      expect(all.find((r) => r.name === "baidu.json")?.origin).toBe("shipped");
      expect(all.find((r) => r.name === "mine.json")?.origin).toBe("user");
    }));

  it("knows which files are the installation's", () => {
    expect(isInstallationPath(join(PACKAGE_ROOT, "models", "default.json"))).toBe(true);
    expect(isInstallationPath(join(PACKAGE_ROOT, "data", "annotations.bootstrap.jsonl"))).toBe(true);
    expect(isInstallationPath(join(PACKAGE_ROOT, "data", "demo", "bitext.db"))).toBe(true); // nothing a user makes goes in the installation
    expect(isInstallationPath(join(PACKAGE_ROOT, "package.json"))).toBe(true);
    expect(isInstallationPath(join(base, "models", "default.json"))).toBe(false);
  });
});

describe("the config file", () => {
  it("names the file and the key of a wrong value", () => {
    const file = join(base, "bitext.config.json");
    writeFileSync(file, JSON.stringify({ engines: { bing: { fetch: true } } }));
    expect(() => readConfigFile(file)).toThrow(/bitext\.config\.json: engines\.bing: Unrecognized key: "fetch"/);
    writeFileSync(file, JSON.stringify({ concurrency: "two" }));
    expect(() => readConfigFile(file)).toThrow(/bitext\.config\.json: concurrency: .*expected number/i);
    writeFileSync(file, JSON.stringify({ politeness: { minDelay: "soon" } }));
    expect(() => readConfigFile(file)).toThrow(/politeness\.minDelay: expected a duration such as 500ms/);
  });

  it("reads YAML, with the line of a syntax error", () => {
    const file = join(base, "bitext.config.yaml");
    writeFileSync(file, "store: my.db\npoliteness:\n  minDelay: 2s\n");
    const c = readConfigFile(file);
    expect(c.store).toBe(join(base, "my.db"));
    expect(c.politeness?.minDelay).toBe(2000);
    writeFileSync(file, "store: a\n  bad: [\n");
    expect(() => readConfigFile(file)).toThrow(/bitext\.config\.yaml:\d+:\d+: not valid YAML/);
  });

  it("gives the store as flag > config file > home default", () => {
    writeFileSync(join(base, "bitext.config.json"), JSON.stringify({ store: "stores/main.db" }));
    process.chdir(base);
    expect(storePath()).toBe(join(base, "stores", "main.db"));
    expect(storePath("x.db")).toBe("x.db");
    writeFileSync(join(base, "bitext.config.json"), "{}");
    expect(storePath()).toBe(join(base, "data", "bitext.db"));
    // A PostgreSQL store is a URL, used as it is (not a path relative to the config file).
    writeFileSync(join(base, "bitext.config.json"), JSON.stringify({ store: "postgres://bitext@db.lan:5432/bitext" }));
    expect(storePath()).toBe("postgres://bitext@db.lan:5432/bitext");
  });
});
