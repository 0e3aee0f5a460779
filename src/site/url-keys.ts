/**
 * URL pairing keys (kit-ng2007): two URLs of a bilingual site pair up when they differ in one token of one
 * field — ⟨en, tc⟩ in `/en/about/` ~ `/tc/about/`, ⟨(null), c⟩ in `home.htm` ~ `home_c.htm`. A key's linking
 * power is the number of cross-language URL pairs it matches; keys at or above the threshold τ (default
 * |U|/10) are kept and their pairs merged by the competitive union (stronger keys first, each URL paired
 * at most once). Pure: URLs and languages in, keys and pairs out.
 *
 * No U×U enumeration: each URL is indexed under its field's token sequence with one token removed (and
 * with none removed, for the null side of a key); URLs sharing an index entry are exactly the pairs that
 * differ by one token there.
 */
import type { Lang, LanguagePair } from "../text/index.js";

export type UrlField = "host" | "path" | "file";

export interface UrlKeyOptions {
  /** τ as a number of URL pairs; default `thresholdRatio` × |U|. */
  threshold?: number;
  /** τ as a share of the number of URLs |U| (kit-ng2007: 1/10). */
  thresholdRatio?: number;
  /**
   * Rescue weak keys (kit-ng2007's future work 1): keys below τ that become one key once their common
   * prefix/suffix is removed (06e:06c, 07e:07c → e:c) are pooled, and the pool competes with its summed power.
   */
  generalize?: boolean;
  /** Index entries matching more URL pairs than this are skipped (a flat folder of thousands of one-token names). */
  maxBucketPairs?: number;
  /** File-name tokens that carry no pairing information (extensions). */
  ignoreTokens?: ReadonlySet<string>;
}

export const DEFAULT_URL_KEY_OPTIONS = Object.freeze({
  thresholdRatio: 0.1,
  generalize: true,
  maxBucketPairs: 1_000_000,
  ignoreTokens: new Set(["htm", "html", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "jspx", "cfm", "cgi", "pl"]),
});

/** A pairing key: in `field`, token `a` (language pair.a side) corresponds to token `b` (null = nothing). */
export interface UrlKey {
  field: UrlField;
  a: string | null;
  b: string | null;
  /** Linking power: URL pairs the key matches (for a generalised key, the sum over its members). */
  power: number;
  /** URL pairs the key contributed after the competitive union. */
  accepted: number;
  /** For a generalised key, the raw keys pooled into it ("06e:06c", …). */
  members?: string[];
}

export interface UrlPair {
  /** Index (into the input) of the page in language pair.a and in pair.b. */
  a: number;
  b: number;
  key: UrlKey;
}

export interface UrlKeyResult {
  /** Keys at or above τ (generalised pools included), strongest first. */
  keys: UrlKey[];
  pairs: UrlPair[];
  threshold: number;
  /** Distinct raw keys seen (power ≥ 1). */
  candidateKeys: number;
  /** Index entries skipped for matching more than `maxBucketPairs` pairs. */
  skippedBuckets: number;
}

export interface UrlInput {
  url: string;
  lang: Lang | null;
}

/**
 * A URL's fields as token sequences (kit-ng2007 Table 1): the host split on `.` and `:`, the path into its
 * folder names, the file name (with its query) on `.-_:` and `?&=;`. Folder names stay whole, as the
 * paper's Table 3 keys show (`english : tc_chi`, `eng_text : big5_text` are path keys); file names split
 * (`home_c.htm` → home, c, htm), extensions dropped.
 */
export interface UrlTokens {
  host: string[];
  path: string[];
  file: string[];
}

const HOST_SPLIT = /[.:]+/;
const PATH_SPLIT = /\/+/;
const FILE_SPLIT = /[:/.\-_?&=;]+/;
const SEP = "\u0001";
const FIELDS: readonly UrlField[] = ["host", "path", "file"];

/**
 * Split a URL (absolute, or a path relative to a mirror folder) into fields and tokens.
 * The file is the part after the last `/` (empty for `/about/`), with the query string.
 */
