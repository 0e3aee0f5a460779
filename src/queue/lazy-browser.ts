/** The lazily started browser lives with the harvest (src/serp/lazy-browser.ts); workers use the same one. */
export { LazyBrowser } from "../serp/index.js";
