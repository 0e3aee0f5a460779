/**
 * Packing and installing leave nothing to clean up and nothing to approve (issue 23): `npm pack` output is
 * ignored by git, and the packed package has no script npm lists as an install script not covered by
 * allowScripts (a global install ignores the package's allowScripts: `prepare` was listed for the tarball).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

describe("npm pack and npm install -g", () => {
  it("a tarball packed in the checkout is ignored by git", () => {
    const r = spawnSync("git", ["check-ignore", "bitext-0.1.0.tgz", "bitext-9.9.9.tgz"], { cwd: ROOT, encoding: "utf8" });
    expect(r.stdout.trim().split("\n")).toEqual(["bitext-0.1.0.tgz", "bitext-9.9.9.tgz"]);
  });

  it("the package has no script npm runs (or lists) when a tarball is installed: preinstall, install, postinstall, prepare", () => {
    // The events @npmcli/arborist's getInstallScripts enumerates for a non-registry (tarball) package.
    for (const event of ["preinstall", "install", "postinstall", "prepare"]) expect(pkg.scripts[event], event).toBeUndefined();
  });

  it("still builds dist/ on npm ci in a clone (postprepare) and on npm pack (prepack)", () => {
    expect(pkg.scripts.postprepare).toBe("npm run build");
    expect(pkg.scripts.prepack).toBe("npm run build");
  });

  it("the README's global install applies the package's allowScripts (install without scripts, rebuild in the package)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm install -g --ignore-scripts");
    expect(readme).toContain('(cd "$(npm root -g)/bitext" && npm rebuild');
    expect(readme).toMatch(/npm pack --pack-destination \S+/);
  });
});
