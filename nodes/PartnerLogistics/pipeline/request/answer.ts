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
 * Settled by the signal itself, not by the stream's end: in n8n 2.x the stream wraps axios' own,
 * and destroying it waits for a byte that a server gone quiet never sends; axios frees the socket
 * once `signal` reaches it. Read by events, the lightest way a stream gives its chunks.
 */
export async function readBody(body: unknown, signal: AbortSignal): Promise<string> {
	if (typeof body === 'string') return body;
	if (!isStream(body)) return body === undefined || body === null ? '' : JSON.stringify(body);
	let stop = () => {};
	try {
		return await new Promise<string>((resolve, reject) => {
			const chunks: Buffer[] = [];
			let size = 0;
			const fail = (error: unknown) => {
				body.destroy();
				reject(error);
			};
			stop = () => fail(signal.reason);
			signal.addEventListener('abort', stop, { once: true });
			if (signal.aborted) return stop();
			body.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > MAX_ANSWER_BYTES) fail(new AnswerTooLarge(size));
				else chunks.push(chunk);
			});
			body.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
			// Kept on: when the deadline or the bound came first, the destroyed stream's own errors
			// are of no interest (the promise is settled), but must still be heard.
			body.on('error', reject);
		});
	} finally {
		signal.removeEventListener('abort', stop);
	}
}

interface BodyStream {
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	on(event: 'error', listener: (error: unknown) => void): unknown;
	once(event: 'end', listener: () => void): unknown;
	destroy(): void;
}

function isStream(body: unknown): body is BodyStream {
	return isObject(body) && typeof body.on === 'function' && typeof body.destroy === 'function';
}
