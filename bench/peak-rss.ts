/**
 * Preloaded into a child process (`node --import ./bench/peak-rss.ts …`): on exit, writes the process's
 * peak resident set size and CPU time as one JSON line on stderr, so a benchmark can measure a real
 * command's memory without external tools.
 */
import { writeSync } from "node:fs";

process.on("exit", () => {
  const u = process.resourceUsage();
  writeSync(2, `\n${JSON.stringify({ peakRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })}\n`);
});
