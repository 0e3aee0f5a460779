/**
 * The pipeline as one composition: harvest → bilingual candidates → linked pages and their sentence pairs →
 * corpus → run report, a list of steps over a typed context. `bitext demo` runs it on the local simulator
 * (with a first step of its own that learns each engine's wrapper from a sample page), `bitext pipeline` on
 * the user's engines and settings. No I/O of its own: everything goes through the context and the library.
 *
 * ```ts
 * const ctx: PipelineContext = { db, wrappersDir, engines, queryFiles, pair, harvest: {}, corpus, report, hooks, results: {} };
 * await runPipeline(ctx);                 // ctx.results.harvest, .candidates, .pages, .corpus, .report
 * ```
 */
export type { CorpusSettings, PipelineContext, PipelineHarvestSettings, PipelineHooks, PipelineStep, ReportSettings } from "./context.js";
export { corpusSamples, type CorpusSample } from "./samples.js";
export { PIPELINE_STEPS } from "./steps.js";
export { type PipelineOutcome, runPipeline } from "./run.js";
