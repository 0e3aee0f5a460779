import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./cli.js";

/** A page of the documentation: its path from the project root, and its Markdown. */
export interface DocPage {
  file: string;
  text: string;
}

/** The README, then every Markdown page under docs/ in path order: the order their doctests run in. */
export function docPages(): DocPage[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".md")) docs.push(relative(ROOT, join(dir, e.name)));
    }
  };
  walk(join(ROOT, "docs"));
  return ["README.md", ...docs.sort()].map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));
}
