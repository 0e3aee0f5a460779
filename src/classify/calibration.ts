/**
 * How well probabilities are calibrated: the Brier score (mean squared error of P against the 0/1 truth) and the
 * expected calibration error over equal-width bins of P (Σ_bins n_b / N · |mean P_b − share of positives_b|).
 */
export interface Calibration {
  n: number;
  brier: number;
  /** Expected calibration error over `bins.length` bins. */
  ece: number;
  bins: Array<{ lo: number; hi: number; n: number; meanP: number; positives: number }>;
}

export function calibration(probabilities: readonly number[], truth: readonly boolean[], nBins = 10): Calibration {
  if (probabilities.length !== truth.length) throw new Error("calibration: probabilities and truth differ in length");
  const bins = Array.from({ length: nBins }, (_, b) => ({ lo: b / nBins, hi: (b + 1) / nBins, n: 0, sumP: 0, positives: 0 }));
  let brier = 0;
  probabilities.forEach((p, i) => {
    const y = truth[i] ? 1 : 0;
    brier += (p - y) ** 2;
    const bin = bins[Math.min(nBins - 1, Math.floor(p * nBins))]!;
    bin.n++;
    bin.sumP += p;
    bin.positives += y;
  });
  const n = probabilities.length;
  let ece = 0;
  for (const b of bins) if (b.n) ece += (b.n / n) * Math.abs(b.sumP / b.n - b.positives / b.n);
  return {
    n,
    brier: n ? brier / n : 0,
    ece,
    bins: bins.map((b) => ({ lo: b.lo, hi: b.hi, n: b.n, meanP: b.n ? b.sumP / b.n : 0, positives: b.positives })),
  };
}
