// node scripts/check-links.mjs [folder] (part of `npm run lint`): pointers that cannot go stale.
// - Every relative link and #anchor in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/**/*.md
//   resolves: the file exists, the anchor is a heading of it (GitHub's slugs).
// - The same links resolve inside the packed tarball (`npm pack --dry-run --json`), for the files
//   the tarball ships: the README renders on npm, and the docs travel with the package.
// - Every documentation URL of the codex files and the credential opens a heading of the README
//   of this version on npm.
// - Every relative path named in a product comment (nodes/, credentials/) exists, and every
//   "(README: Heading)" names a heading of the README.
// Exits 1 with one line per broken pointer. No dependencies: Node's own fs and child_process.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// A folder given as argument is checked instead of this repository (test/package/links.test.ts).
const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const read = (path) => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json'));
const dependencies = Object.keys({
	...pkg.dependencies,
	...pkg.devDependencies,
	...pkg.peerDependencies,
});
const problems = [];
const problem = (where, what) => problems.push(`${where}: ${what}`);

/** Every file under a folder of the repository, as repository paths. */
const walk = (dir) =>
	existsSync(join(root, dir))
		? readdirSync(join(root, dir)).flatMap((name) => {
				const path = `${dir}/${name}`;
				return statSync(join(root, path)).isDirectory() ? walk(path) : [path];
			})
		: [];

/** Markdown without fenced code blocks and inline code, line numbers kept. */
function prose(markdown) {
	let fenced = false;
	return markdown.split('\n').map((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return '';
		}
		return fenced ? '' : line.replace(/(`+)[^`]*?\1/g, '');
	});
}

