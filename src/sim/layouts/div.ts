import { escapeHtml as e } from "../../html/index.js";
import type { SerpView } from "./types.js";

/**
 * A div-based result page modelled on Baidu's (`#content_left > div.result.c-container`, 2018–2019
 * captures in ../shared/data/serps/aql/baidu): top ads in their own blocks, organic results, a
 * hot-list sidebar in `#content_right`, related searches as a table in `#rs`, pagination in `#page`.
 */
export function renderDiv(v: SerpView): string {
  const q = e(v.query);
  const ads = v.ads
    .map(
      (a, i) =>
        `<div id="${3001 + i}" class="ec_tuiguang_ppouter"><div class="ec_tuiguang_pplink"><a href="${e(a.href)}"><font size="3">${e(a.title)}</font></a></div><div class="ec_desc"><font size="-1">${e(a.text)}</font></div><div class="ec_meta"><span class="ec_url">${e(a.displayUrl)}</span> <span class="ec_tuiguang_link">广告</span></div></div>`,
    )
    .join("");
  const results = v.results
    .map(
      (r, i) =>
        `<div class="result c-container " id="${(v.page - 1) * v.perPage + i + 1}" srcid="1599" tpl="se_com_default"><h3 class="t"><a href="${e(r.href)}" target="_blank">${r.titleHtml}</a></h3><div class="c-abstract"><span class=" newTimeFactor_before_abs m">${e(r.date)}&nbsp;-&nbsp;</span>${r.snippetHtml}</div><div class="f13"><a target="_blank" href="${e(r.href)}" class="c-showurl" style="text-decoration:none;">${e(r.displayUrl)}&nbsp;</a><div class="c-tools"><a class="c-tip-icon"><i class="c-icon c-icon-triangle-down-g"></i></a></div> - <a href="#" class="m">百度快照</a></div></div>`,
    )
    .join("\n");
  const left =
    v.results.length === 0
      ? `<div class="content_none"><div class="nors"><p>抱歉，没有找到与<span style="font-family:宋体">“</span><em>${q}</em><span style="font-family:宋体">”</span>相关的网页。</p><br><div class="tip_head">温馨提示：</div><ul><li>请检查您的输入是否正确</li><li>如网页未收录或者新站未收录，请<a href="#">提交网址</a>给我们</li></ul></div></div>`
      : `${ads}\n${results}`;
  const pages = Math.ceil(v.total / v.perPage);
  const page =
    pages <= 1
      ? ""
      : `<div id="page">${Array.from({ length: Math.min(pages, 10) }, (_, i) =>
          i + 1 === v.page
            ? `<strong><span class="fk fk_cur"><i class="c-icon c-icon-bear-p"></i></span><span class="pc">${i + 1}</span></strong>`
            : `<a href="${v.pageHref(i + 1)}"><span class="fk fkd"><i class="c-icon c-icon-bear-pn"></i></span><span class="pc">${i + 1}</span></a>`,
        ).join("")}${v.page < pages ? `<a href="${v.pageHref(v.page + 1)}" class="n">下一页&gt;</a>` : ""}</div>`;
  const rs =
    v.related.length === 0
      ? ""
      : `<div id="rs"><div class="tt">相关搜索</div><table cellpadding="0"><tr>${v.related
          .slice(0, 3)
          .map((r) => `<th><a href="${v.searchHref(r)}">${e(r)}</a></th><td></td>`)
          .join("")}</tr><tr>${v.related
          .slice(3, 6)
          .map((r) => `<th><a href="${v.searchHref(r)}">${e(r)}</a></th><td></td>`)
          .join("")}</tr></table></div>`;
  return `<!DOCTYPE html>
<html><head><meta http-equiv="content-type" content="text/html;charset=utf-8"><title>${q}_百度搜索</title></head>
<body link="#0000cc">
<div id="wrapper" class="wrapper_l">
<div id="head"><div class="head_wrapper"><div class="s_form"><a href="/" id="result_logo">到首页</a><form id="form" name="f" action="s" class="fm"><span class="s_ipt_wr"><input id="kw" name="wd" class="s_ipt" value="${q}" maxlength="255"></span><span class="s_btn_wr"><input type="submit" id="su" value="百度一下" class="bg s_btn"></span></form></div>
<div id="u"><a href="#" name="tj_settingicon" class="pf">设置</a><a href="#" class="lb">登录</a></div></div></div>
<div id="s_tab" class="s_tab"><b>网页</b><a href="#">资讯</a><a href="#">贴吧</a><a href="#">知道</a><a href="#">音乐</a><a href="#">图片</a><a href="#">视频</a><a href="#">地图</a></div>
<div id="wrapper_wrapper"><div id="container" class="container_s">
<div class="head_nums_cont_outer OP_LOG"><div class="nums"><span class="nums_text">百度为您找到相关结果约${v.total}个</span></div></div>
<div id="content_right" class="cr-offset"><table cellpadding="0" cellspacing="0"><tr><td align="left"><div class="result-op xpath-log" tpl="right_toplist"><div class="cr-content"><div class="cr-title" title="搜索热点">搜索热点</div><table class="c-table opr-toplist-table"><thead><tr><th>排名</th><th>热点</th></tr></thead><tbody>${v.related
    .slice(0, 5)
    .map(
      (r, i) =>
        `<tr><td><span class="c-index">${i + 1}</span><span><a target="_blank" href="${v.searchHref(r)}">${e(r.slice(0, 18))}</a></span></td><td class="opr-toplist-right">${1000 - i * 97}</td></tr>`,
    )
    .join("")}</tbody></table></div></div></td></tr></table></div>
<div id="content_left">
${left}
</div>
${rs}
${page}
</div></div>
<div id="foot"><div class="foot-inner"><span id="help"><a href="#">帮助</a><a href="#">举报</a><a class="feedback" href="#">用户反馈</a></span></div></div>
</div>
</body></html>
`;
}

