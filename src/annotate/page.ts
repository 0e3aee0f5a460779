/**
 * The annotation page. Everything shown comes from the JSON API and is put on the page with
 * `textContent` only — never parsed as HTML — so a snippet holding `<script>` shows as text; the
 * Content-Security-Policy (scripts and styles by nonce only) is a second line of defence.
 */
export function annotationPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bitext annotate</title>
<style nonce="${nonce}">
${STYLE}
</style>
</head>
<body>
${RECORD_CARD}
<script nonce="${nonce}">
${SCRIPT}
</script>
</body>
</html>
`;
}

/** The page's look: the record card, the language colours of the segments, the buttons. */
const STYLE = `  body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  header { display: flex; justify-content: space-between; align-items: baseline; color: #555; }
  .card { border: 1px solid #ccc; border-radius: 6px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .label { color: #777; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; }
  #title { font-size: 1.2rem; font-weight: 600; margin: 0.2rem 0; }
  #url { color: #1a0dab; word-break: break-all; font-size: 0.9rem; }
  #snippet { margin-top: 0.5rem; }
  .seg-en { background: #e3f0ff; } .seg-zh { background: #ffe9d6; } .seg-other { background: #eee; }
  #query span { margin-right: 1rem; }
  .legend span { padding: 0 0.3rem; margin-right: 0.5rem; }
  .buttons button { font-size: 1rem; margin-right: 0.5rem; padding: 0.4rem 0.9rem; cursor: pointer; }
  kbd { border: 1px solid #aaa; border-radius: 3px; padding: 0 0.3rem; font-size: 0.85rem; }
  #status { color: #555; min-height: 1.5rem; }
  #done { display: none; font-size: 1.2rem; }`;

/** The instructions, the record card (filled by the script), the buttons and the status line. */
const RECORD_CARD = `<header><h1>bitext annotate</h1><div id="progress"></div></header>
<p>Is the page behind this search result <b>bilingual</b> (parallel English and Chinese text)?
Judge from the record only. Keys: <kbd>b</kbd> bilingual · <kbd>m</kbd> monolingual · <kbd>s</kbd> skip · <kbd>u</kbd> undo.</p>
<div id="record" class="card">
  <div class="label">query</div>
  <div id="query"><span id="query-en"></span><span id="query-zh"></span></div>
  <div class="label">title</div>
  <div id="title"></div>
  <div id="url"></div>
  <div class="label">snippet <span id="langstring"></span></div>
  <div id="snippet"></div>
  <div class="legend"><span class="seg-en">English</span><span class="seg-zh">Chinese</span><span id="probability"></span></div>
</div>
<div id="done" class="card">All records are annotated. You can close this page (and stop <code>bitext annotate</code> with Ctrl-C).</div>
<div class="buttons">
  <button id="bilingual" type="button">Bilingual (b)</button>
  <button id="monolingual" type="button">Monolingual (m)</button>
  <button id="skip" type="button">Skip (s)</button>
  <button id="undo" type="button">Undo (u)</button>
</div>
<p id="status" role="status"></p>`;

/** Loads the next record from the API, shows it, and sends the decision of a button or key. */
const SCRIPT = `"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
let current = null;
let busy = false;
const $ = (id) => document.getElementById(id);

function setText(id, text) { $(id).textContent = text == null ? "" : String(text); }

function renderSegments(el, pieces) {
  el.replaceChildren();
  for (const p of pieces) {
    const span = document.createElement("span");
    span.textContent = p.text;
    if (p.lang) { span.className = p.lang === "en" ? "seg-en" : p.lang === "zh" ? "seg-zh" : "seg-other"; span.dataset.lang = p.lang; }
    el.appendChild(span);
  }
}

function render(state) {
  current = state.record;
  setText("progress", state.labelled + " labelled this session · " + state.remaining + " to go");
  $("record").style.display = current ? "" : "none";
  $("done").style.display = current ? "none" : "block";
  for (const id of ["bilingual", "monolingual", "skip"]) $(id).disabled = !current;
  if (!current) return;
  setText("query-en", current.query.source.text);
  setText("query-zh", current.query.target.text);
  renderSegments($("title"), current.titlePieces);
  setText("url", current.url);
  renderSegments($("snippet"), current.snippetPieces);
  setText("langstring", current.languageString ? "(" + current.languageString + ")" : "");
  setText("probability", current.probability == null ? "" : "model: P(bilingual) = " + current.probability.toFixed(2));
}

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "x-bitext-token": token, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function act(fn, message) {
  if (busy) return;
  busy = true;
  try { render(await fn()); setText("status", message); }
  catch (err) { setText("status", "Error: " + err.message); }
  finally { busy = false; }
}

function decide(decision) {
  if (!current) return;
  const key = current.key;
  act(() => call("POST", "/api/decision", { key, decision }), decision === "skip" ? "Skipped." : "Saved: " + decision + ".");
}
function undo() { act(() => call("POST", "/api/undo"), "Undone."); }

$("bilingual").addEventListener("click", () => decide("bilingual"));
$("monolingual").addEventListener("click", () => decide("monolingual"));
$("skip").addEventListener("click", () => decide("skip"));
$("undo").addEventListener("click", undo);
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k === "b") decide("bilingual");
  else if (k === "m") decide("monolingual");
  else if (k === "s") decide("skip");
  else if (k === "u") undo();
});
act(() => call("GET", "/api/state"), "");`;
