import { escapeHtml as e } from "../../html/index.js";
import type { SerpView } from "./types.js";

/**
 * A table-based result page modelled on Baidu around 2010, the page of feng2010's Figure 1 (records are
 * `\html\body\table` elements, one per result, with `tr > td.f` inside; ads in a right-hand column,
 * related searches in a table, pagination in `p#page`). Table layouts of that era (Yahoo's, Sogou's)
 * share this shape.
 */
export function renderTable(v: SerpView): string {
  const q = e(v.query);
  const results = v.results
    .map(
      (r, i) =>
        `<table cellpadding="0" cellspacing="0" class="result" id="${(v.page - 1) * v.perPage + i + 1}"><tr><td class=f><h3 class="t"><a onmousedown="return c({'fm':'as','F':'7','title':this.innerHTML})" href="${e(r.href)}" target="_blank">${r.titleHtml}</a></h3><font size=-1>${r.snippetHtml}<br><span class="g">${e(r.displayUrl)} ${e(r.date)} </span> - <a href="#" target="_blank" class="m">百度快照</a></font></td></tr></table><br>`,
    )
    .join("\n");
  const ads =
    v.ads.length === 0
      ? ""
      : `<div id="ec_im_container"><div class="r">推广链接</div>${v.ads
          .map(
            (a) =>
              `<div class="EC_PP"><div><a href="${e(a.href)}" target="_blank"><font size="3">${e(a.title)}</font></a></div><div><font size="-1">${e(a.text)}</font></div><div><font size="-1" color="#008000">${e(a.displayUrl)}</font></div></div>`,
          )
          .join("")}</div>`;
  const pages = Math.ceil(v.total / v.perPage);
  const page =
    pages <= 1
      ? ""
      : `<p id="page">${Array.from({ length: Math.min(pages, 10) }, (_, i) =>
          i + 1 === v.page ? `<strong>[${i + 1}]</strong>` : `<a href="${v.pageHref(i + 1)}">[${i + 1}]</a>`,
        ).join(" ")}${v.page < pages ? ` <a href="${v.pageHref(v.page + 1)}">下一页&gt;</a>` : ""}</p>`;
  const rs =
    v.related.length === 0
      ? ""
      : `<div id="rs"><table cellpadding="0" cellspacing="0"><tr><th rowspan="2" class="tt">相关搜索</th>${v.related
          .slice(0, 5)
          .map((r) => `<th><a href="${v.searchHref(r)}">${e(r)}</a></th>`)
          .join("")}</tr></table></div>`;
  const body =
    v.results.length === 0
      ? `<div id="wrap"><p style="font-size:14px">抱歉，没有找到与<font color="#c60a00">“${q}”</font>相关的网页。</p><p>百度建议您：</p><ul><li>看看输入的文字是否有误</li><li>去掉可能不必要的字词</li></ul></div>`
      : `${ads}\n${results}\n<br clear=all>${rs}\n${page}`;
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><meta http-equiv="content-type" content="text/html;charset=utf-8"><title>百度搜索_${q}</title></head>
<body>
<table width="100%" height="54" align="center" cellpadding="0" cellspacing="0"><tr valign=middle><td width="100%" valign="top" style="padding-left:8px;width:137px;" nowrap><a href="/"><img src="/img/logo.gif" border="0" width="137" height="46" alt="到百度首页"></a></td><td><div class="Tit"><a href="#">新闻</a>&nbsp;&nbsp;&nbsp;<b>网页</b>&nbsp;&nbsp;&nbsp;<a href="#">贴吧</a>&nbsp;&nbsp;&nbsp;<a href="#">知道</a>&nbsp;&nbsp;&nbsp;<a href="#">MP3</a></div><form name="f" action="s"><input name="wd" size="42" maxlength="100" value="${q}"> <input type="submit" value="百度一下"></form></td></tr></table>
<table width="100%" border="0" align="center" cellpadding="0" cellspacing="0" class="bi"><tr><td nowrap>&nbsp;&nbsp;&nbsp;<a href="#">把百度设为主页</a></td><td align="right" nowrap>找到相关网页约${v.total}篇，用时0.001秒</td></tr></table>
${body}
<div id="ft">&copy;2010 Baidu <a href="#">此内容系百度根据您的指令自动搜索的结果</a></div>
</body></html>
`;
}
