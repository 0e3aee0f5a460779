import { existsSync } from "node:fs";
import type { Page } from "playwright";
import { UserError } from "../errors.js";
import { writeFileAtomic } from "../io/index.js";
import { extractRecords } from "../wrapper/index.js";
import { readWrapperFile, withNewWrapper, writeWrapperFile } from "../wrapper/index.js";
import { learnWrapper } from "../wrapper/index.js";
import type { ResultRecord, Wrapper } from "../wrapper/index.js";
import { hardBlockReason, softBlockReason } from "./blocks.js";
import { SerpDriver } from "./driver.js";
import { loadEngineFile } from "./engine-files.js";
import { type EngineDefinition, searchUrl } from "./engines.js";

/**
 * `bitext wrapper learn --engine NAME` without `--sample`: drive the browser to the engine, save the
 * result page next to the wrapper file (`<engine>.sample.html`), learn the wrapper from the page as the
 * browser parsed it, and write the wrapper file (its definition kept, the old wrapper pushed to
 * `previous`). With a preview path, a full-page screenshot outlines every extracted record.
 */

/** The query pair of feng2010's Figure 1, used when none is given. */
export const DEFAULT_SAMPLE_QUERY = "I see. 我明白了。";

export interface LiveLearnOptions {
  definition: EngineDefinition;
  /** Wrapper file to write. */
  file: string;
  driver: SerpDriver;
  /** The query to search for (the pair together, "EN ZH"). */
  query?: string;
  /** PNG to write with the records outlined. */
  preview?: string;
}

export interface LiveLearnResult {
  file: string;
  sampleFile: string;
  url: string;
  wrapper: Wrapper;
  records: ResultRecord[];
  preview: string | null;
  /** Records outlined on the preview. */
  outlined: number;
}

export async function learnWrapperLive(o: LiveLearnOptions): Promise<LiveLearnResult> {
  const def = o.definition;
  const existing = existsSync(o.file) ? readWrapperFile(o.file) : null;
  const url = searchUrl(def, o.query ?? DEFAULT_SAMPLE_QUERY, 1);
  const { loaded, page } = await o.driver.loadPage(def, url, { keepBody: true, keepPage: true });
  try {
    if (loaded.error || !loaded.seq) throw new UserError(`${def.engine}: cannot load ${url}: ${loaded.error ?? "no page"}`);
    const blocked = hardBlockReason(loaded.observation, def.blocks);
    if (blocked) throw new UserError(`${def.engine}: the engine answered with a block page (${blocked}); try again later`);
    const sampleFile = o.file.replace(/\.json$/i, "") + ".sample.html";
    if (loaded.body) writeFileAtomic(sampleFile, loaded.body);
    const pageUrl = loaded.observation.finalUrl;
    let wrapper: Wrapper;
    try {
      wrapper = learnWrapper(loaded.seq, { engine: def.engine, pageUrl, file: sampleFile });
    } catch (err) {
      const soft = softBlockReason(loaded.observation, def.blocks);
      if (soft) throw new UserError(`${def.engine}: the engine answered with a block page (${soft}); try again later`);
      throw err;
    }
    const records = extractRecords(wrapper, loaded.seq, { pageUrl }).records;
    writeWrapperFile(o.file, withNewWrapper(existing, wrapper));
    let preview: string | null = null;
    let outlined = 0;
    if (o.preview && page) {
      outlined = await outlineRecords(page, records);
      await page.screenshot({ path: o.preview, fullPage: true });
      preview = o.preview;
    }
    return { file: o.file, sampleFile, url: pageUrl, wrapper, records, preview, outlined };
  } finally {
    await page?.close().catch(() => {});
  }
}

/**
 * Draw a numbered box around each record on the page: the largest element holding the record's title
 * link and no other record's, so a person sees at a glance whether the wrapper found the right blocks.
 */
export async function outlineRecords(page: Page, records: readonly ResultRecord[]): Promise<number> {
  const items = records.map((r) => ({ rank: r.rank, url: r.url, title: r.title.replace(/\s+/g, "") }));
  return page.evaluate(`(() => {
  const items = ${JSON.stringify(items)};
  const norm = (s) => (s || "").replace(/\\s+/g, "");
  const anchors = Array.from(document.querySelectorAll("a[href]"));
  const found = [];
  for (const it of items) {
    const a = anchors.find((x) => x.href === it.url && norm(x.textContent) === it.title)
      || anchors.find((x) => x.href === it.url)
      || anchors.find((x) => norm(x.textContent) === it.title);
    if (a) found.push({ it, a });
  }
  const links = found.map((f) => f.a);
  let drawn = 0;
  for (const { it, a } of found) {
    let box = a;
    while (box.parentElement && box.parentElement !== document.body
      && !links.some((other) => other !== a && box.parentElement.contains(other))) box = box.parentElement;
    box.style.outline = "3px solid #e8112d";
    box.style.outlineOffset = "2px";
    const tag = document.createElement("span");
    tag.textContent = "#" + it.rank;
    tag.style.cssText = "position:absolute;background:#e8112d;color:#fff;font:bold 12px sans-serif;padding:1px 4px;z-index:2147483647";
    const r = box.getBoundingClientRect();
    tag.style.left = (r.left + window.scrollX - 6) + "px";
    tag.style.top = (r.top + window.scrollY - 8) + "px";
    document.body.appendChild(tag);
    drawn++;
  }
  return drawn;
})()`) as Promise<number>;
}

/**
 * The whole live path of `bitext wrapper learn --engine NAME` (no `--sample`): read the engine's
 * definition from its wrapper file, start Chromium, learn, close.
 */
export async function learnEngineLive(o: {
  engine: string;
  file: string;
  query?: string;
  preview?: string;
  chromium?: string;
}): Promise<LiveLearnResult> {
  if (!existsSync(o.file)) {
    throw new UserError(
      `${o.file}: no such wrapper file; to add engine "${o.engine}", write {"formatVersion": 1, "engine": "${o.engine}", ` +
        `"definition": {"searchUrl": "https://…{query}…"}, "wrapper": null} there`,
      { kind: "wrapper-file-missing" },
    );
  }
  const setup = loadEngineFile(o.file, o.engine);
  const driver = await SerpDriver.start(o.chromium ? { executablePath: o.chromium } : {});
  try {
    return await learnWrapperLive({
      definition: setup.definition,
      file: o.file,
      driver,
      ...(o.query ? { query: o.query } : {}),
      ...(o.preview ? { preview: o.preview } : {}),
    });
  } finally {
    await driver.close();
  }
}
