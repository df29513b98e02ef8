import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { installIntoN8n, packPackage } from './communityPackage';
import { type CredentialFixture, SUB_WORKFLOW_IDS, type WorkflowFixture } from './fixtures';
import { N8nClient, type Owner } from './n8nApi';
import { type N8nInstance } from './n8nEnv';
import { n8nCliOk, type N8nServer, startN8n } from './n8nProcess';
import { freePort } from './ports';
import { type SandboxInfo, type SandboxProcess, startSandbox } from './sandbox';

export interface StackOptions {
	/** Holds the n8n user folder (`n8n/`), logs (`logs/`) and the packed tarball. */
	workDir: string;
	/** Fixed port (the playground's 5678) or a random free one. */
	n8nPort?: number;
	sandbox?: { port?: number; adminToken?: string; keys?: Partial<SandboxInfo['keys']> };
	encryptionKey?: string;
	owner: Owner;
	/** What to import before n8n starts, given the running sandbox (records may be made in it). */
	fixtures(sandbox: SandboxInfo): StackFixtures | Promise<StackFixtures>;
	/** Create a public API key even when nothing needs activating (the suite reads executions). */
	apiKey?: boolean;
	/** Environment of every n8n process of the instance, CLI included (e.g. queue mode's). */
	instanceEnv?: Record<string, string>;
	/** Extra environment for the n8n server (e.g. N8N_LOG_LEVEL). */
	n8nEnv?: Record<string, string>;
	/**
	 * How n8n gets the packed package: by default it is installed into the user folder before n8n
	 * starts, as an install from the UI leaves it. A function instead gets the tarball and returns
	 * environment for every n8n process (e.g. N8N_COMMUNITY_PACKAGES and where to fetch it from).
	 */
	communityPackage?: (tarball: string) => Promise<Record<string, string>>;
	log?: (line: string) => void;
}

export interface StackFixtures {
	credentials: CredentialFixture[];
	workflows: WorkflowFixture[];
	activate: string[];
}

export interface Stack {
	sandbox: SandboxProcess;
	n8n: N8nServer;
	instance: N8nInstance;
	client: N8nClient;
	/** Empty when no key was needed. */
	apiKey: string;
	stop(): Promise<void>;
}

/**
 * The sandbox and a real n8n with this package installed, an owner, an API key, the credentials
 * and the workflows imported and the trigger workflows active. On any failure on the way,
 * everything already started is stopped before the error is rethrown.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
	const log = options.log ?? (() => undefined);
	const logDir = join(options.workDir, 'logs');
	mkdirSync(logDir, { recursive: true });
	const instance: N8nInstance = {
		userFolder: join(options.workDir, 'n8n'),
		port: options.n8nPort ?? (await freePort()),
		brokerPort: await freePort(),
		logDir,
		encryptionKey: options.encryptionKey ?? randomBytes(24).toString('hex'),
		env: options.instanceEnv,
	};

	let sandbox: SandboxProcess | undefined;
	let n8n: N8nServer | undefined;
	const stop = async () => {
		await Promise.all([n8n?.stop(), sandbox?.stop()]);
	};
	try {
		log('Starting the sandbox Partner API and packing the package…');
		const [startedSandbox, tarball] = await Promise.all([
			startSandbox({ ...options.sandbox, logFile: join(options.workDir, 'sandbox.log') }),
			packPackage(options.workDir),
		]);
		sandbox = startedSandbox;
		if (options.communityPackage) {
			instance.env = { ...instance.env, ...(await options.communityPackage(tarball)) };
		} else {
			log(`Installing ${tarball.split('/').pop()} into n8n's community package folder…`);
			await installIntoN8n(instance.userFolder, tarball);
			rmSync(tarball);
		}

		const { credentials, workflows, activate } = await options.fixtures(sandbox.info);
		const importDir = join(options.workDir, 'import');
		mkdirSync(importDir, { recursive: true });
		writeFileSync(join(importDir, 'credentials.json'), JSON.stringify(credentials));
		writeFileSync(join(importDir, 'workflows.json'), JSON.stringify(workflows));
		log('Importing the credentials and workflows…');
		// Fixed ids: importing again replaces the credential or workflow with that id.
		try {
			if (credentials.length) {
				await n8nCliOk(instance, [
					'import:credentials',
					`--input=${join(importDir, 'credentials.json')}`,
				]);
			}
			if (workflows.length) {
				await n8nCliOk(instance, [
					'import:workflow',
					`--input=${join(importDir, 'workflows.json')}`,
				]);
			}
		} finally {
			// The credential file holds the key and secret in plain text; n8n keeps them encrypted.
			rmSync(importDir, { recursive: true, force: true });
		}

		log(`Starting n8n on 127.0.0.1:${instance.port}…`);
		n8n = await startN8n(instance, options.n8nEnv);
		const client = new N8nClient(n8n.baseUrl);
		await client.signIn(options.owner);
		const needsKey = options.apiKey || activate.length > 0;
		const apiKey = needsKey ? await client.createApiKey(`partner-logistics ${Date.now()}`) : '';
		const v1 = activate.length > 0 && (await client.majorVersion()) < 2;
		for (const id of activate) {
			if (!(v1 && SUB_WORKFLOW_IDS.includes(id))) await client.activateWorkflow(id);
		}
		return { sandbox, n8n, instance, client, apiKey, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
