import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UserError } from "../errors.js";
import { wrapperFilePath, writeDefinition } from "../serp/index.js";
import { parseFaults } from "../sim/index.js";
import { SIM_ENGINES, type Simulator, startSimulator } from "../sim/index.js";
import { splitList } from "./shared-options.js";
import { printJsonLine, printLine } from "./output.js";
import { untilInterrupted } from "./signals.js";
import { wholeNumber } from "./flags.js";

interface SimFlags {
  port: string;
  engines?: string;
  faults: string;
  latency: string;
  wrappers: string;
  json?: boolean;
}

/** What each hard engine shows a harvest, and how to get through. */
const TRAIT_HINTS: Record<string, string> = {
  plain: "",
  consent: "consent interstitial: reported as consent; add --accept-consent (remembered in the --profile)",
  script: "results written by script: read in the browser (fetch mode http cannot; auto falls back)",
  "strict-agent": "captcha for HeadlessChrome: the harvester's real Chrome user agent gets results",
  "proxy-only": "reachable only through a proxy: --proxy ORIGIN (the simulator answers proxy requests for it)",
};

export function registerSimCommand(program: Command): void {
  program
    .command("sim")
    .option("--port <n>", "port on 127.0.0.1 (0: any free port)", "8377")
    .option("--engines <list>", `engines to write definitions for (default: all: ${SIM_ENGINES.map((e) => e.name).join(",")})`)
    .option("--faults <spec>", "faults to inject, e.g. sim-div:429@3-4,sim-list:slow@2:8000 (see docs/guide/harvest.md)", "")
    .option("--latency <ms>", "milliseconds every search answer takes", "0")
    .option("--wrappers <dir>", "folder to write the engines' wrapper files (definitions) into", "data/sim/wrappers")
    .option("--json", "print the simulator's address and engines as one JSON line")
    .addHelpText(
      "after",
      `
Serves simulated search engines and the bilingual / monolingual pages they find, on loopback only, until Ctrl-C.
The engines' definitions (their URLs carry the port) are written as wrapper files, so that in another terminal:
  bitext harvest queries/demo.tsv --engines sim-list,sim-div --wrappers data/sim/wrappers --db data/sim/bitext.db`,
    )
    .action(async (flags: SimFlags) => {
      const port = wholeNumber("--port", flags.port, 0, 65535);
      const latencyMs = Number(flags.latency);
      if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new UserError(`--latency: expected milliseconds ≥ 0, got "${flags.latency}"`);
      const names = flags.engines ? splitList(flags.engines) : SIM_ENGINES.map((e) => e.name);
      const unknown = names.find((n) => !SIM_ENGINES.some((e) => e.name === n));
      if (unknown) throw new UserError(`--engines: unknown simulated engine "${unknown}" (${SIM_ENGINES.map((e) => e.name).join(", ")})`);
      const faults = parseFaults(flags.faults);
      let sim: Simulator;
      try {
        sim = await startSimulator({ port, faults, latencyMs });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EADDRINUSE")
          throw new UserError(`--port ${port}: in use on 127.0.0.1 (choose another, or --port 0 for any free port)`);
        throw err;
      }
      const dir = resolve(flags.wrappers);
      mkdirSync(dir, { recursive: true });
      const engines = sim.engines.filter((e) => names.includes(e.spec.name));
      for (const e of engines) writeDefinition(wrapperFilePath(dir, e.spec.name), e.spec.name, e.definition);

      if (flags.json) {
        printJsonLine({
          origin: sim.origin,
          wrappers: dir,
          engines: engines.map((e) => ({ name: e.spec.name, trait: e.spec.trait, label: e.spec.label, definition: e.definition })),
        });
      } else {
        printSimBanner(sim, engines, dir);
      }
      await untilInterrupted();
      await sim.close();
      if (!flags.json) printLine(`simulator stopped: ${sim.log.length} searches answered`);
    });
}

function printSimBanner(sim: Simulator, engines: Simulator["engines"], dir: string): void {
  printLine(
    `bitext engine simulator on ${sim.origin} (loopback only) · ${sim.collection.pages.length} pages (Tatoeba sentences, CC-BY 2.0 FR)`,
  );
  printLine(`engine definitions written to ${dir}/:`);
  for (const e of engines) {
    printLine(`  ${e.spec.name.padEnd(12)} ${String(e.definition.searchUrl)}`);
    const hint = TRAIT_HINTS[e.spec.trait];
    if (hint) printLine(`  ${"".padEnd(12)} ${hint}`);
  }
  const plain = engines.filter((e) => e.spec.trait === "plain").map((e) => e.spec.name);
  const some = (plain.length > 0 ? plain : engines.map((e) => e.spec.name)).slice(0, 2).join(",");
  printLine("");
  printLine("try, in another terminal:");
  const first = some.split(",")[0]!;
  printLine(`  bitext wrapper learn --engine ${first} --out ${wrapperFilePath(dir, first)}`);
  printLine(`  bitext harvest queries/demo.tsv --engines ${some} --wrappers ${dir} --db data/sim/bitext.db`);
  if (engines.some((e) => e.spec.trait === "proxy-only")) {
    printLine(`  bitext harvest queries/demo.tsv --engines sim-proxied --wrappers ${dir} --db data/sim/bitext.db --proxy ${sim.origin}`);
  }
  printLine(`  daemon: put "wrappers": "${dir}" in the schedule config`);
  printLine("");
  printLine("Ctrl-C stops the simulator.");
}
