import { describe, expect, it } from "vitest";
import { pageSnippets, languageRuns } from "../../src/extract/index.js";
import { isAbbreviation } from "../../src/extract/analyse.js";
import { cleanSnippet } from "../../src/extract/surface.js";
import { parseTree as parseDocument } from "../../src/extract/index.js";
import { EN_JA, EN_ZH } from "../../src/text/index.js";
import { fixture } from "./helpers.js";

const figure3 = parseDocument(fixture("feng2011-figure3.html"));
const texts = (html: string, pair = EN_ZH) =>
  pageSnippets(parseDocument(html), { pair, segmentation: "html" }).snippets.map((s) => `${s.lang}:${s.text}`);

describe("the page analyser (feng2011 §IV.A)", () => {
  it("cuts the Figure 3 page by HTML blocks, so the heading is not glued to a translation (Table I)", () => {
    const { snippets } = pageSnippets(figure3, { pair: EN_ZH, segmentation: "html" });
    const zh = snippets.filter((s) => s.lang === "zh").map((s) => s.text);
    expect(zh).toContain("你今天上午/下午/晚上好吗？（问得更具体所得到的答案也可能更具体）");
    expect(zh).toContain("而如果是其他人问你，那么我们可以这样来回答：");
  });

  it("segmented by language only, merges them into one snippet, as Table I shows", () => {
    const { snippets } = pageSnippets(figure3, { pair: EN_ZH, segmentation: "language" });
    const merged = snippets.find((s) => s.text.startsWith("你今天上午"));
    expect(merged?.text).toContain("而如果是其他人问你");
  });

  it("keeps each snippet's tag context", () => {
    const { snippets } = pageSnippets(figure3, { pair: EN_ZH, segmentation: "html" });
    const i = snippets.findIndex((s) => s.text === "我还好，就是有点累。");
    expect(snippets[i]!.gapBefore).toEqual(["</div>", "<div.langs_cn>"]);
    expect(snippets[i - 1]!.gapBefore).toEqual(["</div>", "<div.langs_en>"]);
  });

  it("unwraps visual tags (<strong>, <b>, <font>) and skips scripts, styles and the head", () => {
    const s = texts(
      "<html><head><title>标题 Title</title><style>p{}</style></head><body><p>I <b>really</b> like <font color=red>it</font>.</p><script>var x='中文'</script><p><strong>我</strong>很喜欢。</p></body></html>",
    );
    expect(s).toEqual(["en:I really like it.", "zh:我很喜欢。"]);
  });

  it("keeps a link inside a sentence but separates menu links", () => {
    expect(texts('<p>He said <a href="/x">the ministry</a> agreed.</p>')).toEqual(["en:He said the ministry agreed."]);
    expect(texts('<div><a href="/">Home 首页</a> | <a href="/n">News 新闻</a></div>')).toEqual([
      "en:Home",
      "zh:首页",
      "en:News",
      "zh:新闻",
    ]);
  });

  it("leaves out ruby annotations, e-mail addresses and URLs", () => {
    expect(texts("<p><ruby>漢字<rt>かんじ</rt></ruby>を書く。</p>", EN_JA)).toEqual(["ja:漢字を書く。"]);
    expect(texts("<p>联系 webmaster@example.com</p><p>http://example.org/a</p>")).toEqual(["zh:联系"]);
  });
});

describe("language runs and the seed's punctuation rules", () => {
  it("merges an abbreviation into the Chinese around it (rule 2)", () => {
    expect(languageRuns("我们在IALP会议上发表了论文。", EN_ZH).map((r) => r.text)).toEqual(["我们在IALP会议上发表了论文。"]);
    expect(isAbbreviation("IALP")).toBe(true);
    expect(isAbbreviation("iPhone")).toBe(true);
    expect(isAbbreviation("banana")).toBe(false);
  });

  it("keeps an abbreviation beside one Chinese run as a pair of its own (人工智能 (AI))", () => {
    expect(languageRuns("人工智能（AI）", EN_ZH).map((r) => r.lang)).toEqual(["zh", "en"]);
  });

  it("merges a word left untranslated inside a long Chinese sentence, but not a glossary line", () => {
    const long = "支持自己的南斯拉夫前提托元帅，指责米哈伊洛维奇与德国人合作。 Criticizes 英国媒体立刻接受了这种说法并且广泛报道。";
    expect(languageRuns(long, EN_ZH)).toHaveLength(1);
    expect(languageRuns("苹果 apple 香蕉 banana", EN_ZH).map((r) => r.text)).toEqual(["苹果", "apple", "香蕉", "banana"]);
  });

  it("keeps a dialogue's speaker label out of the texts (A: Hello<br>A：你好)", () => {
    expect(texts("<p>A: Can I help you?<br>A：有什么可以帮您的吗？<br>B: Yes, please.</p>")).toEqual([
      "en:Can I help you?",
      "zh:有什么可以帮您的吗？",
      "en:Yes, please.",
    ]);
  });

  it("gives open punctuation to the next snippet and close punctuation to the previous (rule 1)", () => {
    expect(languageRuns("Good morning! (早上好！)", EN_ZH).map((r) => r.text)).toEqual(["Good morning!", "(早上好！)"]);
  });
});

describe("surface clean-up", () => {
  it("takes list markers, wrapping brackets and inline separators off the text", () => {
    expect(cleanSnippet("1. Good morning!", false, true)).toEqual({ text: "Good morning!", lead: "1.", trail: "" });
    expect(cleanSnippet("(早上好！)", true, false)).toEqual({ text: "早上好！", lead: "(", trail: ")" });
    expect(cleanSnippet("apple:", false, true)).toEqual({ text: "apple", lead: "", trail: ":" });
    expect(cleanSnippet("我喜欢苹果。 2.", true, true).text).toBe("我喜欢苹果。");
  });

  it("keeps brackets that do not wrap the whole snippet", () => {
    expect(cleanSnippet("(see below) and more", false, false).text).toBe("(see below) and more");
    expect(cleanSnippet("Really good. (Then explain why)", false, false).text).toBe("Really good. (Then explain why)");
  });
});
