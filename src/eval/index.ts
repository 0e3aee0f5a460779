/** The metrics every stage's evaluation shares (precision, recall, F, confusion, multiset matching) and the held-out list; each stage's evaluation lives beside it. */
export * from "./held-out.js";
export * from "./metrics.js";
