/** `"model": null` in the config file: harvest (and worker) store records unclassified, as classify honours it (issue 23). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harvestModel } from "../../src/cli/harvest.js";
import { modelPath, readConfigFile, type Settings } from "../../src/config/index.js";

const dir = mkdtempSync(join(tmpdir(), "bitext-model-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function settingsFrom(config: unknown): Settings {
  const file = join(dir, "bitext.config.json");
  writeFileSync(file, JSON.stringify(config));
  return { home: { dir, source: "workspace", config: file }, config: readConfigFile(file) };
}

describe("the harvest's classifier model", () => {
  it('is none with "model": null in the config file, as classify decides', () => {
    const settings = settingsFrom({ model: null });
    expect(modelPath(undefined, settings)).toBeNull(); // classify
    expect(harvestModel({ classify: true }, settings)).toBeNull(); // harvest: was undefined, i.e. the default model
  });

  it("is the config file's model, relative to the file, and --model over it", () => {
    const settings = settingsFrom({ model: "models/mine.json" });
    expect(harvestModel({ classify: true }, settings)).toBe(join(dir, "models", "mine.json"));
    expect(harvestModel({ classify: true, model: "other.json" }, settings)).toBe("other.json");
  });

  it("is the default (undefined) without a config key, and none with --no-classify", () => {
    expect(harvestModel({ classify: true }, settingsFrom({}))).toBeUndefined();
    expect(harvestModel({ classify: false, model: "x.json" }, settingsFrom({ model: "y.json" }))).toBeNull();
  });
});
