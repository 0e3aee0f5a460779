/**
 * The annotation session's state: records still to label, most uncertain first (P(bilingual) closest
 * to 0.5), and the history of this session's decisions so `undo` can take them back. Pure.
 */
import type { ClassifierInput, Label } from "../classify/index.js";

export interface QueueItem {
  key: string;
  record: ClassifierInput;
  /** The model's P(bilingual), used for the order; null when unknown. */
  probability: number | null;
  /** Store record id, when the records come from the store. */
  recordId?: number;
}

export type Decision = Label | "skip";

export interface HistoryEntry {
  item: QueueItem;
  decision: Decision;
}

export class AnnotationQueue {
  private readonly pending: QueueItem[];
  private readonly history: HistoryEntry[] = [];
  private labelled = 0;

  constructor(items: readonly QueueItem[]) {
    // Most uncertain first; records without a probability after those with one; stable otherwise.
    const uncertainty = (i: QueueItem) => (i.probability === null ? 2 : Math.abs(i.probability - 0.5));
    this.pending = items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => uncertainty(a.item) - uncertainty(b.item) || a.index - b.index)
      .map((x) => x.item);
  }

  /** The record to show, or undefined when everything is labelled or skipped. */
  current(): QueueItem | undefined {
    return this.pending[0];
  }

  get remaining(): number {
    return this.pending.length;
  }

  /** Decisions (bilingual / monolingual) made in this session and not undone. */
  get labelledCount(): number {
    return this.labelled;
  }

  /** Decide on the current record, which must have `key` (a stale page cannot label the wrong record). */
  decide(key: string, decision: Decision): HistoryEntry {
    const item = this.pending[0];
    if (!item || item.key !== key) throw new StaleDecisionError();
    this.pending.shift();
    const entry = { item, decision };
    this.history.push(entry);
    if (decision !== "skip") this.labelled++;
    return entry;
  }

  /** Take back the last decision: its record becomes the current one again. */
  undo(): HistoryEntry | undefined {
    const entry = this.history.pop();
    if (!entry) return undefined;
    this.pending.unshift(entry.item);
    if (entry.decision !== "skip") this.labelled--;
    return entry;
  }
}

/** The page asked to label a record that is no longer the current one (another tab, a double key press). */
export class StaleDecisionError extends Error {
  constructor() {
    super("that record is no longer the current one; reload");
    this.name = "StaleDecisionError";
  }
}
