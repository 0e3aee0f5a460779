import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  buildLexicon,
  charLang,
  EN_JA,
  EN_KO,
  EN_ZH,
  expandContractions,
  isStopWord,
  langShares,
  loadLexicon,
  normalizeText,
  overlapScore,
  parseLexiconFile,
  readLexiconFile,
  segmentByLanguage,
  tokenize,
  mayConvert,
  toSimplified,
  translatedShare,
  wordSim,
} from "../../src/text/index.js";

const tatoeba = readFileSync(new URL("../fixtures/text/tatoeba-sample.tsv", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((l) => l.split("\t") as [string, string, string]);

describe("telling languages apart by script", () => {
  it("classifies letters by script and leaves digits and punctuation neutral", () => {
    expect(charLang("a", EN_ZH)).toBe("en");
    expect(charLang("中", EN_ZH)).toBe("zh");
    expect(charLang("Ａ", EN_ZH)).toBe("en"); // full-width Latin is still Latin
    for (const ch of ["1", " ", "。", ",", "“", "$"]) expect(charLang(ch, EN_ZH)).toBeNull();
    expect(charLang("か", EN_JA)).toBe("ja");
    expect(charLang("東", EN_JA)).toBe("ja");
    expect(charLang("한", EN_KO)).toBe("ko");
    expect(charLang("к", EN_ZH)).toBeNull(); // Cyrillic belongs to neither side of en–zh
  });

  it("measures the share of letters of each language", () => {
    expect(langShares("ab 中文字", EN_ZH)).toEqual({ en: 0.4, zh: 0.6 });
    expect(langShares("123 !!", EN_ZH)).toEqual({ en: 0, zh: 0 });
  });
});

describe("segmenting text by language (feng2010 §5, feng2011)", () => {
  it("turns the seed's example into ECEC with the real text of each segment", () => {
    const text = "I see. 我明白了。 I quit! 我不干了!";
    const segs = segmentByLanguage(text);
    expect(segs.map((s) => s.lang).join(" ")).toBe("en zh en zh");
    expect(segs.map((s) => s.text)).toEqual(["I see.", "我明白了。", "I quit!", "我不干了!"]);
    for (const s of segs) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it("keeps abbreviations inside the English run and sends open punctuation to the next run", () => {
    const segs = segmentByLanguage("美国 (U.S.) 政府说：“Hello world” 然后");
    expect(segs.map((s) => s.text)).toEqual(["美国", "(U.S.)", "政府说：", "“Hello world”", "然后"]);
  });

  it("attaches digits to the run they touch and merges adjacent runs of one language", () => {
    expect(segmentByLanguage("2010年 iPhone 15 很好").map((s) => s.text)).toEqual(["2010年", "iPhone 15", "很好"]);
    expect(segmentByLanguage("Hello, world... 123 again").map((s) => s.text)).toEqual(["Hello, world... 123 again"]);
    expect(segmentByLanguage("... 123 !")).toEqual([]);
  });

  it("works for other pairs written in different scripts", () => {
    const ja = segmentByLanguage("私は東京に住んでいます。I live in Tokyo.", EN_JA);
    expect(ja.map((s) => [s.lang, s.text])).toEqual([
      ["ja", "私は東京に住んでいます。"],
      ["en", "I live in Tokyo."],
    ]);
    const ko = segmentByLanguage("Hello 안녕하세요", EN_KO);
    expect(ko.map((s) => s.lang)).toEqual(["en", "ko"]);
  });
});

describe("normalising text", () => {
  it("folds full-width forms, drops zero-width characters and collapses spaces", () => {
    expect(normalizeText("  ＡＢＣ　１２３，：！\u200b ｶﾀｶﾅ\n\t end ")).toBe("ABC 123,:! カタカナ end");
    expect(normalizeText("保留。「引号」")).toBe("保留。「引号」");
  });

  it("converts Traditional to Simplified Chinese", () => {
    expect(toSimplified("我們為什麼還在這裡？後來發現臺灣")).toBe("我们为什么还在这里？后来发现台湾");
    expect(toSimplified("already simplified 简体")).toBe("already simplified 简体");
  });

  it("expands English contractions", () => {
    expect(expandContractions("I'm sure it's fine, don't worry, we'll see; won't you?")).toBe(
      "I am sure it is fine, do not worry, we will see; will not you?",
    );
    const forms = [
      ["WON'T", "will not"],
      ["Can’t", "can not"],
      ["shan't", "shall not"],
      ["ain't", "is not"],
      ["Let's", "Let us"],
      ["That's", "That is"],
      ["Where's", "Where is"],
      ["isn't", "is not"],
      ["they're", "they are"],
      ["could've", "could have"],
      ["She'll", "She will"],
      ["you'd", "you would"],
      ["I’m", "I am"],
      ["can't've", "can not have"],
      ["Tom's", "Tom's"],
      ["o'clock", "o'clock"],
      ["rock'n'roll", "rock'n'roll"],
    ];
    expect(forms.map(([c]) => expandContractions(c!))).toEqual(forms.map(([, e]) => e));
  });
});

describe("tokenising", () => {
  it("cuts Chinese into jieba words and keeps embedded English as English tokens", () => {
    expect(tokenize("我明白了。南京市长江大桥 iPhone 15", "zh")).toEqual(["我", "明白", "了", "南京市", "长江大桥", "iphon", "15"]);
  });

  it("ends a Latin word where Han characters begin, without a space between them", () => {
    // Real text: the PEP glossary's title (pep_cn_terms, "Python Enhancement Proposals" / Python增强提案) and
    // W3C clreq's "Unicode名称"; a letter word once ran on into the Han characters ("python增强提案": no word).
    expect(tokenize("Python增强提案", "zh")).toEqual(["python", "增强", "提案"]);
    expect(tokenize("Unicode名称", "zh")).toEqual(["unicod", "名称"]);
    expect(tokenize("the Unicode名称 field", "en")).toEqual(["the", "unicod", "名称", "field"]);
  });

  it("lower-cases and stems English, expanding contractions and keeping abbreviations", () => {
    expect(tokenize("I'm studying the U.S. Government's policies!", "en")).toEqual(["i", "be", "studi", "the", "u.s.", "govern", "polici"]);
  });

  it("falls back to ICU word boundaries for other languages", () => {
    const ja = tokenize("私は東京に住んでいます", "ja");
    expect(ja).toContain("東京");
    expect(ja.join("")).toBe("私は東京に住んでいます");
  });

  it("knows stop words in their stemmed form", () => {
    expect(isStopWord("the", "en")).toBe(true);
    expect(isStopWord("thi", "en")).toBe(true); // stem of "this"
    expect(isStopWord("govern", "en")).toBe(false);
    expect(isStopWord("的", "zh")).toBe(true);
    expect(isStopWord("明白", "zh")).toBe(false);
    expect(isStopWord("the", "zh")).toBe(true); // English inside Chinese text
  });
});

describe("the lexicon and Sim(c, e)", () => {
  const lex = loadLexicon(EN_ZH);

  it("is one shared, cached instance with CC-CEDICT", () => {
    expect(loadLexicon(EN_ZH)).toBe(lex);
    expect(lex.sources[0]).toBe("cc-cedict");
    const t = lex.translations("明白", "zh");
    expect(t?.get("understand")).toBe(1);
    expect(t?.get("clear")).toBe(1);
    expect(lex.translations("明白", "ja")).toBeUndefined();
    // Traditional headwords and unstemmed English are accepted.
    expect(lex.translations("銀行", "zh")?.get("bank")).toBe(1);
  });

  it("scores dictionary translations, identical tokens and back-off", () => {
    expect(wordSim("明白", "zh", "understand", "en", lex)).toBe(1);
    expect(wordSim("understand", "en", "明白", "zh", lex)).toBe(1); // symmetric
    expect(wordSim("15", "zh", "15", "en", lex)).toBe(1);
    expect(wordSim("明白", "zh", "bank", "en", lex)).toBe(0);
    // 明白了 is not a headword: its sub-word 明白 matches, discounted.
    expect(wordSim("明白了", "zh", "clear", "en", lex)).toBeCloseTo(0.8);
    // 长江大桥 is unknown; only the character 桥 "bridge" matches.
    expect(wordSim("长江大桥", "zh", "bridg", "en", lex)).toBeCloseTo(0.4);
  });

  it("computes Equation 3 as Σ max Sim / (p + q)", () => {
    const zh = ["我", "明白"];
    const en = ["i", "understand", "now"];
    // 我↔i = 1 ("I; me; my"), 明白↔understand = 1 → (1 + 1) / (2 + 3)
    expect(overlapScore(zh, "zh", en, "en", lex)).toBeCloseTo(2 / 5);
    expect(overlapScore([], "zh", en, "en", lex)).toBe(0);
    expect(translatedShare(en, "en", zh, "zh", lex)).toBeCloseTo(2 / 3);
  });

  it("separates real translation pairs from shuffled ones", () => {
    let aligned = 0;
    let shuffled = 0;
    for (const [i, [en, zh]] of tatoeba.entries()) {
      const other = tatoeba[(i + 37) % tatoeba.length]![1];
      const e = tokenize(en, "en").filter((t) => !isStopWord(t, "en"));
      aligned += overlapScore(tokenize(zh, "zh"), "zh", e, "en", lex);
      shuffled += overlapScore(tokenize(other, "zh"), "zh", e, "en", lex);
    }
    expect(aligned / tatoeba.length).toBeGreaterThan(3 * (shuffled / tatoeba.length));
  });
});

describe("learned lexicon files", () => {
  it("reads a lexicon file and uses it alongside CC-CEDICT, in both directions", () => {
    const file = parseLexiconFile("mem.tsv", "# bitext-lexicon 1\n# languages: zh en\n# source: test\n干\tquit\t0.7\n汤姆\ttom\t0.9\n");
    expect(file.header.source).toBe("test");
    const lex = buildLexicon(EN_ZH, [file], true);
    expect(wordSim("干", "zh", "quit", "en", lex)).toBeCloseTo(0.7);
    const learnedOnly = buildLexicon(EN_ZH, [file], false);
    expect(learnedOnly.sources).toEqual(["mem.tsv"]);
    expect(learnedOnly.translations("quit", "en")?.get("干")).toBeCloseTo(0.7);
    expect(learnedOnly.translations("明白", "zh")).toBeUndefined();
    expect(lex.translations("干", "zh")?.get("work")).toBe(1); // CC-CEDICT entries stay
    expect(buildLexicon(EN_JA, [file], false).translations("干", "zh")).toBeUndefined(); // another pair
  });

  it("rejects malformed lexicon files with the file and line at fault", () => {
    expect(() => parseLexiconFile("x.tsv", "明白\tclear\t1\n")).toThrow(/^x\.tsv:1: not a bitext lexicon/);
    expect(() => parseLexiconFile("x.tsv", "# bitext-lexicon 1\n明白\tclear\t1\n")).toThrow(/x\.tsv:2: entries before/);
    expect(() => parseLexiconFile("x.tsv", "# bitext-lexicon 1\n# languages: zh en\n明白\tclear\n")).toThrow(
      /x\.tsv:3: expected 3 tab-separated columns/,
    );
    expect(() => parseLexiconFile("x.tsv", "# bitext-lexicon 1\n# languages: zh en\n明白\tclear\t2\n")).toThrow(
      /x\.tsv:3: weight: "2" is not a number in \(0, 1\]/,
    );
    expect(() => readLexiconFile("/nonexistent/lexicon.tsv")).toThrow(/\/nonexistent\/lexicon\.tsv: cannot read lexicon \(ENOENT\)/);
  });
});

describe("Traditional → Simplified by Han runs", () => {
  it("relies on OpenCC's tw→cn dictionaries having Han-only keys", async () => {
    const { Locale } = (await import("opencc-js")) as unknown as {
      Locale: { configs: { tw2s: { normalizationChain: unknown[]; segmentation: unknown[]; conversionChain: unknown[] } } };
    };
    const c = Locale.configs.tw2s;
    const dicts = [c.normalizationChain, c.segmentation, c.conversionChain].flat(2) as Array<string | Array<[string, string]>>;
    const keys = dicts.flatMap((d) => (typeof d === "string" ? d.split("|").map((e) => e.split(" ")[0]!) : d.map(([k]) => k)));
    expect(keys.length).toBeGreaterThan(5000);
    expect(keys.filter((k) => !/^[\p{Script=Han}\u2ff0-\u2fff]+$/u.test(k))).toEqual([]);
  });

  it("skips only text OpenCC would leave unchanged: every dictionary key holds a character it checks for", async () => {
    const { Locale } = (await import("opencc-js")) as unknown as {
      Locale: { configs: { tw2s: { normalizationChain: unknown[]; conversionChain: unknown[] } } };
    };
    const c = Locale.configs.tw2s;
    const dicts = [c.normalizationChain, c.conversionChain].flat(2) as Array<string | Array<[string, string]>>;
    const keys = dicts.flatMap((d) => (typeof d === "string" ? d.split("|").map((e) => e.split(" ")[0]!) : d.map(([k]) => k)));
    expect(keys.filter((k) => !mayConvert(k))).toEqual([]);
    // Keys made only of characters that are no key themselves are covered too: each converts as a whole text would.
    const { Converter } = (await import("opencc-js")) as unknown as { Converter: (o: object) => (s: string) => string };
    const whole = Converter({ from: "tw", to: "cn" });
    expect(keys.filter((k) => toSimplified(k) !== whole(k))).toEqual([]);
    // Most Simplified text is skipped; Traditional text never is.
    expect(mayConvert("我们在这里")).toBe(false);
    expect(mayConvert("我們在這裡")).toBe(true);
    expect(mayConvert("plain ASCII")).toBe(false);
  });

  it("converts mixed text as a whole-text conversion would", async () => {
    const { Converter } = (await import("opencc-js")) as unknown as { Converter: (o: object) => (s: string) => string };
    const whole = Converter({ from: "tw", to: "cn" });
    const text = "I said 「我們在這裡」 in 2024年: 乾淨 and 乾隆 (天干地支), 頭髮 hair, 後來 later";
    expect(toSimplified(text)).toBe("I said 「我们在这里」 in 2024年: 干净 and 乾隆 (天干地支), 头发 hair, 后来 later");
    expect(toSimplified(text)).toBe(whole(text));
  });
});
