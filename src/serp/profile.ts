import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { currentHome } from "../config/index.js";
import { writeJsonAtomic } from "../io/index.js";

/**
 * Where per-engine browser profiles (cookies, local storage: a consent once given, a session) live
 * between runs: `profiles/` in the user's home (the workspace, `--home`/`BITEXT_HOME`, else the user data
 * folder — `src/config/workspace.ts`). Never inside the installation (which is read-only).
 * A profile file is Playwright's storage state, so the browser loads it as it is; the HTTP fast path reads
 * its cookies and writes back those its responses set (`saveProfileCookies`).
 */
export function defaultProfileDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(currentHome(process.cwd(), env).dir, "profiles");
}

/** The file holding one engine's saved browser state inside a profile folder. */
export function engineStateFile(profileDir: string, engine: string): string {
  return join(profileDir, `${engine.replace(/[^\w.-]/g, "_")}.json`);
}

/** A cookie as Playwright's storage state keeps it (a domain with a leading dot is a domain cookie). */
export interface ProfileCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Epoch seconds; -1: a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Strict" | "Lax" | "None";
}

/** What a response's Set-Cookie headers did to the jar: cookies set, and cookies removed (expired). */
export interface CookieChanges {
  set: ProfileCookie[];
  removed: ProfileCookie[];
}

interface StorageState {
  cookies: ProfileCookie[];
  origins: unknown[];
}

function readState(file: string): StorageState {
  if (!existsSync(file)) return { cookies: [], origins: [] };
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as Partial<StorageState>;
    return { cookies: Array.isArray(state.cookies) ? state.cookies : [], origins: Array.isArray(state.origins) ? state.origins : [] };
  } catch {
    return { cookies: [], origins: [] }; // unreadable: started afresh, as the browser does
  }
}

/** The live cookies of a saved profile; none when absent or unreadable. */
export function readProfileCookies(file: string, nowSeconds = Date.now() / 1000): ProfileCookie[] {
  return readState(file).cookies.filter((c) => c.expires === -1 || c.expires > nowSeconds);
}

const sameCookie = (a: ProfileCookie, b: ProfileCookie) => a.name === b.name && a.domain === b.domain && a.path === b.path;

/**
 * Apply cookie changes to a saved profile (read, merge, write atomically), keeping everything else in it
 * (other cookies, the browser's local storage).
 */
export function saveProfileCookies(file: string, changes: CookieChanges): void {
  if (changes.set.length === 0 && changes.removed.length === 0) return;
  const state = readState(file);
  const gone = [...changes.set, ...changes.removed];
  const cookies = [...state.cookies.filter((c) => !gone.some((g) => sameCookie(c, g))), ...changes.set];
  writeJsonAtomic(file, { ...state, cookies });
}

/** Put changes into an in-memory jar (same rules as the file). */
export function applyCookieChanges(jar: ProfileCookie[], changes: CookieChanges): void {
  for (const c of [...changes.set, ...changes.removed]) {
    const i = jar.findIndex((x) => sameCookie(x, c));
    if (i >= 0) jar.splice(i, 1);
  }
  jar.push(...changes.set);
}

/** The `Cookie` header the jar sends to `url` (domain, path, secure and expiry respected). */
export function cookieHeader(jar: readonly ProfileCookie[], url: string, nowSeconds = Date.now() / 1000): string {
  const u = new URL(url);
  return jar
    .filter((c) => {
      const domain = c.domain.replace(/^\./, "");
      const hostOk = c.domain.startsWith(".") ? u.hostname === domain || u.hostname.endsWith(`.${domain}`) : u.hostname === domain;
      return (
        hostOk && u.pathname.startsWith(c.path) && (!c.secure || u.protocol === "https:") && (c.expires === -1 || c.expires > nowSeconds)
      );
    })
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** The cookies a response to `url` sets or removes, read from its Set-Cookie headers (RFC 6265 §5.2, the parts browsers use). */
export function parseSetCookie(url: string, header: string | string[] | undefined, nowSeconds = Date.now() / 1000): CookieChanges {
  const changes: CookieChanges = { set: [], removed: [] };
  if (!header) return changes;
  const u = new URL(url);
  for (const line of Array.isArray(header) ? header : [header]) {
    const [pair, ...attrs] = line.split(";");
    const eq = pair!.indexOf("=");
    if (eq <= 0) continue;
    const cookie: ProfileCookie = {
      name: pair!.slice(0, eq).trim(),
      value: pair!.slice(eq + 1).trim(),
      domain: u.hostname,
      path: defaultPath(u.pathname),
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: "Lax",
    };
    let maxAge: number | null = null;
    let foreign = false;
    for (const a of attrs) {
      const at = a.indexOf("=");
      const key = (at < 0 ? a : a.slice(0, at)).trim().toLowerCase();
      const v = at < 0 ? "" : a.slice(at + 1).trim();
      if (key === "domain" && v) {
        const d = v.replace(/^\./, "").toLowerCase();
        foreign ||= u.hostname !== d && !u.hostname.endsWith(`.${d}`); // for a domain the host is not in: refused, as browsers do
        if (!isIp(d)) cookie.domain = `.${d}`; // an address has no subdomains: the cookie stays the host's
      } else if (key === "path" && v.startsWith("/")) cookie.path = v;
      else if (key === "max-age" && /^-?\d+$/.test(v)) maxAge = Number(v);
      else if (key === "expires" && maxAge === null && !Number.isNaN(Date.parse(v))) cookie.expires = Math.floor(Date.parse(v) / 1000);
      else if (key === "secure") cookie.secure = true;
      else if (key === "httponly") cookie.httpOnly = true;
      else if (key === "samesite") cookie.sameSite = v.toLowerCase() === "strict" ? "Strict" : v.toLowerCase() === "none" ? "None" : "Lax";
    }
    if (foreign) continue;
    if (maxAge !== null) cookie.expires = maxAge <= 0 ? 0 : Math.floor(nowSeconds + maxAge);
    if (cookie.expires !== -1 && cookie.expires <= nowSeconds) changes.removed.push(cookie);
    else changes.set.push(cookie);
  }
  return changes;
}

/** A cookie's default path: the request path up to its last slash (RFC 6265 §5.1.4). */
function defaultPath(pathname: string): string {
  const i = pathname.lastIndexOf("/");
  return i <= 0 ? "/" : pathname.slice(0, i);
}

function isIp(host: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(":") || host.startsWith("[");
}
