/** `bitext/report`: a run report of a store, one self-contained HTML page (charts rendered to SVG when written). */
export { type GatherOptions, gatherReport, type ReportData, type WrittenReport, writeReport } from "../report/index.js";
