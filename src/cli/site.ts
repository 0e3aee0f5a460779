import type { Command } from "commander";
import { assertWritable } from "../config/index.js";
import { UserError } from "../errors.js";
import { fmt } from "../eval/index.js";
import {
  crawlSite,
  DEFAULT_CANDIDATE_OPTIONS,
  DEFAULT_CRAWL_OPTIONS,
  DEFAULT_ETS_OPTIONS,
  formatKey,
  loadSite,
  mirrorFiles,
  type PageWeighting,
  type PairingMethod,
  type PairOptions,
  type PairResult,
  pairPages,
  readCrawlManifest,
  type Site,
} from "../site/index.js";
import { EN_ZH, type LanguagePair, loadLexicon } from "../text/index.js";
import { formatTable, printJsonLine, printLine } from "./output.js";
import { durationMs, languagePair, positiveDurationMs, wholeNumber } from "./flags.js";
import { createProgress } from "./progress.js";
import { stopOnInterrupt } from "./signals.js";

const METHODS: readonly PairingMethod[] = ["urls", "links", "both"];
const WEIGHTINGS: readonly PageWeighting[] = ["none", "scale", "drop"];

export function registerSiteCommands(program: Command): void {
  const site = program.command("site");
  registerCrawlCommand(site);
  registerLoadCommand(site);
  registerPairCommand(site);
}

function registerCrawlCommand(site: Command): void {
  site
    .command("crawl")
    .description("crawl a bilingual site politely into a folder (pages, URLs, links)")
    .argument("<url...>", "start URL(s) on one host, e.g. the home pages of both languages")
    .requiredOption("--out <dir>", "folder for the crawl (site.json + pages/)")
    .option("--max-pages <n>", "pages to keep at most", String(DEFAULT_CRAWL_OPTIONS.maxPages))
    .option("--max-depth <n>", "link depth from the start URLs", String(DEFAULT_CRAWL_OPTIONS.maxDepth))
    .option("--concurrency <n>", "requests in flight", String(DEFAULT_CRAWL_OPTIONS.concurrency))
    .option("--delay <duration>", "time between requests to the host, robots Crawl-delay can raise it (500ms, 2s)", "1s")
    .option("--timeout <duration>", "time allowed per request (20s)", "20s")
    .option("--max-bytes <n>", "largest page accepted, in bytes", String(5 * 1024 * 1024))
    .option("--min-text <bytes>", "pages with less visible text are not kept", String(DEFAULT_CRAWL_OPTIONS.minContentBytes))
    .option("--host <host...>", "other hosts whose links count as this site's (a copy of the site served elsewhere)")
    .option("--user-agent <ua>", "User-Agent sent and matched in robots.txt")
    .option("--no-robots", "ignore robots.txt (only for sites you run)")
    .option("--no-sitemaps", "do not read the site's sitemaps (robots.txt Sitemap:, <link rel=sitemap>)")
    .option("--force", "replace an earlier crawl in --out")
    .option("--json", "print the summary as JSON")
    .action(runCrawl);
}

async function runCrawl(urls: string[], flags: CrawlFlags): Promise<void> {
  const interrupt = stopOnInterrupt("stopping the crawl after the requests in flight");
  const progress = createProgress({ label: "crawl", quiet: flags.json === true });
  try {
    const maxPages = wholeNumber("--max-pages", flags.maxPages, 1);
    assertWritable(flags.out); // before the crawl folder is made
    const summary = await crawlSite(urls, {
      out: flags.out,
      maxPages,
      maxDepth: wholeNumber("--max-depth", flags.maxDepth, 0),
      concurrency: wholeNumber("--concurrency", flags.concurrency, 1),
      minContentBytes: wholeNumber("--min-text", flags.minText, 0),
      hostAliases: flags.host ?? [],
      force: flags.force === true,
      sitemaps: flags.sitemaps !== false,
      fetch: {
        delayMs: durationMs("--delay", flags.delay),
        timeoutMs: positiveDurationMs("--timeout", flags.timeout),
        maxBytes: wholeNumber("--max-bytes", flags.maxBytes, 1),
        robots: flags.robots !== false,
        ...(flags.userAgent ? { userAgent: flags.userAgent } : {}),
      },
      signal: interrupt.signal,
      onProgress: (p) => progress.tick(1, { kept: p.kept, queued: p.queued, skipped: p.skipped }),
    });
    progress.done();
    printCrawlSummary(crawlSummaryForCli(summary, maxPages), flags.json === true);
  } finally {
    interrupt.dispose();
  }
}

