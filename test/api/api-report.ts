/**
 * The package's public API, reported by API Extractor from the built declarations (`npm run build` first):
 * one report per entry of package.json's `exports` in docs/api/. `npm run api` checks that the reports match
 * the code (CI runs it): a change to the public surface fails until `npm run api -- --update` rewrites the
 * reports, so the change shows in review.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";

const ROOT = join(import.meta.dirname, "..", "..");
const REPORTS = join(ROOT, "docs", "api");
const update = process.argv.includes("--update");

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, { types?: string } | string> };
const entries = Object.entries(manifest.exports)
  .filter((e): e is [string, { types: string }] => typeof e[1] === "object" && typeof e[1].types === "string")
  .map(([subpath, e]) => ({ name: subpath === "." ? "bitext" : `bitext-${subpath.slice(2)}`, types: join(ROOT, e.types) }));

const temp = mkdtempSync(join(tmpdir(), "bitext-api-"));
const changed: string[] = [];
try {
  for (const entry of entries) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: ROOT,
        mainEntryPointFilePath: entry.types,
        compiler: { tsconfigFilePath: join(ROOT, "tsconfig.build.json") },
        apiReport: { enabled: true, reportFileName: `${entry.name}.api.md`, reportFolder: REPORTS, reportTempFolder: temp },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(ROOT, "package.json"),
    });
    const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false, messageCallback: (m) => void m });
    if (result.apiReportChanged) changed.push(`docs/api/${entry.name}.api.md`);
    if (result.compilerState === undefined && !result.succeeded && !result.apiReportChanged)
      throw new Error(`API Extractor failed on ${entry.types}`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (changed.length > 0 && !update) {
  console.error(`bitext: the public API differs from its report: ${changed.join(", ")} (npm run api -- --update, and review the change)`);
  process.exit(1);
}
console.log(`${entries.length} API reports ${update ? "written" : "match the code"} (docs/api/)`);
