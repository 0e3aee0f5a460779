import { describe, expect, it } from "vitest";
import { numberWords } from "../../src/quality/number-words.js";

describe("numbers written in words, as values", () => {
  it("Han numerals: runs with units read as numbers, runs of digits digit by digit", () => {
    expect(numberWords("中国的版图大概是日本的二十五倍。", "zh")).toEqual(["25"]);
    expect(numberWords("只要十元!", "zh")).toEqual(["10"]);
    expect(numberWords("十五个人", "zh")).toEqual(["15"]);
    expect(numberWords("三千五百", "zh")).toEqual(["3500"]);
    expect(numberWords("一万两千人", "zh")).toEqual(["12000"]);
    expect(numberWords("二〇一九年", "zh")).toEqual(["2019"]);
    expect(numberWords("四分之一个汉字宽", "zh")).toEqual(["4", "1"]);
    expect(numberWords("我明白了。", "zh")).toEqual([]);
  });

  it("English number words, a run read as one number", () => {
    expect(numberWords("twenty-five times", "en")).toEqual(["25"]);
    expect(numberWords("two hundred and five people", "en")).toEqual(["205"]);
    expect(numberWords("a hundred", "en")).toEqual(["100"]);
    expect(numberWords("three thousand five hundred", "en")).toEqual(["3500"]);
    expect(numberWords("nine and ten", "en")).toEqual(["9", "10"]);
    expect(numberWords("I see.", "en")).toEqual([]);
  });

  it("no number words for a language without a reading", () => {
    expect(numberWords("vingt-cinq", "fr")).toEqual([]);
  });
});
