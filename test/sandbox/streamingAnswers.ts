// Answers written over time instead of at once, for faults that misbehave in the body or never
// answer: a body that trickles forever, no headers at all, a gzip bomb. A writer
// owns the response until it is complete, the client goes away or the sandbox closes.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';

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

// One record every 64 KiB, spaces in between: deflate shrinks long runs of one byte about
// 1000-fold, so 1 GiB of JSON text compresses to about 1 MB (whole records alone reach only 500).
const BOMB_UNIT_BYTES = 64 * 1024;
const BOMB_RECORD = '{"id":"x"},';
const BOMB_TAIL = '{"id":"x"}]';
export const MIN_BOMB_BYTES = 1 + BOMB_TAIL.length;

/** `[`, records spaced 64 KiB apart, `{"id":"x"}]`: exactly `size` bytes of JSON, in 1 MiB blocks. */
function* bombText(size: number): Generator<Buffer> {
	const unit = Buffer.alloc(BOMB_UNIT_BYTES, 0x20);
	unit.write(BOMB_RECORD);
	const block = Buffer.concat(Array(16).fill(unit));
	let middle = size - MIN_BOMB_BYTES;
	yield Buffer.from('[');
	for (; middle >= block.length; middle -= block.length) yield block;
	for (; middle >= unit.length; middle -= unit.length) yield unit;
	yield Buffer.alloc(middle, 0x20);
	yield Buffer.from(BOMB_TAIL);
}

async function compressBomb(size: number): Promise<Buffer> {
	// Z_RLE: runs of one byte are all there is to find, and it is 3 times faster than level 9 alone.
	const gzip = Readable.from(bombText(size)).pipe(
		createGzip({ level: 9, strategy: constants.Z_RLE }),
	);
	const chunks: Buffer[] = [];
	for await (const chunk of gzip) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

// The compressed bytes per inflated size: built once, streamed, never inflated in memory.
const bombs = new Map<number, Promise<Buffer>>();

/** The gzip bytes of a bomb that inflates to `inflatedBytes`: built on first use, then kept. */
export function gzipBombBytes(inflatedBytes: number): Promise<Buffer> {
	let bytes = bombs.get(inflatedBytes);
	if (!bytes) {
		bytes = compressBomb(inflatedBytes);
		bombs.set(inflatedBytes, bytes);
	}
	return bytes;
}

/** 200, Content-Encoding: gzip, the whole compressed bomb with its Content-Length. */
export function gzipBomb(inflatedBytes: number): StreamingWriter {
	return async ({ res, sent }) => {
		const bytes = await gzipBombBytes(inflatedBytes);
		if (res.destroyed) return;
		res.writeHead(200, {
			'content-type': JSON_TYPE,
			'content-encoding': 'gzip',
			'content-length': bytes.length,
		});
		await new Promise<void>((resolve) => {
			res.once('close', resolve);
			res.end(bytes, () => sent(bytes.length));
		});
	};
}