type CrawlSummary = Awaited<ReturnType<typeof crawlSite>>;

/** The page limit named by its flag, as the user set it. */
function crawlSummaryForCli({ pageLimitReached, ...summary }: CrawlSummary, maxPages: number): Omit<CrawlSummary, "pageLimitReached"> {
  return pageLimitReached ? { ...summary, stopReason: `page limit reached (--max-pages ${maxPages})` } : summary;
}

function printCrawlSummary(summary: Omit<CrawlSummary, "pageLimitReached">, json: boolean): void {
  if (json) printJsonLine(summary);
  else {
    printLine(
      `${summary.interrupted ? "interrupted: " : ""}${summary.pages} pages kept, ${summary.skipped} URLs skipped, ` +
        `${(summary.ms / 1000).toFixed(1)} s → ${summary.manifest}`,
    );
    printLine(`stopped: ${summary.stopReason}${summary.resumed > 0 ? ` (resumed an unfinished crawl of ${summary.resumed} pages)` : ""}`);
    if (summary.skipped > 0) printLine(`(skipped URLs and why: "skipped" in ${summary.manifest})`);
  }
}

function registerLoadCommand(site: Command): void {
  site
    .command("load")
    .description("read a crawl or an existing mirror (HTTrack-style folder of HTML files) and show its pages")
    .argument("<dir>", "a folder written by `bitext site crawl`, or a mirror folder")
    .option("--langs <a-b>", "the two languages, by script", "en-zh")
    .option("--host <host...>", "hosts whose absolute links count as links within the mirror")
    .option("--min-text <bytes>", "pages with less visible text are dropped", "100")
    .option("--pages", "list every page (key, language, text bytes, links, title)")
    .option("--json", "print one JSON line per page, then one with the summary")
    .action(showSite);
}

/** `site load`: the pages of a crawl or mirror, their languages and links, and the pages dropped. */
function showSite(dir: string, flags: LoadFlags): void {
  const site = loadWithProgress(dir, flags);
  const counts = languageCounts(site);
  const links = site.pages.reduce((s, p) => s + p.links.length, 0);
  if (flags.json) {
    for (const p of site.pages) {
      printJsonLine({
        key: p.key,
        lang: p.lang,
        shares: roundShares(p.shares),
        textBytes: p.contentBytes,
        links: p.links.length,
        title: p.title,
      });
    }
    printJsonLine({ source: site.source, pages: site.pages.length, languages: counts, links, dropped: site.dropped });
    return;
  }
  if (flags.pages) {
    const rows: Array<Array<string | number>> = [["page", "lang", "text bytes", "links", "title"]];
    for (const p of site.pages) rows.push([p.key, p.lang ?? "-", p.contentBytes, p.links.length, p.title.slice(0, 60)]);
    printLine(formatTable(rows));
    printLine();
  }
  const langs = Object.entries(counts)
    .map(([l, n]) => `${l} ${n}`)
    .join(", ");
  printLine(`${site.source} ${dir}: ${site.pages.length} pages (${langs}), ${links} links between them`);
  if (site.dropped.length > 0) {
    printLine(`${site.dropped.length} dropped:`);
    for (const d of site.dropped.slice(0, 20)) printLine(`  ${d.key}: ${d.reason}`);
    if (site.dropped.length > 20) printLine(`  … and ${site.dropped.length - 20} more (--json lists all)`);
  }
}

function registerPairCommand(site: Command): void {
  addPairOptions(
    site
      .command("pair")
      .description("find parallel page pairs: by URL keys, by links (ETS), or both")
      .argument("<dir>", "a crawl folder or a mirror folder"),
  )
    .option("--json", 'one line per pair: {"en":…,"zh":…,"score":…} (pages as paths in DIR, or URLs for a crawl)')
    .action((dir: string, flags: PairFlags) => {
      const method = parseMethod(flags.method ?? "both");
      const site = loadWithProgress(dir, flags);
      const result = runPairing(site, method, flags);
      printPairs(site, result, flags.json === true);
    });
}

// ---------------------------------------------------------------------------------------------------------
// Shared with `bitext eval site`.

