import { describe, expect, it } from "vitest";
import { parseQueryList } from "../../src/serp/index.js";

describe("a query file names its languages", () => {
  it("reads the columns as the languages of a '# languages: A B' header before the first query", () => {
    const q = parseQueryList("# languages: en ja\nGood morning.\tおはようございます。\n", "q.tsv");
    expect(q[0]!.source).toEqual({ lang: "en", text: "Good morning." });
    expect(q[0]!.target).toEqual({ lang: "ja", text: "おはようございます。" });
  });

  it("defaults to the caller's pair without a header", () => {
    const q = parseQueryList("I see.\t我明白了。\n", "q.tsv");
    expect([q[0]!.source.lang, q[0]!.target.lang]).toEqual(["en", "zh"]);
  });

  it("names the file, line and field of a header that is not two language codes", () => {
    expect(() => parseQueryList("# note\n# languages: en en\nHi\t你好\n", "q.tsv")).toThrow(
      /^q\.tsv:2: languages: expected two different language codes/,
    );
  });
});
