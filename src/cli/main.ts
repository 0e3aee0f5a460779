#!/usr/bin/env node
import { Command } from "commander";
import { UserError } from "../errors.js";
import { environmentError } from "../store/errors.js";
import { registerCommands } from "./commands.js";

const program = new Command()
  .name("bitext")
  .description("Find bilingual (English–Chinese and other) content on the web and turn it into parallel text.")
  .version(process.env.npm_package_version ?? "0.1.0")
  .showHelpAfterError("(run with --help for usage)");


// A reader that closes the pipe early (`bitext … | head`) is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

try {
  await registerCommands(program, process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (caught) {
  const err = environmentError(caught) ?? caught; // disk full, read-only, locked, no permission: not bugs
  if (err instanceof UserError) {
    process.stderr.write(`bitext: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`bitext: internal error: ${message.split("\n")[0]}\n`);
    if (process.env.BITEXT_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write("bitext: (set BITEXT_DEBUG=1 for the stack trace)\n");
    process.exitCode = 70;
  }
}
