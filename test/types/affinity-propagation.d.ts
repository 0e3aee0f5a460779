// The unlicensed `affinity-propagation` package, used only as a test oracle for src/wrapper/ap.ts.
declare module "affinity-propagation" {
  interface OracleResult {
    exemplars: number[];
    clusters: number[];
    converged: boolean;
    iterations: number;
    preference: number;
  }
  const ap: {
    getClusters(
      s: number[][] | number[],
      options?: { preference?: "median" | "min" | number; damping?: number; maxIter?: number; convIter?: number },
    ): OracleResult;
  };
  export default ap;
}
