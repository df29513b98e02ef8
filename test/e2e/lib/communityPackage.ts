import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from './paths';

const run = promisify(execFile);

export const PACKAGE_NAME = 'n8n-nodes-partner-logistics';

/** Packs the built package (`dist/` must be current: the root .npmrc skips prepack scripts). */
export async function packPackage(destination: string): Promise<string> {
	if (!existsSync(join(repoRoot, 'dist/nodes/PartnerLogistics/PartnerLogistics.node.js'))) {
		throw new Error('dist/ is missing: run `npm run build` first');
	}
	mkdirSync(destination, { recursive: true });
	const { stdout } = await run(
		'npm',
		['pack', '--json', '--pack-destination', destination, '--loglevel=error'],
		{ cwd: repoRoot, env: npmEnv() },
	);
	const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * Installs the tarball the way n8n 2.41's community package service does after `npm pack
 * <name>@<version>` (modules/community-packages/community-packages.service.js, downloadPackage):
 * extract it into `<user folder>/.n8n/nodes/node_modules/<name>`, drop dev, peer and optional
 * dependencies from its package.json, `npm install` there with n8n's flags, and record the
 * version in `nodes/package.json`. n8n then loads it under its production type names on start.
 */
export async function installIntoN8n(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = join(userFolder, '.n8n/nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

	const manifestPath = join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	await run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: packageDir, env: npmEnv() },
	);

	const nodesManifestPath = join(nodesDir, 'package.json');
	const nodesManifest: { dependencies?: Record<string, string> } = existsSync(nodesManifestPath)
		? JSON.parse(readFileSync(nodesManifestPath, 'utf8'))
		: { name: 'installed-nodes', private: true };
	nodesManifest.dependencies = {
		...nodesManifest.dependencies,
		[PACKAGE_NAME]: String(manifest.version),
	};
	writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));
}

/** npm as a person would run it, not as the npm script that may have started us. */
function npmEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')),
	) as NodeJS.ProcessEnv;
}
