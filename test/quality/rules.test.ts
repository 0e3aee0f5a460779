import { describe, expect, it } from "vitest";
import { isBoilerplate } from "../../src/quality/boilerplate.js";
import { parseBoilerplate } from "../../src/quality/index.js";
import { ruleReasons } from "../../src/quality/rules.js";
import { readSide } from "../../src/quality/sides.js";
import { EN_ZH } from "../../src/text/index.js";

/** The hard rules on their own (a wide length range, so only the rule under test can fire). */
const reasons = (a: string, b: string) => ruleReasons(readSide(a, "en", EN_ZH), readSide(b, "zh", EN_ZH), { lo: -3, hi: 5 });

describe("the pair scorer's hard rules name why a pair is not a translation", () => {
  it("lets a real pair through", () => {
    expect(reasons("He was born on July 28th, 1888.", "他出生于1888年7月28日。")).toEqual([]);
    expect(reasons("Python Enhancement Proposals", "Python增强提案")).toEqual([]);
    expect(reasons("I have not seen my father for more than 2 years.", "我与父亲不相见已二年余了。")).toEqual([]);
  });

  it("empty_side: an empty or one-character side", () => {
    expect(reasons("", "你好。")).toContain("empty_side");
    expect(reasons("A", "一个苹果")).toContain("empty_side");
    expect(reasons("Hello there.", "。")).toContain("empty_side");
    expect(reasons("Apple", "A")).toContain("empty_side");
    expect(reasons("Seven", "7")).toContain("empty_side");
  });

  it("empty_side: one character is a word in a language written without spaces (a glossary's terms)", () => {
    expect(reasons("heap", "堆")).toEqual([]);
    expect(reasons("Note", "注")).toEqual([]);
    expect(reasons("alas!", "唉!")).toEqual([]);
  });

  it("wrong_language: a side in the other language", () => {
    expect(reasons("I see.", "I see what you mean.")).toContain("wrong_language");
    expect(reasons("我明白了。", "我明白了你的意思。")).toContain("wrong_language");
  });

  it("number, URL and e-mail mismatches", () => {
    expect(reasons("I have 3 cats.", "我有4只猫。")).toContain("number_mismatch");
    expect(reasons("See https://example.org/a for details.", "详情见 https://example.org/b 。")).toContain("url_mismatch");
    expect(reasons("Write to ann@example.org.", "请写信给我们。")).toContain("email_mismatch");
  });

  it("number_mismatch: the same numbers written otherwise agree (thousands, myriads, a fraction's zeros, a clock time's minutes)", () => {
    for (const [a, b] of [
      ["He gave me 10,000 yen.", "他给了我1万日元。"],
      ["He gave me 10,000 yen.", "他給了我1萬日元。"],
      ["My husband earns $100,000 a year.", "我丈夫一年收入10万美元。"],
      ["Admission is $3.00 at the door.", "入场费是3美元。"],
      ["School is over at 3:30.", "学校3点半放学。"],
      ["The meeting ended at 4:00 p.m.", "会议于下午4点结束。"],
      ["It's 7:45.", "现在是7点45分。"],
    ])
      expect(reasons(a!, b!)).not.toContain("number_mismatch");
    expect(reasons("He gave me 10,000 yen.", "他给了我2万日元。")).toContain("number_mismatch");
    expect(reasons("School is over at 3:30.", "学校4点半放学。")).toContain("number_mismatch");
    expect(reasons("It costs $3.50.", "要3美元。")).toContain("number_mismatch");
    expect(reasons("It's 7:45.", "现在是7点50分。")).toContain("number_mismatch");
  });

  it("number_mismatch: a month named beside a number, an hour p.m. on a 24-hour clock (Tatoeba's real pairs)", () => {
    for (const [a, b] of [
      ["She had already gone to bed when I called her at 11 p.m.", "23点我打电话给她的时候,她已经去睡觉了。"],
      ["I was born on October 20, 1990.", "我出生于1990年10月20日。"],
      ["It is 7 p.m.", "现在是晚上7点。"],
      ["We met on 12 November 2019.", "我们于2019年11月12日见面。"],
    ])
      expect(reasons(a!, b!)).not.toContain("number_mismatch");
    expect(reasons("It's 3 p.m.", "现在是下午4点。")).toContain("number_mismatch");
    expect(reasons("I was born on October 20, 1990.", "我出生于1990年11月20日。")).toContain("number_mismatch");
    // A month's name alone is not a number ("May I come in?").
    expect(reasons("May I have 20 of them?", "我可以要5个吗?")).toContain("number_mismatch");
  });

  it("number_mismatch: a comma before other than three digits separates two numbers; a number the other side writes in words", () => {
    // Real pairs of the development pages (xlhhai's translations, W3C's Chinese layout requirements).
    for (const [a, b] of [
      ["1925,10 in Beijing", "1925年10月在北京。"],
      ["The ten digits: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9.", "采用0、1、2、3、4、5、6、7、8、9共10个计数符号。"],
    ])
      expect(reasons(a!, b!)).not.toContain("number_mismatch");
    expect(reasons("1925,11 in Beijing", "1925年10月在北京。")).toContain("number_mismatch");
    expect(reasons("The nine digits: 1, 2, 3, 4, 5, 6, 7, 8, 9.", "采用1、2、3、4、5、6、7、8、9共10个计数符号。")).toContain(
      "number_mismatch",
    );
    // Thousands still join: 10,000 = 1万.
    expect(reasons("He gave me 10,000 yen.", "他给了我1万日元。")).not.toContain("number_mismatch");
  });

  it("contained: one side inside the other", () => {
    expect(reasons("iPhone", "iPhone 手机")).toContain("contained");
  });

  it("boilerplate: navigation labels, read more, copyright lines, dates alone (Simplified or Traditional)", () => {
    expect(reasons("Home", "首页")).toContain("boilerplate");
    expect(reasons("Home", "主頁")).toContain("boilerplate");
    expect(reasons("Read more »", "阅读更多")).toContain("boilerplate");
    expect(reasons("© 2024 Example Inc. All rights reserved.", "版权所有 © 2024 Example Inc.")).toContain("boilerplate");
    expect(reasons("March 3, 2021", "2021年3月3日")).toContain("boilerplate");
    expect(reasons("Next page", "下一页")).toContain("boilerplate");
  });

  it("a boilerplate file's patterns: each tested on the whole side, a pattern referring to its own group included", () => {
    const file = ["# labels and patterns", "Home", "/^page (\\d+)$/", "/^(\\w+),? \\1$/", "/^share on \\w+$/"].join("\n");
    const b = parseBoilerplate(file, "en");
    const is = (text: string) => isBoilerplate(text, text.toLowerCase().replace(/\W+/g, ""), b);
    expect(["Home", "Page 12", "bye, bye", "Share on Weibo"].filter(is)).toEqual(["Home", "Page 12", "bye, bye", "Share on Weibo"]);
    expect(["Home page", "Page twelve", "bye, now", "Share on"].filter(is)).toEqual([]);
    // Joined into one pattern, the same verdicts.
    const joined = parseBoilerplate(["/^page \\d+$/", "/^share on \\w+$/"].join("\n"), "en");
    expect(joined.any).not.toBeNull();
    expect(["Page 3", "share on X", "Page three"].map((t) => isBoilerplate(t, "", joined))).toEqual([true, true, false]);
    // Two patterns with a group of one name cannot be one pattern: each is tested on its own.
    const named = parseBoilerplate(["/^page (?<n>\\d+)$/", "/^(?<n>\\d+) views$/"].join("\n"), "en");
    expect(["Page 3", "12 views", "views"].map((t) => isBoilerplate(t, "", named))).toEqual([true, true, false]);
  });

  it("length_ratio: a length ratio outside the pair's range", () => {
    const tight = ruleReasons(readSide("Good morning, everyone, and welcome to the meeting.", "en", EN_ZH), readSide("早", "zh", EN_ZH), {
      lo: -1,
      hi: 2,
    });
    expect(tight).toContain("length_ratio");
  });
});
