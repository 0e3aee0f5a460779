import { SettingError } from "../errors.js";

/**
 * Faults the simulator injects, by engine and by the engine's search-request counter (1-based,
 * counting every search request it receives, retries included), so tests are deterministic:
 * `{ engine: "sim-div", kind: "429", from: 3, to: 4 }` answers the 3rd and 4th searches with HTTP 429.
 */
export type FaultKind =
  /** HTTP 429 Too Many Requests, with Retry-After: the rule's delayMs (default 30 s). */
  | "429"
  /** HTTP 200 with a captcha ("unusual traffic") page. */
  | "captcha"
  /** 302 to a verification page on another host (Baidu's wappass). */
  | "verify-redirect"
  /** 302 to a cookie-consent interstitial. */
  | "consent"
  /** Answer after `delayMs` (default 10 s). */
  | "slow"
  /** Destroy the connection without answering. */
  | "reset"
  /** A genuine "no results" page, whatever the query. */
  | "empty"
  /** From this request on, render the engine's redesigned layout. */
  | "layout-switch";

export interface FaultRule {
  engine: string;
  kind: FaultKind;
  from: number;
  /** Last request affected (inclusive); default `from`, open-ended for layout-switch. */
  to?: number;
  delayMs?: number;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  "429",
  "captcha",
  "verify-redirect",
  "consent",
  "slow",
  "reset",
  "empty",
  "layout-switch",
];

/** The faults that apply to the n-th search request of an engine (layout-switch is sticky). */
export function faultsFor(rules: readonly FaultRule[], engine: string, n: number): FaultRule[] {
  return rules.filter((r) => {
    if (r.engine !== engine && r.engine !== "*") return false;
    const to = r.to ?? (r.kind === "layout-switch" ? Number.POSITIVE_INFINITY : r.from);
    return n >= r.from && n <= to;
  });
}

/**
 * Parse `ENGINE:KIND@FROM[-[TO]][:DELAYMS]`, comma-separated, e.g.
 * `sim-div:429@3-4,sim-list:slow@2:8000,sim-table:layout-switch@5`.
 */
export function parseFaults(spec: string): FaultRule[] {
  if (spec.trim() === "") return [];
  return spec.split(",").map((part) => {
    const m = /^\s*([\w*-]+):([\w-]+)@(\d+)(-(\d*))?(?::(\d+))?\s*$/.exec(part);
    if (!m) throw new SettingError("faults", `cannot read "${part}" (expected ENGINE:KIND@FROM[-TO][:DELAYMS])`);
    const kind = m[2] as FaultKind;
    if (!FAULT_KINDS.includes(kind)) throw new SettingError("faults", `unknown fault "${kind}" (${FAULT_KINDS.join(", ")})`);
    const from = Number(m[3]);
    const to = m[4] === undefined ? undefined : m[5] === "" ? Number.POSITIVE_INFINITY : Number(m[5]);
    return {
      engine: m[1]!,
      kind,
      from,
      ...(to !== undefined ? { to } : {}),
      ...(m[6] !== undefined ? { delayMs: Number(m[6]) } : {}),
    };
  });
}
