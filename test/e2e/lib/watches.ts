import { randomUUID } from 'node:crypto';

import { lastSeq, sandboxRequests } from './assertions';
import { POLLING_TRIGGER, WORKFLOW_IDS, type WorkflowFixture } from './fixtures';
import { expectOk, sleep, waitFor } from './http';
import { type Execution, nodeOutput } from './n8nApi';
import { DOWN_SECONDS, type PollingStack } from './polling';
import { SandboxAdmin, type SandboxInfo } from './sandbox';

// The record watches of the polling trigger in real n8n (GO_BULK quote requests, HAUL quotations,
// trips, trucks), each in a workflow of its own polling through n8n's own scheduler every few
// seconds, against the sandbox whose operator quotes and moves things. What must hold, once, for
// the regular suite (pollingWatches.e2e.ts), the durable scheduler
// (pollingDurableScheduler.e2e.ts) and queue mode (05pollingTrigger.queue.ts).

/** A record watch's workflow: its Trigger On, the parameter listing its IDs, extra parameters. */
export interface RecordWatch {
	workflowId: string;
	name: string;
	watch: string;
	idsParameter: string;
	extra?: Record<string, unknown>;
}

export const RECORD_WATCHES = {
	quoteRequest: {
		workflowId: 'plWfWatchQuoteRq',
		name: 'Watch GO_BULK quote requests',
		watch: 'quoteRequest',
		idsParameter: 'quoteRequestIds',
	},
	haulageQuotation: {
		workflowId: 'plWfWatchHaulage',
		name: 'Watch HAUL quotations',
		watch: 'haulageQuotation',
		idsParameter: 'quotationIds',
	},
	trip: {
		workflowId: 'plWfWatchTrip001',
		name: 'Watch trips',
		watch: 'trip',
		idsParameter: 'tripIds',
	},
	// A truck reports its position often: only its status counts here.
	truck: {
		workflowId: 'plWfWatchTruck01',
		name: 'Watch truck status',
		watch: 'truckTracking',
		idsParameter: 'assignmentIds',
		extra: { changesThatCount: 'namedFields', changeFields: 'status' },
	},
} satisfies Record<string, RecordWatch>;
export type WatchName = keyof typeof RECORD_WATCHES;
const watchOf = (name: WatchName): RecordWatch => RECORD_WATCHES[name];

/**
 * The support case watch sample made into each record watch, polling as often as it (see
 * fixtures' supportCaseWatchEvery), its IDs set later (`listIds`), before it is published.
 */
export function recordWatchWorkflows(
	caseWatch: WorkflowFixture,
	names: WatchName[] = Object.keys(RECORD_WATCHES) as WatchName[],
): WorkflowFixture[] {
	return names.map((name) => {
		const { workflowId, watch, extra } = watchOf(name);
		const copy = JSON.parse(JSON.stringify(caseWatch)) as WorkflowFixture;
		copy.id = workflowId;
		copy.name = RECORD_WATCHES[name].name;
		const trigger = copy.nodes.find((node) => node.name === POLLING_TRIGGER)!;
		trigger.parameters = { pollTimes: trigger.parameters.pollTimes, watch, ...extra, options: {} };
		return copy;
	});
}

const FINAL = ['success', 'error', 'crashed', 'canceled'];

/** The record watches against one sandbox and one n8n, with the steps the specs take. */
export class RecordWatches {
	readonly ids: Record<string, string[]> = {};

	constructor(
		private readonly polling: PollingStack,
		readonly names: WatchName[],
	) {}

	private get sandbox() {
		return this.polling.stack.sandbox.info;
	}

	/** A partner API call, as the partner's own systems make it (not through n8n). */
	async partner(path: string, body?: unknown): Promise<Record<string, unknown>> {
		return await partnerCall(this.sandbox, path, body);
	}

	/** The operator's side: the sandbox's admin API. */
	async operator(path: string, body: unknown = {}): Promise<Record<string, unknown>> {
		return await this.polling.admin.post<Record<string, unknown>>(path, body);
	}

	/** Two records of each watch: the first is moved on by the scenario, the second never. */
	async createRecords(): Promise<void> {
		const requests = [1, 2].map(
			async () =>
				(
					await this.partner('/partner-api/quote-requests', {
						itemDescription: 'Cement',
						quantity: 40,
					})
				).quoteRequestId as string,
		);
		this.ids.quoteRequest = [...(await Promise.all(requests)), 'qr_does_not_exist'];
		this.ids.haulageQuotation = [await this.haulage(), await this.haulage()];
		const assigned = [await this.assigned(), await this.assigned()];
		this.ids.trip = assigned.map((one) => one.tripId);
		this.ids.truck = assigned.map((one) => one.assignmentId);
	}