export function urlTokens(url: string, ignoreTokens: ReadonlySet<string> = DEFAULT_URL_KEY_OPTIONS.ignoreTokens): UrlTokens {
  let host = "";
  let path = url;
  let query = "";
  const abs = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url);
  if (abs) {
    host = abs[1]!.toLowerCase();
    path = abs[2] ?? "";
    query = abs[3] ?? "";
  } else {
    const q = path.indexOf("?");
    if (q >= 0) {
      query = path.slice(q);
      path = path.slice(0, q);
    }
    path = path.replace(/#.*$/, "");
  }
  const cut = path.lastIndexOf("/");
  const dir = cut >= 0 ? path.slice(0, cut) : "";
  const file = (cut >= 0 ? path.slice(cut + 1) : path) + query;
  const tokens = (s: string, re: RegExp) => s.split(re).filter((t) => t.length > 0);
  return {
    host: tokens(host, HOST_SPLIT),
    path: tokens(safeDecode(dir), PATH_SPLIT),
    file: tokens(safeDecode(file), FILE_SPLIT).filter((t) => !ignoreTokens.has(t.toLowerCase())),
  };
}

/** Find the URL pairing keys of a site and the URL pairs they make. */
export function findUrlPairs(urls: readonly UrlInput[], pair: LanguagePair, options: UrlKeyOptions = {}): UrlKeyResult {
  const opts = { ...DEFAULT_URL_KEY_OPTIONS, ...dropUndefined(options) };
  const members = urls.map((u, i) => ({ i, lang: u.lang })).filter((u) => u.lang === pair.a || u.lang === pair.b);
  const threshold = options.threshold ?? opts.thresholdRatio * members.length;
  const buckets = new Map<string, Bucket>();
  for (const m of members) indexUrl(buckets, m.i, m.lang === pair.a, urlTokens(urls[m.i]!.url, opts.ignoreTokens));
  const { usable, skippedBuckets } = usableBuckets(buckets, opts.maxBucketPairs);
  const power = rawKeyPowers(usable);
  const { effective, effectiveOf } = effectiveKeys(power, threshold, opts.generalize);
  const order = [...effective.entries()].sort((x, y) => y[1].power - x[1].power || (x[0] < y[0] ? -1 : 1));
  const pairs = competitiveUnion(order, effectivePairs(usable, effectiveOf));
  return { keys: order.map(([, k]) => k), pairs, threshold, candidateKeys: power.size, skippedBuckets };
}

/** A URL in an index entry, with the token removed from its field to reach the entry (null: none). */
interface Entry {
  url: number;
  removed: string | null;
}

/** An index entry's URLs per language. */
interface Bucket {
  a: Entry[];
  b: Entry[];
}

/** A bucket with URLs on both sides, small enough to enumerate, and the field it varies. */
interface UsableBucket extends Bucket {
  field: UrlField;
}

const rawKey = (field: string, a: string | null, b: string | null) => `${field}${SEP}${a ?? ""}${SEP}${b ?? ""}`;

/** Index a URL: per field, under the other fields + the field's token sequence minus one token (or none). */
function indexUrl(buckets: Map<string, Bucket>, url: number, isA: boolean, t: UrlTokens): void {
  for (const field of FIELDS) {
    const context = FIELDS.filter((f) => f !== field)
      .map((f) => t[f].join("/"))
      .join(SEP);
    const seq = t[field];
    const seen = new Set<string>();
    const add = (rest: string[], removed: string | null) => {
      const key = `${field}${SEP}${context}${SEP}${rest.join("/")}`;
      const dedupe = `${key}${SEP}${removed ?? ""}`;
      if (seen.has(dedupe)) return;
      seen.add(dedupe);
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { a: [], b: [] };
        buckets.set(key, bucket);
      }
      (isA ? bucket.a : bucket.b).push({ url, removed });
    };
    add(seq, null);
    for (let k = 0; k < seq.length; k++) add(seq.slice(0, k).concat(seq.slice(k + 1)), seq[k]!);
  }
}

function usableBuckets(buckets: Map<string, Bucket>, maxBucketPairs: number): { usable: UsableBucket[]; skippedBuckets: number } {
  const usable: UsableBucket[] = [];
  let skippedBuckets = 0;
  for (const [key, bucket] of buckets) {
    if (bucket.a.length === 0 || bucket.b.length === 0) continue;
    if (bucket.a.length * bucket.b.length > maxBucketPairs) {
      skippedBuckets++;
      continue;
    }
    usable.push({ field: key.slice(0, key.indexOf(SEP)) as UrlField, a: bucket.a, b: bucket.b });
  }
  return { usable, skippedBuckets };
}

/** Pass 1: linking power of every raw key. */
function rawKeyPowers(usable: readonly UsableBucket[]): Map<string, number> {
  const power = new Map<string, number>();
  for (const { field, a, b } of usable) {
    for (const ea of a) {
      for (const eb of b) {
        if (ea.removed === eb.removed) continue; // same token (or none) removed on both sides: not a key
        const k = rawKey(field, ea.removed, eb.removed);
        power.set(k, (power.get(k) ?? 0) + 1);
      }
    }
  }
  return power;
}

