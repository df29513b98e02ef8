#!/usr/bin/env bash
# Postgres 15 and Redis for the queue-mode suite (npm run test:queue), from Debian's packages.
# Idempotent: returns at once when both are there. The suite runs them as its own processes on
# 127.0.0.1 with throwaway data folders; the system services are never started or touched.
set -euo pipefail
pg_bin=/usr/lib/postgresql/15/bin

missing=()
[ -x "$pg_bin/postgres" ] && [ -x "$pg_bin/initdb" ] && [ -x "$pg_bin/psql" ] || missing+=(postgresql-15)
command -v redis-server >/dev/null && command -v redis-cli >/dev/null || missing+=(redis-server)
if [ "${#missing[@]}" -eq 0 ]; then
	echo "queue deps: Postgres 15 and Redis already installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "queue deps: missing ${missing[*]}; install them as root: apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "queue deps: installing ${missing[*]} from apt"
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
echo "queue deps: ready"
