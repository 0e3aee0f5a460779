import type { Lang } from "../language-pair.js";

/**
 * Numbers a side writes in words, as values (strings of digits, as `numbersOf` gives the numbers written in digits):
 * a translation often writes in words what the other side writes in digits ("at 7:00" = 七点, "$10.00" = 十元,
 * "25 times" = 二十五倍, "3 methods" = 三种). For languages counting in myriads with Han numerals (zh, ja; the side in the
 * lexicon's form, Chinese in Simplified) and for English; none for other languages.
 */
export function numberWords(text: string, lang: Lang): string[] {
  if (lang === "zh" || lang === "ja") return hanNumbers(text);
  if (lang === "en") return englishNumbers(text);
  return [];
}

const HAN_DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const HAN_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };
const HAN_MYRIADS: Readonly<Record<string, number>> = { 万: 1e4, 亿: 1e8, 億: 1e8 };
const HAN_NUMERAL = /[零〇一二两三四五六七八九十百千万亿億]+/gu;

/**
 * Han numerals: a run with units (十 百 千, 万 亿) read as a number ("二十五" 25, "一百" 100, "三千五百" 3500, "十" 10);
 * a run of digits alone read digit by digit ("二〇一九" 2019, "七" 7). A run of units alone is no number (万 in 万一).
 */
function hanNumbers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(HAN_NUMERAL)) {
    const run = m[0];
    let hasDigit = false;
    let hasUnit = false;
    for (const ch of run) {
      if (HAN_DIGITS[ch] !== undefined) hasDigit = true;
      else hasUnit = true;
    }
    if (!hasDigit && run !== "十") continue;
    if (!hasUnit) {
      out.push(String(Number(Array.from(run, (ch) => HAN_DIGITS[ch]).join(""))));
      continue;
    }
    let total = 0;
    let section = 0;
    let digit = 0;
    for (const ch of run) {
      const d = HAN_DIGITS[ch];
      if (d !== undefined) {
        digit = d;
        continue;
      }
      const unit = HAN_UNITS[ch];
      if (unit !== undefined) {
        // "十五" is 15: a unit without a digit before it counts once.
        section += (digit || 1) * unit;
      } else {
        total += (section + digit) * HAN_MYRIADS[ch]!;
        section = 0;
      }
      digit = 0;
    }
    out.push(String(total + section + digit));
  }
  return out;
}

const ENGLISH_ONES: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  dozen: 12,
};
const ENGLISH_SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
const ENGLISH_WORD = /[a-z]+/gu;

/**
 * English number words, a run of them read as one number ("twenty-five" 25, "two hundred" 200, "a hundred" 100,
 * "three thousand five hundred" 3500); "and" after a hundred or a thousand goes on with the run ("one hundred and five").
 */
function englishNumbers(text: string): string[] {
  const out: string[] = [];
  let total = 0;
  let current = 0;
  let inRun = false;
  let afterScale = false;
  let lastEnd = -1;
  const flush = () => {
    if (inRun) out.push(String(total + current));
    total = 0;
    current = 0;
    inRun = false;
  };
  for (const m of text.toLowerCase().matchAll(ENGLISH_WORD)) {
    const w = m[0];
    // Words of a run stand next to each other (a space or a hyphen between them).
    if (inRun && m.index - lastEnd > 1) flush();
    const ones = ENGLISH_ONES[w];
    const scale = ENGLISH_SCALES[w];
    if (ones !== undefined) {
      current += ones;
      inRun = true;
      afterScale = false;
    } else if (scale !== undefined) {
      // "a hundred", "hundreds": a scale alone counts one of it.
      current = (current || 1) * scale;
      if (scale >= 1000) {
        total += current;
        current = 0;
      }
      inRun = true;
      afterScale = true;
    } else if (!(w === "and" && afterScale)) {
      flush();
      afterScale = false;
    }
    lastEnd = m.index + w.length;
  }
  flush();
  return out;
}
