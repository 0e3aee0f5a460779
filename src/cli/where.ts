import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import {
  annotationsPath,
  CONFIG_FILE_NAMES,
  configFileIn,
  currentHome,
  DEFAULTS,
  defaultEngines,
  demoStorePath,
  describeResource,
  findWorkspaceConfig,
  lexiconFiles,
  listResources,
  loadSettings,
  modelPath,
  RESOURCE_KINDS,
  type ResourceKind,
  type Settings,
  shippedPath,
  storePath,
  userDataPath,
} from "../config/index.js";
import { UserError } from "../errors.js";
import { writeFileAtomic } from "../io/index.js";
import { PACKAGE_ROOT } from "../paths.js";
import { storeExists } from "../store/index.js";
import { formatTable, printJson, printLine } from "./output.js";

/** Everything `bitext where` reports: the home, the config, and the file each command reads. */
export function whereReport() {
  // A broken config file is what `where` helps with: the paths are shown with the defaults, and the error.
  let settings: Settings;
  let configError: string | null = null;
  try {
    settings = loadSettings();
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    settings = { home: currentHome(), config: {} };
    configError = err.message;
  }
  const model = modelPath(undefined, settings);
  const engines = defaultEngines(settings);
  return {
    home: settings.home.dir,
    homeSource: settings.home.source === "given" ? "--home" : settings.home.source,
    config: settings.home.config,
    configError,
    installation: PACKAGE_ROOT,
    folders: Object.fromEntries(RESOURCE_KINDS.map((k) => [k, { yours: userDataPath(k), shipped: shippedPath(k) }])) as Record<
      ResourceKind,
      { yours: string; shipped: string }
    >,
    store: { path: storePath(undefined, settings), exists: storeExists(storePath(undefined, settings)) },
    demoStore: { path: demoStorePath(settings), exists: storeExists(demoStorePath(settings)) },
    annotations: annotationsPath(settings),
    model:
      model === null
        ? null
        : {
            path: model,
            origin:
              model === describeResource("models", "default.json").path ? describeResource("models", "default.json").origin : "config",
          },
    lexicons: lexiconFiles(),
    engines: engines.map((e) => describeResource("wrappers", `${e}.json`)),
    wrappers: listResources("wrappers", (n) => n.endsWith(".json")),
    queries: listResources("queries", (n) => n.endsWith(".tsv")),
  };
}

function printWhere(r: ReturnType<typeof whereReport>): void {
  const tag = (o: string) => (o === "user" ? "yours" : o);
  printLine(
    formatTable([
      ["home", `${r.home} (${r.homeSource})`],
      ["config", r.config ?? `none (bitext init creates ${CONFIG_FILE_NAMES[0]})`],
      ...(r.configError ? [["config error", `${r.configError} (the paths below are the defaults; fix the file)`]] : []),
      ["installation", `${r.installation} (read-only)`],
      ["store", `${r.store.path}${r.store.exists ? "" : " (not created yet)"}`],
      ...(r.demoStore.exists
        ? [["demo store", `${r.demoStore.path}${r.store.exists ? " (--demo)" : " (export and runs read it while yours is not created)"}`]]
        : []),
      ["annotations", r.annotations],
    ]),
  );
  printLine();
  printLine("What each command reads (a file of yours shadows the shipped one of the same name):");
  const rows: string[][] = [["command", "reads", "file", "from"]];
  rows.push([
    "harvest, daemon, export, fetch-pages, classify --db, annotate --db",
    "store",
    r.store.path,
    r.store.exists ? "" : "not created yet",
  ]);
  rows.push(["classify, harvest, annotate", "model", r.model?.path ?? "none (config: model null)", r.model ? tag(r.model.origin) : ""]);
  for (const l of r.lexicons)
    rows.push(["classify, extract, site, lexicon lookup", "lexicon", l, l.startsWith(r.installation) ? "shipped" : "yours"]);
  for (const w of r.wrappers) {
    rows.push([
      `harvest${r.engines.some((e) => e.name === w.name) ? " (default engine)" : ""}, wrapper learn`,
      `wrapper ${w.name.slice(0, -5)}`,
      w.path,
      tag(w.origin),
    ]);
  }
  for (const q of r.queries) rows.push(["harvest queries/…", "query list", q.path, tag(q.origin)]);
  printLine(formatTable(rows));
  printLine();
  printLine(
    `Written by commands: wrappers → ${r.folders.wrappers.yours}, models and lexicons → ${r.folders.models.yours}, data → ${r.folders.data.yours}`,
  );
}

/** `bitext init [DIR]`: make DIR (default: the working directory) a workspace. */
function init(dir: string, flags: { json?: boolean }): void {
  const folder = resolve(dir);
  const existing = configFileIn(folder);
  if (existing) throw new UserError(`${existing}: already a bitext workspace`);
  if (folder === PACKAGE_ROOT) throw new UserError(`${folder}: is the bitext installation, which is read-only; init a folder of your own`);
  const file = join(folder, CONFIG_FILE_NAMES[0]);
  const outer = findWorkspaceConfig(folder);
  writeFileAtomic(
    file,
    `${JSON.stringify({ store: DEFAULTS.store, engines: Object.fromEntries(DEFAULTS.engines.map((e) => [e, {}])), concurrency: DEFAULTS.concurrency }, null, 2)}\n`,
  );
  for (const kind of ["wrappers", "models", "data"] as const) mkdirSync(join(folder, kind), { recursive: true });
  if (flags.json) {
    printJson({ config: file, home: folder, inside: outer });
    return;
  }
  printLine(`${file}: new bitext workspace. Wrappers, models, the store and annotations you make go here; bitext where shows every path.`);
  if (outer) printLine(`(it is inside the workspace of ${outer}, which commands run here no longer use)`);
}

export function registerWhereCommand(program: Command): void {
  program
    .command("where")
    .option("--json", "print the paths as JSON")
    .action((flags: { json?: boolean }) => {
      const report = whereReport();
      if (flags.json) printJson(report);
      else printWhere(report);
      // Everything is shown; the status still says the config file needs fixing.
      if (report.configError) {
        process.stderr.write(`bitext: ${report.configError}\n`);
        process.exitCode = 1;
      }
    });
}

export function registerInitCommand(program: Command): void {
  program
    .command("init")
    .argument("[dir]", "the folder to make a workspace", ".")
    .option("--json", "print the result as JSON")
    .action((dir: string, flags: { json?: boolean }) => init(dir, flags));
}
