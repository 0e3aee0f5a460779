import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/*
 * Which imports of a test reach past a layer's entry point. A layer's entry point is its `index.ts`
 * (`src/wrapper/index.ts`, …); the files directly in `src/` and `src/api/*.ts` are entry points
 * themselves. A test that imports a name from a file inside a layer, when the layer's index offers the
 * same name from that same file, is tied to the layer's inner layout for nothing: moving the file breaks
 * it. A name the index does not offer is an internal, and importing it is the point of a unit test.
 *
 * Read from the syntax tree only (no type-checker): `export *`, `export { … } from` and local `export`
 * declarations, followed through the layer's files.
 */

export interface MisroutedImport {
  /** The test file, relative to the project root. */
  file: string;
  line: number;
  /** The module the test imports from (as written). */
  specifier: string;
  /** The layer's index, relative to the project root. */
  entry: string;
  /** Imported names the entry point offers (from the same file). */
  names: string[];
}

/** Every name a module exports, each with the file that declares it (following re-exports). */
export function moduleExports(file: string, seen = new Set<string>()): Map<string, string> {
  const out = new Map<string, string>();
  if (seen.has(file) || !existsSync(file)) return out;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st)) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolveTs(file, st.moduleSpecifier.text) : null;
      if (!st.exportClause) {
        if (from) for (const [name, origin] of moduleExports(from, seen)) if (name !== "default") out.set(name, origin);
      } else if (ts.isNamedExports(st.exportClause)) {
        const inner = from ? moduleExports(from, new Set(seen)) : null;
        for (const el of st.exportClause.elements) {
          const local = (el.propertyName ?? el.name).text;
          out.set(el.name.text, inner?.get(local) ?? file);
        }
      }
      continue;
    }
    if (!hasExportModifier(st)) continue;
    for (const name of declaredNames(st)) out.set(name, file);
  }
  return out;
}

/** The imports of `testFile` that could go through their layer's index instead. */
export function misroutedImports(root: string, testFile: string, text = readFileSync(testFile, "utf8")): MisroutedImport[] {
  const source = ts.createSourceFile(testFile, text, ts.ScriptTarget.Latest, false);
  const found: MisroutedImport[] = [];
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const bindings = st.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const target = resolveTs(testFile, st.moduleSpecifier.text);
    const entry = target ? layerEntry(root, target) : null;
    if (!target || !entry) continue;
    const offered = moduleExports(entry);
    const names = bindings.elements
      .map((el) => (el.propertyName ?? el.name).text)
      .filter((name) => offered.get(name) === moduleExports(target).get(name));
    if (names.length === 0) continue;
    found.push({
      file: relative(root, testFile),
      line: source.getLineAndCharacterOfPosition(st.getStart(source)).line + 1,
      specifier: st.moduleSpecifier.text,
      entry: relative(root, entry),
      names,
    });
  }
  return found;
}

/** The index of the layer `file` sits inside, or null when `file` is an entry point (or not under src/). */
function layerEntry(root: string, file: string): string | null {
  const rel = relative(join(root, "src"), file).split(sep);
  if (rel.length < 2 || rel[0] === ".." || rel[0] === "api") return null;
  const index = join(root, "src", rel[0]!, "index.ts");
  return existsSync(index) && resolve(index) !== resolve(file) ? index : null;
}

/** `../x/y.js` as written in an import → the `.ts` file it names, if there is one. */
function resolveTs(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const path = resolve(dirname(from), specifier).replace(/\.js$/, ".ts");
  return existsSync(path) ? path : null;
}

function hasExportModifier(st: ts.Statement): boolean {
  return ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function declaredNames(st: ts.Statement): string[] {
  if (ts.isVariableStatement(st)) {
    return st.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  if (
    (ts.isFunctionDeclaration(st) ||
      ts.isClassDeclaration(st) ||
      ts.isInterfaceDeclaration(st) ||
      ts.isTypeAliasDeclaration(st) ||
      ts.isEnumDeclaration(st)) &&
    st.name
  ) {
    return [st.name.text];
  }
  return [];
}

/** Every `.ts` file under `dir`. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "fixtures" || e.name === "node_modules" ? [] : tsFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}
