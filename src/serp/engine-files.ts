import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { SettingError, UserError } from "../errors.js";
import { describeResource, isInstallationPath, listResources, resourcePath, userDataPath } from "../config/index.js";
import { readWrapperFile, WRAPPER_FORMAT_VERSION, withNewWrapper, writeWrapperFile } from "../wrapper/index.js";
import type { Wrapper } from "../wrapper/index.js";
import { type EngineDefinition, parseEngineDefinition } from "./engines.js";

/**
 * Engines as the harvest sees them: `wrappers/<engine>.json` holds the engine's definition (ours) and
 * its learned wrapper (with earlier versions in `previous`). This module reads the definition and the
 * wrapper, and writes a re-learned wrapper back keeping the definition and pushing the old one to `previous`.
 */

export interface EngineSetup {
  name: string;
  file: string;
  definition: EngineDefinition;
  wrapper: Wrapper | null;
  /** Wrappers it replaced, newest first (a page in an earlier layout may still come: A/B tests, rollbacks). */
  previous: Wrapper[];
}

/** Where shipped engine definitions and wrappers live. */
export function defaultWrappersDir(): string {
  return resourcePath("wrappers");
}

export function wrapperFilePath(dir: string, engine: string): string {
  return join(dir, `${engine}.json`);
}

/** The engines that have a wrapper file in `dir`. */
export function listEngineNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.startsWith("."))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

export function loadEngine(dir: string, engine: string): EngineSetup {
  if (!/^[a-z0-9][\w.-]*$/i.test(engine)) throw new SettingError("engines", `"${engine}" is not an engine name`);
  // The shipped folder stands for the user's wrappers shadowing the shipped ones (src/config/workspace.ts).
  const file = dir === defaultWrappersDir() ? describeResource("wrappers", `${engine}.json`).path : wrapperFilePath(dir, engine);
  if (!existsSync(file)) {
    const known =
      dir === defaultWrappersDir()
        ? listResources("wrappers", (n) => n.endsWith(".json")).map((r) => r.name.slice(0, -5))
        : listEngineNames(dir);
    throw new UserError(
      `unknown engine "${engine}": no ${file}` +
        (known.length > 0 ? ` (known: ${known.join(", ")})` : "") +
        '; add one with {"formatVersion": 1, "engine": NAME, "definition": {"searchUrl": "https://…{query}…"}, "wrapper": null}',
    );
  }
  return loadEngineFile(file, engine);
}

/** The engine in a given wrapper file (its definition must be there). */
export function loadEngineFile(file: string, engine: string): EngineSetup {
  const wf = readWrapperFile(file);
  if (wf.engine !== engine) throw new UserError(`${file}: holds engine "${wf.engine}", not "${engine}"`);
  return {
    name: engine,
    file,
    definition: parseEngineDefinition(wf.definition, engine, file),
    wrapper: wf.wrapper,
    previous: wf.previous,
  };
}

/** Replace the engine's wrapper, keeping its definition and moving the old wrapper to the front of `previous`. */
export function saveWrapper(file: string, wrapper: Wrapper): void {
  writeWrapperFile(writableWrapperFile(file), withNewWrapper(existsSync(file) ? readWrapperFile(file) : null, wrapper));
}

/** A shipped wrapper file is read-only: a re-learned wrapper goes to the user's file of the same name. */
function writableWrapperFile(file: string): string {
  return isInstallationPath(file) ? userDataPath("wrappers", basename(file)) : file;
}

/** Create a wrapper file or replace its definition, keeping whatever wrapper it has. */
export function writeDefinition(file: string, engine: string, definition: unknown): void {
  const existing = existsSync(file) ? readWrapperFile(file) : null;
  writeWrapperFile(writableWrapperFile(file), {
    formatVersion: WRAPPER_FORMAT_VERSION,
    engine,
    definition,
    wrapper: existing?.wrapper ?? null,
    previous: existing?.previous ?? [],
  });
}
