import { describe, expect, it } from "vitest";
import { makeNegatives } from "../../src/quality/index.js";
import { seededRandom } from "../../src/random.js";
import { comparableText, EN_ZH, loadLexicon } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/** Real pairs of a fixture copied from ../shared/data. */
const real = (path: string) => fixturePairs(`real/${path}`);
const key = (p: { a: string; b: string }) => `${comparableText(p.a)}\t${comparableText(p.b)}`;

describe("the synthetic negatives are not translations", () => {
  const lex = loadLexicon(EN_ZH);

  it("never pair a sentence with another of its real translations (Tatoeba lists several)", () => {
    // The first lines pair "Wait!" with 等等！ and with 等一下！: a neighbour or shuffled partner may be the other.
    const pairs = real("parallel/tatoeba-cmn-eng.dev.tsv").slice(0, 3000);
    const known = new Set(pairs.map(key));
    const sameA = new Map<string, number>();
    for (const p of pairs) sameA.set(comparableText(p.a), (sameA.get(comparableText(p.a)) ?? 0) + 1);
    expect([...sameA.values()].filter((n) => n > 1).length).toBeGreaterThan(50);
    for (const seed of [1, 2, 3]) {
      const negatives = makeNegatives(pairs, EN_ZH, lex, seededRandom(seed));
      expect(negatives.length).toBeGreaterThan(0.95 * pairs.length);
      expect(negatives.filter((n) => known.has(key(n)))).toEqual([]);
    }
  });

  const terms = real("bilingual-pages/real/rust_glossary/rust-glossary.pairs.tsv");

  /** The truncated negatives of the Rust glossary (seeds 1–5) whose side `cut` is a cut of a term's, with that term. */
  const cutsOf = (cut: "a" | "b") => {
    const kept = cut === "a" ? "b" : "a";
    return [1, 2, 3, 4, 5].flatMap((seed) =>
      makeNegatives(terms, EN_ZH, lex, seededRandom(seed))
        .filter((n) => n.kind === "truncated")
        .flatMap((n) => {
          const original = terms.find((t) => t[kept] === n[kept] && t[cut].startsWith(n[cut]) && t[cut] !== n[cut]);
          return original ? [{ n, original }] : [];
        }),
    );
  };

  it("do not cut a term's list of alternatives at a separator (浅拷贝，浅复制 → 浅拷贝 is a translation)", () => {
    expect(terms.filter((t) => /[，,、]/u.test(t.b)).length).toBeGreaterThan(20);
    const cuts = cutsOf("b");
    expect(cuts.length).toBeGreaterThan(20);
    for (const { n, original } of cuts) {
      // The cut ends inside an alternative: neither on a separator nor just before one.
      expect(n.b).not.toMatch(/\p{P}$/u);
      expect(original.b.slice(n.b.length)).not.toMatch(/^\p{P}/u);
    }
  });

  it('cut an English side between words only, never inside a word ("container" → "conta" is no text a page holds)', () => {
    const englishWords = new Set(terms.flatMap((t) => t.a.split(/\s+/u)));
    const cuts = cutsOf("a");
    expect(cuts.length).toBeGreaterThanOrEqual(3);
    for (const { n, original } of cuts) {
      // Whole words of the term, and fewer of them.
      for (const w of n.a.split(/\s+/u)) expect(englishWords.has(w), n.a).toBe(true);
      expect(n.a.split(/\s+/u).length).toBeLessThan(original.a.split(/\s+/u).length);
    }
  });
});
