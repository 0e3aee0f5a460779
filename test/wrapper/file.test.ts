import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { MAX_PREVIOUS, readWrapperFile, withNewWrapper, type WrapperFile, writeWrapperFile } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import type { Wrapper } from "../../src/wrapper/index.js";
import { fixturePage } from "../helpers/serps.js";

let wrapper: Wrapper;
let dir: string;
beforeAll(() => {
  wrapper = learnWrapper(fixturePage("bing-crimson").seq, {
    engine: "bing",
    file: "bing-crimson.html",
    now: new Date("2026-11-21T00:00:00Z"),
  });
  dir = mkdtempSync(join(tmpdir(), "bitext-wrapper-"));
});

const fileOf = (w: Wrapper | null, extra: Partial<WrapperFile> = {}): WrapperFile => ({
  formatVersion: 1,
  engine: "bing",
  wrapper: w,
  previous: [],
  ...extra,
});

describe("wrapper files", () => {
  it("records the engine, the learned clusters, the sample's hash and date, and the format version", () => {
    const path = join(dir, "bing.json");
    writeWrapperFile(path, fileOf(wrapper));
    const read = readWrapperFile(path);
    expect(read).toEqual(fileOf(wrapper));
    const raw = JSON.parse(readFileSync(path, "utf8"));
    expect(raw.formatVersion).toBe(1);
    expect(raw.wrapper.sample.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(raw.wrapper.learnedAt).toBe("2026-11-21T00:00:00.000Z");
    expect(raw.wrapper.clusters[0].ancestorPath).toBe("html\\body\\div\\main\\ol\\li");
  });

  it("names the file and the field when a file is broken", () => {
    const path = join(dir, "broken.json");
    writeFileSync(path, "{ not json");
    expect(() => readWrapperFile(path)).toThrow(UserError);
    expect(() => readWrapperFile(path)).toThrow(new RegExp(`^${path.replace(/[.\\]/g, "\\$&")}: not valid JSON`));

    const bad = JSON.parse(JSON.stringify(fileOf(wrapper)));
    bad.wrapper.clusters[0].ancestorPath = 42;
    writeFileSync(path, JSON.stringify(bad));
    expect(() => readWrapperFile(path)).toThrow(/broken\.json: wrapper\.clusters\.0\.ancestorPath: /);

    bad.formatVersion = 2;
    writeFileSync(path, JSON.stringify(bad));
    expect(() => readWrapperFile(path)).toThrow(/broken\.json: formatVersion 2 is not supported/);

    expect(() => readWrapperFile(join(dir, "missing.json"))).toThrow(/missing\.json: cannot read wrapper file \(no such file\)/);
  });

  it("never writes a broken file, and leaves the old one in place", () => {
    const path = join(dir, "keep.json");
    writeWrapperFile(path, fileOf(wrapper));
    const before = readFileSync(path, "utf8");
    const broken = { ...fileOf(wrapper), wrapper: { ...wrapper, clusters: [] } } as WrapperFile;
    expect(() => writeWrapperFile(path, broken)).toThrow(/wrapper\.clusters/);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("keeps the engine definition and the replaced wrappers when a new one is learned", () => {
    const definition = { search: "https://www.bing.com/search?q={query}&first={offset}" };
    let file = fileOf(null, { definition });
    for (let i = 0; i < MAX_PREVIOUS + 2; i++)
      file = withNewWrapper(file, { ...wrapper, learnedAt: new Date(Date.UTC(2026, 0, i + 1)).toISOString() });
    expect(file.definition).toEqual(definition);
    expect(file.wrapper!.learnedAt).toBe("2026-01-07T00:00:00.000Z");
    expect(file.previous).toHaveLength(MAX_PREVIOUS);
    expect(file.previous[0]!.learnedAt).toBe("2026-01-06T00:00:00.000Z");
  });
});
