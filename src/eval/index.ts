export * from "./metrics.js";
export * from "./records.js";
export * from "./serp-gold.js";
