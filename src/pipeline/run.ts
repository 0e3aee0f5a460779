import type { PipelineContext, PipelineStep } from "./context.js";
import { PIPELINE_STEPS } from "./steps.js";

export interface PipelineOutcome {
  /** The ids of the steps that ran to their end (not cut short by the signal), in order. */
  completed: string[];
  /** The context's signal stopped the run before its last step. */
  interrupted: boolean;
}

/**
 * Run the steps in order over one context (default: the whole pipeline). Each step's start goes to the
 * `step` hook; once the context's signal is aborted, no further step starts.
 */
export async function runPipeline(ctx: PipelineContext, steps: readonly PipelineStep[] = PIPELINE_STEPS): Promise<PipelineOutcome> {
  const completed: string[] = [];
  for (const [i, step] of steps.entries()) {
    if (ctx.signal?.aborted) return { completed, interrupted: true };
    ctx.hooks.step?.(i + 1, steps.length, step);
    await step.run(ctx);
    if (!ctx.signal?.aborted) completed.push(step.id);
  }
  return { completed, interrupted: false };
}
