import { describe, expect, it } from "vitest";
import { runCommand } from "../helpers/cli.js";

describe("bitext lexicon lookup", { timeout: 180_000 }, () => {
  it("shows English words, not the stems the lexicon is keyed by", async () => {
    const r = await runCommand(["lexicon", "lookup", "明白", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { translations: Array<{ word: string; token: string }> };
    const words = out.translations.map((t) => t.word);
    expect(words).toEqual(expect.arrayContaining(["obvious", "realize", "understand", "unequivocal"]));
    expect(out.translations).toContainEqual(expect.objectContaining({ word: "obvious", token: "obviou" }));
    const text = await runCommand(["lexicon", "lookup", "明白"]);
    expect(text.stdout).toMatch(/^obvious\s+1\.000$/m);
    expect(text.stdout).not.toMatch(/^obviou\s/m);
  });
});
