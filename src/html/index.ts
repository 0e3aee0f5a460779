export * from "./charset.js";
export * from "./dom.js";
export * from "./escape.js";
export * from "./limits.js";
export * from "./load.js";
export * from "./parse.js";
export * from "./tagpaths.js";
