/**
 * Gold pairs for `bitext eval extract`: a page `X.html` beside `X.pairs.tsv`, one pair per line, the two
 * sides in either order (`zh<TAB>en` as feng2011's annotators wrote them, `English<TAB>Chinese` as the real
 * pages' gold is written; the order is read from the file's scripts). Blank lines and `#` comments are skipped. The language pair of a page is read
 * from an optional `# pair: en-ja` comment (default en–zh).
 */
import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import { EN_ZH, type LanguagePair, langShares } from "../text/index.js";

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
  const rows: Array<{ first: string; second: string }> = [];
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
      throw inputError(
        { file, line: i + 1, field: "pair" },
        `expected 2 tab-separated columns (${pair.b}, ${pair.a}), found ${cols.length}`,
      );
    }
    const first = cols[0]!.trim();
    const second = cols[1]!.trim();
    if (!first || !second) throw inputError({ file, line: i + 1, field: first ? "second column" : "first column" }, "empty text");
    rows.push({ first, second });
  }
  // Which column holds the CJK side: the one with more CJK letters over the file (feng2011's annotators wrote
  // `zh<TAB>en`; the real pages' gold is `English<TAB>Chinese`).
  let firstCjk = 0;
  for (const r of rows) firstCjk += cjkShare(r.first, pair) - cjkShare(r.second, pair);
  const pairs = rows.map((r) => (firstCjk >= 0 ? { a: r.second, b: r.first } : { a: r.first, b: r.second }));
  return { file, pair, pairs };
}

function cjkShare(text: string, pair: LanguagePair): number {
  return langShares(text, pair)[pair.b] ?? 0;
}
