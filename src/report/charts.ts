import type { ReportData } from "./data.js";

/**
 * The report's charts as Vega-Lite specifications (data inline), rendered to SVG at build time by Vega's own
 * headless renderer: the report holds the SVG, never a script, so it opens anywhere without a network.
 */

export interface Chart {
  /** Stable id (the figure's `id`, `chart-<id>`). */
  id: string;
  title: string;
  spec: Record<string, unknown>;
}

const WIDTH = 640;

function overTime(id: string, title: string, data: ReportData, field: "pages" | "records" | "blocks"): Chart {
  return {
    id,
    title,
    spec: {
      width: WIDTH,
      height: 180,
      data: { values: data.timeline.map((p) => ({ engine: p.engine, at: p.at, value: p[field] })) },
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "at", type: "temporal", title: `time (per ${data.bucket})` },
        y: { field: "value", type: "quantitative", title: field },
        color: { field: "engine", type: "nominal" },
      },
    },
  };
}

export function reportCharts(data: ReportData): Chart[] {
  return [
    overTime("pages", "Result pages fetched per engine over time", data, "pages"),
    overTime("records", "Records read per engine over time", data, "records"),
    overTime("blocks", "Blocked pages per engine over time", data, "blocks"),
    {
      id: "events",
      title: "Wrappers learned and drift events",
      spec: {
        width: WIDTH,
        height: { step: 28 },
        data: { values: data.events.map((e) => ({ engine: e.engine, at: e.at, kind: e.kind })) },
        mark: { type: "point", filled: true, size: 90 },
        encoding: {
          x: { field: "at", type: "temporal", title: "time" },
          y: { field: "engine", type: "nominal" },
          color: { field: "kind", type: "nominal", title: "event" },
          shape: { field: "kind", type: "nominal", title: "event" },
        },
      },
    },
    {
      id: "labels",
      title: "Records by classifier label",
      spec: {
        width: WIDTH,
        height: { step: 24 },
        data: { values: data.labels },
        mark: "bar",
        encoding: {
          y: { field: "engine", type: "nominal" },
          x: { field: "records", type: "quantitative", stack: "zero" },
          color: { field: "label", type: "nominal", scale: { domain: ["bilingual", "monolingual", "unclassified"] } },
        },
      },
    },
    {
      id: "pairs",
      title: data.pairs.scored ? "Sentence pairs kept and rejected (by rule)" : "Sentence pairs (not scored for quality)",
      spec: {
        width: WIDTH,
        height: { step: 24 },
        data: {
          values: [
            { outcome: "kept", reason: "kept", pairs: data.pairs.kept },
            ...data.pairs.rejected.map((r) => ({ outcome: "rejected", reason: r.reason, pairs: r.pairs })),
          ],
        },
        mark: "bar",
        encoding: {
          y: { field: "reason", type: "nominal", sort: "-x", title: null },
          x: { field: "pairs", type: "quantitative" },
          color: { field: "outcome", type: "nominal", scale: { domain: ["kept", "rejected"] } },
        },
      },
    },
    {
      id: "durations",
      title: "Time per result page, by engine",
      spec: {
        width: WIDTH,
        height: { step: 28 },
        data: { values: data.durations },
        mark: { type: "boxplot", extent: 1.5 },
        encoding: {
          y: { field: "engine", type: "nominal" },
          x: { field: "ms", type: "quantitative", title: "ms per page (load and interpretation)" },
        },
      },
    },
  ];
}

/** A Vega-Lite chart as SVG (Vega's headless renderer; loaded on first use: the report alone needs it). */
export async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const [vl, vega] = await Promise.all([import("vega-lite"), import("vega")]);
  const compiled = vl.compile({ $schema: "https://vega.github.io/schema/vega-lite/v6.json", ...spec } as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
