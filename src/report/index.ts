import { writeFileAtomic } from "../io/index.js";
import type { Store } from "../store/index.js";
import { reportCharts, renderSvg } from "./charts.js";
import { type GatherOptions, gatherReport, type ReportData } from "./data.js";
import { reportHtml } from "./html.js";

export { type Chart, reportCharts, renderSvg } from "./charts.js";
export { bucketFor, type GatherOptions, gatherReport, type ReportData } from "./data.js";
export { reportHtml } from "./html.js";

export interface WrittenReport {
  out: string;
  bytes: number;
  charts: string[];
  data: ReportData;
}

/** Read the store, render the charts and write the report (atomically) to `out`. */
export async function writeReport(store: Store, out: string, options: GatherOptions = {}): Promise<WrittenReport> {
  const data = await gatherReport(store, options);
  const charts = [];
  for (const c of reportCharts(data)) charts.push({ ...c, svg: await renderSvg(c.spec) });
  const html = reportHtml(data, charts);
  writeFileAtomic(out, html);
  return { out, bytes: Buffer.byteLength(html), charts: charts.map((c) => c.id), data };
}
