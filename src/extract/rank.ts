/**
 * Random Walk with Restart (Tong, Faloutsos & Pan 2007), the candidate ranker of feng2011 §IV.D.
 * A particle walks the weighted directed graph, choosing an out-edge with probability proportional
 * to its weight, and at each step returns to the restart set with probability `restart`.
 * The steady-state probabilities are the nodes' relevance to the restart set.
 */

export interface WeightedEdge {
  from: number;
  to: number;
  weight: number;
}

export interface RwrOptions {
  /** Probability of jumping back to the restart set at each step. */
  restart?: number;
  /** Stop when the L1 change of the distribution falls below this. */
  tolerance?: number;
  maxIterations?: number;
}

/**
 * Relevance of every node of a graph with `nodeCount` nodes to the nodes in `restartSet` (uniform restart).
 * Nodes without out-edges send their mass back to the restart set. Self-loops are ignored (feng2011: none).
 */
export function randomWalkWithRestart(
  nodeCount: number,
  edges: readonly WeightedEdge[],
  restartSet: readonly number[],
  options: RwrOptions = {},
): Float64Array {
  const alpha = options.restart ?? 0.15;
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 500;
  const scores = new Float64Array(nodeCount);
  if (nodeCount === 0 || restartSet.length === 0) return scores;

  const outWeight = new Float64Array(nodeCount);
  const kept = edges.filter((e) => e.from !== e.to && e.weight > 0);
  for (const e of kept) outWeight[e.from]! += e.weight;
  const restart = new Float64Array(nodeCount);
  for (const r of restartSet) restart[r] = 1 / restartSet.length;
  scores.set(restart);

  const next = new Float64Array(nodeCount);
  for (let iter = 0; iter < maxIterations; iter++) {
    next.fill(0);
    let dangling = 0;
    for (let v = 0; v < nodeCount; v++) if (outWeight[v] === 0) dangling += scores[v]!;
    for (const e of kept) next[e.to]! += ((1 - alpha) * scores[e.from]! * e.weight) / outWeight[e.from]!;
    for (let v = 0; v < nodeCount; v++) next[v]! += (alpha + (1 - alpha) * dangling) * restart[v]!;
    let change = 0;
    for (let v = 0; v < nodeCount; v++) change += Math.abs(next[v]! - scores[v]!);
    scores.set(next);
    if (change < tolerance) break;
  }
  return scores;
}
