/** `bitext/serp`: harvesting search engines (feng2010 §4.1): engines, query lists, the browser and HTTP loaders. */
export {
  type EngineDefinition,
  type HarvestOptions,
  type HarvestSummary,
  HttpLoader,
  harvest,
  listEngineNames,
  loadEngine,
  readQueryFile,
  SerpDriver,
  searchUrl,
} from "../serp/index.js";
