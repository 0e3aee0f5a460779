import { describe, expect, it } from "vitest";
import { createScorer, loadScorer, qualityModelPath, readQualityModel } from "../../src/quality/index.js";
import { EN_ZH, loadLexicon } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/** Real glossary rows (every 4th gold pair of the Rust glossary). */
const terms = fixturePairs("quality/rust-glossary.pairs.tsv");

describe("the lexicon a pair-scorer model was trained with", () => {
  const path = qualityModelPath(EN_ZH);
  const model = readQualityModel(path);

  it("is named in the shipped model (no machine's path) and loaded with it: ECDICT's terms beside the shared lexicon", () => {
    expect(model.lexicon).toEqual(["cc-cedict", "lexicon-tatoeba.tsv", "dictionary-ecdict.tsv"]);
    const withModelLexicon = loadScorer(EN_ZH);
    // The shared lexicon alone (what the classifier and the extractor use) lacks the dictionary's terms.
    const sharedOnly = createScorer(model, path, { lexicon: loadLexicon(EN_ZH) });
    const kept = (s: typeof sharedOnly) => terms.filter((t) => s.score(t.a, t.b).keep).length;
    expect(kept(withModelLexicon)).toBeGreaterThan(kept(sharedOnly) + 5);
  });

  it("must be found: a model naming a dictionary that is not in models/ is refused, naming both", () => {
    const missing = { ...model, lexicon: ["cc-cedict", "dictionary-absent.tsv"] };
    expect(() => createScorer(missing, "/some/model.json")).toThrow(
      "/some/model.json: lexicon: the model was trained with dictionary-absent.tsv, which is not in models/ (shipped or yours)",
    );
  });
});
