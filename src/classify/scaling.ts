/**
 * Min-max scaling to [0, 1], fitted on training data and stored in the model (the RBF kernel compares
 * raw distances, so features with large ranges, like the variance of segment lengths, would dominate).
 * Values outside the training range are clipped.
 */
export interface MinMaxScaling {
  method: "min-max";
  min: number[];
  max: number[];
}

export function fitMinMax(rows: readonly (readonly number[])[]): MinMaxScaling {
  const d = rows[0]?.length ?? 0;
  const min = new Array<number>(d).fill(Number.POSITIVE_INFINITY);
  const max = new Array<number>(d).fill(Number.NEGATIVE_INFINITY);
  for (const r of rows) {
    for (let j = 0; j < d; j++) {
      const v = r[j]!;
      if (v < min[j]!) min[j] = v;
      if (v > max[j]!) max[j] = v;
    }
  }
  for (let j = 0; j < d; j++) {
    if (!Number.isFinite(min[j]!)) min[j] = 0;
    if (!Number.isFinite(max[j]!)) max[j] = 0;
  }
  return { method: "min-max", min, max };
}

export function applyScaling(s: MinMaxScaling, row: readonly number[]): number[] {
  return row.map((v, j) => {
    const lo = s.min[j]!;
    const hi = s.max[j]!;
    if (hi <= lo) return 0;
    return Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
  });
}
