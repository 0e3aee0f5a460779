import type { Command } from "commander";
import { UserError } from "../errors.js";

// Placeholder while the wrapper evaluation is written (issue 2); replaced before the issue lands.
export function registerEvalRecords(evalCommand: Command): void {
  evalCommand
    .command("records")
    .description("precision/recall of extracted records against expected records")
    .action(() => {
      throw new UserError("eval records: not available yet");
    });
}
