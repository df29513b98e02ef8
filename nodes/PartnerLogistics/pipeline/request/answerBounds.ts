import { isObject } from '../../shared/valueAt';

/** The most an answer may hold decompressed: some 100,000 of the API's ~1 KB records. */
export const MAX_ANSWER_BYTES = 100 * 1024 * 1024;

/** An answer past MAX_ANSWER_BYTES once decompressed: more than `bytes` arrived. */
export class AnswerTooLarge extends Error {
	constructor(readonly bytes: number) {
		super(`The answer grew past ${MAX_ANSWER_BYTES} bytes once decompressed`);
	}
}

/** One attempt's deadline: its signal, and whether the execution was cancelled. */
export interface Deadline {
	signal: AbortSignal;
	cancelled(): boolean;
	/** The attempt ended: its deadline no longer concerns it. */
	release(): void;
}

/** How much past its Timeout an attempt may end: attempts starting this close share one timer. */
export const SHARED_DEADLINE_MS = 50;

/**
 * A session's attempt deadlines: each aborts at n8n's Timeout (at most SHARED_DEADLINE_MS later),
 * covering the whole answer, or when the execution is cancelled. Attempts starting within
 * SHARED_DEADLINE_MS share one AbortSignal.timeout, which Node cannot clear: one per request would
 * keep 30,000 timers pending at 1,000 requests/s. Each attempt's own signal is unlinked at its end.
 */
export class Deadlines {
	private batch?: { closesAt: number; join(): Deadline };

	constructor(
		private readonly timeoutMs: number,
		private readonly cancel?: AbortSignal,
	) {}

	start(): Deadline {
		const now = Date.now();
		if (!this.batch || now >= this.batch.closesAt) {
			this.batch = {
				closesAt: now + SHARED_DEADLINE_MS,
				join: attemptsUntil(AbortSignal.timeout(this.timeoutMs + SHARED_DEADLINE_MS), this.cancel),
			};
		}
		return this.batch.join();
	}
}

/** Attempts that end when `deadline` or `cancel` aborts, whichever is first: one listener each. */
function attemptsUntil(deadline: AbortSignal, cancel: AbortSignal | undefined): () => Deadline {
	const running = new Set<AbortController>();
	const end = (reason: unknown) => {
		for (const controller of running) controller.abort(reason);
		running.clear();
	};
	const cancelled = () => end(cancel?.reason);
	cancel?.addEventListener('abort', cancelled, { once: true });
	deadline.addEventListener(
		'abort',
		() => {
			cancel?.removeEventListener('abort', cancelled);
			end(deadline.reason);
		},
		{ once: true },
	);
	return () => {
		const controller = new AbortController();
		const ended = cancel?.aborted ? cancel : deadline.aborted ? deadline : undefined;
		if (ended) controller.abort(ended.reason);
		else running.add(controller);
		return {
			signal: controller.signal,
			cancelled: () => cancel?.aborted === true,
			release: () => running.delete(controller),
		};
	};
}

/**
 * An answer's body as text, at most MAX_ANSWER_BYTES once decompressed (axios inflates it; n8n
 * passes no size limit through) and no later than `signal`. One promise per body, read on
 * 'readable' (an async iteration costs a promise per chunk). Ends at `signal` without waiting for
 * the stream, whose destruction in n8n 2.x waits for a byte a quiet server never sends.
 */
export async function readBoundedBody(body: unknown, signal: AbortSignal): Promise<string> {
	if (typeof body === 'string') return body;
	if (!isStream(body)) return body === undefined || body === null ? '' : JSON.stringify(body);
	const stream = body;
	return await new Promise<string>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		// Kept on after the end: a stream destroyed later may still emit an error, and an error
		// with no listener would take n8n down.
		const finish = (error?: unknown) => {
			if (done) return;
			done = true;
			signal.removeEventListener('abort', aborted);
			stream.off('readable', read).off('end', ended).off('close', closed);
			if (error === undefined) return resolve(Buffer.concat(chunks, size).toString('utf8'));
			stream.destroy();
			reject(error);
		};
		const aborted = () => finish(signal.reason);
		const ended = () => finish();
		const closed = () => finish(Object.assign(new Error('Premature close'), { code: PREMATURE }));
		function read() {
			for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) {
				const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
				size += bytes.length;
				if (size > MAX_ANSWER_BYTES) return finish(new AnswerTooLarge(size));
				chunks.push(bytes);
			}
		}
		stream.on('readable', read).on('end', ended).on('error', finish).on('close', closed);
		if (signal.aborted) aborted();
		else signal.addEventListener('abort', aborted, { once: true });
	});
}

/** Node's code for a stream closed before its end, as an async iteration would have thrown it. */
const PREMATURE = 'ERR_STREAM_PREMATURE_CLOSE';

/** The part of a Node Readable that readBoundedBody uses. */
interface BodyStream {
	read(): Buffer | string | null;
	on(event: string, listener: (...args: never[]) => void): BodyStream;
	off(event: string, listener: (...args: never[]) => void): BodyStream;
	destroy(): void;
}

function isStream(body: unknown): body is BodyStream {
	return (
		isObject(body) &&
		typeof body.read === 'function' &&
		typeof body.on === 'function' &&
		typeof body.destroy === 'function'
	);
}
