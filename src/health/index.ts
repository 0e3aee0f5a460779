export * from "./metrics.js";
export * from "./monitor.js";
export * from "./profile.js";
