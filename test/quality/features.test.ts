import { describe, expect, it } from "vitest";
import { FEATURE_NAMES } from "../../src/quality/index.js";
import { pairFeatures } from "../../src/quality/features.js";
import { qualityModelPath, readQualityModel } from "../../src/quality/index.js";
import { readSide } from "../../src/quality/sides.js";
import { EN_ZH, loadLexicon } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/** Real pairs of a fixture copied from ../shared/data. */
const real = (path: string) => fixturePairs(`real/${path}`);

const lex = loadLexicon(EN_ZH);
const len = readQualityModel(qualityModelPath(EN_ZH)).lengthRatio;
const features = (a: string, b: string) => {
  const x = pairFeatures(readSide(a, "en", EN_ZH), readSide(b, "zh", EN_ZH), EN_ZH, lex, len);
  return Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, x[i]!])) as Record<(typeof FEATURE_NAMES)[number], number>;
};

describe("the pair features that carry evidence for terms and cut sentences", () => {
  // The dictionary and the segmenter load on first use: here, not inside the first test's time limit.
  features("Hello.", "你好。");

  it("cov_b_chars: a bound suffix the dictionary lacks weighs less than the stem (迭代器 = 迭代 + 器)", () => {
    const terms = real("bilingual-pages/real/pep_cn_terms/word-list.pairs.tsv");
    for (const term of ["Iterator", "Decorator", "Literal"]) {
      const p = terms.find((t) => t.a === term)!;
      const f = features(p.a, p.b);
      expect(f.cov_b).toBe(0.5);
      expect(f.cov_b_chars).toBeCloseTo(2 / 3, 5);
    }
    // A term paired with another term's translation has no stem to weigh.
    const f = features("Iterator", terms.find((t) => t.a === "Literal")!.b);
    expect(f.cov_b_chars).toBe(0);
  });

  it("tail_min: a side cut short leaves the other side's end untranslated", () => {
    // Tatoeba sentences of 5+ words, side b cut to its first 40 % of characters (what a misaligned split leaves).
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv")
      .filter((p) => p.a.split(" ").length >= 5)
      .slice(0, 300);
    let whole = 0;
    let cut = 0;
    let lower = 0;
    for (const p of pairs) {
      const chars = Array.from(p.b);
      const t = features(p.a, p.b).tail_min;
      const c = features(p.a, chars.slice(0, Math.ceil(chars.length * 0.4)).join("")).tail_min;
      whole += t / pairs.length;
      cut += c / pairs.length;
      if (c < t) lower++;
    }
    expect(whole).toBeGreaterThan(cut + 0.2);
    expect(lower / pairs.length).toBeGreaterThan(0.6);
  });

  it("cut_end: one side ends a sentence and the other stops on a letter (a side cut short)", () => {
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv").slice(0, 500);
    const whole = pairs.filter((p) => features(p.a, p.b).cut_end === 1).length;
    const cut = pairs.filter((p) => features(p.a, Array.from(p.b).slice(0, -2).join("")).cut_end === 1).length;
    expect(whole / pairs.length).toBeLessThan(0.05);
    expect(cut / pairs.length).toBeGreaterThan(0.9);
    // Headings bare on both sides are not cut.
    const headings = real("bilingual-pages/real/w3c_clreq/clreq_index.pairs.tsv").filter(
      (p) => !/\p{P}$/u.test(p.a) && !/\p{P}$/u.test(p.b),
    );
    expect(headings.length).toBeGreaterThan(20);
    for (const p of headings) expect(features(p.a, p.b).cut_end).toBe(0);
  });

  it("whole_b: a Chinese term the segmenter splits is looked up whole (不客气 = you're welcome)", () => {
    const dialogue = real("bilingual-pages/real/aszswaz_dialogue/dialogue.pairs.tsv");
    const p = dialogue.find((d) => d.a === "You are welcome.")!;
    expect(p.b).toBe("不客气。");
    expect(features(p.a, p.b).whole_b).toBe(1);
    // The same side b with another line of the dialogue: the entry translates none of its words.
    expect(features("Not at all.", p.b).whole_b).toBe(0);
    // One segmenter word: the coverage features already looked it up.
    expect(features("Goodbye.", "再见。").whole_b).toBe(0);
  });

  it("chars_b, found_a: translations of side a's words found anywhere in side b, whatever the segmenter's words", () => {
    // The segmenter's words (接电话, one word the dictionary lacks) match little; answer → 接 and phone → 电话 are inside.
    const f = features("Answer the phone.", "接电话。");
    expect(f.cov_min).toBeLessThan(0.5);
    expect(f.found_a).toBe(1);
    expect(f.chars_b).toBe(1);
    // Tatoeba pairs against the same sentences paired with another pair's side b.
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv").slice(0, 300);
    const mean = (shift: number, name: "chars_b" | "found_a") =>
      pairs.reduce((s, p, i) => s + features(p.a, pairs[(i + shift) % pairs.length]!.b)[name], 0) / pairs.length;
    for (const name of ["chars_b", "found_a"] as const) expect(mean(0, name)).toBeGreaterThan(mean(7, name) + 0.3);
  });

  it("cov_a_common, names_missing: a name shared with a neighbour is not a translation of the rest", () => {
    const withNames = real("parallel/tatoeba-cmn-eng.dev.tsv")
      .filter((p) => /\s\p{Lu}/u.test(p.a))
      .slice(0, 200);
    expect(withNames.length).toBe(200);
    let missingReal = 0;
    let missingOther = 0;
    for (const [i, p] of withNames.entries()) {
      missingReal += features(p.a, p.b).names_missing / withNames.length;
      missingOther += features(p.a, withNames[(i + 7) % withNames.length]!.b).names_missing / withNames.length;
    }
    expect(missingReal).toBeLessThan(0.15);
    expect(missingOther).toBeGreaterThan(missingReal + 0.3);
    // Without inner capitalised words the common coverage is the coverage.
    const f = features("I like tea.", "我喜欢茶。");
    expect(f.names_missing).toBe(0);
    expect(f.cov_a_common).toBe(f.cov_a);
  });

  it("cov_a_partial: a term the dictionary lacks, composed of a translation's characters (mutable → 易变, against 可变)", () => {
    // Rust's glossary pairs "mutable" with 可变; the dictionary has 易变 for it.
    const term = features("mutable", "可变");
    expect(term.cov_a).toBe(0);
    expect(term.cov_a_partial).toBe(0.5);
    expect(features("mutable", "分析,解析").cov_a_partial).toBe(0);
    // On real term lists and typesetting sentences, what real pairs hold and shuffled partners do not; never below cov_a.
    for (const [path, margin] of [
      ["bilingual-pages/real/rust_glossary/rust-glossary.pairs.tsv", 0.5],
      ["bilingual-pages/real/w3c_clreq/clreq_index.pairs.tsv", 0.2],
    ] as const) {
      const pairs = real(path);
      let own = 0;
      let other = 0;
      for (const [i, p] of pairs.entries()) {
        const f = features(p.a, p.b);
        expect(f.cov_a_partial).toBeGreaterThanOrEqual(f.cov_a);
        own += f.cov_a_partial / pairs.length;
        other += features(p.a, pairs[(i + 7) % pairs.length]!.b).cov_a_partial / pairs.length;
      }
      expect(own, path).toBeGreaterThan(other + margin);
    }
  });

  it("miss_a, miss_b: words the dictionary knows with no translation in the other side count against a pair; unknown words do not", () => {
    // "study" and "Chinese" have translations, none of them in 我每天 (a Tatoeba pair cut short).
    const cut = features("I study Chinese every day.", "我每天");
    expect(cut.miss_a).toBeGreaterThanOrEqual(0.5);
    expect(features("I study Chinese every day.", "我每天学中文。").miss_a).toBe(0);
    // A term no dictionary has (Rust's glossary: "vtable" / 虚表) is no evidence either way.
    const unknown = features("vtable", "虚表");
    expect(unknown.cov_a).toBe(0);
    expect(unknown.miss_a).toBe(0);
    expect(unknown.miss_b).toBe(0);
    // On real sentences (300 of Tatoeba's): a fifth of a real pair's words against nearly all of a shuffled partner's.
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv").slice(0, 300);
    const mean = (f: (p: { a: string; b: string }, i: number) => number) => pairs.reduce((s, p, i) => s + f(p, i), 0) / pairs.length;
    for (const side of ["miss_a", "miss_b"] as const) {
      const own = mean((p) => features(p.a, p.b)[side]);
      const other = mean((p, i) => features(p.a, pairs[(i + 7) % pairs.length]!.b)[side]);
      expect(own, side).toBeLessThan(0.3);
      expect(other, side).toBeGreaterThan(own + 0.5);
    }
  });

  it("cov_b: a word the lexicon lacks is credited for the share of its characters its matched parts cover", () => {
    // Neighbours in the Rust glossary: 单元测试 ("unit test", no entry: 单元 + 测试) against "unit struct" shares 单元 only.
    expect(features("unit test", "单元测试").cov_b).toBeCloseTo(0.8, 5);
    expect(features("unit struct", "单元测试").cov_b).toBeCloseTo(0.4, 5);
    // Side a's words are credited as before: "unit" is found either way.
    expect(features("unit struct", "单元测试").cov_a).toBeCloseTo(features("unit", "单元测试").cov_a / 2, 5);
  });

  it("num_agree: numbers one side writes in digits and the other in words agree (Tatoeba's real pairs)", () => {
    expect(features("I'll return at 6:30.", "我六点半回来。").num_agree).toBe(1);
    expect(features("China has about 25 times the area of Japan.", "中国的版图大概是日本的二十五倍。").num_agree).toBe(1);
    expect(features("It cost me 50 dollars to have my watch fixed.", "我花了五十美元修好了手表。").num_agree).toBe(1);
    expect(features("I have three brothers.", "我有3个兄弟。").num_agree).toBe(1);
    // Other numbers in words do not.
    expect(features("It cost me 50 dollars to have my watch fixed.", "我花了三十美元修好了手表。").num_agree).toBe(0);
    expect(features("I have three brothers.", "我有4个兄弟。").num_agree).toBe(0);
  });

  it("a pair's features do not depend on the pairs scored before it (side b's characters are marked per pair)", () => {
    // Real pairs and shuffled partners (whose unmatched words send the reverse pass probing), scored in two orders.
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv").slice(0, 150);
    const all = [...pairs, ...pairs.map((p, i) => ({ a: p.a, b: pairs[(i + 11) % pairs.length]!.b }))];
    const inOrder = all.map((p) => Object.values(features(p.a, p.b)));
    const reversed = [...all].reverse().map((p) => Object.values(features(p.a, p.b)));
    reversed.reverse();
    expect(reversed).toEqual(inOrder);
    // Side a's words are found through b's characters at all: the shuffled partners find fewer of them.
    const found = (xs: number[][]) => xs.reduce((s, f) => s + f[FEATURE_NAMES.indexOf("found_a")]!, 0) / xs.length;
    expect(found(inOrder.slice(0, pairs.length))).toBeGreaterThan(found(inOrder.slice(pairs.length)) + 0.3);
  });
});
