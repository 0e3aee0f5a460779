export * from "./identity.js";
export * from "./launch.js";
