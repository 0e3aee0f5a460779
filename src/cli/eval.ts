import { Command } from "commander";
import { registerEvalClassifier } from "./eval-classifier.js";
import { registerEvalExtract } from "./eval-extract.js";
import { registerEvalRecords } from "./eval-records.js";
import { registerEvalSite } from "./eval-site.js";
import { registerEvalQuality } from "./quality.js";

/**
 * `bitext eval <what>`: each evaluation is a sub-command in its own module (`eval-<what>.ts`)
 * exporting a function that adds itself to the `eval` command. Add new ones to this list.
 */
const evaluations: ReadonlyArray<(evalCommand: Command) => void> = [
  registerEvalRecords,
  registerEvalExtract,
  registerEvalSite,
  registerEvalClassifier,
  registerEvalQuality,
];

export function registerEvalCommands(program: Command): void {
  const evalCommand = new Command("eval");
  for (const register of evaluations) register(evalCommand);
  program.addCommand(evalCommand);
}
