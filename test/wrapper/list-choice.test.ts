import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { siteDiversity, targetSite } from "../../src/wrapper/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { searchLinkFlags } from "../../src/wrapper/search-links.js";
import { REAL_DATA } from "../helpers/cli.js";

describe("the site a record leads to", () => {
  it("reads the URL a redirect link carries (parameter, path, base64), else the link's own host", () => {
    expect(targetSite("https://www.example.org/a/b")).toBe("example.org");
    expect(targetSite("https://www.google.com/url?q=https://de.wikipedia.org/wiki/Test&sa=U")).toBe("de.wikipedia.org");
    expect(targetSite("https://r.search.yahoo.com/_ylt=x/RV=2/RE=1/RO=10/RU=https%3a%2f%2fwww.w3schools.com%2fJs%2f/RK=2/RS=y-")).toBe(
      "w3schools.com",
    );
    const b64 = Buffer.from("https://www.mozilla.org/en-US/").toString("base64");
    expect(targetSite(`https://www.bing.com/ck/a?!&&p=abc&u=a1${b64}&ntb=1`)).toBe("mozilla.org");
    expect(targetSite("not a url")).toBeNull();
    expect(targetSite("http://www.baidu.com/link?url=Xk3p9dTq2mZl7Rv0aB8cJ4hN1sW6yF5eG0uK2iL9oP3qA7zC1xV8bM4nD6fH")).toBeNull();
  });

  it("a list's share of records leading to distinct sites; the engine's own and unreadable links count as distinct", () => {
    const videos = Array.from({ length: 4 }, (_, i) => `https://www.youtube.com/watch?v=${i}`);
    expect(siteDiversity(videos, null)).toBe(0.25);
    expect(siteDiversity(["https://a.example/", "https://b.example/", "https://a.example/x", "https://c.example/"], null)).toBe(0.75);
    const redirects = Array.from({ length: 3 }, (_, i) => `https://www.so.com/link?m=${i}`);
    expect(siteDiversity(redirects, "so.com")).toBe(1);
    expect(siteDiversity(["/a", "/b"], null)).toBe(1);
  });
});

describe("choosing the result list", () => {
  it("Google 2025: the organic results win over a longer video carousel whose cards all lead to one site", () => {
    const base = join(REAL_DATA, "serps", "modern", "google", "deepresearch-google-ai-tools");
    const { seq } = readPageTagPaths(`${base}.html`);
    const records = extractRecords(learnWrapper(seq, { engine: "google" }), seq).records;
    const expected = (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map((r) =>
      normaliseTitle(r.title),
    );
    const titles = records.map((r) => normaliseTitle(r.title));
    expect(expected).toHaveLength(8);
    expect(expected.filter((t) => titles.includes(t))).toHaveLength(8);
    expect(records.some((r) => r.url.includes("youtube.com/watch"))).toBe(false);
    expect(records.length).toBeLessThanOrEqual(9);
  });
});

describe("a vertical's block in a script written without spaces", () => {
  const result = (n: number) => ({
    href: `https://site${n}.example/page`,
    text: `结果 ${n}`,
    snippet: "一个足够长的摘要，说明这个结果的内容。一个足够长的摘要。",
  });
  const snippet = "一个足够长的摘要，说明这个新闻块的内容和来源以及时间。";
  it("a link carrying the query whose text is the query and a short label is a search (…的最新相关消息)", () => {
    const news = {
      href: "http://news.example/ns?q=%e5%a4%9a%e5%ae%b6%e5%89%a7%e5%9c%ba%e5%8f%96%e6%b6%88%e6%bc%94%e5%87%ba",
      text: "多家剧场取消演出的最新相关消息",
      snippet,
    };
    expect(searchLinkFlags([result(1), news, result(2), result(3)], "多家剧场取消演出")).toEqual([false, true, false, false]);
  });
  it("a result that carries the query to its page, titled with the query and more than a label, stays", () => {
    const answer = {
      href: "http://qa.example/q/1477335049728987?src=150&q=%E4%BC%9A%E8%AE%A1%E5%9F%B9%E8%AE%AD",
      text: "会计培训哪家好?_360问答",
      snippet,
    };
    expect(searchLinkFlags([result(1), answer, result(2), result(3)], "会计培训")).toEqual([false, false, false, false]);
  });
  it("Chinese 2020 (360): the news block titled '…的最新相关消息' is not a record", () => {
    const { seq } = readPageTagPaths(join(REAL_DATA, "serps", "aql", "360", "360-duo-jia-ju-chang-qu-xiao-yan-chu-1579663841.html"));
    const titles = extractRecords(learnWrapper(seq, { engine: "360" }), seq).records.map((r) => r.title);
    expect(titles).toHaveLength(8);
    expect(titles).not.toContain("多家剧场取消演出的最新相关消息");
  });
});
