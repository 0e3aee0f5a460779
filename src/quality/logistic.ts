/**
 * L2-regularised logistic regression on standardised features, fitted by Newton's method (IRLS): a handful
 * of features and tens of thousands of samples converge in a few iterations, and prediction is one dot
 * product — what lets the scorer run at tens of thousands of pairs a second.
 */

export interface LogisticModel {
  /** Feature means and standard deviations the weights apply to (x - mean) / sd. */
  mean: number[];
  sd: number[];
  weights: number[];
  bias: number;
}

export interface LogisticOptions {
  /** L2 penalty on the weights (not the bias). */
  l2?: number;
  iterations?: number;
  /** One weight per sample (default 1). */
  sampleWeights?: readonly number[];
}

export function predictLogistic(m: LogisticModel, x: readonly number[]): number {
  let z = m.bias;
  for (let i = 0; i < m.weights.length; i++) z += (m.weights[i]! * (x[i]! - m.mean[i]!)) / m.sd[i]!;
  return 1 / (1 + Math.exp(-z));
}

export function trainLogistic(samples: readonly number[][], labels: readonly number[], options: LogisticOptions = {}): LogisticModel {
  const n = samples.length;
  const d = samples[0]?.length ?? 0;
  if (n === 0 || d === 0) throw new Error("trainLogistic: no samples");
  const sw = options.sampleWeights ?? new Array<number>(n).fill(1);
  const { mean, sd } = standardisation(samples);
  const xs = samples.map((x) => [1, ...x.map((v, i) => (v - mean[i]!) / sd[i]!)]);
  const l2 = options.l2 ?? 1;
  const beta = new Array<number>(d + 1).fill(0);
  for (let iter = 0; iter < (options.iterations ?? 25); iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let s = 0; s < n; s++) {
      const x = xs[s]!;
      let z = 0;
      for (let i = 0; i <= d; i++) z += beta[i]! * x[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const w = sw[s]!;
      const r = w * (labels[s]! - p);
      const h = w * p * (1 - p);
      for (let i = 0; i <= d; i++) {
        grad[i]! += r * x[i]!;
        const hi = hess[i]!;
        for (let j = 0; j <= i; j++) hi[j]! += h * x[i]! * x[j]!;
      }
    }
    for (let i = 0; i <= d; i++) {
      for (let j = 0; j < i; j++) hess[j]![i] = hess[i]![j]!;
      if (i > 0) {
        grad[i]! -= l2 * beta[i]!;
        hess[i]![i]! += l2;
      }
      hess[i]![i]! += 1e-9;
    }
    const step = solve(hess, grad);
    let change = 0;
    for (let i = 0; i <= d; i++) {
      beta[i]! += step[i]!;
      change = Math.max(change, Math.abs(step[i]!));
    }
    if (change < 1e-6) break;
  }
  return { mean, sd, bias: beta[0]!, weights: beta.slice(1) };
}

function standardisation(samples: readonly number[][]): { mean: number[]; sd: number[] } {
  const d = samples[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const x of samples) for (let i = 0; i < d; i++) mean[i]! += x[i]! / samples.length;
  for (const x of samples) for (let i = 0; i < d; i++) sd[i]! += (x[i]! - mean[i]!) ** 2 / samples.length;
  return { mean, sd: sd.map((v) => Math.sqrt(v) || 1) };
}

/** Solve A x = b (A symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]!;
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / piv;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}
