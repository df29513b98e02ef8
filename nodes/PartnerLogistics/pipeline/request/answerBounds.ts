import { sleep } from 'n8n-workflow';

import { isObject } from '../../shared/valueAt';

/** The most an answer may hold decompressed: some 100,000 of the API's ~1 KB records. */
export const MAX_ANSWER_BYTES = 100 * 1024 * 1024;
// Attempts starting this close share one timer, so one may end this much past its Timeout: Node
// cannot clear an AbortSignal.timeout, so one per request would pile up (docs/benchmarks.md).
export const SHARED_DEADLINE_MS = 50;

/** A session's attempts, ended at n8n's Timeout, and its waits; a cancel ends both. */
export class Deadlines {
	private batch?: { closesAt: number; join(): { signal: AbortSignal; release(): void } };
	/** Settles when the execution is cancelled: one listener for every wait of the session. */
	private readonly cancelling: Promise<void>;
	constructor(
		private readonly timeoutMs: number,
		private readonly cancel?: AbortSignal,
	) {
		this.cancelling = new Promise((resolve) =>
			cancel?.addEventListener('abort', () => resolve(), { once: true }),
		);
	}

	get cancelled(): boolean {
		return this.cancel?.aborted === true;
	}

	start() {
		const now = Date.now();
		if (!this.batch || now >= this.batch.closesAt) {
			this.batch = {
				closesAt: now + SHARED_DEADLINE_MS,
				join: attemptsUntil(AbortSignal.timeout(this.timeoutMs + SHARED_DEADLINE_MS), this.cancel),
			};
		}
		return this.batch.join();
	}

	async wait(ms: number): Promise<void> {
		if (!this.cancelled && ms > 0) await Promise.race([sleep(ms), this.cancelling]);
	}
}

/** Attempts that end when `deadline` or `cancel` aborts, whichever is first: one listener each. */
function attemptsUntil(deadline: AbortSignal, cancel: AbortSignal | undefined) {
	const running = new Set<AbortController>();
	const end = (reason: unknown) => {
		for (const controller of running) controller.abort(reason);
		running.clear();
	};
	const cancelled = () => end(cancel?.reason);
	const timedOut = () => {
		cancel?.removeEventListener('abort', cancelled);
		end(deadline.reason);
	};
	cancel?.addEventListener('abort', cancelled, { once: true });
	deadline.addEventListener('abort', timedOut, { once: true });
	return () => {
		const controller = new AbortController();
		const ended = cancel?.aborted ? cancel : deadline.aborted ? deadline : undefined;
		if (ended) controller.abort(ended.reason);
		else running.add(controller);
		return { signal: controller.signal, release: () => running.delete(controller) };
	};
}

/**
 * An answer's body as text, at most MAX_ANSWER_BYTES once decompressed (n8n passes no size limit
 * to axios) and no later than `signal`, without waiting for the stream (its destruction in n8n 2.x
 * waits for a byte a quiet server never sends). Read on 'readable': one promise per body.
 */
export async function readBoundedBody(body: unknown, signal: AbortSignal): Promise<string> {
	if (typeof body === 'string') return body;
	if (!isStream(body)) return body === undefined || body === null ? '' : JSON.stringify(body);
	return await new Promise<string>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		// 'error' is heard after the end too: a later destroy may emit one, unheard it takes n8n down.
		const finish = (error?: unknown) => {
			if (done) return;
			done = true;
			signal.removeEventListener('abort', aborted);
			body.off('readable', read).off('end', finish).off('close', closed);
			if (error === undefined) return resolve(Buffer.concat(chunks, size).toString('utf8'));
			body.destroy();
			reject(error);
		};
		const aborted = () => finish(signal.reason);
		// A fault as Node names one (a premature close as an async iteration would have thrown it).
		const fault = (message: string, code: string) =>
			finish(Object.assign(new Error(message), { code, bytes: size }));
		const closed = () => fault('Premature close', 'ERR_STREAM_PREMATURE_CLOSE');
		const read = () => {
			for (let chunk = body.read(); chunk !== null; chunk = body.read()) {
				const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
				size += bytes.length;
				if (size > MAX_ANSWER_BYTES) return fault('The answer is too large', 'E_ANSWER_TOO_LARGE');
				chunks.push(bytes);
			}
		};
		body.on('readable', read).on('end', finish).on('error', finish).on('close', closed);
		if (signal.aborted) aborted();
		else signal.addEventListener('abort', aborted, { once: true });
	});
}

const isStream = (body: unknown): body is NodeJS.ReadableStream & { destroy(): void } =>
	isObject(body) && typeof body.read === 'function' && typeof body.destroy === 'function';
