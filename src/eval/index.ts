/** The metrics every stage's evaluation shares (precision, recall, F, confusion, multiset matching); each stage's evaluation lives beside it. */
export * from "./metrics.js";
