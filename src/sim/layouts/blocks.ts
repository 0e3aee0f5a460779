import { escapeHtml as e } from "../../html/index.js";

/**
 * The pages engines show instead of results when they suspect a robot, modelled on the real ones:
 * Google's "unusual traffic" captcha (/sorry/), Baidu's security check on wappass.baidu.com,
 * a cookie-consent interstitial, and a bare 429.
 */

export function renderCaptcha(query: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>https://sim.example/search?q=${e(encodeURIComponent(query))}</title></head>
<body style="font-family: arial, sans-serif">
<div id="main"><div style="max-width:400px">
<form id="captcha-form" action="/sorry/index" method="post">
<div class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b"></div>
<input type="hidden" name="continue" value="/search?q=${e(encodeURIComponent(query))}">
<input type="submit" name="submit" value="Submit">
</form>
<hr noshade size="1" style="color:#ccc; background-color:#ccc;"><br>
<div style="font-size:13px;"><b>About this page</b><br><br>Our systems have detected unusual traffic from your computer network. This page checks to see if it&#39;s really you sending the requests, and not a robot. <a href="#" onclick="document.getElementById('infoDiv').style.display='block';">Why did this happen?</a><br><br>
<div id="infoDiv" style="display:none;">This page appears when our systems detect automated requests.</div>
IP address: 127.0.0.1<br>Time: ${new Date().toISOString()}<br>URL: /search?q=${e(encodeURIComponent(query))}<br></div>
</div></div>
</body></html>
`;
}

/** Baidu-style security check (the page its searches redirect to on wappass.baidu.com). */
export function renderVerification(): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>百度安全验证</title></head>
<body><div class="timeout hide-callback"><div class="timeout-img"></div><div class="timeout-title">网络不给力，请稍后重试</div><button type="button" class="timeout-button">返回首页</button></div>
<div class="timeout-feedback hide-callback"><div class="timeout-feedback-icon"></div><p class="timeout-feedback-title">问题反馈</p></div>
<div id="vcode-spin" class="vcode-spin"><div class="vcode-spin-head">百度安全验证</div><div class="vcode-spin-body"><p class="vcode-spin-title">请完成下方验证后继续操作</p><div class="vcode-spin-img"></div><div class="vcode-spin-button"><p>拖动左侧滑块使图片为正</p></div></div></div>
</body></html>
`;
}

export function renderConsent(continueUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Before you continue</title></head>
<body><div class="consent-bump"><h1>Before you continue to Search</h1>
<p>We use cookies and data to deliver and maintain our services, track outages and protect against spam, fraud and abuse.</p>
<form action="/consent/save" method="post"><input type="hidden" name="continue" value="${e(continueUrl)}"><button name="set" value="reject">Reject all</button><button name="set" value="accept">Accept all</button></form>
<a href="#">More options</a></div></body></html>
`;
}

export function renderTooManyRequests(): string {
  return `<!DOCTYPE html>
<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1><p>You have sent too many requests in a given amount of time. Try again later.</p></body></html>
`;
}