	private async haulage(): Promise<string> {
		return (await this.partner('/partner-api/haulage/quotations', { cargo: { tonnes: 20 } }))
			.quotationId as string;
	}

	private async assigned(): Promise<{ assignmentId: string; tripId: string }> {
		const id = await this.haulage();
		await this.operator(`/haulage/quotations/${id}/quotation`);
		await this.partner(`/partner-api/haulage/quotations/${id}/accept`, {});
		return (await this.operator(`/haulage/quotations/${id}/assign`)) as {
			assignmentId: string;
			tripId: string;
		};
	}

	/** Lists each watch's IDs in its trigger (as a user types them), then publishes it. */
	async publish(): Promise<void> {
		const { client } = this.polling;
		for (const name of this.names) {
			const { workflowId, idsParameter } = RECORD_WATCHES[name];
			const { body } = await client.publicApi<WorkflowFixture>('GET', `/workflows/${workflowId}`);
			const nodes = body.nodes.map((node) =>
				node.name === POLLING_TRIGGER
					? {
							...node,
							parameters: { ...node.parameters, [idsParameter]: this.ids[name].join(', ') },
						}
					: node,
			);
			const updated = await client.publicApi('PUT', `/workflows/${workflowId}`, {
				name: body.name,
				nodes,
				connections: body.connections,
				settings: { executionOrder: 'v1' },
			});
			if (updated.status !== 200) {
				throw new Error(
					`update ${workflowId}: HTTP ${updated.status} ${JSON.stringify(updated.body)}`,
				);
			}
			await client.activateWorkflow(workflowId);
		}
	}

	/** The executions of one watch so far, newest first. */
	async executions(name: WatchName): Promise<Execution[]> {
		const list = await this.polling.client.executions(RECORD_WATCHES[name].workflowId);
		return list.filter((execution) => execution.mode !== 'manual');
	}

	/**
	 * Each watch's executions once every watch has at least the count expected, all have ended,
	 * and a few more polls have passed without another: what should not happen had its chance to.
	 */
	async settled(
		expected: Partial<Record<WatchName, number>>,
	): Promise<Record<WatchName, Execution[]>> {
		const all = async () =>
			Object.fromEntries(
				await Promise.all(this.names.map(async (name) => [name, await this.executions(name)])),
			) as Record<WatchName, Execution[]>;
		await waitFor(
			`executions ${JSON.stringify(expected)}`,
			async () => {
				const lists = await all();
				const done = this.names.every(
					(name) =>
						lists[name].length >= (expected[name] ?? 0) &&
						lists[name].every((execution) => FINAL.includes(execution.status)),
				);
				return done ? true : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 500 },
		);
		await this.polls(3);
		return await all();
	}

	/**
	 * Waits until every watch has polled `count` more times (read from the sandbox's log), then
	 * until the last polls' executions, if any, are recorded; `rightAfter` returns at once, for a
	 * step that must be in place before the next poll.
	 */
	async polls(count = 1, { rightAfter = false } = {}): Promise<void> {
		const since = await lastSeq(this.polling.admin);
		const firstIds = this.names.map((name) => this.ids[name][0]);
		await waitFor(
			`${count} polls of every watch`,
			async () => {
				const gets = (await sandboxRequests(this.polling.admin, since)).filter(
					(request) => request.method === 'GET',
				);
				const each = firstIds.map(
					(id) => gets.filter((request) => request.path.endsWith(`/${id}`)).length,
				);
				return Math.min(...each) >= count ? true : undefined;
			},
			{ timeoutMs: (count + 2) * this.polling.pollSeconds * 1000 + 30_000, intervalMs: 100 },
		);
		// The poll's own execution, if any, is recorded right after its requests.
		if (!rightAfter) await sleep(1500);
	}
}

/** What one execution of a watch emitted: the trigger's items. */
export const emitted = (execution: Execution) => nodeOutput(execution, POLLING_TRIGGER);

/** One `changed` item of `recordId` naming these fields. */
export const changed = (recordId: string, changedFields: string[]) =>
	expect.objectContaining({ change: 'changed', recordId, changedFields });

