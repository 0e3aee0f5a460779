/** `bitext/quality`: is a sentence pair a translation? Named hard rules and a learned score in [0, 1] (Bicleaner-style). */
export { loadScorer, type PairScorer, type PairVerdict, RULES, type RuleName, type ScorerOptions } from "../quality/index.js";
