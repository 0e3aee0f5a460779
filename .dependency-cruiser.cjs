/**
 * The layer rule (`npm run lint:deps`, part of `npm test`): bitext's folders under src/ form layers, lowest
 * first. A module may import its own layer and lower ones, never a higher one; from outside a layer only
 * its `index.ts`; and nothing may import in a cycle. The order is today's imports, written down:
 * see the README's code tour for what each layer is.
 */

/** Lowest first. `core` is the files directly in src/ (errors, paths, duration, …), each its own entry. */
const LAYERS = [
  "core",
  "eval", // the shared metrics (each stage's evaluation lives beside it)
  "io",
  "store",
  "config",
  "html",
  "text",
  "net",
  "browser",
  "wrapper",
  "health",
  "quality",
  "classify",
  "extract",
  "site",
  "export",
  "serp",
  "queue",
  "report",
  "annotate",
  "pipeline", // one composition of the stages (harvest → pages → corpus → report) for the demo and the CLI
  "sim",
  "cli",
  "api", // src/index.ts, the package's root (the pipeline in one call per step), and src/api/*.ts, its subpaths
];

/** The path pattern of a layer's modules. */
function layerPath(layer) {
  if (layer === "core") return "^src/(?!index\\.ts$)[^/]+$";
  if (layer === "api") return "^src/(index\\.ts$|api/)";
  return `^src/${layer}/`;
}

const layerOrder = LAYERS.map((layer, i) => ({
  name: `layer-order:${layer}`,
  comment: `${layer} may import only ${LAYERS.slice(0, i).join(", ") || "nothing below it"} (lower layers), never a higher one`,
  severity: "error",
  from: { path: layerPath(layer) },
  to: { path: LAYERS.slice(i + 1).map(layerPath) },
})).filter((rule) => rule.to.path.length > 0);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a module may not depend on itself through others",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerOrder,
    {
      name: "through-index",
      comment: "from outside a layer, import the layer's index.ts, never its internals",
      severity: "error",
      from: { path: "^src/([^/]+)/" },
      to: { path: "^src/[^/]+/", pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$"] },
    },
    {
      name: "core-and-api-through-index",
      comment: "the files directly in src/ import a layer through its index.ts too",
      severity: "error",
      from: { path: "^src/[^/]+$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/[^/]+/index\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
