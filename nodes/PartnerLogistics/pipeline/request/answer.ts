import { isObject } from '../../shared/valueAt';

/**
 * The most an answer may hold once decompressed. The API's largest answers are lists of records
 * around a kilobyte: 100 MiB is some 100,000, more than any list it pages through. A gzip bomb
 * stops here within a second, n8n's memory growing by about as much; a 50 MB list passes easily.
 */
export const MAX_ANSWER_BYTES = 100 * 1024 * 1024;

/** An answer that grew past MAX_ANSWER_BYTES once decompressed: more than `bytes` arrived. */
export class AnswerTooLarge extends Error {
	constructor(readonly bytes: number) {
		super(`The answer grew past ${MAX_ANSWER_BYTES} bytes once decompressed`);
	}
}

/** One attempt's signal, whether the execution was cancelled, and the unlinking when it ends. */
export interface Attempt {
	signal: AbortSignal;
	cancelled(): boolean;
	release(): void;
}

/**
 * One attempt's signal: it aborts at n8n's Timeout, so covering the whole answer (status, headers,
 * body), or when the execution is cancelled. Linked by hand and unlinked when the attempt ends:
 * AbortSignal.any would keep every attempt's signal alive on the execution's while it runs.
 */
export function attemptSignal(timeoutMs: number, cancel: AbortSignal | undefined): Attempt {
	const controller = new AbortController();
	const sources = [AbortSignal.timeout(timeoutMs), ...(cancel ? [cancel] : [])];
	const abort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
	for (const source of sources) {
		if (source.aborted) controller.abort(source.reason);
		else source.addEventListener('abort', abort, { once: true });
	}
	return {
		signal: controller.signal,
		cancelled: () => cancel?.aborted === true,
		release: () => sources.forEach((source) => source.removeEventListener('abort', abort)),
	};
}

/**
 * An answer's body as text: at most MAX_ANSWER_BYTES once decompressed (axios inflates gzip,
 * deflate and br on its way, and n8n passes no size limit through), and no later than `signal`.
 * Raced, not only awaited: in n8n 2.x the stream wraps axios' own, and destroying it waits for a
 * byte that a server gone quiet never sends; axios frees the socket once `signal` reaches it.
 */
export async function readBody(body: unknown, signal: AbortSignal): Promise<string> {
	if (typeof body === 'string') return body;
	if (!isStream(body)) return body === undefined || body === null ? '' : JSON.stringify(body);
	const chunks: Buffer[] = [];
	let size = 0;
	let stop = () => {};
	const stopped = new Promise<never>((_, reject) => {
		stop = () => {
			body.destroy();
			reject(signal.reason as Error);
		};
	});
	signal.addEventListener('abort', stop, { once: true });
	if (signal.aborted) stop();
	const reading = (async () => {
		for await (const chunk of body) {
			size += (chunk as Buffer).length;
			if (size > MAX_ANSWER_BYTES) {
				body.destroy();
				throw new AnswerTooLarge(size);
			}
			chunks.push(chunk as Buffer);
		}
	})();
	// When the deadline wins, the destroyed stream's own error is of no interest.
	reading.catch(() => undefined);
	stopped.catch(() => undefined);
	try {
		await Promise.race([reading, stopped]);
	} finally {
		signal.removeEventListener('abort', stop);
	}
	return Buffer.concat(chunks, size).toString('utf8');
}

function isStream(body: unknown): body is AsyncIterable<unknown> & { destroy(): void } {
	return isObject(body) && Symbol.asyncIterator in body && typeof body.destroy === 'function';
}
