#!/usr/bin/env node
// The end-to-end suite on one of the n8n versions of test/e2e/versions.json: installs that runtime
// (scripts/install-runtime.sh <folder>, a no-op when it is there), builds the package, and runs the
// specs the manifest runs there with N8N_E2E_RUNTIME_DIR pointing at it. Other arguments go to jest.
//   node scripts/e2e-versions.js n8n-1.x                  the suite on the last n8n 1.x
//   node scripts/e2e-versions.js --list                   the runtimes' names, one a line
//   node scripts/e2e-versions.js --extra                  the same without the pinned test/e2e/runtime
//   node scripts/e2e-versions.js --specs n8n-1.x          the spec files that run there
//   node scripts/e2e-versions.js --folders                every runtime's folder, one a line
// Exits with jest's code; the install or the build failing exits 1 before jest runs.
'use strict';
const { spawnSync } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'test/e2e/versions.json'), 'utf8'));
const specsDir = join(root, 'test/e2e/specs');

function runtimeNamed(name) {
	const runtime = manifest.runtimes.find((candidate) => candidate.name === name);
	if (!runtime) {
		const names = manifest.runtimes.map((candidate) => candidate.name).join(', ');
		console.error(`e2e-versions: no runtime "${name}" in test/e2e/versions.json (${names})`);
		process.exit(2);
	}
	return runtime;
}

/** Every spec file, minus those the runtime's `exclude` names (each with its reason). */
function specsFor(runtime) {
	const all = readdirSync(specsDir).filter((file) => file.endsWith('.e2e.ts'));
	for (const excluded of Object.keys(runtime.exclude)) {
		if (!all.includes(excluded)) {
			console.error(`e2e-versions: ${runtime.name} excludes ${excluded}, which does not exist`);
			process.exit(2);
		}
	}
	return all.filter((file) => !(file in runtime.exclude)).sort();
}

function run(command, args, env = process.env) {
	const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
	return result.status ?? 1;
}

const [first, ...rest] = process.argv.slice(2);
if (!first || first === '--help') {
	console.error(
		'usage: node scripts/e2e-versions.js <name> [jest options] | --list | --extra | --folders | --specs <name>',
	);
	process.exit(first ? 0 : 2);
}
if (first === '--list' || first === '--extra') {
	for (const runtime of manifest.runtimes) {
		if (first === '--list' || runtime.folder !== 'test/e2e/runtime') console.log(runtime.name);
	}
	process.exit(0);
}
if (first === '--folders') {
	for (const runtime of manifest.runtimes) console.log(runtime.folder);
	process.exit(0);
}
if (first === '--specs') {
	for (const spec of specsFor(runtimeNamed(rest[0]))) console.log(spec);
	process.exit(0);
}

const runtime = runtimeNamed(first);
const specs = specsFor(runtime);
const folder = join(root, runtime.folder);
const skipped = Object.keys(runtime.exclude).length;
console.log(
	`e2e-versions: n8n ${runtime.n8n} on Node ${runtime.node}: ${specs.length} spec files` +
		(skipped ? ` (${skipped} excluded, see test/e2e/versions.json)` : ''),
);
if (run('bash', ['scripts/install-runtime.sh', folder]) !== 0) process.exit(1);
if (run('npm', ['run', 'build', '--silent']) !== 0) process.exit(1);
process.exit(
	run(
		join(root, 'node_modules/.bin/jest'),
		[
			'-c',
			'test/e2e/jest.config.js',
			'--runTestsByPath',
			...specs.map((spec) => join('test/e2e/specs', spec)),
			...rest,
		],
		{ ...process.env, N8N_E2E_RUNTIME_DIR: folder },
	),
);
