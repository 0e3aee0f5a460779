import type { Command } from "commander";
import { UserError } from "../errors.js";

// Placeholder while the wrapper learner is written (issue 2); replaced before the issue lands.
export function registerWrapperCommands(program: Command): void {
  const wrapper = program.command("wrapper").description("learn and inspect record wrappers for search engines");
  wrapper
    .command("learn")
    .description("learn a record wrapper from one sample result page")
    .action(() => {
      throw new UserError("wrapper learn: not available yet");
    });
}