/** A partner API call (a POST when it has a body), as the partner's own systems make it. */
export async function partnerCall(
	sandbox: SandboxInfo,
	path: string,
	body?: unknown,
): Promise<Record<string, unknown>> {
	const post = body !== undefined;
	const answer = await expectOk<Record<string, unknown>>(
		`${post ? 'POST' : 'GET'} ${path}`,
		`${sandbox.url}${path}`,
		{
			method: post ? 'POST' : 'GET',
			headers: {
				'x-svc-api-key': sandbox.keys.full,
				...(post ? { 'idempotency-key': randomUUID() } : {}),
			},
			body,
		},
	);
	return answer.body;
}

/**
 * The records the GO_BULK and HAUL watch samples (workflows 17 and 18) watch, made as a partner's
 * morning would make them: two quote requests, a HAUL quotation request, and a quotation the
 * operator quoted and the partner accepted, with a truck assigned. Returns the samples'
 * placeholders and their values. Run first against a fresh sandbox, it gives the same IDs every
 * time, so the samples the playground imported once stay valid across its restarts.
 */
export async function seedSampleRecords(sandbox: SandboxInfo): Promise<Record<string, string>> {
	const admin = new SandboxAdmin(sandbox);
	const created = async (path: string, body: unknown, field: string) =>
		(await partnerCall(sandbox, path, body))[field] as string;
	const request = { itemDescription: '40 bags of cement', quantity: 40 };
	const requests = [
		await created('/partner-api/quote-requests', request, 'quoteRequestId'),
		await created('/partner-api/quote-requests', { ...request, quantity: 80 }, 'quoteRequestId'),
	];
	const shipment = {
		cargo: '20 pallets of tiles',
		origin: 'Apapa Port, Lagos',
		destination: 'Wuse, Abuja',
	};
	const haulage = await created('/partner-api/haulage/quotations', shipment, 'quotationId');
	const assignedQuotation = await created(
		'/partner-api/haulage/quotations',
		shipment,
		'quotationId',
	);
	await admin.post(`/haulage/quotations/${assignedQuotation}/quotation`);
	await partnerCall(sandbox, `/partner-api/haulage/quotations/${assignedQuotation}/accept`, {});
	const { assignmentId, tripId } = await admin.post<{ assignmentId: string; tripId: string }>(
		`/haulage/quotations/${assignedQuotation}/assign`,
	);
	return {
		__GO_BULK_REQUEST_IDS__: requests.join(', '),
		__GO_BULK_FIRST_ID__: requests[0],
		__HAUL_QUOTATION_IDS__: haulage,
		__HAUL_FIRST_ID__: haulage,
		__TRIP_IDS__: tripId,
		__TRIP_FIRST_ID__: tripId,
		__ASSIGNMENT_IDS__: assignmentId,
		__ASSIGNMENT_FIRST_ID__: assignmentId,
	};
}

/** The sample the record watches are made from. */
export const CASE_WATCH_ID = WORKFLOW_IDS.supportCaseWatch;

const QUOTE_REQUEST_GETS = '/^\\/partner-api\\/quote-requests\\//';
export const QUOTE_REQUEST_POLL_FAILED =
	/^Could not check quote request \S+: The Partner Logistics API failed \(500\)/;

type PerWatch<T> = Partial<Record<WatchName, T>>;
/** One more execution of every watch. */
const ONE_EACH: PerWatch<number> = { quoteRequest: 1, haulageQuotation: 1, trip: 1, truck: 1 };

/**
 * The scenario every suite runs, one step per test, each asserting what must hold for the
 * watches it was given (the others' steps are left out). Counts are cumulative executions per
 * watch; of each watch's two records, the first moves on from the start, the second later.
 */
export class RecordWatchScenario {
	private readonly count: PerWatch<number> = {};
	private paymentReference = '';

	constructor(
		private readonly polling: PollingStack,
		private readonly watches: RecordWatches,
	) {}

	private id(name: WatchName, index: number): string {
		return this.watches.ids[name][index];
	}

	/** Runs the steps of the watches this scenario has, in order. */
	private async each(steps: PerWatch<() => Promise<unknown>>): Promise<void> {
		for (const name of this.watches.names) await steps[name]?.();
	}