/** GitHub's anchor of a heading's text: inline markup dropped, lower case, punctuation removed. */
function slug(heading) {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors of a markdown file: its headings (repeats get -1, -2, …) and explicit ids. */
function anchorsOf(markdown) {
	const anchors = new Set();
	const seen = new Map();
	for (const line of prose(markdown.replace(/`([^`]*)`/g, '$1'))) {
		const heading = line.match(/^#{1,6}\s+(.+?)\s*#*\s*$/);
		if (heading) {
			const base = slug(heading[1]);
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			anchors.add(count === 0 ? base : `${base}-${count}`);
		}
		for (const [, id] of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id);
	}
	return anchors;
}
const anchorCache = new Map();
const anchorsOfFile = (path) => {
	if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(read(path)));
	return anchorCache.get(path);
};

/** The links of a markdown file: [text](target), ![alt](target) and <img src="target">. */
function linksOf(markdown) {
	const links = [];
	prose(markdown).forEach((line, index) => {
		const found = [
			...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
			...[...line.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
		];
		for (const target of found) links.push({ target, line: index + 1 });
	});
	return links;
}

// The tarball's files, as npm packs them now (dist/ included once built: `npm test` builds first).
const packed = new Set(
	JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	)[0].files.map((file) => file.path),
);
const inTarball = (path) =>
	packed.has(path) || [...packed].some((file) => file.startsWith(`${path}/`));

const npmPage = `https://www.npmjs.com/package/${pkg.name}/v/${pkg.version}`;

// 1. Links of the docs, in the repository and in the tarball.
const docs = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	...walk('docs').filter((path) => path.endsWith('.md')),
];
for (const doc of docs.filter((path) => existsSync(join(root, path)))) {
	for (const { target, line } of linksOf(read(doc))) {
		const where = `${doc}:${line}`;
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
			if (target.startsWith(npmPage)) checkNpmAnchor(where, target);
			else if (target.includes(`npmjs.com/package/${pkg.name}/v/`))
				problem(where, `${target} names another version than ${pkg.version}`);
			continue;
		}
		const [rawPath, anchor] = target.split('#');
		const path = rawPath
			? normalize(join(dirname(doc), decodeURIComponent(rawPath))).replace(/\/$/, '')
			: doc;
		if (path.startsWith('..')) {
			problem(where, `${target} points outside the repository`);
			continue;
		}
		if (!existsSync(join(root, path))) {
			problem(where, `${target}: ${path} does not exist`);
			continue;
		}
		if (anchor !== undefined && path.endsWith('.md') && !anchorsOfFile(path).has(anchor))
			problem(where, `${target}: no heading #${anchor} in ${path}`);
		if (inTarball(doc) && !inTarball(path))
			problem(where, `${target}: ${path} is not in the packed tarball, which ships ${doc}`);
	}
}

// 1b. Paths the docs name in code spans (`nodes/…/x.ts`, `bench/x.ts`, `docs/x.md`): read from
// the doc's folder, the repository and the node's folder, as the docs write them.
for (const doc of docs.filter((path) => existsSync(join(root, path)))) {
	let fenced = false;
	read(doc)
		.split('\n')
		.forEach((line, index) => {
			if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
			if (fenced) return;
			for (const [, span] of line.matchAll(/`([^`\s]+)`/g)) {
				const path = span.replace(/[:#].*$/, '');
				if (!/^[\w.@-]+(\/[\w.@-]+)+\.(ts|js|mjs|md|json|sh|yml)$/.test(path)) continue;
				// n8n's own compiled files (`commands/start.js`, read in its dist/) are not ours.
				if (external(path) || path.includes('/dist/') || /^(?!scripts\/|test\/).*\.js$/.test(path))
					continue;
				if (!resolvesFrom([dirname(doc), 'nodes/PartnerLogistics/x'], path))
					problem(`${doc}:${index + 1}`, `names ${path}, which does not exist`);
			}
		});
}

// 2. The codex files' and the credential's documentation URLs.
function checkNpmAnchor(where, url) {
	const [page, anchor] = url.split('#');
	if (page !== npmPage) problem(where, `${url} is not ${npmPage}`);
	else if (anchor && !anchorsOfFile('README.md').has(anchor))
		problem(where, `${url}: no heading #${anchor} in README.md`);
}
for (const codex of walk('nodes').filter((path) => path.endsWith('.node.json'))) {
	const { resources = {} } = JSON.parse(read(codex));
	for (const links of Object.values(resources))
		for (const { url } of links) checkNpmAnchor(codex, url);
}
for (const file of walk('credentials').filter((path) => path.endsWith('.ts'))) {
	for (const [, url] of read(file).matchAll(/documentationUrl\s*=\s*'([^']+)'/g))
		checkNpmAnchor(file, url);
}

/** Whether a path exists from one of the folders, or from a folder above one of them. */
function resolvesFrom(dirs, path) {
	const candidates = /\.js$/.test(path) ? [path, path.replace(/\.js$/, '.ts')] : [path];
	for (const dir of dirs)
		for (let at = dir; ; at = dirname(at)) {
			if (candidates.some((candidate) => existsSync(join(root, at, candidate)))) return true;
			if (at === '.' || at === '') break;
		}
	return false;
}
/** A name of another package (a dependency, n8n's own, a scope): its files are not ours. */
function external(name) {
	return (
		dependencies.includes(name.split('/')[0]) ||
		/^(n8n|n8n-[\w-]+|@[\w-]+|node_modules|dist)$/.test(name.split('/')[0])
	);
}

// 3. Paths and README headings named in product comments. A path is read from the comment's file,
// then from each folder above it up to the repository; a file of another package (a name of the
// package's dependencies before it, e.g. "n8n-core authentication.js") is not ours to check.
const readmeHeadings = anchorsOfFile('README.md');
for (const file of [...walk('nodes'), ...walk('credentials')].filter((path) =>
	path.endsWith('.ts'),
)) {
	read(file)
		.split('\n')
		.forEach((text, index) => {
			const comment = text.match(/^\s*(?:\/\/|\/\*+|\*)(.*)$/)?.[1] ?? text.match(/\/\/(.*)$/)?.[1];
			if (comment === undefined) return;
			const where = `${file}:${index + 1}`;
			for (const match of comment.matchAll(
				/(?<![\w@/.-])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|js|mjs|md|json))\b/g,
			)) {
				const path = match[1];
				const before = comment.slice(0, match.index).trim().split(/\s+/).pop() ?? '';
				if (external(before.replace(/^\W+/, ''))) continue;
				if (!resolvesFrom([dirname(file)], path))
					problem(where, `names ${path}, which does not exist`);
			}
			for (const [, heading] of comment.matchAll(/\(README[:,] ([^)]+)\)/g))
				if (!readmeHeadings.has(slug(heading)))
					problem(where, `names the README heading "${heading}", which does not exist`);
		});
}

if (problems.length > 0) {
	console.error(`check-links: ${problems.length} broken pointer(s)`);
	for (const line of problems) console.error(`  ${line}`);
	process.exit(1);
}
const checked = `${docs.length} docs, the codex URLs and the product comments`;
console.log(`check-links: every pointer of ${checked} resolves (tarball: ${packed.size} files)`);
