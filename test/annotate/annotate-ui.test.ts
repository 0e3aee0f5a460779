import { parallelText } from "../../src/language-pair.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnnotationServer, createSession, startAnnotationServer } from "../../src/annotate/index.js";
import { launchChromium } from "../../src/browser/index.js";
import { type ClassifierInput, loadClassifier, parseAnnotations, parseClassifierInput } from "../../src/classify/index.js";
import { spawnCli } from "../helpers/cli.js";
import { getRecord, listRecords, openStore, recordFetch, setAnnotation } from "../../src/store/index.js";

const fixture = new URL("../fixtures/classify/annotations-sample.jsonl", import.meta.url).pathname;
const records: ClassifierInput[] = readFileSync(fixture, "utf8")
  .trim()
  .split("\n")
  .slice(0, 8)
  .map((l, i) => {
    const { query, title, url, snippet } = parseClassifierInput({ file: fixture, line: i + 1 }, JSON.parse(l));
    return { query, title, url, snippet };
  });
const classifier = loadClassifier();
const dir = mkdtempSync(join(tmpdir(), "bitext-annotate-"));
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function open(server: AnnotationServer): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => (document.getElementById("progress")?.textContent ?? "").includes("to go"));
  return page;
}

const annotationLines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("annotating records in the browser", () => {
  it("shows the most uncertain record first, its English and Chinese segments coloured", async () => {
    const out = join(dir, "order.jsonl");
    const server = await startAnnotationServer(createSession({ records, out, classifier, who: "tester" }));
    try {
      const page = await open(server);
      const probabilities = classifier.classify(records).map((p) => p.probability);
      const mostUncertain = probabilities.indexOf(probabilities.reduce((a, b) => (Math.abs(b - 0.5) < Math.abs(a - 0.5) ? b : a)));
      expect(await page.textContent("#url")).toBe(records[mostUncertain]!.url);
      expect(await page.textContent("#progress")).toBe(`0 labelled this session · ${records.length} to go`);
      // A bilingual record further down shows both colours.
      const bilingual = records.findIndex((r) => /[a-z]/i.test(r.snippet) && /[\u4e00-\u9fff]/.test(r.snippet));
      expect(bilingual).toBeGreaterThanOrEqual(0);
      for (let i = 0; i < records.length; i++) {
        if ((await page.textContent("#url")) === records[bilingual]!.url) break;
        await page.keyboard.press("s");
        await page.waitForFunction(
          (n) => (document.getElementById("progress")?.textContent ?? "").includes(`· ${n} to go`),
          records.length - i - 1,
        );
      }
      expect(await page.locator("#snippet span[data-lang=en]").count()).toBeGreaterThan(0);
      expect(await page.locator("#snippet span[data-lang=zh]").count()).toBeGreaterThan(0);
      expect(
        await page
          .locator("#snippet span.seg-en")
          .first()
          .evaluate((e) => getComputedStyle(e).backgroundColor),
      ).not.toBe(
        await page
          .locator("#snippet span.seg-zh")
          .first()
          .evaluate((e) => getComputedStyle(e).backgroundColor),
      );
      // Skips write nothing.
      expect(() => readFileSync(out)).toThrow();
      await page.close();
    } finally {
      await server.close();
    }
  });

  it("labels with b and m, skips with s, undoes with u, and keeps the file append-only", async () => {
    const out = join(dir, "keys.jsonl");
    const server = await startAnnotationServer(createSession({ records, out, classifier, who: "tester" }));
    try {
      const page = await open(server);
      const progress = (n: string) =>
        page.waitForFunction((t) => (document.getElementById("progress")?.textContent ?? "").startsWith(t), n);
      const first = await page.textContent("#url");
      await page.keyboard.press("b");
      await progress("1 labelled");
      const second = await page.textContent("#url");
      await page.keyboard.press("m");
      await progress("2 labelled");
      await page.keyboard.press("s");
      await page.waitForFunction(
        (n) => (document.getElementById("progress")?.textContent ?? "").endsWith(`${n} to go`),
        records.length - 3,
      );
      await page.keyboard.press("u"); // undoes the skip
      await page.waitForFunction(
        (n) => (document.getElementById("progress")?.textContent ?? "").endsWith(`${n} to go`),
        records.length - 2,
      );
      await page.keyboard.press("u"); // undoes "monolingual"
      await progress("1 labelled");
      expect(await page.textContent("#url")).toBe(second);
      // Clicking works like the keys.
      await page.click("#bilingual");
      await progress("2 labelled");
      await page.close();

      const lines = annotationLines(out);
      expect(lines.map((l) => (l.undo ? "undo" : l.label))).toEqual(["bilingual", "monolingual", "undo", "bilingual"]);
      expect(lines[0]).toMatchObject({ url: first, who: "tester", model: classifier.modelId });
      expect(typeof lines[0]!.when).toBe("string");
      expect(typeof lines[0]!.probability).toBe("number");
      const effective = parseAnnotations(out, readFileSync(out, "utf8"));
      expect(effective.map((a) => [a.url, a.label])).toEqual([
        [first, "bilingual"],
        [second, "bilingual"],
      ]);
    } finally {
      await server.close();
    }
  });

  it("does not show records already annotated when started again", async () => {
    const out = join(dir, "keys.jsonl"); // written by the previous test
    const server = await startAnnotationServer(createSession({ records, out, classifier, who: "tester" }));
    try {
      const page = await open(server);
      expect(await page.textContent("#progress")).toBe(`0 labelled this session · ${records.length - 2} to go`);
      const done = new Set(parseAnnotations(out, readFileSync(out, "utf8")).map((a) => a.url));
      expect(done.has((await page.textContent("#url")) ?? "")).toBe(false);
      await page.close();
    } finally {
      await server.close();
    }
  });

  it("shows a snippet containing <script> as text and runs nothing from it", async () => {
    const out = join(dir, "xss.jsonl");
    const evil: ClassifierInput = {
      query: parallelText("<img src=x onerror=alert(1)>", "脚本"),
      title: '<b>Title</b> <img src=x onerror="window.__pwned = 1">',
      url: "javascript:window.__pwned=2",
      snippet: "Learn HTML: <script>window.__pwned = 3</script> 学习 <em>HTML</em> &lt;script&gt;",
    };
    const server = await startAnnotationServer(createSession({ records: [evil], out, who: "tester" }));
    try {
      const page = await open(server);
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      expect(await page.textContent("#snippet")).toBe("Learn HTML: <script>window.__pwned = 3</script> 学习 HTML <script>");
      expect(await page.textContent("#title")).toBe('Title <img src=x onerror="window.__pwned = 1">');
      expect(await page.textContent("#query-en")).toBe("<img src=x onerror=alert(1)>");
      expect(await page.locator("#record script, #record img").count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
      await page.keyboard.press("m");
      await page.waitForSelector("#done", { state: "visible" });
      expect(annotationLines(out)[0]).toMatchObject({ snippet: evil.snippet, label: "monolingual" });
      await page.close();
    } finally {
      await server.close();
    }
  });
});

describe("the annotation server", () => {
  it("listens on 127.0.0.1 and refuses requests without the token or from another host name", async () => {
    const server = await startAnnotationServer(createSession({ records, out: join(dir, "token.jsonl"), who: "tester" }));
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
      const base = `http://127.0.0.1:${server.port}`;
      expect((await fetch(`${base}/`)).status).toBe(403);
      expect((await fetch(`${base}/api/state`)).status).toBe(403);
      expect((await fetch(`${base}/api/state`, { headers: { "x-bitext-token": "wrong" } })).status).toBe(403);
      const ok = await fetch(`${base}/api/state`, { headers: { "x-bitext-token": server.token } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { remaining: number }).remaining).toBe(records.length);
      // A page on another site cannot post a label without the token in a header.
      const post = await fetch(`${base}/api/decision`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ key: "x", decision: "bilingual" }),
      });
      expect(post.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it("writes decisions on store records to the store too, and undo clears them", async () => {
    const store = await openStore(join(dir, "annotate.db"));
    await recordFetch(
      store,
      {
        runId: null,
        engine: "bing",
        query: parallelText("I quit!", "我不干了!"),
        page: 1,
        url: "https://bing.test/?q=1",
        status: "ok",
        startedAt: new Date().toISOString(),
        durationMs: 5,
      },
      [{ url: "https://a.test/", title: "I quit! 我不干了!", snippet: "I see. 我明白了。 I quit! 我不干了!", rank: 1 }],
    );
    const stored = (await listRecords(store))[0]!;
    const session = createSession({
      records: [{ ...stored, recordId: stored.id }],
      out: join(dir, "store.jsonl"),
      who: "tester",
      sink: { label: (id, label) => setAnnotation(store, id, label) },
    });
    const key = session.state().record!.key;
    await session.decide(key, "bilingual");
    expect((await getRecord(store, stored.id))!.annotation).toBe("bilingual");
    await session.undo();
    expect((await getRecord(store, stored.id))!.annotation).toBeNull();
    expect(annotationLines(join(dir, "store.jsonl")).map((l) => l.recordId)).toEqual([stored.id, stored.id]);
    await store.close();
  });
});

describe("bitext annotate --db", () => {
  it("serves the unannotated records of the store and stops cleanly on Ctrl-C", async () => {
    const db = join(dir, "cli.db");
    const store = await openStore(db);
    await recordFetch(
      store,
      {
        runId: null,
        engine: "bing",
        query: parallelText("Wait!", "等等！"),
        page: 1,
        url: "https://bing.test/?q=2",
        status: "ok",
        startedAt: new Date().toISOString(),
        durationMs: 5,
      },
      [
        { url: "https://c.test/", title: "Wait! 等等！", snippet: "Wait! 等等！ Stop! 住手！", rank: 1 },
        { url: "https://d.test/", title: "等一下", snippet: "请等一下，我马上就来。", rank: 2 },
      ],
    );
    await setAnnotation(store, (await listRecords(store))[1]!.id, "monolingual");
    await store.close();
    // A process of its own: it serves until Ctrl-C (SIGINT).
    const child = spawnCli(["annotate", "--db", db, "--out", join(dir, "cli.jsonl"), "--json"]);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const first = await new Promise<string>((resolve, reject) => {
      let buf = "";
      child.stdout!.on("data", (d: Buffer) => {
        buf += d.toString();
        if (buf.includes("\n")) resolve(buf.split("\n")[0]!);
      });
      child.on("exit", () => reject(new Error(`annotate exited early`)));
    });
    const { url, remaining } = JSON.parse(first) as { url: string; remaining: number };
    expect(remaining).toBe(1); // the annotated record is not offered again
    const token = new URL(url).searchParams.get("token")!;
    const state = (await (await fetch(new URL("/api/state", url), { headers: { "x-bitext-token": token } })).json()) as {
      record: { url: string };
    };
    expect(state.record.url).toBe("https://c.test/");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });
});
