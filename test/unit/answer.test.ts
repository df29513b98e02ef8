import { Readable } from 'node:stream';

import {
	AnswerTooLarge,
	Deadlines,
	MAX_ANSWER_BYTES,
	readBoundedBody,
	SHARED_DEADLINE_MS,
} from '../../nodes/PartnerLogistics/pipeline/request/answerBounds';

/** When `signal` aborts, in ms after `start`. */
const abortedAfter = async (signal: AbortSignal, start: number) =>
	await new Promise<number>((resolve) => {
		signal.addEventListener('abort', () => resolve(performance.now() - start), { once: true });
	});

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe("an attempt's deadline", () => {
	const TIMEOUT = 300;

	test('attempts started together end together, at the Timeout and at most 50 ms later', async () => {
		const deadlines = new Deadlines(TIMEOUT);
		const start = performance.now();
		const attempts = [deadlines.start(), deadlines.start(), deadlines.start()];
		const ends = await Promise.all(attempts.map(async (a) => await abortedAfter(a.signal, start)));
		for (const end of ends) {
			expect(end).toBeGreaterThanOrEqual(TIMEOUT - 2);
			expect(end).toBeLessThan(TIMEOUT + SHARED_DEADLINE_MS + 100);
		}
		expect((attempts[0].signal.reason as Error).name).toBe('TimeoutError');
		expect(attempts.every((attempt) => !attempt.cancelled())).toBe(true);
	});

	test('an attempt started later gets its own, later deadline', async () => {
		const deadlines = new Deadlines(TIMEOUT);
		const start = performance.now();
		const first = deadlines.start();
		await pause(SHARED_DEADLINE_MS + 150);
		const second = deadlines.start();
		const [firstEnd, secondEnd] = await Promise.all([
			abortedAfter(first.signal, start),
			abortedAfter(second.signal, start),
		]);
		expect(secondEnd - firstEnd).toBeGreaterThanOrEqual(100);
		expect(secondEnd).toBeGreaterThanOrEqual(SHARED_DEADLINE_MS + 150 + TIMEOUT - 2);
	});

	test('an attempt that ended is left alone when its deadline comes', async () => {
		const deadlines = new Deadlines(TIMEOUT);
		const start = performance.now();
		const done = deadlines.start();
		const running = deadlines.start();
		done.release();
		await abortedAfter(running.signal, start);
		expect(done.signal.aborted).toBe(false);
	});

	test('a cancelled execution ends every running attempt at once, and every later one', async () => {
		const execution = new AbortController();
		const deadlines = new Deadlines(30_000, execution.signal);
		const attempts = [deadlines.start(), deadlines.start()];
		execution.abort(new Error('cancelled by the user'));
		expect(attempts.map((attempt) => attempt.signal.aborted)).toEqual([true, true]);
		expect(attempts.map((attempt) => attempt.cancelled())).toEqual([true, true]);
		const later = deadlines.start();
		expect(later.signal.aborted).toBe(true);
		expect((later.signal.reason as Error).message).toBe('cancelled by the user');
	});
});

describe("an answer's body", () => {
	const live = () => new AbortController().signal;

	test('a text body is itself; none is empty; an object is its JSON', async () => {
		expect(await readBoundedBody('{"a":1}', live())).toBe('{"a":1}');
		expect(await readBoundedBody(undefined, live())).toBe('');
		expect(await readBoundedBody({ a: 1 }, live())).toBe('{"a":1}');
	});

	test('a streamed body is read whole, a character split between chunks kept whole', async () => {
		const text = JSON.stringify({ city: 'Lagos – Ikeja ✓', n: 1 });
		const bytes = Buffer.from(text);
		const split = bytes.indexOf(Buffer.from('✓')) + 1;
		const body = Readable.from([bytes.subarray(0, split), bytes.subarray(split)], {
			objectMode: false,
		});
		expect(await readBoundedBody(body, live())).toBe(text);
	});

	test('a body past the bound stops with the bytes that came, the stream destroyed', async () => {
		const chunk = Buffer.alloc(1024 * 1024, 0x20);
		let sent = 0;
		const body = new Readable({
			read() {
				sent++;
				this.push(chunk);
			},
		});
		const error = (await readBoundedBody(body, live()).catch((e: unknown) => e)) as AnswerTooLarge;
		expect(error).toBeInstanceOf(AnswerTooLarge);
		expect(error.bytes).toBeGreaterThan(MAX_ANSWER_BYTES);
		expect(error.bytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 2 * chunk.length);
		expect(body.destroyed).toBe(true);
		expect(sent).toBeLessThan(MAX_ANSWER_BYTES / chunk.length + 20);
	});

	test('a body that stops coming ends at the signal, with its reason, without waiting', async () => {
		const body = new Readable({ read() {} });
		body.push('{"partial":');
		const deadline = new AbortController();
		const reading = readBoundedBody(body, deadline.signal);
		await pause(50);
		deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
		await expect(reading).rejects.toMatchObject({ name: 'TimeoutError' });
		expect(body.destroyed).toBe(true);
	});

	test('a stream closed before its end is a premature close, like a lost connection', async () => {
		const body = new Readable({ read() {} });
		body.push('{"partial":');
		const reading = readBoundedBody(body, live());
		await pause(10);
		body.destroy();
		await expect(reading).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
	});

	test("a stream's error is the body's error, and a later one harms nothing", async () => {
		const body = new Readable({ read() {} });
		const reading = readBoundedBody(body, live());
		body.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
		await expect(reading).rejects.toMatchObject({ code: 'ECONNRESET' });
		// An error emitted after the end must find a listener, or it would take n8n down.
		expect(() => body.emit('error', new Error('late'))).not.toThrow();
	});
});
