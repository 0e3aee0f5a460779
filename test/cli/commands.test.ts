import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { commands, invokedCommand, registerCommands } from "../../src/cli/commands.js";

describe("the command manifest", () => {
  it("loads, for each entry, a module that registers exactly that command with the entry's summary", async () => {
    for (const entry of commands) {
      const program = new Command();
      await registerCommands(program, [entry.name, "--help"]);
      expect(
        program.commands.map((c) => c.name()),
        entry.name,
      ).toEqual([entry.name]);
      expect(program.commands[0]!.description()).toBe(entry.summary);
    }
  });

  it("lists every command by name and summary without loading any module for --help", async () => {
    const program = new Command();
    await registerCommands(program, ["--help"]);
    expect(program.commands.map((c) => c.name())).toEqual(commands.map((c) => c.name));
    expect(program.commands.every((c) => c.options.length === 0)).toBe(true);
  });

  it("finds the invoked command after options and through `help`", () => {
    expect(invokedCommand(["harvest", "q.tsv"])?.name).toBe("harvest");
    expect(invokedCommand(["help", "records"])?.name).toBe("records");
    expect(invokedCommand(["--version"])).toBeUndefined();
    expect(invokedCommand(["harvst"])).toBeUndefined();
  });
});
