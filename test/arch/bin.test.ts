import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

// `npm ci` builds dist/ (the `postprepare` script) and `npx bitext` then runs the package's bin from the checkout
// itself, where npm links nothing: the file must be executable, which tsc does not make it.
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
const bin = join(ROOT, manifest.bin.bitext!);

describe.skipIf(!existsSync(bin))("the built bin", () => {
  it("is executable, with a node shebang, so that `npx bitext` runs in a fresh clone", () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });
});
