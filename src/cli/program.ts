import { Command, CommanderError } from "commander";
import { setHomeOverride } from "../config/index.js";
import { UserError } from "../errors.js";
import { registerCommands } from "./commands.js";
import { reportFailure } from "./errors.js";

/**
 * `bitext ARGS` as a function: builds the command line, runs the command and returns its exit status,
 * failures printed (`bitext: …`) to `stderr`. `main.ts` calls it for the installed bin; tests call it
 * in-process (commands print to process.stdout/stderr, which a test captures around the call).
 */
export async function runBitext(args: readonly string[], stderr: { write(s: string): unknown } = process.stderr): Promise<number> {
  const program = new Command()
    .name("bitext")
    .description("Find bilingual (English–Chinese and other) content on the web and turn it into parallel text.")
    .version(process.env.npm_package_version ?? "0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .option(
      "--home <dir>",
      "your bitext folder: wrappers, models, store and annotations you make (default: $BITEXT_HOME, the nearest folder upward with bitext.config.json, or the user data folder; bitext where shows it)",
    )
    // A command's options belong to it, not to a parent of the same option name (`annotate bootstrap --out F`).
    .enablePositionalOptions()
    // Commander's own exits (help, version, usage errors) come back as CommanderError, not process.exit.
    .exitOverride();
  process.exitCode = undefined;
  try {
    const { home, rest } = takeHomeFlag(args);
    setHomeOverride(home);
    await registerCommands(program, rest);
    for (const command of program.commands) command.exitOverride();
    await program.parseAsync(rest, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (caught) {
    // Commander printed its message (usage error) or the help already.
    if (caught instanceof CommanderError) return caught.exitCode;
    return reportFailure(caught, stderr);
  } finally {
    process.exitCode = undefined;
  }
}

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
