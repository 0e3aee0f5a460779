import { Command, CommanderError, type Option } from "commander";
import { withHome } from "../config/index.js";
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
    // Every command's help shows --home, and defaults as a user types them (30s, 2, not "30s", "2" or []).
    .configureHelp({ showGlobalOptions: true, optionDescription })
    .option(
      "--home <dir>",
      "your bitext folder: wrappers, models, store and annotations you make (default: $BITEXT_HOME, the nearest folder upward with bitext.config.json, or the user data folder; bitext where shows it)",
    )
    // A command's options belong to it, not to a parent of the same option name (`annotate bootstrap --out F`).
    .enablePositionalOptions()
    // Commander's own exits (help, version, usage errors) come back as CommanderError, not process.exit.
    .exitOverride();
  process.exitCode = undefined;
  let refused: Command = program;
  try {
    const { home, rest } = takeHomeFlag(args);
    // The command runs with the --home folder as its context (registering too: defaults come from its config file).
    return await withHome(home, () => registerAndRun(program, rest, (c) => (refused = c)));
  } catch (caught) {
    if (caught instanceof CommanderError) {
      // Help and version were printed; a usage error is said here, in one line.
      if (!HELP_CODES.has(caught.code)) stderr.write(`bitext: ${usageError(caught.message, refused)}\n`);
      return caught.exitCode;
    }
    return reportFailure(caught, stderr);
  } finally {
    process.exitCode = undefined;
  }
}

/** Register the commands, parse the command line and run the command; its exit status. */
async function registerAndRun(program: Command, rest: string[], onRefused: (c: Command) => void): Promise<number> {
  await registerCommands(program, rest);
  // Every command (groups such as export and eval build theirs apart) exits through here, with the help settings
  // above; the command that refused its command line is noted, for the one-line message.
  forEachCommand(program, (c) => {
    c.exitOverride();
    c.configureHelp(program.configureHelp());
    c.configureOutput({ outputError: () => onRefused(c) });
  });
  await program.parseAsync(rest, { from: "user" });
  return typeof process.exitCode === "number" ? process.exitCode : 0;
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

const HELP_CODES = new Set(["commander.helpDisplayed", "commander.help", "commander.version", "commander.executeSubCommandAsync"]);

/** Commander's "error: unknown option '--x'\n(Did you mean --y?)" as one line naming the command's help. */
function usageError(message: string, command: Command): string {
  const text = message
    .replace(/^error: /, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ")
    .replace("(Did you mean", "(did you mean");
  const path: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) path.unshift(c.name());
  return `${text} (${path.join(" ")} --help shows the usage)`;
}

function forEachCommand(command: Command, fn: (c: Command) => void): void {
  fn(command);
  for (const c of command.commands) forEachCommand(c, fn);
}

/** An option's help line: its description and default, the default written as a user would type it. */
function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(", ")}`);
  const shown = defaultShown(option);
  if (shown !== undefined) extra.push(`default: ${shown}`);
  if (option.envVar !== undefined) extra.push(`env: ${option.envVar}`);
  return extra.length > 0 ? `${option.description} (${extra.join(", ")})` : option.description;
}

function defaultShown(option: Option): string | undefined {
  if (option.defaultValueDescription) return option.defaultValueDescription;
  const value: unknown = option.defaultValue;
  if (value === undefined || option.negate || typeof value === "boolean") return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(",");
  return String(value);
}
