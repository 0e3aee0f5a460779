import type { TagPathSequence } from "../html/index.js";
import { chooseAnalysis, DEFAULT_PARAMS, RootSearch, recordRoot } from "./learn.js";
import type { WrapperParams } from "./types.js";

/**
 * Why the learner took the list it took, or none (`wrapper learn --explain`): every candidate record list of the
 * page with its score and, for those not taken, the reason in terms of the page — what a user can check or change
 * (save the page after its results appear, give the page's URL, pick another sample).
 */
export interface CandidateList {
  /** The record root P_a (tag path). */
  ancestorPath: string;
  /** The learned title link, relative to the record root (null: no record with a link). */
  titlePath: string | null;
  /** Records of this template on the page. */
  records: number;
  /** Of them, records that look like results (a worded title with a snippet, or a card). */
  resultLike: number;
  /** The list's evidence score (0: none looks like a result). */
  score: number;
  verdict: "results" | "joins results" | "rejected";
  /** Why, in words. */
  reason: string;
}

export interface LearnExplanation {
  learned: boolean;
  /** Which reading of the page gave the candidates: exact or collapsed tag paths, AP preference. */
  variant: string;
  /** The seed's T: a result list has more than T records that look like results. */
  minRecords: number;
  candidates: CandidateList[];
  /** AP clusters that could not lead records, counted by reason. */
  clustersWithoutRecords: { tooFewPaths: number; noRepeatedRoot: number; total: number };
  /** One sentence: what the learner concluded and what to try. */
  summary: string;
}

export function explainLearning(
  seq: TagPathSequence,
  options: { pageUrl?: string; params?: Partial<WrapperParams> } = {},
): LearnExplanation {
  const params = { ...DEFAULT_PARAMS, ...options.params };
  const { analysis, pathMode, preference } = chooseAnalysis(seq, params, options.pageUrl);
  const T = params.minRecords;
  const variant = `${pathMode} tag paths, ${preference} preference`;
  if (!analysis) {
    return {
      learned: false,
      variant,
      minRecords: T,
      candidates: [],
      clustersWithoutRecords: { tooFewPaths: 0, noRepeatedRoot: 0, total: 0 },
      summary: "the page has no tag path that occurs twice: nothing repeats, so there is no list to learn",
    };
  }
  const { index, clusters, recordClusters, snippetRecords } = analysis;
  const search = new RootSearch(index);
  let tooFewPaths = 0;
  let noRepeatedRoot = 0;
  const rooted = new Set<string>();
  for (const members of clusters) {
    if (members.length < params.minClusterSize) {
      tooFewPaths++;
      continue;
    }
    const root = recordRoot(index, members, T, search);
    if (root === null) noRepeatedRoot++;
    else rooted.add(index.seq.paths[root]!);
  }
  const best = recordClusters[0];
  const bestScore = best?.score ?? 0;
  const candidates: CandidateList[] = recordClusters.map((c) => {
    const resultLike = snippetRecords.get(c) ?? 0;
    const row = { ancestorPath: c.ancestorPath, titlePath: c.titlePath, records: c.sampleRecords, resultLike, score: c.score };
    if (c.role === "results" && resultLike > T && c === best) {
      return { ...row, verdict: "results", reason: "the best-scoring list: taken as the result list" };
    }
    if (c.role === "results" && best && (snippetRecords.get(best) ?? 0) > T) {
      return { ...row, verdict: "joins results", reason: "its records sit in the result list's own list (another template of results)" };
    }
    return { ...row, verdict: "rejected", reason: rejection(resultLike, c.sampleRecords, c.score, bestScore, T, c.titlePath) };
  });
  // Record roots whose records none look like a result never got a score: listed too, so a user sees them.
  const listed = new Set(recordClusters.map((c) => c.ancestorPath));
  for (const path of rooted) {
    if (listed.has(path)) continue;
    const occurrences = index.occurrences[index.seq.paths.indexOf(path)]?.length ?? 0;
    candidates.push({
      ancestorPath: path,
      titlePath: null,
      records: occurrences,
      resultLike: 0,
      score: 0,
      verdict: "rejected",
      reason:
        "none of its records has a title link with a snippet (20–1,500 characters of text beside it) or is a card (a title of 20 characters or more with some text beside it); links to new searches, repeated targets and control labels do not count",
    });
  }
  const learned = best !== undefined && (snippetRecords.get(best) ?? 0) > T;
  const clustersWithoutRecords = { tooFewPaths, noRepeatedRoot, total: clusters.length };
  return { learned, variant, minRecords: T, candidates, clustersWithoutRecords, summary: summarise(learned, candidates, T) };
}

function rejection(resultLike: number, records: number, score: number, bestScore: number, T: number, titlePath: string | null): string {
  if (titlePath === null) return "its records have no link with text to take as a title";
  if (score === 0 || resultLike === 0)
    return `none of its ${records} records looks like a result (a worded title with a snippet of 20–1,500 characters, or a card: a title of 20+ characters with text beside it)`;
  if (resultLike <= T) return `only ${resultLike} of its ${records} records look like results; a result list needs more than T = ${T}`;
  return `scores ${score.toFixed(2)}, below the result list's ${bestScore.toFixed(2)} (fewer records with a snippet, heading, the query's words, links off the site)`;
}

function summarise(learned: boolean, candidates: readonly CandidateList[], T: number): string {
  if (learned) {
    const taken = candidates.filter((c) => c.verdict !== "rejected");
    const n = taken.reduce((s, c) => s + c.resultLike, 0);
    return `learned: ${taken.length} list(s) taken, ${n} records that look like results`;
  }
  if (candidates.length === 0)
    return `no list of records repeats on this page (no ancestor path occurring more than T = ${T} times that holds a cluster of tag paths): is it a result page with results? A page whose results load with script needs saving after they appear (live learning in Chromium does that)`;
  const near = candidates.reduce((a, b) => (b.resultLike > a.resultLike ? b : a));
  return `no list has more than T = ${T} records that look like results; the closest has ${near.resultLike} of ${near.records} (${near.ancestorPath.split("\\").slice(-4).join("\\")}): if the page holds results, check that it is the whole page (saved after its results appeared) and that its results have text beside their titles`;
}