/**
 * The same engine after a redesign (the "layout switch" fault): results move into a card structure
 * with extra wrappers and new classes, as Baidu's did around 2021–2023. A wrapper learned on the
 * old page no longer matches; harvest must notice and re-learn.
 */
export function renderDiv2023(v: SerpView): string {
  const q = e(v.query);
  const results = v.results
    .map(
      (r, i) =>
        `<div class="result c-container xpath-log new-pmd" id="${(v.page - 1) * v.perPage + i + 1}" tpl="se_com_default"><div class="c-result-content"><article class="c-card"><section class="c-card-head"><h3 class="c-title t tts-title"><a href="${e(r.href)}" target="_blank">${r.titleHtml}</a></h3></section><section class="c-card-body"><div class="c-row"><div class="c-span-last"><span class="content-right_8Zs40">${r.snippetHtml}</span></div></div><div class="c-row source_1Vdff"><a target="_blank" href="${e(r.href)}" class="siteLink_9TPP3"><span class="c-color-gray">${e(r.displayUrl)}</span></a><span class="c-color-gray2">${e(r.date)}</span></div></section></article></div></div>`,
    )
    .join("\n");
  const left =
    v.results.length === 0
      ? `<div class="content_none"><div class="nors"><p>抱歉，没有找到与“<em>${q}</em>”相关的网页。</p></div></div>`
      : results;
  const pages = Math.ceil(v.total / v.perPage);
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${q}_百度搜索</title></head>
<body>
<div id="head" class="s_down"><div class="head_wrapper"><form id="form" action="s"><input id="kw" name="wd" value="${q}"><input type="submit" id="su" value="百度一下"></form></div></div>
<div id="wrapper_wrapper"><div id="container" class="sam_newgrid">
<div id="content_left" tabindex="0">
${left}
</div>
<div id="content_right" class="cr-offset"><div class="cr-content new-pmd"><div class="cr-title c-font-medium">百度热搜</div><ul class="hot-list">${v.related
    .slice(0, 5)
    .map((r) => `<li class="toplist1-tr_4kE4D"><a class="c-font-medium" href="${v.searchHref(r)}">${e(r.slice(0, 18))}</a></li>`)
    .join("")}</ul></div></div>
${
  pages <= 1
    ? ""
    : `<div id="page"><div class="page-inner_2jZi2">${Array.from({ length: Math.min(pages, 10) }, (_, i) =>
        i + 1 === v.page
          ? `<strong><span class="page-item_M4MDr pc">${i + 1}</span></strong>`
          : `<a href="${v.pageHref(i + 1)}"><span class="page-item_M4MDr pc">${i + 1}</span></a>`,
      ).join("")}</div></div>`
}
</div></div>
<div id="foot"><div class="foot-inner"><a href="#">帮助</a><a href="#">举报</a></div></div>
</body></html>
`;
}