	/**
	 * Waits for `added` more executions per watch (and no more), then expects each watch's newest
	 * to hold one `changed` item of the record and fields given.
	 */
	private async expectMore(
		added: PerWatch<number>,
		newest: PerWatch<[index: number, fields: string[]]> = {},
	): Promise<Record<WatchName, Execution[]>> {
		for (const name of this.watches.names) {
			this.count[name] = (this.count[name] ?? 0) + (added[name] ?? 0);
		}
		const lists = await this.watches.settled(this.count);
		for (const name of this.watches.names) {
			expect([name, lists[name].length]).toEqual([name, this.count[name]]);
			const expected = newest[name];
			if (expected) {
				expect(emitted(lists[name][0])).toEqual([changed(this.id(name, expected[0]), expected[1])]);
			}
		}
		return lists;
	}

	private async operator(path: string, body?: unknown) {
		return await this.watches.operator(path, body);
	}

	private quote = (name: 'quoteRequest' | 'haulageQuotation', index: number) => async () =>
		await this.operator(
			name === 'quoteRequest'
				? `/quote-requests/${this.id(name, index)}/quotation`
				: `/haulage/quotations/${this.id(name, index)}/quotation`,
		);

	private progressTrip = (index: number, status?: string) => async () =>
		await this.operator(`/haulage/trips/${this.id('trip', index)}/progress`, status && { status });

	private moveTruck = (index: number, status?: string) => async () =>
		await this.operator(`/haulage/trucks/${this.id('truck', index)}/move`, status && { status });

	private haulagePath = (index: number, action: string) =>
		`/partner-api/haulage/quotations/${this.id('haulageQuotation', index)}/${action}`;

	private get card() {
		return this.polling.stack.sandbox.info.savedCards.enabled;
	}

	/** Publishing: each watch's first poll learns its records; the unknown ID is reported once. */
	async publishingLearnsAndReportsTheUnknownId(): Promise<Record<WatchName, Execution[]>> {
		await this.watches.createRecords();
		await this.watches.publish();
		const lists = await this.expectMore({ quoteRequest: 1 });
		if (lists.quoteRequest) {
			expect(emitted(lists.quoteRequest[0])).toEqual([
				{
					change: 'notFound',
					recordId: 'qr_does_not_exist',
					changedFields: [],
					record: {},
					message: expect.stringMatching(
						/^Could not check quote request qr_does_not_exist: Not found in your organization \(404\)/,
					),
				},
			]);
		}
		return lists;
	}

	/**
	 * The operator quotes a request and a quotation, a trip starts, a truck reports a position:
	 * one item each, but none for the truck, whose status alone counts; the second of each, none.
	 */
	async operatorMovesOnce(): Promise<Record<WatchName, Execution[]>> {
		await this.each({
			quoteRequest: this.quote('quoteRequest', 0),
			haulageQuotation: this.quote('haulageQuotation', 0),
			trip: this.progressTrip(0),
			truck: this.moveTruck(0),
		});
		const quoted: [number, string[]] = [0, ['status', 'quotation', 'updatedAt']];
		return await this.expectMore(
			{ ...ONE_EACH, truck: 0 },
			{ quoteRequest: quoted, haulageQuotation: quoted, trip: [0, ['status', 'updatedAt']] },
		);
	}

	/** A later change of each: one more item, and the truck's status change its first. */
	async laterChangeOnceMore(): Promise<Record<WatchName, Execution[]>> {
		await this.each({
			quoteRequest: async () => {
				const path = `/partner-api/quote-requests/${this.id('quoteRequest', 0)}/payment`;
				const payment = await this.watches.partner(path, {
					paymentMethod: 'SAVED_CARD',
					paymentMethodId: this.card,
				});
				this.paymentReference = payment.paymentReference as string;
			},
			haulageQuotation: async () => await this.watches.partner(this.haulagePath(0, 'accept'), {}),
			trip: this.progressTrip(0, 'COMPLETED'),
			truck: this.moveTruck(0, 'IN_TRANSIT'),
		});
		return await this.expectMore(ONE_EACH, {
			quoteRequest: [0, ['paymentStatus', 'paymentReference', 'updatedAt']],
			haulageQuotation: [0, ['status', 'updatedAt']],
			trip: [0, ['status', 'updatedAt']],
			truck: [0, ['status']],
		});
	}

