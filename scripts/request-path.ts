// npx ts-node --transpile-only --prefer-ts-exts scripts/request-path.ts: the files one request passes through, in
// order, from the pipeline's send on (pacing, the exchange, what the pacer learns, retries), as a
// newcomer would follow it. Every function and class method the pipeline's files export is wrapped
// to note when a call enters another file; one Quote › Create item is then run through n8n-core's
// engine against the sandbox, answered at once, and once more with a 429 first. Prints each path,
// its stops (calls that enter a file) and its returns (entries into a file the request had left).
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import type { FaultPlan } from '../test/sandbox/types';

const root = resolve(__dirname, '..');
const product = join(root, 'nodes/PartnerLogistics');

/** Every .ts file of the pipeline (and the shared helpers it uses). */
function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return files(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

type Entry = { file: string; name: string };
const entries: Entry[] = [];
/** Set while a call made on behalf of the request runs (its timers and promises included). */
const request = new AsyncLocalStorage<true>();

function wrap<T extends (...args: never[]) => unknown>(fn: T, file: string, name: string): T {
	return function (this: unknown, ...args: Parameters<T>) {
		const call = () => fn.apply(this, args);
		if (name === 'sendRequest' && !request.getStore()) {
			return request.run(true, () => {
				entries.push({ file, name });
				return call();
			});
		}
		if (request.getStore()) entries.push({ file, name });
		return call();
	} as T;
}

const pipeline = [...files(join(product, 'pipeline')), ...safeFiles(join(product, 'shared'))];
function safeFiles(dir: string): string[] {
	try {
		return files(dir);
	} catch {
		return [];
	}
}
/**
 * The places entered, consecutive calls within one place folded into one stop. A place is a file,
 * or with `rooms`, a folder of the pipeline taken as one (its door's caller need not go inside).
 */
function path(trace: Entry[], rooms: boolean) {
	const stops: Entry[] = [];
	for (const entry of trace) {
		const place = rooms ? roomOf(entry.file) : entry.file;
		if (stops.length && stops[stops.length - 1].file === place) continue;
		stops.push({ file: place, name: entry.name });
	}
	const left = new Set<string>();
	let returns = 0;
	stops.forEach((stop, index) => {
		if (left.has(stop.file)) returns++;
		if (index > 0) left.add(stops[index - 1].file);
	});
	return { stops, returns, files: new Set(stops.map((stop) => stop.file)).size };
}

/** Wraps what every file of the pipeline exports, before anything else loads it. */
async function instrument() {
	for (const path of pipeline) {
		const file = relative(product, path);
		const exports = (await import(path)) as Record<string, unknown>;
		for (const [name, value] of Object.entries(exports)) {
			const descriptor = Object.getOwnPropertyDescriptor(exports, name);
			if (typeof value !== 'function' || !descriptor?.writable) continue;
			const prototype = (value as { prototype?: object }).prototype;
			const methods = prototype ? Object.getOwnPropertyNames(prototype) : [];
			if (/^class\b/.test(Function.prototype.toString.call(value))) {
				for (const method of methods.filter((method) => method !== 'constructor')) {
					const own = Object.getOwnPropertyDescriptor(prototype, method);
					if (typeof own?.value !== 'function') continue;
					Object.defineProperty(prototype, method, {
						...own,
						value: wrap(own.value as () => unknown, file, `${name}.${method}`),
					});
				}
			} else {
				exports[name] = wrap(value as () => unknown, file, name);
			}
		}
	}
}

/** `pipeline/rateLimit/pacer.ts` -> `pipeline/rateLimit/`; the request's own room stays files. */
function roomOf(file: string): string {
	const room = /^(pipeline\/(?!request\/)[^/]+\/)/.exec(file)?.[1];
	return room ?? file;
}

async function main() {
	await instrument();
	const { startSandbox } = await import('../test/sandbox');
	const { runNode } = await import('../test/harness');
	const { clickRoute } = await import('../test/node/helpers');
	const sandbox = await startSandbox();
	const parameters = { resource: 'quote', operation: 'create', ...clickRoute };
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.keys.full };
	try {
		const scenarios: Array<[string, FaultPlan]> = [
			['answered at once', {}],
			['a 429, then answered', { failNext: [{ status: 429, retryAfterSeconds: 0 }] }],
		];
		for (const [label, faults] of scenarios) {
			sandbox.admin.setFaults(faults);
			entries.length = 0;
			const result = await runNode(parameters, { credentials });
			if (result.error()) throw result.error();
			for (const rooms of [false, true]) {
				const { stops, returns, files: count } = path(entries, rooms);
				const places = rooms ? 'places (a room behind a door as one)' : 'files';
				console.log(`\n${label}: ${stops.length} stops in ${count} ${places}, ${returns} returns`);
				for (const stop of stops) console.log(`  ${stop.file}  ${stop.name}`);
			}
		}
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