export interface LoadFlags {
  langs?: string;
  host?: string[];
  minText?: string;
  json?: boolean;
  pages?: boolean;
}

export interface PairFlags extends LoadFlags {
  method?: string;
  threshold?: string;
  thresholdRatio?: string;
  generalize?: boolean;
  topK?: string;
  exhaustive?: boolean;
  maxSizeRatio?: string;
  alpha?: string;
  beta?: string;
  iterations?: string;
  weights?: string;
  maxPairs?: string;
  minSim?: string;
}

interface CrawlFlags {
  out: string;
  maxPages: string;
  maxDepth: string;
  concurrency: string;
  delay: string;
  timeout: string;
  maxBytes: string;
  minText: string;
  host?: string[];
  userAgent?: string;
  robots?: boolean;
  sitemaps?: boolean;
  force?: boolean;
  json?: boolean;
}

/** The loading and tuning options of `site pair`, also taken by `eval site`. */
export function addPairOptions(cmd: Command): Command {
  return cmd
    .option("--method <m>", `urls, links or both (default both)`)
    .option("--langs <a-b>", "the two languages, by script", "en-zh")
    .option("--host <host...>", "hosts whose absolute links count as links within the site")
    .option("--min-text <bytes>", "pages with less visible text are dropped", "100")
    .option("--threshold <n>", "URL keys: τ, the linking power a key needs (default |U|/10)")
    .option("--threshold-ratio <r>", "URL keys: τ as a share of the URLs", "0.1")
    .option("--no-generalize", "URL keys: do not pool weak keys (06e:06c, 07e:07c → e:c)")
    .option("--top-k <k>", "links: candidate pairs kept per page", String(DEFAULT_CANDIDATE_OPTIONS.topK))
    .option("--exhaustive", "links: score every pair that passes the size ratio (no top-k pruning)")
    .option("--max-size-ratio <r>", "links: largest text-size ratio of a pair", String(DEFAULT_CANDIDATE_OPTIONS.maxSizeRatio))
    .option("--alpha <a>", "links: weight of the external (neighbour) similarity", String(DEFAULT_ETS_OPTIONS.alpha))
    .option("--beta <b>", "links: weight of content vs structure in the internal similarity", String(DEFAULT_ETS_OPTIONS.beta))
    .option("--iterations <n>", "links: ETS iterations", String(DEFAULT_ETS_OPTIONS.iterations))
    .option("--weights <w>", "links: page weights none, scale (Weight 1) or drop (Weight 2)", "none")
    .option("--max-pairs <n>", "links: MAX_P (default: pages of the smaller language; both: none when URL keys pair pages)")
    .option("--min-sim <s>", "links: MIN_SIM (both: default calibrated on the URL-key pairs)");
}

export function parseMethod(m: string): PairingMethod {
  if (!(METHODS as readonly string[]).includes(m)) throw new UserError(`--method: "${m}" is not one of ${METHODS.join(", ")}`);
  return m as PairingMethod;
}

export function parseLangs(s: string | undefined): LanguagePair {
  return s ? languagePair("--langs", s) : EN_ZH;
}

export function loadWithProgress(dir: string, flags: LoadFlags): Site {
  const pair = parseLangs(flags.langs);
  let total = 0;
  try {
    total = readCrawlManifest(dir).pages.length;
  } catch {
    try {
      total = mirrorFiles(dir).length;
    } catch {
      total = 0; // loadSite reports the real problem
    }
  }
  const progress = createProgress({ label: "loading pages", total, quiet: flags.json === true });
  try {
    return loadSite(dir, {
      pair,
      minContentBytes: wholeNumber("--min-text", flags.minText ?? "100", 0),
      hostAliases: flags.host ?? [],
      onPage: () => progress.tick(),
    });
  } finally {
    progress.done();
  }
}

