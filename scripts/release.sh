#!/usr/bin/env bash
# The release, step by step. .github/workflows/release.yml runs `scripts/release.sh --publish` on a
# version tag after `npm ci`; `npm run release:dry-run` runs the very same steps on a machine that
# has already installed, and ends in `npm publish --dry-run` instead of publishing.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:---dry-run}
case "$mode" in --dry-run | --publish) ;; *) echo "usage: $0 [--dry-run|--publish]" >&2 && exit 2 ;; esac
name=$(node -p 'require("./package.json").name')
version=$(node -p 'require("./package.json").version')
step() { echo "::: $*"; }
fail() { echo "release: $*" >&2 && exit 1; }

step "$name $version ($mode)"
# The tag names the version being released; package.json must say the same.
if [ -n "${RELEASE_TAG:-}" ] && [ "$RELEASE_TAG" != "v$version" ]; then
	fail "tag $RELEASE_TAG does not match package.json version $version"
fi
# A published version's notes carry its date; until then the entry says "Unreleased".
if ! grep -Eq "^## ${version//./\\.} - [0-9]{4}-[0-9]{2}-[0-9]{2}$" CHANGELOG.md; then
	[ "$mode" = --publish ] && fail "CHANGELOG.md has no dated entry '## $version - YYYY-MM-DD'"
	echo "release: note: CHANGELOG.md's $version entry is not dated yet (a real release stops here)"
fi

step "npm test (build, lint, unit and engine tests, package checks)"
npm test

# npm's provenance check wants package.json to name the repository the workflow runs in.
if [ "$mode" = --publish ] && [ "$(npm pkg get repository.url)" = "{}" ]; then
	[ -n "${GITHUB_REPOSITORY:-}" ] || fail "package.json has no repository and this is not GitHub Actions"
	npm pkg set repository.type=git \
		"repository.url=git+${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY}.git"
fi

step "npm pack (the tarball for people who install from a file)"
rm -f "$name"-*.tgz
npm pack --loglevel=warn

if [ "$mode" = --publish ]; then
	step "npm publish --provenance --access public"
	npm publish --provenance --access public
else
	step "npm publish --dry-run --access public"
	npm publish --dry-run --access public
fi
step "done: $name-$version.tgz"
