// Requests to the sandbox's partner API straight from the bench process: the fetch floor of the
// quote bench, and the untimed setup of the payment bench. N at a time, as a plain Node loop.
import type { SandboxInfo } from '../test/e2e/lib/sandbox';

export interface Answer {
	status: number;
	body: Record<string, unknown>;
}

/** POSTs every body to `path` with the org A key and its own Idempotency-Key, `concurrency` at a time. */
export async function postAll(
	sandbox: SandboxInfo,
	path: string,
	bodies: unknown[],
	{ concurrency = 20, keyPrefix }: { concurrency?: number; keyPrefix: string },
): Promise<Answer[]> {
	const answers: Answer[] = new Array(bodies.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < bodies.length) {
				const index = next++;
				const response = await fetch(`${sandbox.url}${path}`, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'X-SVC-API-Key': sandbox.keys.full,
						'Idempotency-Key': `${keyPrefix}-${index}`,
					},
					body: JSON.stringify(bodies[index]),
				});
				answers[index] = {
					status: response.status,
					body: (await response.json()) as Record<string, unknown>,
				};
			}
		}),
	);
	return answers;
}
