// Preloaded (node --require) to run bitext as on a machine where the optional package pg-native is not installed.
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "pg-native") throw Object.assign(new Error("Cannot find module 'pg-native'"), { code: "MODULE_NOT_FOUND" });
  return resolve.call(this, request, ...rest);
};
