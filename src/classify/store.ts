/**
 * Classifying the records of the harvest store (`bitext classify --db`): in batches, each batch's
 * decisions written in one transaction, so an interrupted run keeps what it finished and a rerun picks up
 * the records this model has not labelled yet.
 */
import { countRecords, listRecords, setClassifications, type Store } from "../store/index.js";
import type { Classifier } from "./types.js";

export interface StoreClassification {
  classified: number;
  bilingual: number;
  monolingual: number;
}

export async function classifyStoredRecords(
  store: Store,
  classifier: Classifier,
  options: { all?: boolean; batchSize?: number; onTotal?: (n: number) => void; onBatch?: (n: number) => void } = {},
): Promise<StoreClassification> {
  const filter = options.all ? {} : { notClassifiedBy: classifier.modelId };
  options.onTotal?.(await countRecords(store, filter));
  // Read the selection first: updating rows while iterating a filter on the same columns would skip some.
  const records = await listRecords(store, filter);
  const batchSize = options.batchSize ?? 256;
  const result: StoreClassification = { classified: 0, bilingual: 0, monolingual: 0 };
  for (let i = 0; i < records.length; i += batchSize) {
    const batch = records.slice(i, i + batchSize);
    const predictions = classifier.classify(batch);
    await setClassifications(
      store,
      batch.map((r, k) => ({
        id: r.id,
        label: predictions[k]!.label,
        probability: predictions[k]!.probability,
        model: classifier.modelId,
      })),
    );
    for (const p of predictions) result[p.label]++;
    result.classified += batch.length;
    options.onBatch?.(batch.length);
  }
  return result;
}
