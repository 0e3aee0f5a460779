import { escapeHtml as e } from "../../html/index.js";
import type { SerpView } from "./types.js";

/**
 * A list-based result page modelled on Bing's (`ol#b_results > li.b_algo`, 2016–2022 captures in
 * ../shared/data/serps/aql/bing): ads at the top of the list, organic results, a related-searches
 * block and the pagination inside the same list, an entity sidebar in `#b_context`.
 */
export function renderList(v: SerpView): string {
  const q = e(v.query);
  const ads =
    v.ads.length === 0
      ? ""
      : `<li class="b_ad"><ul>${v.ads
          .map(
            (a) =>
              `<li><div class="sb_add sb_adTA"><h2><a href="${e(a.href)}">${e(a.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${e(a.displayUrl)}</cite><span class="b_adSlug">Ad</span></div><p>${e(a.text)}</p></div></div></li>`,
          )
          .join("")}</ul></li>`;
  const results = v.results
    .map(
      (r) =>
        `<li class="b_algo"><h2><a href="${e(r.href)}" h="ID=SERP,5110.1">${r.titleHtml}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${e(r.displayUrl)}</cite><span class="c_tlbxTrg"><span class="c_tlbxH"></span></span></div><p><span class="news_dt">${e(r.date)}</span>&nbsp;&#0183;&#32;${r.snippetHtml}</p></div></li>`,
    )
    .join("");
  const related =
    v.related.length === 0
      ? ""
      : `<li class="b_ans"><h2>Related searches for <strong>${q}</strong></h2><ul class="b_vList">${v.related
          .map((r) => `<li><a href="${v.searchHref(r)}"><div class="b_suggestionText">${e(r)}</div></a></li>`)
          .join("")}</ul></li>`;
  const pages = Math.ceil(v.total / v.perPage);
  const pag =
    pages <= 1
      ? ""
      : `<li class="b_pag"><nav role="navigation" aria-label="More results for ${q}"><h4 class="b_hide">Pagination</h4><ul class="sb_pagF">${Array.from(
          { length: Math.min(pages, 5) },
          (_, i) =>
            i + 1 === v.page
              ? `<li><a class="sb_pagS">${i + 1}</a></li>`
              : `<li><a aria-label="Page ${i + 1}" href="${v.pageHref(i + 1)}">${i + 1}</a></li>`,
        ).join(
          "",
        )}${v.page < pages ? `<li><a class="sb_pagN" title="Next page" href="${v.pageHref(v.page + 1)}"><div class="sw_next">Next</div></a></li>` : ""}</ul></nav></li>`;
  const main =
    v.results.length === 0
      ? `<li class="b_no"><h1>There are no results for <strong>${q}</strong></h1><ul><li><span>Check your spelling or try different keywords</span></li></ul></li>`
      : `${ads}${results}${related}${pag}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${q} - Search</title></head>
<body>
<header id="b_header"><form action="search" id="sb_form"><a id="sb_logo" href="/">Search</a><input id="sb_form_q" name="q" value="${q}"></form>
<nav><ul id="b-scopeListItem"><li><a href="#">All</a></li><li><a href="#">Images</a></li><li><a href="#">Videos</a></li><li><a href="#">Maps</a></li><li><a href="#">News</a></li></ul></nav></header>
<div id="b_content"><main aria-label="Search Results"><div id="b_tween"><span class="sb_count">${v.total} results</span></div>
<ol id="b_results">${main}</ol></main>
<aside aria-label="Additional Results"><ol id="b_context">${
    v.results.length === 0
      ? ""
      : `<li class="b_ans"><div class="b_entityTP"><h2 class="b_entityTitle">${q}</h2><div class="b_entitySubTitle">Phrase · Translation</div></div><ul class="b_vList"><li><a href="${v.searchHref(`${v.query} translation`)}">Translate this phrase</a></li><li><a href="${v.searchHref(`${v.query} pronunciation`)}">Pronunciation</a></li></ul></li>`
  }</ol></aside></div>
<footer id="b_footer"><div id="b_footerItems"><span>&#169; 2024 Simulator</span><ul><li><a href="#">Privacy and Cookies</a></li><li><a href="#">Legal</a></li><li><a href="#">Advertise</a></li><li><a href="#">Help</a></li></ul></div></footer>
</body></html>
`;
}
