import type { Command } from "commander";
import { UserError } from "../errors.js";

// Placeholder while the wrapper extractor is written (issue 2); replaced before the issue lands.
export function registerRecordsCommand(program: Command): void {
  program
    .command("records")
    .description("extract result records from a saved result page")
    .action(() => {
      throw new UserError("records: not available yet");
    });
}
