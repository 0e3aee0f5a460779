/**
 * Gold pairs for `bitext eval extract`: a page `X.html` beside `X.pairs.tsv`, one pair per line,
 * `<CJK side><TAB><English>` (`zh<TAB>en` for en–zh, as feng2011's annotators wrote them; `ja<TAB>en`
 * for a Japanese page). Blank lines and `#` comments are skipped. The language pair of a page is read
 * from an optional `# pair: en-ja` comment (default en–zh).
 */
import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import { EN_ZH, type LanguagePair } from "../text/index.js";

export interface GoldPage {
  /** The gold file. */
  file: string;
  pair: LanguagePair;
  /** Gold pairs: `a` in pair.a (English), `b` in pair.b. */
  pairs: Array<{ a: string; b: string }>;
}

export function readGoldPairs(file: string): GoldPage {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read gold pairs (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseGoldPairs(file, text);
}

export function parseGoldPairs(file: string, text: string): GoldPage {
  let pair: LanguagePair = EN_ZH;
  const pairs: GoldPage["pairs"] = [];
  for (const [i, raw] of text.split(/\r?\n/u).entries()) {
    const line = raw.replace(/^\uFEFF/u, "");
    if (!line.trim()) continue;
    if (line.startsWith("#")) {
      const m = /^#\s*pair:\s*([a-z]{2,3})-([a-z]{2,3})\s*$/u.exec(line);
      if (m) pair = { a: m[1]!, b: m[2]! };
      continue;
    }
    const cols = line.split("\t");
    if (cols.length !== 2) {
      throw inputError({ file, line: i + 1, field: "pair" }, `expected 2 tab-separated columns (${pair.b}, ${pair.a}), found ${cols.length}`);
    }
    const b = cols[0]!.trim();
    const a = cols[1]!.trim();
    if (!a || !b) throw inputError({ file, line: i + 1, field: a ? pair.b : pair.a }, "empty text");
    pairs.push({ a, b });
  }
  return { file, pair, pairs };
}