	/**
	 * Failed polls lose nothing and repeat nothing: a quote request poll whose every GET gets a 500
	 * fails, and the change it missed comes once with the next; a HAUL quotation poll with one
	 * failing ID emits the other's change now and its own with the next poll.
	 */
	async failedPollsLoseNothing(): Promise<void> {
		// Right after a poll: the faults and the changes are all in place for the next one.
		await this.watches.polls(1, { rightAfter: true });
		const hasHaulage = this.watches.names.includes('haulageQuotation');
		const failing = hasHaulage ? this.id('haulageQuotation', 1) : 'none';
		await this.polling.admin.setFaults({
			failNext: [
				{ status: 500, method: 'GET', path: QUOTE_REQUEST_GETS, times: 3 },
				{ status: 500, method: 'GET', path: `/partner-api/haulage/quotations/${failing}` },
			],
		});
		await this.each({
			quoteRequest: this.quote('quoteRequest', 1),
			haulageQuotation: async () => {
				await this.quote('haulageQuotation', 1)();
				await this.watches.partner(this.haulagePath(0, 'payment'), {
					paymentMethod: 'SAVED_CARD',
					paymentMethodId: this.card,
					paymentStage: 'UPFRONT',
				});
			},
		});
		const lists = await this.expectMore({ quoteRequest: 2, haulageQuotation: 2 });
		await this.polling.admin.setFaults({});
		if (lists.quoteRequest) {
			const [later, failed] = lists.quoteRequest;
			expect([failed.mode, failed.status]).toEqual(['trigger', 'error']);
			expect(failed.data?.resultData.error?.message).toMatch(QUOTE_REQUEST_POLL_FAILED);
			expect(emitted(later)).toEqual([
				changed(this.id('quoteRequest', 1), ['status', 'quotation', 'updatedAt']),
			]);
		}
		if (lists.haulageQuotation) {
			const [later, first] = lists.haulageQuotation;
			expect([first.status, later.status]).toEqual(['success', 'success']);
			const paid = ['paymentStatus', 'paymentReference', 'updatedAt'];
			expect(emitted(first)).toEqual([changed(this.id('haulageQuotation', 0), paid)]);
			expect(emitted(later)).toEqual([changed(failing, ['status', 'quotation', 'updatedAt'])]);
		}
	}

	/** n8n restarts: nothing is emitted again. */
	async restartRepeatsNothing(): Promise<void> {
		await this.polling.restartMain();
		await this.watches.polls(3);
		await this.expectMore({});
	}

	/**
	 * Changes made while n8n is down (long enough for several Poll Times to pass) come once each
	 * when it is back.
	 */
	async changesWhileDownOnce(downSeconds = DOWN_SECONDS): Promise<Record<WatchName, Execution[]>> {
		await this.polling.restartMain(async () => {
			await this.each({
				quoteRequest: async () => await this.operator(`/payments/${this.paymentReference}/settle`),
				haulageQuotation: async () => await this.watches.partner(this.haulagePath(1, 'accept'), {}),
				trip: this.progressTrip(1),
				truck: this.moveTruck(1, 'EN_ROUTE_TO_PICKUP'),
			});
			await sleep(downSeconds * 1000);
		});
		return await this.expectMore(ONE_EACH, {
			quoteRequest: [0, ['paymentStatus', 'updatedAt']],
			haulageQuotation: [1, ['status', 'updatedAt']],
			trip: [1, ['status', 'updatedAt']],
			truck: [1, ['status']],
		});
	}
}

/**
 * The record watch scenario as tests, in order, for a suite's n8n (regular or durable scheduler);
 * `downSeconds` keeps n8n down that long at the restart with changes.
 */
export function recordWatchTests(
	scenario: () => RecordWatchScenario,
	downSeconds = DOWN_SECONDS,
): void {
	it('publishing learns each record; an ID the API does not know is reported once', async () => {
		await scenario().publishingLearnsAndReportsTheUnknownId();
	});

	it("the operator quotes, a trip starts: one item each; a truck's position alone: none", async () => {
		await scenario().operatorMovesOnce();
	});

	it('a later change of each: one item more; unchanged records: none', async () => {
		await scenario().laterChangeOnceMore();
	});

	it('failed polls lose nothing and repeat nothing, whether every ID or one fails', async () => {
		await scenario().failedPollsLoseNothing();
	});

	it('repeats nothing after n8n restarts', async () => {
		await scenario().restartRepeatsNothing();
	});

	it(`changes made while n8n was down for ${downSeconds} s come once each`, async () => {
		await scenario().changesWhileDownOnce(downSeconds);
	});
}
