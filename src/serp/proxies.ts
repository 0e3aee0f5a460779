import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import type { FailureKind } from "./failures.js";
import { type BreakerOptions, CircuitBreaker } from "./politeness.js";

/**
 * Proxies for the harvest: `--proxy URL` or a list file (one URL a line, `#` comments), http, https or
 * socks5, with credentials in the URL (`http://user:pass@host:port`; not for socks5, which Chromium
 * cannot authenticate to). Each engine's browser context takes the next proxy in turn; a proxy whose
 * pages fail at the network level or get blocked is rested (a circuit breaker per proxy) and the
 * engine's next context goes through another.
 */

export interface ProxySpec {
  /** As given (with credentials). */
  url: string;
  /** scheme://host:port, without credentials: what reports and the store show. */
  label: string;
  username: string | null;
  password: string | null;
}

const SCHEMES = new Set(["http:", "https:", "socks5:"]);

export function parseProxy(raw: string, where: { file: string; line?: number; field?: string }): ProxySpec {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw inputError(where, `not a proxy URL: "${raw.trim()}" (e.g. http://user:pass@10.0.0.2:3128, socks5://127.0.0.1:1080)`);
  }
  if (!SCHEMES.has(u.protocol)) throw inputError(where, `proxy scheme ${u.protocol.replace(":", "")} not supported (http, https, socks5)`);
  if (u.port === "") throw inputError(where, `proxy ${u.protocol}//${u.hostname}: give the port`);
  const username = u.username ? decodeURIComponent(u.username) : null;
  const password = u.password ? decodeURIComponent(u.password) : null;
  if (u.protocol === "socks5:" && username !== null) {
    throw inputError(
      where,
      "socks5 proxy with credentials: Chromium cannot authenticate to SOCKS proxies (use an http(s) proxy, or one without a password)",
    );
  }
  return { url: raw.trim(), label: `${u.protocol}//${u.host}`, username, password };
}

/** A proxy list file: one proxy URL a line; blank lines and `#` comments skipped. */
export function readProxyList(file: string): ProxySpec[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read proxy list (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const out: ProxySpec[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    out.push(parseProxy(line, { file, line: i + 1 }));
  }
  if (out.length === 0) throw new UserError(`${file}: no proxies (only comments or blank lines)`);
  return out;
}

/** One proxy handed to an engine context, with the means to report how it did. */
export interface ProxyChoice {
  spec: ProxySpec;
  label: string;
  /** Playwright's per-context proxy settings (loopback proxied too, which Chromium otherwise bypasses). */
  playwright: { server: string; bypass: string; username?: string; password?: string };
  succeeded(): void;
  /** A page through it failed at the network level or was blocked. */
  failed(kind: FailureKind): void;
  /** Is it resting (its breaker open)? */
  resting(): boolean;
}

export const PROXY_BREAKER: BreakerOptions = { threshold: 2, cooldownMs: 2 * 60_000, maxTrips: 3 };

export class ProxyPool {
  private readonly breakers: CircuitBreaker[];
  private turn = 0;
  /** Which proxy served what, for the run's report: label → pages ok / failed. */
  readonly usage = new Map<string, { ok: number; failed: number }>();

  constructor(
    readonly specs: readonly ProxySpec[],
    options: BreakerOptions = PROXY_BREAKER,
    private readonly now: () => number = Date.now,
  ) {
    if (specs.length === 0) throw new Error("ProxyPool: no proxies");
    this.breakers = specs.map(() => new CircuitBreaker(options));
  }

  /** The next proxy for an engine's context: in turn, skipping resting ones (the soonest back when all rest). */
  next(_engine: string): ProxyChoice {
    const now = this.now();
    let best = -1;
    let bestWait = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.specs.length; k++) {
      const i = (this.turn + k) % this.specs.length;
      const wait = this.breakers[i]!.waitMs(now);
      if (wait < bestWait) {
        best = i;
        bestWait = wait;
        if (wait === 0) break;
      }
    }
    if (best < 0) best = this.turn % this.specs.length; // every proxy given up: keep rotating
    this.turn = best + 1;
    return this.choice(best);
  }

  /** Is every proxy resting or given up? */
  allResting(): boolean {
    const now = this.now();
    return this.breakers.every((b) => b.waitMs(now) > 0);
  }

  private choice(i: number): ProxyChoice {
    const spec = this.specs[i]!;
    const breaker = this.breakers[i]!;
    const u = new URL(spec.url);
    const usage = this.usage.get(spec.label) ?? { ok: 0, failed: 0 };
    this.usage.set(spec.label, usage);
    return {
      spec,
      label: spec.label,
      playwright: {
        server: `${u.protocol}//${u.host}`,
        bypass: "<-loopback>",
        ...(spec.username !== null ? { username: spec.username } : {}),
        ...(spec.password !== null ? { password: spec.password } : {}),
      },
      succeeded: () => {
        usage.ok++;
        breaker.recordSuccess();
      },
      failed: (kind) => {
        usage.failed++;
        // The proxy itself failed (refused, tunnel refused): rested at once. A block or a network failure behind
        // it may be the engine's or the network's: rested after a few.
        if (kind === "proxy") breaker.trip(this.now());
        else breaker.recordBlock(this.now());
      },
      resting: () => breaker.waitMs(this.now()) > 0,
    };
  }
}
