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
    fullVersionList: Array<{ brand: string; version: string }>;
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
 * The identity of Chromium `version` (e.g. "120.0.6099.224", from `browser.version()`) on `platform`:
 * the user agent in the reduced form Chrome itself sends (minor version zeroed), the brands of its client
 * hints as that version makes them (`greasedBrands`), the full version where hints ask for it.
 */
export function chromeIdentity(version: string, platform: string = process.platform): BrowserIdentity {
  const majorText = /^(\d+)/.exec(version)?.[1] ?? "120";
  const major = Number(majorText);
  const full = /^\d+\.\d+\.\d+\.\d+$/.test(version) ? version : `${major}.0.0.0`;
  const p = PLATFORMS[platform] ?? PLATFORMS.linux!;
  const brands = greasedBrands(major, majorText);
  const fullVersionList = greasedBrands(major, full, true);
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
      fullVersionList,
      fullVersion: full,
      platform: p.hint,
      platformVersion: "",
      architecture: "x86",
      model: "",
      mobile: false,
    },
  };
}

/**
 * Chromium's brand list for a major version (components/embedder_support/user_agent_utils.cc,
 * `GenerateBrandVersionList` with the updated GREASE): a made-up "Not?A?Brand" whose characters, version
 * and place follow from the major version, beside "Chromium". A fixed made-up brand is a tell.
 */
export function greasedBrands(major: number, version: string, fullVersions = false): Array<{ brand: string; version: string }> {
  const chars = [" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_"];
  const versions = ["8", "99", "24"];
  const greaseVersion = versions[major % versions.length]!;
  const grease = {
    brand: `Not${chars[major % chars.length]}A${chars[(major + 1) % chars.length]}Brand`,
    version: fullVersions ? `${greaseVersion}.0.0.0` : greaseVersion,
  };
  const chromium = { brand: "Chromium", version };
  return major % 2 === 0 ? [grease, chromium] : [chromium, grease];
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

/**
 * The languages a person of `locale` has set: the locale, its language, then English (`navigator.languages`);
 * the browser is given this plain list and makes its `Accept-Language` from it.
 */
export function browserLanguages(locale: string): string[] {
  const lang = locale.split("-")[0]!;
  return [...new Set([locale, lang, "en"].filter((l) => l !== ""))];
}

/** `Accept-Language` as Chromium makes it from `browserLanguages(locale)`: q falls by 0.1 from the second language on. */
export function acceptLanguage(locale: string): string {
  return browserLanguages(locale)
    .map((l, i) => (i === 0 ? l : `${l};q=${(Math.max(1, 10 - i) / 10).toFixed(1)}`))
    .join(",");
}
