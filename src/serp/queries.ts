import { EN_ZH, type LanguagePair, parallelText, parallelTextKey } from "../language-pair.js";
import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import type { QueryPair } from "../store/index.js";

/** One line of a query list: a parallel sentence pair, submitted to engines as one query (seed §4.1). */
export interface QueryEntry extends QueryPair {
  /** Optional third column (e.g. the pair's attribution); carried along, never submitted. */
  note: string | null;
  file: string;
  line: number;
}

/**
 * Read a query list: `English<TAB>Chinese[<TAB>note]` per line; blank lines and lines starting
 * with `#` are skipped. A malformed line is a UserError naming the file and line. The two columns are
 * the source and target of `pair` (English–Chinese unless the caller says otherwise), or of the languages a
 * header line before the first query names: `# languages: en ja`.
 */
export function readQueryFile(file: string, pair: LanguagePair = EN_ZH): QueryEntry[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read query list (${code === "ENOENT" ? "no such file" : (code ?? String(err))})`);
  }
  return parseQueryList(decodeQueryList(bytes, file), file, pair);
}

/**
 * The list as text, strictly UTF-8: a line that is not valid UTF-8 (or holds a NUL byte) is an
 * input error naming it, never a query submitted with replacement characters.
 */
export function decodeQueryList(bytes: Uint8Array, file: string): string {
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    const text = strict.decode(bytes);
    const nul = text.indexOf("\0");
    if (nul >= 0) throw inputError({ file, line: lineAt(text, nul) }, "NUL byte (not a text file?)");
    return text;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  // Find the first line that does not decode.
  let start = 0;
  let line = 1;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    try {
      strict.decode(bytes.subarray(start, end));
    } catch {
      throw inputError({ file, line }, "not valid UTF-8");
    }
    start = end + 1;
    line++;
  }
  throw inputError({ file }, "not valid UTF-8"); // a sequence cut at the very end
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** The header line naming a list's languages, source column first: `# languages: en zh`. */
const LANGUAGES_HEADER = /^#\s*languages:\s*(\S+)\s+(\S+)\s*$/i;

export function parseQueryList(text: string, file: string, defaultPair: LanguagePair = EN_ZH): QueryEntry[] {
  const out: QueryEntry[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let pair = defaultPair;
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    const header = out.length === 0 ? LANGUAGES_HEADER.exec(raw.trim()) : null;
    if (header) {
      pair = header[1] === EN_ZH.a && header[2] === EN_ZH.b ? EN_ZH : { a: header[1]!.toLowerCase(), b: header[2]!.toLowerCase() };
      if (!/^[a-z]{2,3}$/.test(pair.a) || !/^[a-z]{2,3}$/.test(pair.b) || pair.a === pair.b) {
        throw inputError(
          { file, line, field: "languages" },
          `expected two different language codes like "en zh", found "${header[1]} ${header[2]}"`,
        );
      }
      continue;
    }
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const fields = raw.split("\t");
    if (fields.length < 2) {
      throw inputError({ file, line }, 'expected "English<TAB>Chinese", found no tab');
    }
    if (fields.length > 3) {
      throw inputError({ file, line }, `expected 2 or 3 tab-separated fields, found ${fields.length}`);
    }
    const en = normaliseSpace(fields[0]!);
    const zh = normaliseSpace(fields[1]!);
    if (en === "") throw inputError({ file, line, field: "English" }, "empty");
    if (zh === "") throw inputError({ file, line, field: "Chinese" }, "empty");
    const note = fields[2] === undefined ? null : fields[2].trim() || null;
    out.push({ ...parallelText(en, zh, pair), note, file, line });
  }
  return out;
}

/** Read several lists into one, dropping repeated pairs (first occurrence wins). */
export function readQueryFiles(files: readonly string[], pair: LanguagePair = EN_ZH): QueryEntry[] {
  const seen = new Set<string>();
  const out: QueryEntry[] = [];
  for (const file of files) {
    for (const q of readQueryFile(file, pair)) {
      const key = parallelTextKey(q);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(q);
    }
  }
  return out;
}

/** The text submitted to an engine: the pair together, source (English) first (seed §4.1: "I see. 我明白了。"). */
export function queryText(q: QueryPair): string {
  return `${q.source.text} ${q.target.text}`;
}

/**
 * Refuse, before anything is asked, a query longer than an engine takes (`maxQueryLength` of its definition):
 * sent, it would be cut, refused or answered 414, retried and left for every rerun.
 */
export function checkQueryLengths(
  queries: readonly QueryEntry[],
  engines: ReadonlyArray<{ name: string; file: string; definition: { maxQueryLength: number } }>,
): void {
  for (const q of queries) {
    const length = [...queryText(q)].length;
    for (const e of engines) {
      if (length > e.definition.maxQueryLength) {
        throw inputError(
          { file: q.file, line: q.line },
          `query of ${length} characters, longer than engine ${e.name} takes (${e.definition.maxQueryLength}: definition.maxQueryLength in ${e.file})`,
        );
      }
    }
  }
}

function normaliseSpace(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
