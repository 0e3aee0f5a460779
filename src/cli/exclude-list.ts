import { readFileSync } from "node:fs";
import { UserError } from "../errors.js";

/** The text of a held-out list (`--exclude test/holdout.md`): pages whose path it names are left out; "" without one. */
export function readExcludeList(file: string | undefined): string {
  if (!file) return "";
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}
