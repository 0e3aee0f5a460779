/**
 * Gradient-boosted regression trees for a yes/no label (Friedman 2001, logistic loss), grown as scikit-learn's
 * HistGradientBoostingClassifier and LightGBM grow them: each feature cut into quantile bins once, each tree
 * split on histograms of the gradients, leaves set by a Newton step with an L2 penalty (XGBoost's
 * −G / (H + λ)), shrunk by a learning rate. Shallow trees, few rounds and a strong penalty: the pair scorer
 * needs a model that carries over to a source it was not trained on, not one that fits each source's cut points.
 * Pure: numbers in, numbers out.
 */

/** One tree, as parallel arrays of nodes (node 0 the root): a node with `feature` −1 is a leaf. */
export interface RegressionTree {
  feature: number[];
  /** A sample goes left when its feature is at most this. */
  threshold: number[];
  left: number[];
  right: number[];
  /** A leaf's contribution to the log-odds (learning rate applied); 0 for inner nodes. */
  value: number[];
}

export interface BoostedTrees {
  /** The log-odds every sample starts from (the weighted share of positives). */
  bias: number;
  trees: RegressionTree[];
}

export interface BoostingOptions {
  /** Number of trees (default 50). */
  rounds?: number;
  /** Depth of each tree: at most 2^depth leaves (default 3). */
  depth?: number;
  /** Shrinkage of each tree's leaves (default 0.1). */
  learningRate?: number;
  /** L2 penalty on the leaf values (default 10). */
  l2?: number;
  /** Fewest samples a leaf may hold (default 50). */
  minLeaf?: number;
  /** Most bins a feature is cut into (default 255). */
  maxBins?: number;
  /** One weight per sample (default 1). */
  sampleWeights?: readonly number[];
}

/** A node is not split when either side's summed hessian would be below this (scikit-learn's min_hessian_to_split). */
const MIN_HESSIAN = 1e-3;

export function predictBoosted(model: BoostedTrees, x: readonly number[]): number {
  let z = model.bias;
  for (const t of model.trees) {
    let i = 0;
    while (t.feature[i]! >= 0) i = x[t.feature[i]!]! <= t.threshold[i]! ? t.left[i]! : t.right[i]!;
    z += t.value[i]!;
  }
  return 1 / (1 + Math.exp(-z));
}

export function trainBoosted(
  samples: readonly (readonly number[])[],
  labels: readonly number[],
  options: BoostingOptions = {},
): BoostedTrees {
  const n = samples.length;
  const d = samples[0]?.length ?? 0;
  if (n === 0 || d === 0) throw new Error("trainBoosted: no samples");
  const o = {
    rounds: options.rounds ?? 50,
    depth: options.depth ?? 3,
    learningRate: options.learningRate ?? 0.1,
    l2: options.l2 ?? 10,
    minLeaf: options.minLeaf ?? 50,
  };
  const weights = options.sampleWeights ?? new Array<number>(n).fill(1);
  const bins = Array.from({ length: d }, (_, f) =>
    binFeature(
      samples.map((x) => x[f]!),
      options.maxBins ?? 255,
    ),
  );

  let sw = 0;
  let swy = 0;
  for (let i = 0; i < n; i++) {
    sw += weights[i]!;
    swy += weights[i]! * labels[i]!;
  }
  const share = Math.min(1 - 1e-6, Math.max(1e-6, swy / sw));
  const bias = Math.log(share / (1 - share));
  const raw = new Float64Array(n).fill(bias);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const trees: RegressionTree[] = [];
  for (let round = 0; round < o.rounds; round++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-raw[i]!));
      grad[i] = weights[i]! * (p - labels[i]!);
      hess[i] = weights[i]! * p * (1 - p);
    }
    trees.push(growTree(all, bins, grad, hess, raw, o));
  }
  return { bias, trees };
}

/** A feature's bins: the upper edge of each bin but the last, and each sample's bin. */
interface Binned {
  edges: number[];
  codes: Uint16Array;
}

/**
 * Cut a feature into at most `maxBins` bins: between each two distinct values when there are few, else at
 * its quantiles (midpoints, as scikit-learn does). A value goes to the first bin whose edge it does not exceed.
 */
