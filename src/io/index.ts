export * from "./atomic-write.js";
export * from "./json-file.js";
export * from "./json-position.js";
export * from "./stdin.js";
export * from "./stream.js";
export * from "./text-file.js";
