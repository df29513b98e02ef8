// Answers written over time instead of at once, for faults that misbehave in the body or never
// answer: a body that trickles forever, no headers at all, a gzip bomb, a big honest list. A writer
// owns the response until it is complete, the client goes away or the sandbox closes.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';

import type { ListShape } from './types';

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

export interface BigListSpec {
	records: number;
	recordBytes: number;
	gzip: boolean;
	/** The GET's path after the base: it picks the records' shape. */
	path: string;
	listShape: ListShape;
}

const PADDING = 'Sandbox big list padding, an honest record of an honest list. ';

/** Records shaped as the endpoint's own (hubs, support cases, else plain), ids of fixed width. */
function recordOf(path: string, index: number, pad: string, now: string): object {
	const n = String(index + 1).padStart(7, '0');
	if (path === '/partner-api/hubs') {
		return {
			id: `hub_big_${n}`,
			name: `Big List Hub ${n}`,
			city: 'Lagos',
			address: pad,
			latitude: 6.5244,
			longitude: 3.3792,
			openingHours: 'Mon-Sat 08:00-20:00',
			active: true,
		};
	}
	if (path === '/partner-api/support-cases') {
		return {
			caseId: `case_big_${n}`,
			title: `Big list case ${n}`,
			summary: pad,
			category: null,
			priority: null,
			status: 'OPEN',
			relatedResourceType: null,
			relatedResourceId: null,
			metadata: {},
			createdAt: now,
			updatedAt: now,
		};
	}
	return { id: `rec_big_${n}`, note: pad };
}

/** The list's JSON text in pieces of 64 records: every record padded to recordBytes (or its own size). */
function* listText(spec: BigListSpec): Generator<string> {
	const now = new Date().toISOString();
	const natural = JSON.stringify(recordOf(spec.path, 0, '', now)).length;
	const pad = PADDING.repeat(Math.ceil(spec.recordBytes / PADDING.length)).slice(
		0,
		Math.max(0, spec.recordBytes - natural),
	);
	const cursor = spec.path === '/partner-api/support-cases' && spec.listShape === 'cursor';
	yield cursor ? '{"items":[' : '[';
	for (let start = 0; start < spec.records; start += 64) {
		const batch: string[] = [];
		for (let i = start; i < Math.min(start + 64, spec.records); i++) {
			batch.push(JSON.stringify(recordOf(spec.path, i, pad, now)));
		}
		yield `${start === 0 ? '' : ','}${batch.join(',')}`;
	}
	yield cursor ? '],"nextCursor":null}' : ']';
}

/** 200 with the list, streamed (chunked), gzip-compressed when asked. */
export function bigList(spec: BigListSpec): StreamingWriter {
	return async ({ res, sent }) => {
		res.writeHead(200, {
			'content-type': JSON_TYPE,
			...(spec.gzip ? { 'content-encoding': 'gzip' } : {}),
		});
		const count = async function* (chunks: AsyncIterable<Buffer | string>) {
			for await (const chunk of chunks) {
				sent(Buffer.byteLength(chunk));
				yield chunk;
			}
		};
		const source = Readable.from(listText(spec));
		// A client that goes away mid-list ends the pipeline early: nothing more to do then.
		await (
			spec.gzip ? pipeline(source, createGzip(), count, res) : pipeline(source, count, res)
		).then(undefined, () => undefined);
	};
}
