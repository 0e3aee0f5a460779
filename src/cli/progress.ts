/**
 * Progress for long commands: a live line with a bar, counts and ETA on a TTY (stderr),
 * nothing at all when stderr is not a terminal or when the command runs with --json,
 * so piped output stays machine-readable.
 */
export interface Progress {
  /** Advance by `n` units (default 1) and optionally replace the status fields. */
  tick(n?: number, fields?: Record<string, string | number>): void;
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
}

export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet || !stream.isTTY) return silentProgress();
  let total = options.total ?? 0;
  let current = 0;
  let fields: Record<string, string | number> = {};
  const started = Date.now();
  const interval = options.intervalMs ?? 100;
  let lastDraw = 0;

  const draw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < interval) return;
    lastDraw = now;
    const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 60));
    const frac = total > 0 ? Math.min(1, current / total) : 0;
    const filled = Math.round(frac * width);
    const bar = total > 0 ? `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ` : "";
    const count = total > 0 ? `${current}/${total}` : `${current}`;
    const elapsed = (now - started) / 1000;
    const eta = total > 0 && current > 0 ? formatSeconds((elapsed / current) * (total - current)) : "?";
    const extra = Object.entries(fields)
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ");
    const line = `${options.label} ${bar}${count} · ${formatSeconds(elapsed)} elapsed · ETA ${eta}${extra ? ` · ${extra}` : ""}`;
    stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 200) - 1)}`);
  };

  return {
    tick(n = 1, f) {
      current += n;
      if (f) fields = f;
      draw(false);
    },
    setTotal(t) {
      total = t;
      draw(false);
    },
    done() {
      stream.write("\r\x1b[2K");
    },
  };
}

export function silentProgress(): Progress {
  return { tick() {}, setTotal() {}, done() {} };
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return "?";
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
