/**
 * Progress for long commands, the one component every command uses: a live line on a TTY (stderr) with a
 * bar, done/total, percentage, elapsed time and ETA; nothing at all when stderr is not a terminal or the
 * command runs with --json, so piped output stays machine-readable.
 * The line is fitted to the terminal by dropping whole parts (status fields first, then the bar), never by
 * cutting it: a count is shown whole or not at all.
 */
export interface Progress {
  /** Advance by `n` units (default 1) and optionally replace the status fields. */
  tick(n?: number, fields?: Record<string, string | number>): void;
  /** Set how many units are done (when the caller counts them itself). */
  update(done: number, fields?: Record<string, string | number>): void;
  /** Change the total when it becomes known or grows. */
  setTotal(total: number): void;
  /** Erase the live line. */
  done(): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  /** Force-disable (e.g. for --json). */
  quiet?: boolean;
  stream?: NodeJS.WriteStream;
  /** Minimum milliseconds between redraws. */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet || !stream.isTTY) return silentProgress();
  const now = options.now ?? Date.now;
  let total = options.total ?? 0;
  let current = 0;
  let fields: Record<string, string | number> = {};
  const started = now();
  const interval = options.intervalMs ?? 100;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;

  const draw = (force: boolean) => {
    const t = now();
    if (!force && t - lastDraw < interval) return;
    lastDraw = t;
    drawn = true;
    const line = progressLine({ label: options.label, current, total, elapsedMs: t - started, fields }, (stream.columns ?? 80) - 1);
    stream.write(`\r\x1b[2K${line}`);
  };

  return {
    tick(n = 1, f) {
      current += n;
      if (f) fields = f;
      draw(false);
    },
    update(done, f) {
      current = done;
      if (f) fields = f;
      draw(false);
    },
    setTotal(t) {
      total = t;
      draw(false);
    },
    done() {
      if (drawn) stream.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

export interface ProgressState {
  label: string;
  current: number;
  total: number;
  elapsedMs: number;
  fields: Record<string, string | number>;
}

/** The progress line for a state, at most `width` columns: parts are dropped whole, least useful first. */
export function progressLine(s: ProgressState, width: number): string {
  const known = s.total > 0;
  const frac = known ? Math.min(1, s.current / s.total) : 0;
  const elapsed = s.elapsedMs / 1000;
  const count = known ? `${s.current}/${s.total} (${Math.floor(frac * 100)}%)` : `${s.current}`;
  const eta = known && s.current > 0 ? `ETA ${formatSeconds((elapsed / s.current) * (s.total - s.current))}` : known ? "ETA ?" : "";
  const extra = Object.entries(s.fields)
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ");
  const bar = (w: number) => {
    const filled = Math.round(frac * w);
    return `[${"#".repeat(filled)}${"-".repeat(w - filled)}]`;
  };
  // From the fullest line to the barest; the first that fits is drawn.
  const candidates = [
    [s.label, known ? bar(30) : "", count, formatSeconds(elapsed), eta, extra],
    [s.label, known ? bar(20) : "", count, formatSeconds(elapsed), eta, extra],
    [s.label, known ? bar(10) : "", count, formatSeconds(elapsed), eta],
    [s.label, count, eta],
    [s.label, count],
  ];
  for (const parts of candidates) {
    const line = joinParts(parts);
    if (line.length <= width) return line;
  }
  return count;
}

function joinParts(parts: readonly string[]): string {
  const [label, ...rest] = parts.filter((p) => p !== "");
  const bar = rest[0]?.startsWith("[") ? `${rest.shift()} ` : "";
  return `${label} ${bar}${rest.join(" · ")}`;
}

export function silentProgress(): Progress {
  return { tick() {}, update() {}, setTotal() {}, done() {} };
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return "?";
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
