// n8n's event-loop responsiveness as a user of the editor or of another webhook feels it: the
// latency of GET /healthz, polled one after another about every 50 ms from the bench process.
import { get } from 'node:http';

const INTERVAL_MS = 50;

export interface LatencySummary {
	samples: number;
	p50: number;
	p95: number;
	max: number;
}

/** The value below which `share` of the sorted values fall (nearest rank). */
export function percentile(values: number[], share: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

export function summarize(latencies: number[]): LatencySummary {
	return {
		samples: latencies.length,
		p50: percentile(latencies, 0.5),
		p95: percentile(latencies, 0.95),
		max: latencies.length ? Math.max(...latencies) : NaN,
	};
}

/**
 * One GET /healthz on a connection of its own: with keep-alive, a socket that n8n closes as its
 * event loop wakes up from a long stall could reset the poll that waited through the stall, and
 * that stall is exactly what is measured. Resolves with the latency in ms.
 */
function pollOnce(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const request = get(url, { agent: false }, (response) => {
			response.resume();
			response.on('end', () =>
				response.statusCode === 200
					? resolve(performance.now() - started)
					: reject(new Error(`GET /healthz answered ${response.statusCode}`)),
			);
		});
		request.on('error', reject);
	});
}

/** Polls until stop() is called; stop() resolves with every latency measured (ms). */
export function pollHealthz(n8nUrl: string): { stop(): Promise<number[]> } {
	const latencies: number[] = [];
	let running = true;
	const loop = (async () => {
		while (running) {
			const took = await pollOnce(`${n8nUrl}/healthz`);
			latencies.push(took);
			await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL_MS - took)));
		}
	})();
	// Seen by stop(); never an unhandled rejection in between.
	loop.catch(() => undefined);
	return {
		stop: async () => {
			running = false;
			await loop;
			return latencies;
		},
	};
}

/** Latencies while `work` runs. */
export async function healthzDuring<T>(
	n8nUrl: string,
	work: () => Promise<T>,
): Promise<{ value: T; latencies: number[] }> {
	const poller = pollHealthz(n8nUrl);
	try {
		const value = await work();
		return { value, latencies: await poller.stop() };
	} finally {
		await poller.stop().catch(() => undefined);
	}
}
