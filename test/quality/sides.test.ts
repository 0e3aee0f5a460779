import { describe, expect, it } from "vitest";
import { readSide } from "../../src/quality/sides.js";
import { EN_ZH } from "../../src/text/index.js";

/** What the rules and features read of a side: its characters counted one by one, whatever their UTF-16 length. */
describe("a side as the scorer reads it", () => {
  it("counts letters by language, words of the other language, punctuation by class, and no spaces", () => {
    const s = readSide("我用 iPhone 拍了这张照片，你看！", "zh", EN_ZH);
    expect(s).toMatchObject({ length: 18, ownLetters: 10, otherLetters: 6, otherWords: 1, final: 2, endsInWord: false });
    expect(s.punct.slice(0, 4)).toEqual([0, 0, 1, 1]); // no full stop, no question mark, one "!" and one "，"
  });

  it("reads a character outside the BMP as one character, and a tab or a control code as a space", () => {
    // 𠮷 (U+20BB7) is a Han letter of two UTF-16 units; 😀 is neither language's.
    const s = readSide("𠮷野家\t😀 \u0001吃饭。", "zh", EN_ZH);
    expect(s).toMatchObject({ length: 7, ownLetters: 5, otherLetters: 0, final: 0, endsInWord: false });
    expect(s.punct[0]).toBe(1);
    const lone = readSide("a\ud800b", "en", EN_ZH); // a lone surrogate: one character, no letter
    expect(lone).toMatchObject({ length: 3, ownLetters: 2, endsInWord: true });
  });
});