export function pairOptionsFromFlags(site: Site, method: PairingMethod, flags: PairFlags): PairOptions {
  const weights = flags.weights ?? "none";
  if (!(WEIGHTINGS as readonly string[]).includes(weights)) {
    throw new UserError(`--weights: "${weights}" is not one of ${WEIGHTINGS.join(", ")}`);
  }
  return {
    method,
    ...(method !== "urls" ? { lexicon: loadLexicon(site.pair) } : {}),
    urlKeys: {
      ...(flags.threshold !== undefined ? { threshold: num(flags.threshold, "--threshold", 0) } : {}),
      thresholdRatio: num(flags.thresholdRatio ?? "0.1", "--threshold-ratio", 0, 1),
      generalize: flags.generalize !== false,
    },
    candidates: {
      topK: flags.exhaustive ? 0 : wholeNumber("--top-k", flags.topK ?? String(DEFAULT_CANDIDATE_OPTIONS.topK), 1),
      maxSizeRatio: num(flags.maxSizeRatio ?? String(DEFAULT_CANDIDATE_OPTIONS.maxSizeRatio), "--max-size-ratio", 1),
    },
    ets: {
      alpha: num(flags.alpha ?? String(DEFAULT_ETS_OPTIONS.alpha), "--alpha", 0, 1),
      beta: num(flags.beta ?? String(DEFAULT_ETS_OPTIONS.beta), "--beta", 0, 1),
      iterations: wholeNumber("--iterations", flags.iterations ?? String(DEFAULT_ETS_OPTIONS.iterations), 0),
      weighting: weights as PageWeighting,
    },
    ...(flags.maxPairs !== undefined ? { maxPairs: wholeNumber("--max-pairs", flags.maxPairs, 0) } : {}),
    ...(flags.minSim !== undefined ? { minSim: num(flags.minSim, "--min-sim", 0, 1) } : {}),
  };
}

export function runPairing(site: Site, method: PairingMethod, flags: PairFlags): PairResult {
  const quiet = flags.json === true;
  const options = pairOptionsFromFlags(site, method, flags);
  // One progress line per phase (url-keys, content, candidates, internal, ets, select).
  let phase = "";
  let progress = createProgress({ label: "pairing", quiet });
  let shown = 0;
  options.progress = (name, done, total) => {
    if (name !== phase) {
      progress.done();
      phase = name;
      shown = 0;
      progress = createProgress({ label: `pairing: ${name}`, total, quiet });
    }
    if (total > 0) progress.setTotal(total);
    if (done > shown) {
      progress.tick(done - shown);
      shown = done;
    }
  };
  try {
    return pairPages(site, options);
  } finally {
    progress.done();
  }
}

// ---------------------------------------------------------------------------------------------------------

function printPairs(site: Site, result: PairResult, json: boolean): void {
  const { a, b } = site.pair;
  if (json) {
    for (const p of result.pairs) {
      printJsonLine({
        [a]: site.pages[p.a]!.key,
        [b]: site.pages[p.b]!.key,
        score: Number(p.score.toFixed(4)),
        via: p.via,
        ...(p.key ? { key: p.key, power: p.power } : {}),
      });
    }
    return;
  }
  if (result.keys) {
    printLine(`URL keys (τ = ${fmtNumber(result.stats.urlThreshold ?? 0)}): ${result.keys.length}`);
    if (result.keys.length > 0) {
      const rows: Array<Array<string | number>> = [["field", "key", "power", "pairs", "pooled from"]];
      for (const k of result.keys) {
        rows.push([k.field, formatKey(k), k.power, k.accepted, k.members ? k.members.slice(0, 6).join(" ") : ""]);
      }
      printLine(formatTable(rows));
    }
    printLine();
  }
  const s = result.stats;
  const extra =
    s.candidates !== undefined
      ? ` · ${s.candidates} of ${s.allPairs} page pairs scored` +
        (s.linkThreshold !== undefined ? ` · leftover pages paired at ETS ≥ ${fmt(s.linkThreshold)}` : "")
      : "";
  printLine(`${result.pairs.length} pairs (${result.method}) among ${s.pagesA} ${a} and ${s.pagesB} ${b} pages${extra}`);
  if (result.pairs.length === 0) return;
  const rows: Array<Array<string | number>> = [[a, b, "score", "by"]];
  for (const p of result.pairs) rows.push([site.pages[p.a]!.key, site.pages[p.b]!.key, fmt(p.score), p.key ?? p.via]);
  printLine(formatTable(rows));
}

function languageCounts(site: Site): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of site.pages) out[p.lang ?? "none"] = (out[p.lang ?? "none"] ?? 0) + 1;
  return out;
}

function roundShares(shares: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, Number(v.toFixed(3))]));
}

function fmtNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function num(value: string, flag: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UserError(`${flag}: expected a number in [${min}, ${max === Number.POSITIVE_INFINITY ? "∞" : max}], got "${value}"`);
  }
  return n;
}
