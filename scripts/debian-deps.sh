#!/usr/bin/env bash
# Debian packages a test or script needs, installed when missing: `queue` (Postgres 15 and Redis,
# for npm run test:queue) or `browser` (Chromium, for npm run screenshots). Idempotent: returns at
# once when everything is there. Nothing is started: the suites run Postgres and Redis as their
# own processes on 127.0.0.1 with throwaway data folders, never as system services.
set -euo pipefail
pg_bin=/usr/lib/postgresql/15/bin

missing=()
case "${1:-}" in
queue)
	[ -x "$pg_bin/postgres" ] && [ -x "$pg_bin/initdb" ] && [ -x "$pg_bin/psql" ] || missing+=(postgresql-15)
	command -v redis-server >/dev/null && command -v redis-cli >/dev/null || missing+=(redis-server)
	;;
browser)
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	;;
*)
	echo "usage: $0 queue|browser" >&2
	exit 2
	;;
esac
if [ "${#missing[@]}" -eq 0 ]; then
	echo "debian deps ($1): already installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "debian deps ($1): missing ${missing[*]}; install them as root: apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "debian deps ($1): installing ${missing[*]} from apt"
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d 101: the packages' install scripts must not start system services on this machine.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && created_policy=1
fi
trap '[ "$created_policy" -eq 1 ] && rm -f "$policy"' EXIT
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "debian deps ($1): ready"
