import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';

/**
 * Every server the suite or the playground starts goes through here. Each runs under guard.js in
 * a process group of its own, so stopping it is one signal to the group (n8n's task runner goes
 * with it), and only groups started here are ever signalled.
 */
export interface Started {
	name: string;
	/** The guard's pid, which is also the process group id. */
	pid: number;
	child: ChildProcess;
	/** Resolves with the exit code (or 128 on a signal) when the guard exits. */
	exited: Promise<number>;
}

const started = new Map<number, Started>();
const guard = join(__dirname, 'guard.js');

export function startGuarded(
	name: string,
	command: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string; stdio: StdioOptions },
): Started {
	const child = spawn(process.execPath, [guard, command, ...args], {
		cwd: options.cwd,
		env: options.env,
		stdio: options.stdio,
		// Own process group: a Ctrl-C in the terminal reaches the orchestrator only, which then
		// stops the servers in order instead of them racing it.
		detached: true,
	});
	if (child.pid === undefined) throw new Error(`Could not start ${name}`);
	const exited = new Promise<number>((resolveExit) =>
		child.once('exit', (code, signal) => resolveExit(code ?? (signal ? 128 : 0))),
	);
	const entry: Started = { name, pid: child.pid, child, exited };
	started.set(child.pid, entry);
	return entry;
}

function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function signalGroup(pgid: number, signal: NodeJS.Signals) {
	try {
		process.kill(-pgid, signal);
	} catch {
		// Already gone.
	}
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (!groupAlive(pgid)) return true;
		await new Promise((r) => setTimeout(r, 100));
	}
	return !groupAlive(pgid);
}

/** SIGTERM to the group (n8n shuts down in ~2 s), SIGKILL to whatever is left after the grace. */
export async function stopStarted(entry: Started, graceMs = 10_000): Promise<void> {
	if (groupAlive(entry.pid)) {
		signalGroup(entry.pid, 'SIGTERM');
		if (!(await waitGone(entry.pid, graceMs))) {
			signalGroup(entry.pid, 'SIGKILL');
			await waitGone(entry.pid, 3000);
		}
	}
	started.delete(entry.pid);
}

/**
 * A crash: SIGKILL to the whole group at once (the guard, n8n and the task runner it started), no
 * grace, nothing of it gets to save or clean up. Resolves once every process of the group is gone.
 */
export async function killStarted(entry: Started): Promise<void> {
	signalGroup(entry.pid, 'SIGKILL');
	if (!(await waitGone(entry.pid, 10_000))) {
		throw new Error(`${entry.name} (process group ${entry.pid}) outlived SIGKILL for 10 s`);
	}
	started.delete(entry.pid);
}

export async function stopAll(): Promise<void> {
	await Promise.all([...started.values()].map((entry) => stopStarted(entry)));
}

export function runningGroups(): Started[] {
	return [...started.values()].filter((entry) => groupAlive(entry.pid));
}

let hooksInstalled = false;

export interface CleanupOptions {
	/** Told which signal arrived, before anything is stopped. */
	onSignal?: (signal: NodeJS.Signals) => void;
	/** Runs once everything is stopped after a signal (e.g. keep the logs). */
	afterStop?: () => void;
	/** Exit code after a stop by signal; the playground's Ctrl-C is its normal end (0). */
	signalExitCode?: number;
}

/**
 * Last lines of defence for the orchestrator's own process: a signal stops everything and exits
 * with the conventional code; any other exit (an uncaught error, jest's forced exit) kills
 * whatever is still running, synchronously, as `exit` handlers must be.
 */
export function installCleanupHooks(options: CleanupOptions = {}): void {
	if (hooksInstalled) return;
	hooksInstalled = true;
	process.on('exit', () => {
		for (const entry of started.values()) signalGroup(entry.pid, 'SIGKILL');
	});
	const codes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
	let stopping = false;
	for (const signal of Object.keys(codes) as NodeJS.Signals[]) {
		// `on`, not `once`: a second signal (a guard forwarding one, an impatient Ctrl-C) must not
		// fall back to the default action and kill us before the servers are down.
		process.on(signal, () => {
			if (stopping) return;
			stopping = true;
			options.onSignal?.(signal);
			void stopAll()
				.then(() => options.afterStop?.())
				.finally(() => process.exit(options.signalExitCode ?? codes[signal]));
		});
	}
}
