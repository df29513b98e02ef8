// Answers written over time instead of at once, for faults that misbehave in the body or never
// answer: a body that trickles forever, no headers at all. A writer
// owns the response until it is complete, the client goes away or the sandbox closes.
import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface StreamTarget {
	res: ServerResponse;
	/** Aborted when the sandbox closes. */
	signal: AbortSignal;
	/** Counts body bytes as they are written (the log entry's bytesSent). */
	sent(bytes: number): void;
}

export type StreamingWriter = (target: StreamTarget) => Promise<void>;

/** Resolves once the response closes (client gone, or the sandbox closing destroyed it). */
function untilClosed(res: ServerResponse, signal: AbortSignal, onStop: () => void = () => {}) {
	return new Promise<void>((resolve) => {
		const stop = () => {
			signal.removeEventListener('abort', stop);
			onStop();
			resolve();
		};
		// Already gone (its 'close' passed before we listened): stop at once.
		if (res.destroyed || !res.socket || res.socket.destroyed || signal.aborted) return stop();
		res.once('close', stop);
		signal.addEventListener('abort', stop, { once: true });
	});
}

/** '[' then this over and over: JSON text that never closes. */
const TRICKLE_UNIT = '{"id":"trickle"},';

/** Headers at once, then one byte of the body every intervalMs until the client goes away. */
export function trickle(status: number, intervalMs: number): StreamingWriter {
	return async ({ res, signal, sent }) => {
		res.writeHead(status, { 'content-type': JSON_TYPE });
		res.flushHeaders();
		let index = 0;
		const timer = setInterval(() => {
			res.write(index === 0 ? '[' : TRICKLE_UNIT[(index - 1) % TRICKLE_UNIT.length]);
			index++;
			sent(1);
		}, intervalMs);
		// The interval dies with the response: nothing keeps writing to a client that left.
		await untilClosed(res, signal, () => {
			clearInterval(timer);
			res.destroy();
		});
	};
}

/** Nothing at all, not even a status line: the request is held until the client goes away. */
export const noHeaders: StreamingWriter = async ({ res, signal }) => await untilClosed(res, signal);