function binFeature(values: readonly number[], maxBins: number): Binned {
  const sorted = [...values].sort((a, b) => a - b);
  const distinct = sorted.filter((v, i) => i === 0 || v !== sorted[i - 1]);
  let edges: number[];
  if (distinct.length <= maxBins) edges = distinct.slice(1).map((v, i) => (distinct[i]! + v) / 2);
  else {
    edges = [];
    for (let k = 1; k < maxBins; k++) {
      const at = (k / maxBins) * (sorted.length - 1);
      const e = (sorted[Math.floor(at)]! + sorted[Math.ceil(at)]!) / 2;
      if (e < sorted.at(-1)! && (edges.length === 0 || e > edges.at(-1)!)) edges.push(e);
    }
  }
  const codes = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) codes[i] = binOf(edges, values[i]!);
  return { edges, codes };
}

/** The first bin whose upper edge `v` does not exceed (the last bin when it exceeds them all). */
function binOf(edges: readonly number[], v: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= edges[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface GrowOptions {
  depth: number;
  learningRate: number;
  l2: number;
  minLeaf: number;
}

/** Grow one tree on the gradients, depth first, and add each leaf's value to its samples' log-odds. */
function growTree(
  samples: Int32Array,
  bins: readonly Binned[],
  grad: Float64Array,
  hess: Float64Array,
  raw: Float64Array,
  o: GrowOptions,
): RegressionTree {
  const tree: RegressionTree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const grow = (idx: Int32Array, depth: number): number => {
    const node = tree.feature.length;
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.value.push(0);
    let g = 0;
    let h = 0;
    for (const i of idx) {
      g += grad[i]!;
      h += hess[i]!;
    }
    const split = depth < o.depth && idx.length >= 2 * o.minLeaf ? bestSplit(idx, bins, grad, hess, g, h, o) : undefined;
    if (!split) {
      const value = (-o.learningRate * g) / (h + o.l2);
      tree.value[node] = value;
      for (const i of idx) raw[i]! += value;
      return node;
    }
    const codes = bins[split.feature]!.codes;
    const leftIdx = idx.filter((i) => codes[i]! <= split.bin);
    const rightIdx = idx.filter((i) => codes[i]! > split.bin);
    tree.feature[node] = split.feature;
    tree.threshold[node] = bins[split.feature]!.edges[split.bin]!;
    tree.left[node] = grow(leftIdx, depth + 1);
    tree.right[node] = grow(rightIdx, depth + 1);
    return node;
  };
  grow(samples, 0);
  return tree;
}

/** The split of largest gain (feature, last bin on the left), if any gains and leaves both sides enough samples. */
function bestSplit(
  idx: Int32Array,
  bins: readonly Binned[],
  grad: Float64Array,
  hess: Float64Array,
  g: number,
  h: number,
  o: GrowOptions,
): { feature: number; bin: number } | undefined {
  const parent = (g * g) / (h + o.l2);
  let best: { feature: number; bin: number; gain: number } | undefined;
  for (let f = 0; f < bins.length; f++) {
    const { edges, codes } = bins[f]!;
    const nb = edges.length + 1;
    if (nb < 2) continue;
    const hg = new Float64Array(nb);
    const hh = new Float64Array(nb);
    const hc = new Int32Array(nb);
    for (const i of idx) {
      const b = codes[i]!;
      hg[b]! += grad[i]!;
      hh[b]! += hess[i]!;
      hc[b]!++;
    }
    let gl = 0;
    let hl = 0;
    let cl = 0;
    for (let b = 0; b < nb - 1; b++) {
      gl += hg[b]!;
      hl += hh[b]!;
      cl += hc[b]!;
      if (cl < o.minLeaf) continue;
      if (idx.length - cl < o.minLeaf) break;
      const gr = g - gl;
      const hr = h - hl;
      if (hl < MIN_HESSIAN || hr < MIN_HESSIAN) continue;
      const gain = (gl * gl) / (hl + o.l2) + (gr * gr) / (hr + o.l2) - parent;
      if (gain > 0 && (!best || gain > best.gain)) best = { feature: f, bin: b, gain };
    }
  }
  return best;
}
