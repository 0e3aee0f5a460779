import type { Command } from "commander";
import { registerAnnotateCommand } from "./annotate.js";
import { registerClassifyCommand } from "./classify.js";
import { registerDaemonCommand } from "./daemon.js";
import { registerDemoCommand } from "./demo.js";
import { registerEvalCommands } from "./eval.js";
import { registerExportCommands } from "./export.js";
import { registerExtractCommand } from "./extract.js";
import { registerFetchPagesCommand } from "./fetch-pages.js";
import { registerHarvestCommand } from "./harvest.js";
import { registerLexiconCommands } from "./lexicon.js";
import { registerRecordsCommand } from "./records.js";
import { registerSiteCommands } from "./site.js";
import { registerTrainCommand } from "./train.js";
import { registerWrapperCommands } from "./wrapper.js";

/**
 * Every sub-command, in the order `bitext --help` lists them.
 * Each module adds one command (or one group) to the program; add new ones here.
 * Command groups with sub-commands from several modules (`eval`, `export`) keep their own list.
 */
export const commands: ReadonlyArray<(program: Command) => void> = [
  registerDemoCommand,
  registerHarvestCommand,
  registerDaemonCommand,
  registerWrapperCommands,
  registerRecordsCommand,
  registerLexiconCommands,
  registerAnnotateCommand,
  registerTrainCommand,
  registerClassifyCommand,
  registerFetchPagesCommand,
  registerExtractCommand,
  registerSiteCommands,
  registerExportCommands,
  registerEvalCommands,
];
