/**
 * What the browser says about itself: the user agent and client hints of a real, headed Chrome of
 * the same version on this platform (headless Chromium announces "HeadlessChrome", which engines
 * answer with captchas), and the time zone that goes with a locale when an engine definition names
 * none. Pure: the version comes from the running browser.
 */

export interface BrowserIdentity {
  userAgent: string;
  /** `navigator.platform`. */
  platform: string;
  /** Client hint headers for a plain HTTP client (`sec-ch-ua`, `sec-ch-ua-mobile`, `sec-ch-ua-platform`). */
  clientHints: Record<string, string>;
  /** The same, as CDP's `Emulation.setUserAgentOverride` metadata (the browser then sends the headers itself). */
  metadata: {
    brands: Array<{ brand: string; version: string }>;
    fullVersion: string;
    platform: string;
    platformVersion: string;
    architecture: string;
    model: string;
    mobile: boolean;
  };
}

const PLATFORMS: Record<string, { ua: string; hint: string; navigator: string }> = {
  linux: { ua: "X11; Linux x86_64", hint: "Linux", navigator: "Linux x86_64" },
  darwin: { ua: "Macintosh; Intel Mac OS X 10_15_7", hint: "macOS", navigator: "MacIntel" },
  win32: { ua: "Windows NT 10.0; Win64; x64", hint: "Windows", navigator: "Win32" },
};

/**
 * The identity of Chrome `version` (e.g. "120.0.6099.224", from `browser.version()`) on `platform`,
 * in the reduced form Chrome itself sends (minor version zeroed).
 */
export function chromeIdentity(version: string, platform: string = process.platform): BrowserIdentity {
  const major = /^(\d+)/.exec(version)?.[1] ?? "120";
  const p = PLATFORMS[platform] ?? PLATFORMS.linux!;
  const brands = [
    { brand: "Chromium", version: major },
    { brand: "Not_A Brand", version: "24" },
  ];
  return {
    userAgent: `Mozilla/5.0 (${p.ua}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    platform: p.navigator,
    clientHints: {
      "sec-ch-ua": brands.map((b) => `"${b.brand}";v="${b.version}"`).join(", "),
      "sec-ch-ua-mobile": "?0",
      "sec-ch-ua-platform": `"${p.hint}"`,
    },
    metadata: {
      brands,
      fullVersion: `${major}.0.0.0`,
      platform: p.hint,
      platformVersion: "",
      architecture: "x86",
      model: "",
      mobile: false,
    },
  };
}

/** The usual time zone of a locale's region (its most populous zone), UTC when the region is unknown. */
export function timezoneForLocale(locale: string): string {
  const region = /[-_]([A-Za-z]{2})\b/.exec(locale)?.[1]?.toUpperCase();
  return (region && ZONES[region]) || "UTC";
}

const ZONES: Record<string, string> = {
  CN: "Asia/Shanghai",
  TW: "Asia/Taipei",
  HK: "Asia/Hong_Kong",
  SG: "Asia/Singapore",
  JP: "Asia/Tokyo",
  KR: "Asia/Seoul",
  IN: "Asia/Kolkata",
  US: "America/New_York",
  CA: "America/Toronto",
  MX: "America/Mexico_City",
  BR: "America/Sao_Paulo",
  GB: "Europe/London",
  IE: "Europe/Dublin",
  FR: "Europe/Paris",
  DE: "Europe/Berlin",
  ES: "Europe/Madrid",
  IT: "Europe/Rome",
  NL: "Europe/Amsterdam",
  RU: "Europe/Moscow",
  AU: "Australia/Sydney",
  NZ: "Pacific/Auckland",
};

/** `Accept-Language` for a locale: the locale, its language, then English. */
export function acceptLanguage(locale: string): string {
  const lang = locale.split("-")[0];
  return lang && lang !== locale ? `${locale},${lang};q=0.9,en;q=0.5` : `${locale},en;q=0.5`;
}