/**
 * Effective keys: strong raw keys stand alone; weak ones (optionally) pool by their generalised form
 * (06e:06c, 07e:07c and a weak e:c itself → e:c). A pool reaching τ becomes a key; a pool whose form is
 * a strong key's joins that key. Returns the keys by effective key string and each raw key's effective key.
 */
function effectiveKeys(
  power: Map<string, number>,
  threshold: number,
  generalize: boolean,
): { effective: Map<string, UrlKey>; effectiveOf: Map<string, string> } {
  const effective = new Map<string, UrlKey>();
  const effectiveOf = new Map<string, string>();
  const pools = new Map<string, { field: UrlField; a: string | null; b: string | null; power: number; members: string[] }>();
  for (const [k, p] of power) {
    const [field, a, b] = splitRawKey(k);
    if (p >= threshold) {
      effective.set(k, { field, a, b, power: p, accepted: 0 });
      effectiveOf.set(k, k);
      continue;
    }
    if (!generalize) continue;
    const g = generalizeKey(a, b) ?? { a, b };
    const gk = rawKey(field, g.a, g.b);
    let pool = pools.get(gk);
    if (!pool) {
      pool = { field, a: g.a, b: g.b, power: 0, members: [] };
      pools.set(gk, pool);
    }
    pool.power += p;
    pool.members.push(k);
  }
  for (const [gk, pool] of pools) {
    const strong = effective.get(gk);
    if (strong) {
      strong.power += pool.power;
      strong.members = pool.members.map(formatRaw);
    } else if (pool.members.length >= 2 && pool.power >= threshold) {
      effective.set(gk, { field: pool.field, a: pool.a, b: pool.b, power: pool.power, accepted: 0, members: pool.members.map(formatRaw) });
    } else continue;
    for (const m of pool.members) effectiveOf.set(m, gk);
  }
  return { effective, effectiveOf };
}

/** Pass 2: the URL pairs of every effective key. */
function effectivePairs(usable: readonly UsableBucket[], effectiveOf: Map<string, string>): Map<string, Array<[number, number]>> {
  const pairsOf = new Map<string, Array<[number, number]>>();
  for (const { field, a, b } of usable) {
    for (const ea of a) {
      for (const eb of b) {
        if (ea.removed === eb.removed) continue;
        const ek = effectiveOf.get(rawKey(field, ea.removed, eb.removed));
        if (ek === undefined) continue;
        let list = pairsOf.get(ek);
        if (!list) {
          list = [];
          pairsOf.set(ek, list);
        }
        list.push([ea.url, eb.url]);
      }
    }
  }
  return pairsOf;
}

/** Competitive union: stronger keys (`order`) claim their URLs first, each URL paired at most once. */
function competitiveUnion(order: ReadonlyArray<[string, UrlKey]>, pairsOf: Map<string, Array<[number, number]>>): UrlPair[] {
  const used = new Set<number>();
  const pairs: UrlPair[] = [];
  for (const [ek, key] of order) {
    const list = (pairsOf.get(ek) ?? []).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    for (const [a, b] of list) {
      if (used.has(a) || used.has(b)) continue;
      used.add(a);
      used.add(b);
      key.accepted++;
      pairs.push({ a, b, key });
    }
  }
  return pairs;
}

/** `en:tc`, `(null):c`, … as the paper writes keys. */
export function formatKey(key: Pick<UrlKey, "a" | "b">): string {
  return `${key.a ?? "(null)"}:${key.b ?? "(null)"}`;
}

/**
 * The generalised form of a key: the tokens without their common prefix and suffix (06e:06c → e:c,
 * regione:regionc → e:c), or null when nothing is common or only digits differ. A side reduced to nothing
 * becomes null.
 */
export function generalizeKey(a: string | null, b: string | null): { a: string | null; b: string | null } | null {
  if (a === null || b === null) return null;
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  if (pre === 0 && suf === 0) return null;
  const ga = a.slice(pre, a.length - suf);
  const gb = b.slice(pre, b.length - suf);
  if (ga === "" && gb === "") return null;
  // Language markers are letters (e/c, en/sc); what differs only in digits is a page number (p7:p6), not a key.
  if (!/\p{L}/u.test(ga + gb)) return null;
  return { a: ga || null, b: gb || null };
}

function splitRawKey(k: string): [UrlField, string | null, string | null] {
  const [field, a, b] = k.split(SEP) as [UrlField, string, string];
  return [field, a || null, b || null];
}

function formatRaw(k: string): string {
  const [, a, b] = splitRawKey(k);
  return formatKey({ a, b });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
