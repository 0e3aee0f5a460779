import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { isHeldOut, parseHeldOutList, readHeldOutList } from "../../src/eval/index.js";
import { ROOT } from "../helpers/cli.js";

describe("the held-out list", () => {
  const list = readHeldOutList(join(ROOT, "test", "holdout.md"));

  it("reads the pages of the project's list, and nothing of its prose", () => {
    expect(list).toContain("aql-more/ask/ask-interior-design-classes-online-1651218822.html");
    expect(list).toContain("xlhhai_translations/winter-in-jinan.html");
    expect(list.every((p) => p.endsWith(".html") && !p.startsWith("-") && !p.includes(" "))).toBe(true);
  });

  it("takes list items, bare lines and code spans; skips comments and lines naming no page", () => {
    expect(parseHeldOutList("# Held out\n- `a/b.html`\n* ./c/d.htm\ne.html\n# f.html\nsome prose\n- g.tsv\n")).toEqual([
      "a/b.html",
      "c/d.htm",
      "e.html",
    ]);
  });

  it("matches a page by the longer path ending with the shorter at a folder boundary", () => {
    // An absolute path of a listed page, and a set-relative one of a page listed with its set's folder.
    expect(isHeldOut("/data/bilingual-pages/real/xlhhai_translations/winter-in-jinan.html", list)).toBe(true);
    expect(isHeldOut("ask/ask-interior-design-classes-online-1651218822.html", list)).toBe(true);
    expect(isHeldOut("./xlhhai_translations/winter-in-jinan.html", list)).toBe(true);
    // Not by a partial file name, nor by another page of the same folder.
    expect(isHeldOut("/data/real/xlhhai_translations/old-winter-in-jinan.html", list)).toBe(false);
    expect(isHeldOut("/data/real/xlhhai_translations/rivers.html", list)).toBe(false);
    expect(isHeldOut("anything.html", [])).toBe(false);
  });

  it("names a file it cannot read", () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-held-out-"));
    writeFileSync(join(dir, "list.md"), "- x/y.html\n");
    expect(readHeldOutList(join(dir, "list.md"))).toEqual(["x/y.html"]);
    expect(() => readHeldOutList(join(dir, "missing.md"))).toThrow(UserError);
    expect(() => readHeldOutList(join(dir, "missing.md"))).toThrow(/missing\.md: cannot read the held-out list \(ENOENT\)/);
  });
});
