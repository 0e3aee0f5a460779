import { type Command, Option } from "commander";
import { withBrowserOptions } from "./browser-options.js";
import type { FetchMode } from "../serp/index.js";
import { formatFailureCounts } from "../serp/index.js";
import type { HarvestEvent, HarvestStats } from "../serp/index.js";
import { defaultWrappersDir, loadEngine } from "../serp/index.js";
import { readQueryFiles } from "../serp/index.js";
import { type ReextractSummary, reextractStoredPages } from "../serp/index.js";
import { parseProxy, type ProxySpec, readProxyList } from "../serp/index.js";
import { type HarvestRunOptions, type HarvestRunResult, resolveQueryFile, runHarvest } from "../serp/index.js";
import { openStore } from "../store/index.js";
import { DEFAULTS, defaultEngines, HARVEST_DEFAULTS, loadSettings, type Settings, storePath } from "../config/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { durationMs, positiveDurationMs, wholeNumber } from "./flags.js";
import { createProgress, formatSeconds, type Progress } from "./progress.js";
import { stopOnInterrupt } from "./signals.js";
import type { LanguagePair } from "../text/index.js";
import { pairOption, resolvePair, splitList, storeOption } from "./shared-options.js";

/** The flags of a harvest run in this process: `harvest`'s and `pipeline`'s (`harvestRunOptions`). */
export interface HarvestRunFlags extends BrowserFlags {
  engines: string;
  pair?: LanguagePair;
  pages: string;
  concurrency: string;
  maxAge: string;
  db?: string;
  wrappers?: string;
  keepHtml?: boolean;
  retries: string;
  timeout: string;
  model?: string;
  classify: boolean;
  learn: boolean;
  fetch?: string;
}

interface HarvestFlags extends HarvestRunFlags {
  reextract?: boolean;
  queue?: string;
  run?: string;
  json?: boolean;
}

/** Exit status when the run finished but some pages were left for the next run (blocked engines, errors). */
export const EXIT_INCOMPLETE = 75;

export function registerHarvestCommand(program: Command): void {
  // Defaults: the config file's (bitext.config.json in the home), else DEFAULTS (src/config/schema.ts).
  const settings = loadSettings();
  const command = program.command("harvest").argument("[queries...]", "query lists (English<TAB>Chinese per line)");
  harvestOptions(command, settings)
    .addHelpText(
      "after",
      `
Each (engine, query, page) fetched successfully within --max-age is skipped, so rerunning after a crash or
Ctrl-C fetches only what is missing. Blocks (HTTP 429, captchas, verification redirects) are never stored as
empty results; an engine blocked repeatedly pauses while the others go on (Retry-After honoured), the run stops
when every engine left is paused longer than blocks.maxWait (config file; 2 min), and an engine that cannot be reached
(DNS, refused, timeout, TLS) is given up after ${HARVEST_DEFAULTS.downAfter} network failures in a row. Exit status: 0 done, ${EXIT_INCOMPLETE} pages
left for the next run (some failed after their retries, or an engine was given up; "failed" when none succeeded),
130 interrupted.`,
    )
    .action(async (files: string[], flags: HarvestFlags) => {
      if (flags.queue && !flags.reextract) await enqueue(files, { ...flags, queue: flags.queue });
      else if (flags.reextract) await printReextract(files, flags);
      else await harvestHere(files, flags, settings);
    });
}

/** The options of `harvest`, their defaults from the config file or DEFAULTS. */
function harvestOptions(command: Command, settings: Settings): Command {
  return harvestRunOptions(command, settings)
    .option("--reextract", "ask no engine: re-extract records from the pages kept with --keep-html, with the current wrappers")
    .addOption(
      new Option(
        "--queue <url>",
        "do not fetch here: enqueue the pages as jobs on this Redis (redis://host:port) for bitext worker processes",
      ).env("BITEXT_QUEUE"),
    )
    .option("--run <name>", "with --queue: the run's name (default: the query lists' names and today's date)")
    .option("--json", "print the run summary as JSON");
}

