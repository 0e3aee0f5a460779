import type { FetchStatus } from "../store/index.js";
import { emptyFailureCounts, type FailureCounts, type FailureKind } from "./failures.js";

/**
 * The run's counters: what happened to its result pages, over the run and per engine, and the run's
 * outcome from them. Every page of the run ends exactly one way — done (ok or empty, fetched or
 * skipped as fresh) or left for the next run — so `jobsDone` reaches `jobs` and `left` is the truth
 * the exit status is made of.
 */

/** What happened to the result pages of a run (or of one engine in it). */
export interface PageCounts {
  /** Page loads (attempts, retries included). */
  fetched: number;
  ok: number;
  empty: number;
  blocked: number;
  errors: number;
  /** Pages skipped because they were fetched within the max age. */
  skipped: number;
  newRecords: number;
  seenAgain: number;
  relearned: number;
  /** Pages found outside their engine's health profile (drift), re-learned or not. */
  drifts: number;
  /** Pages not fetched successfully in this run (retries spent, or the engine given up): the next run fetches them. */
  left: number;
  /** Failed attempts (blocked and error fetches) by cause. */
  causes: FailureCounts;
}

export interface EngineStats extends PageCounts {
  givenUp: boolean;
  /** Why the engine was given up (null while it is not). */
  givenUpBecause: string | null;
}

export interface HarvestStats extends PageCounts {
  /** (engine, query) pairs to harvest, and how many are finished (done or left). */
  jobs: number;
  jobsDone: number;
  classified: number;
  engines: Record<string, EngineStats>;
}

/** completed: every page done or some left; failed: not one page succeeded; interrupted: Ctrl-C. */
export type RunOutcome = "completed" | "interrupted" | "failed";

export class RunCounters {
  readonly stats: HarvestStats;

  constructor(engines: readonly string[], queries: number) {
    this.stats = {
      ...emptyCounts(),
      jobs: queries * engines.length,
      jobsDone: 0,
      classified: 0,
      engines: Object.fromEntries(engines.map((e) => [e, { ...emptyCounts(), givenUp: false, givenUpBecause: null }])),
    };
  }

  engine(name: string): EngineStats {
    const e = this.stats.engines[name];
    if (!e) throw new Error(`RunCounters: unknown engine ${name}`);
    return e;
  }

  /** One page load stored with its status (and, for blocked and error fetches, the cause). */
  fetched(engine: string, status: FetchStatus, cause: FailureKind | null): void {
    const key = status === "error" ? "errors" : status;
    for (const c of [this.stats, this.engine(engine)]) {
      c.fetched++;
      c[key]++;
      if (cause && status !== "ok" && status !== "empty") c.causes[cause]++;
    }
  }

  records(engine: string, newRecords: number, seenAgain: number): void {
    for (const c of [this.stats, this.engine(engine)]) {
      c.newRecords += newRecords;
      c.seenAgain += seenAgain;
    }
  }

  relearned(engine: string): void {
    this.stats.relearned++;
    this.engine(engine).relearned++;
  }

  drift(engine: string): void {
    this.stats.drifts++;
    this.engine(engine).drifts++;
  }

  skipped(engine: string): void {
    this.stats.skipped++;
    this.engine(engine).skipped++;
  }

  classified(n: number): void {
    this.stats.classified += n;
  }

  /** A query's pages are finished (its last page done). */
  jobDone(): void {
    this.stats.jobsDone++;
  }

  /** `n` pages left for the next run; each ends its query's job. */
  left(engine: string, n = 1): void {
    this.stats.left += n;
    this.engine(engine).left += n;
    this.stats.jobsDone += n;
  }

  givenUp(engine: string, because: string): void {
    const e = this.engine(engine);
    e.givenUp = true;
    e.givenUpBecause = because;
  }

  /** Did any page of the engine succeed in this run (fetched ok/empty, or fresh enough to skip)? */
  anySuccess(engine?: string): boolean {
    const c = engine === undefined ? this.stats : this.engine(engine);
    return c.ok + c.empty + c.skipped > 0;
  }

  outcome(interrupted: boolean): RunOutcome {
    if (interrupted) return "interrupted";
    const tried = this.stats.fetched + this.stats.left > 0;
    return tried && !this.anySuccess() ? "failed" : "completed";
  }
}

function emptyCounts(): PageCounts {
  return {
    fetched: 0,
    ok: 0,
    empty: 0,
    blocked: 0,
    errors: 0,
    skipped: 0,
    newRecords: 0,
    seenAgain: 0,
    relearned: 0,
    drifts: 0,
    left: 0,
    causes: emptyFailureCounts(),
  };
}
