import { escapeHtml as e } from "../html/index.js";
import type { Chart } from "./charts.js";
import type { ReportData } from "./data.js";

/**
 * The report as one HTML page: inline CSS, the charts as inline SVG, screenshots as data URIs; no script and no
 * external reference, so it opens offline and can be mailed as one file.
 */

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1000px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
.meta { color: #666; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 13px; }
th, td { border-bottom: 1px solid #eee; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.url { max-width: 380px; overflow-wrap: anywhere; }
figure.chart { margin: 1em 0; } figure.chart figcaption { font-weight: 600; margin-bottom: 0.3em; }
figure.shot div { max-height: 720px; overflow: auto; border: 1px solid #ccc; } figure.shot img { max-width: 100%; display: block; } .none { color: #888; font-style: italic; }
`;

export function reportHtml(data: ReportData, charts: ReadonlyArray<Chart & { svg: string }>): string {
  const chart = (id: string) => {
    const c = charts.find((x) => x.id === id);
    return c
      ? `<figure class="chart" id="chart-${e(c.id)}" data-chart="${e(c.id)}"><figcaption>${e(c.title)}</figcaption>${c.svg}</figure>`
      : "";
  };
  const totals = data.engines.reduce((s, x) => ({ pages: s.pages + x.pages, records: s.records + x.records }), { pages: 0, records: 0 });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bitext report — ${e(data.store)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>bitext run report</h1>
<p class="meta">Store ${e(data.store)} · ${data.runs.length} run(s) · ${totals.pages} result pages · ${totals.records} records read · written ${e(data.generatedAt)}</p>
<h2 id="engines">Engines</h2>
${table(
  ["engine", "pages", "ok", "empty", "blocked", "errors", "records", "wrappers learned", "drifts", "median ms"],
  data.engines.map((x) => [x.engine, x.pages, x.ok, x.empty, x.blocked, x.errors, x.records, x.wrappersLearned, x.drifts, x.medianMs]),
)}
${chart("pages")}
${chart("records")}
${chart("blocks")}
<h2 id="wrappers">Wrappers and drift</h2>
${chart("events")}
${table(
  ["time", "engine", "event", "detail"],
  data.events.map((x) => [x.at, x.engine, x.kind, x.detail]),
  "no wrapper learned and no drift in this store",
)}
${
  data.wrapperVersions.length === 0
    ? ""
    : `<p>Wrapper versions shared by distributed workers:</p>${table(
        ["engine", "version", "stored"],
        data.wrapperVersions.map((w) => [w.engine, w.version, w.createdAt]),
      )}`
}
<h2 id="labels">Classifier labels</h2>
${chart("labels")}
<h2 id="pairs">Sentence pairs</h2>
<p>${
    data.pairs.scored
      ? `${data.pairs.total} pairs: ${data.pairs.kept} kept, ${data.pairs.rejectedPairs} rejected by the quality rules.`
      : `${data.pairs.total} pairs (not scored for quality in this store).`
  }</p>
${chart("pairs")}
<h2 id="pages">Slowest and failing pages</h2>
${chart("durations")}
${table(
  ["ms", "engine", "status", "url", "detail"],
  data.slowest.map((x) => [x.durationMs, x.engine, x.status, { url: x.url }, x.detail]),
  "no pages",
)}
${table(
  ["pages", "engine", "status", "reason", "last page"],
  data.failing.map((x) => [x.pages, x.engine, x.status, x.reason, { url: x.lastUrl }]),
  "no failed pages",
)}
<h2 id="runs">Runs</h2>
${table(
  ["run", "status", "started", "finished", "drifts"],
  data.runs.map((r) => [r.id, r.status, r.startedAt, r.finishedAt ?? "-", r.drifts]),
  "no runs",
)}
<h2 id="screenshots">Sample records on screenshots</h2>
${
  data.screenshots.length === 0
    ? `<p class="none">no screenshots in this report (live wrapper learning can save a preview of a result page with its records outlined; give the report its folder)</p>`
    : data.screenshots
        .map(
          (s) =>
            `<figure class="shot"><figcaption>${e(s.name)}</figcaption><div><img alt="${e(s.name)}" src="${s.dataUri}"></div></figure>`,
        )
        .join("\n")
}
</body></html>
`;
}

type Cell = string | number | { url: string };

function table(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>, none?: string): string {
  if (rows.length === 0) return none ? `<p class="none">${e(none)}</p>` : "";
  const cell = (c: Cell) =>
    typeof c === "number" ? `<td class="n">${c}</td>` : typeof c === "string" ? `<td>${e(c)}</td>` : `<td class="url">${e(c.url)}</td>`;
  return `<table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join("")}</tr>`)
    .join("")}</tbody></table>`;
}