/**
 * The options of a harvest run in this process (`harvest`, and `pipeline`'s harvest step): engines, pages,
 * store, wrappers, classifier, browser, pair; defaults from the config file or DEFAULTS. Read by `harvestRunSettings`.
 */
export function harvestRunOptions(command: Command, settings: Settings): Command {
  return withBrowserOptions(
    command
      .option("--engines <list>", "comma-separated engines (wrappers/<engine>.json)", defaultEngines(settings).join(","))
      .option("--pages <n>", "result pages per query (later pages only while pages come back full)", String(DEFAULTS.pages))
      .option(
        "--concurrency <n>",
        "page loads in flight at once, over all engines",
        String(settings.config.concurrency ?? DEFAULTS.concurrency),
      )
      .option("--max-age <duration>", "skip pages fetched successfully this recently (0: fetch all again)", DEFAULTS.maxAge)
      .option(...storeOption())
      .option("--wrappers <dir>", "folder of engine wrapper files (default: the shipped wrappers/)")
      .option("--keep-html", "keep every result page's HTML (compressed) in the store, to re-extract later")
      .option("--retries <n>", "retries of a page after a network error or timeout", String(DEFAULTS.retries))
      .option("--timeout <duration>", "page load timeout (30s, 1m)", DEFAULTS.timeout)
      .option("--model <file>", "classifier model for classifying records as they are stored (default: models/default.json if present)")
      .option("--no-classify", "store records unclassified even if a model is present")
      .option("--no-learn", "never learn or re-learn wrappers from harvested pages"),
  )
    .option("--headed", "show the browser window (needs a display)")
    .addOption(
      new Option(
        "--fetch <mode>",
        "fetch result pages with the browser, a plain HTTP client, or HTTP first (default: each engine's definition)",
      ).choices(["browser", "http", "auto"]),
    )
    .option(...pairOption());
}

/** A harvest run's options from its flags, each checked (the hooks, signal and run record are the caller's). */
export function harvestRunSettings(
  files: string[],
  flags: HarvestRunFlags,
  settings: Settings,
): Omit<HarvestRunOptions, "signal" | "onEvent" | "onProgress" | "runOptions"> & { pair: LanguagePair } {
  return {
    queryFiles: files,
    pair: resolvePair(flags.pair),
    engines: splitList(flags.engines),
    db: storePath(flags.db, settings),
    ...(flags.wrappers ? { wrappersDir: flags.wrappers } : {}),
    pages: wholeNumber("--pages", flags.pages, 1),
    concurrency: wholeNumber("--concurrency", flags.concurrency, 1),
    maxAgeMs: durationMs("--max-age", flags.maxAge),
    keepHtml: flags.keepHtml ?? false,
    retries: wholeNumber("--retries", flags.retries, 0),
    timeoutMs: positiveDurationMs("--timeout", flags.timeout),
    model: harvestModel(flags, settings),
    learn: flags.learn,
    ...(flags.chromium ? { chromium: flags.chromium } : {}),
    ...browserFlags(flags, settings),
    ...(flags.fetch ? { fetchMode: flags.fetch as FetchMode } : {}),
  };
}

/** `harvest --queue`: the pages become jobs on Redis for `bitext worker` processes; nothing is fetched here. */
async function enqueue(files: string[], flags: HarvestFlags & { queue: string }): Promise<void> {
  const { enqueueFromHarvest, formatEnqueued } = await import("./queue.js");
  const r = await enqueueFromHarvest(files, {
    ...flags,
    pair: resolvePair(flags.pair),
    pages: wholeNumber("--pages", flags.pages, 1),
    maxAgeMs: durationMs("--max-age", flags.maxAge),
    keepHtml: flags.keepHtml ?? false,
    retries: wholeNumber("--retries", flags.retries, 0),
  });
  if (flags.json) printJson(r);
  else printLine(formatEnqueued(r, flags.queue));
}

