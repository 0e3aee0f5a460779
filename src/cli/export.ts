import { Command } from "commander";
import { registerExportCorpus } from "./export-corpus.js";
import { registerExportRecords } from "./export-records.js";

/**
 * `bitext export <what>`: each export is a sub-command in its own module (`export-<what>.ts`)
 * exporting a function that adds itself to the `export` command. Add new ones to this list.
 */
const exports_: ReadonlyArray<(exportCommand: Command) => void> = [registerExportRecords, registerExportCorpus];

export function registerExportCommands(program: Command): void {
  if (exports_.length === 0) return;
  const exportCommand = new Command("export");
  for (const register of exports_) register(exportCommand);
  program.addCommand(exportCommand);
}
