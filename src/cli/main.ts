#!/usr/bin/env node
import { Command } from "commander";
import { setHomeOverride } from "../config/workspace.js";
import { UserError } from "../errors.js";
import { environmentError } from "../store/errors.js";
import { registerCommands } from "./commands.js";
import { handleClosedPipes } from "./stream.js";

const program = new Command()
  .name("bitext")
  .description("Find bilingual (English–Chinese and other) content on the web and turn it into parallel text.")
  .version(process.env.npm_package_version ?? "0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .option("--home <dir>", "your bitext folder: wrappers, models, store and annotations you make (default: $BITEXT_HOME, the nearest folder upward with bitext.config.json, or the user data folder; bitext where shows it)")
  // A command's options belong to it, not to a parent of the same option name (`annotate bootstrap --out F`).
  .enablePositionalOptions();

handleClosedPipes();
const { home, rest } = takeHomeFlag(process.argv.slice(2));
setHomeOverride(home);

/**
 * `--home DIR` / `--home=DIR` anywhere on the command line, taken out before commander parses it: the
 * commands' defaults come from the home's config file, so it must be known before they register.
 */
function takeHomeFlag(args: readonly string[]): { home: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let home: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (a === "--home") {
      home = args[++i];
      if (home === undefined) throw new UserError("--home: give a folder");
    } else if (a.startsWith("--home=")) home = a.slice("--home=".length);
    else rest.push(a);
  }
  return { home, rest };
}

try {
  await registerCommands(program, rest);
  await program.parseAsync(rest, { from: "user" });
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