/** `harvest --reextract`: the kept pages read again with the current wrappers, and the counts printed. */
async function printReextract(files: string[], flags: HarvestFlags): Promise<void> {
  const r = await reextract(files, flags);
  if (flags.json) printJson(r);
  else {
    printLine(
      `re-extraction run ${r.runId}: ${r.pages} kept pages read again → ${r.ok} with records, ${r.empty} empty, ` +
        `${r.blocked} blocked, ${r.errors} unrecognised; ${r.newRecords} new records, ${r.seenAgain} seen again`,
    );
  }
}

/** The harvest in this process: the browser (and HTTP path) here, Ctrl-C ending it at a safe point. */
async function harvestHere(files: string[], flags: HarvestFlags, settings: Settings): Promise<void> {
  const interrupt = stopOnInterrupt("interrupted: finishing writes and closing the browser");
  const progress = createProgress({ label: "harvest", quiet: flags.json ?? false });
  try {
    const result = await runHarvest({
      ...harvestRunSettings(files, flags, settings),
      signal: interrupt.signal,
      runOptions: { files, ...flags },
      onEvent: (e) => logEvent(e, progress),
      onProgress: progressReporter(progress),
    });
    progress.done();
    if (flags.json) printJson(result);
    else printLine(formatHarvestSummary(result));
    if (result.status === "interrupted") process.exitCode = 130;
    else if (result.left > 0) process.exitCode = EXIT_INCOMPLETE;
  } finally {
    progress.done();
    interrupt.dispose();
  }
}

/**
 * The classifier model of a harvest (and a worker): none with `--no-classify` or `"model": null` in the
 * config file (as `classify` reads it), else `--model`, the config file's, or undefined for the default one.
 */
export function harvestModel(flags: { classify: boolean; model?: string }, settings: Settings): string | null | undefined {
  if (!flags.classify) return null;
  return flags.model ?? settings.config.model;
}

async function reextract(files: string[], flags: HarvestFlags): Promise<ReextractSummary> {
  const dir = flags.wrappers ?? defaultWrappersDir();
  const engines = splitList(flags.engines).map((name) => loadEngine(dir, name));
  const queries = files.length > 0 ? readQueryFiles(files.map(resolveQueryFile)) : undefined;
  const store = await openStore(storePath(flags.db));
  try {
    return await reextractStoredPages(store, {
      engines,
      ...(queries ? { queries } : {}),
      runOptions: { reextract: true, files, ...flags },
    });
  } finally {
    await store.close();
  }
}

/** Feeds harvest statistics to the progress line: (engine, query) jobs done of all, with live counts. */
export function progressReporter(progress: Progress): (s: HarvestStats) => void {
  let lastTotal = -1;
  let lastDone = 0;
  return (s) => {
    if (s.jobs !== lastTotal) {
      progress.setTotal(s.jobs);
      lastTotal = s.jobs;
    }
    const givenUp = Object.entries(s.engines)
      .filter(([, e]) => e.givenUp)
      .map(([n]) => n);
    progress.tick(s.jobsDone - lastDone, {
      pages: s.fetched,
      records: s.newRecords,
      blocks: s.blocked,
      errors: s.errors,
      ...(s.skipped > 0 ? { skipped: s.skipped } : {}),
      ...(givenUp.length > 0 ? { "given up": givenUp.join(",") } : {}),
    });
    lastDone = s.jobsDone;
  };
}

/** One line on stderr for what a person running the harvest should know about. */
export function logEvent(e: HarvestEvent, progress?: Progress): void {
  let line: string;
  switch (e.kind) {
    case "wrapper-learned":
      line = `${e.engine}: ${e.detail}; wrote ${e.file} (previous wrapper kept)`;
      break;
    case "blocked":
      line = e.cause === "consent" ? `${e.engine}: ${e.detail}` : `${e.engine}: blocked (${e.detail})`;
      break;
    case "engine-paused":
      line = `${e.engine}: paused for ${formatSeconds(e.seconds)} after repeated blocks (pause ${e.trip}); other engines go on`;
      break;
    case "engine-given-up":
      line = `${e.engine}: given up for this run (${e.reason}); ${e.left} more page(s) left for the next run`;
      if (e.cause === "consent") line += "; accept the consent once with --accept-consent (kept in the profile)";
      break;
    case "error":
      line = `${e.engine}: ${e.detail}${e.willRetry ? " (will retry)" : " (page left for the next run)"}`;
      break;
    case "drift":
      line =
        e.action === "relearned"
          ? `${e.engine}: drift fixed by re-learning the wrapper on ${e.url} (${e.detail})`
          : `${e.engine}: drift on ${e.url}: ${e.detail} (${e.streak} in a row${e.action === "stopped" ? "; engine stopped" : ""})`;
      break;
  }
  progress?.done();
  process.stderr.write(`bitext: ${line}\n`);
}

export function formatHarvestSummary(r: HarvestRunResult): string {
  const rows: Array<Array<string | number>> = [
    ["engine", "pages", "ok", "empty", "blocked", "errors", "skipped", "new records", "seen again", "re-learned", "drifts", "left"],
  ];
  for (const [name, e] of Object.entries(r.engines)) {
    rows.push([
      name + (e.givenUp ? " (given up)" : ""),
      e.fetched,
      e.ok,
      e.empty,
      e.blocked,
      e.errors,
      e.skipped,
      e.newRecords,
      e.seenAgain,
      e.relearned,
      e.drifts,
      e.left,
    ]);
  }
  const lines = [
    `harvest run ${r.runId} ${r.status} in ${formatSeconds(r.durationMs / 1000)}: ${r.queries} queries × ${r.engineNames.length} engines → ${r.fetched} pages fetched, ${r.skipped} skipped (fetched within --max-age)`,
    `records: ${r.newRecords} new, ${r.seenAgain} seen again · ${r.model ? `${r.classified} classified with ${r.model}` : "unclassified (no model)"} · store ${r.db}`,
    "",
    formatTable(rows),
  ];
  const causes = formatFailureCounts(r.causes);
  if (causes !== "") lines.push("", `failed attempts by cause: ${causes}`);
  for (const [name, e] of Object.entries(r.engines)) if (e.givenUpBecause) lines.push(`${name} given up: ${e.givenUpBecause}`);
  if (r.stoppedBecause) lines.push(`stopped: ${r.stoppedBecause} (blocks.maxWait in the config file)`);
  if (r.status === "failed") lines.push("", "no page succeeded in this run.");
  if (r.left > 0) lines.push("", `${r.left} page(s) left for the next run: rerun the same command to fetch them.`);
  if (r.status === "interrupted") lines.push("", "interrupted: rerun the same command to resume.");
  return lines.join("\n");
}

/** The browser and network flags `harvest`, `daemon` and `worker` share. */
export interface BrowserFlags {
  chromium?: string;
  profile: string | boolean;
  acceptConsent?: boolean;
  headed?: boolean;
  trace?: string;
  proxy?: string[];
  proxies?: string;
}

/**
 * The browser and network options of `harvest` (and `daemon`): profile, consent, headed, trace, proxies.
 * Proxies come from `--proxy`/`--proxies`, else from the config file's `proxies`.
 */
export function browserFlags(
  flags: Partial<BrowserFlags>,
  settings: Settings = loadSettings(),
): Pick<HarvestRunOptions, "profileDir" | "acceptConsent" | "headed" | "traceDir" | "proxies"> {
  let proxies: ProxySpec[] = [
    ...(flags.proxy ?? []).map((u) => parseProxy(u, { file: "--proxy" })),
    ...(flags.proxies ? readProxyList(flags.proxies) : []),
  ];
  const configured = settings.config.proxies;
  if (proxies.length === 0 && configured) {
    const where = settings.home.config ?? "config";
    proxies = [
      ...(configured.urls ?? []).map((u, i) => parseProxy(u, { file: where, field: `proxies.urls[${i}]` })),
      ...(configured.file ? readProxyList(configured.file) : []),
    ];
  }
  return {
    ...(flags.profile === false ? { profileDir: null } : typeof flags.profile === "string" ? { profileDir: flags.profile } : {}),
    acceptConsent: flags.acceptConsent ?? false,
    headed: flags.headed ?? false,
    traceDir: flags.trace ?? null,
    proxies,
  };
}
