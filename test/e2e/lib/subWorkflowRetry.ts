import { postsTo, type LoggedRequest } from './assertions';
import {
	BOOKINGS,
	ExecutionRetryScenario,
	expectBookedAgainButTheRefused,
	ORDERS,
	QUOTE,
	refuseOneBooking,
} from './executionRetry';
import { type Execution, type N8nClient, nodeOutput } from './n8nApi';
import type { SandboxAdmin } from './sandbox';

// A parent workflow quotes five orders and hands the quotes to a sub-workflow (Execute Workflow,
// waiting for it) whose Booking › Create books them; the API refuses one booking (400) and
// replays that refusal for its key, as Stripe does. The user retries the failed parent: n8n runs
// the sub-workflow again as a new execution, whose node has no memory of the first. Against an
// API that would book a quote again under any new key (the sandbox's repeat-actions mode), each
// quote must still be booked exactly once. The regular suite (subworkflowRetry.e2e.ts) and the
// queue suite (06subworkflowRetry.queue.ts) run it; only how the parent starts differs.

/** The parent's Execute Workflow node, and the sub-workflow's booking node. */
export const CALL = 'Book in the sub-workflow';
export const BOOK_IN_CHILD = 'Book each quote';

const quoteIdOf = (request: LoggedRequest) => (request.body as { quoteId?: string }).quoteId;

/** What one sub-workflow execution was handed by n8n (its saved data, read back). */
export interface ChildExecution extends Execution {
	data?: Execution['data'] & { parentExecution?: { executionId: string; workflowId: string } };
}

export interface SubWorkflowRetry {
	failed: { parent: Execution; child: ChildExecution; requests: LoggedRequest[] };
	retried: { parent: Execution; child: ChildExecution; requests: LoggedRequest[] };
	quoteIds: string[];
	refused: LoggedRequest;
}

export class SubWorkflowRetryScenario {
	private readonly retry: ExecutionRetryScenario;
	private repeatActionsBefore = false;

	constructor(
		private readonly admin: SandboxAdmin,
		private readonly client: N8nClient,
		private readonly childWorkflowId: string,
		start: () => Promise<Execution>,
	) {
		this.retry = new ExecutionRetryScenario(admin, client, start);
	}

	/** Replay-refusals and repeat-actions on for the file's runs; `restore` puts them back. */
	async prepare(): Promise<void> {
		const state = await this.admin.get<{ settings: { repeatActions: boolean } }>('/state');
		this.repeatActionsBefore = state.settings.repeatActions;
		await this.retry.prepare();
		await this.admin.setRepeatActions(true);
	}

	async restore(): Promise<void> {
		await this.retry.restore();
		await this.admin.setRepeatActions(this.repeatActionsBefore);
	}

	/** The parent fails on one refused booking, then n8n's Retry of it (either kind). */
	async failAndRetry(loadWorkflow: boolean): Promise<SubWorkflowRetry> {
		const childrenBefore = (await this.client.executions(this.childWorkflowId)).length;
		const failed = await this.retry.run(refuseOneBooking);
		const failedChild = await this.newChild(childrenBefore);
		const quoteIds = nodeOutput(failed.execution, QUOTE).map((quote) => quote.quoteId as string);
		const retried = await this.retry.run({}, () =>
			this.client.retryExecution(failed.execution.id, loadWorkflow),
		);
		return {
			failed: { parent: failed.execution, child: failedChild, requests: failed.requests },
			retried: {
				parent: retried.execution,
				child: await this.newChild(childrenBefore + 1),
				requests: retried.requests,
			},
			quoteIds,
			refused: postsTo(failed.requests, BOOKINGS).find((post) => post.status === 400)!,
		};
	}

	/** The sandbox's bookings of these quotes. */
	async bookingsOf(quoteIds: string[]) {
		const { bookings } = await this.admin.stateOfOrgA();
		return bookings.filter((booking) => quoteIds.includes(booking.quoteId as string));
	}

	/** The newest sub-workflow execution, once there are more than `before`. */
	private async newChild(before: number): Promise<ChildExecution> {
		const children = await this.client.executions(this.childWorkflowId);
		if (children.length !== before + 1) {
			throw new Error(`expected ${before + 1} sub-workflow executions, found ${children.length}`);
		}
		return (await this.client.execution(children[0].id)) as ChildExecution;
	}
}

/** The first run: the sub-workflow failed on the refused booking, and so did the parent. */
export function expectFailedInTheChild({ failed, quoteIds, refused }: SubWorkflowRetry) {
	expect(failed.parent.status).toBe('error');
	// n8n fails the parent at its Execute Workflow node with the sub-workflow's own error.
	expect(failed.parent.data?.resultData.lastNodeExecuted).toBe(CALL);
	expect(failed.parent.data?.resultData.error).toMatchObject({
		message: expect.stringMatching(/^The API refused the request as invalid \(400\)/),
	});
	expect(failed.child.status).toBe('error');
	expect(failed.child.data?.resultData.error).toMatchObject({
		node: { name: BOOK_IN_CHILD },
		message: expect.stringMatching(/^The API refused the request as invalid \(400\)/),
	});
	expect(nodeOutput(failed.parent, QUOTE).map((quote) => quote.externalReference)).toEqual(ORDERS);
	const posts = postsTo(failed.requests, BOOKINGS);
	expect(posts.map((post) => post.status).sort()).toEqual([201, 201, 201, 201, 400]);
	expect(posts.map(quoteIdOf).sort()).toEqual([...quoteIds].sort());
	expect(quoteIds).toContain(quoteIdOf(refused));
}

/**
 * The retried parent ran the sub-workflow again as a new execution, which n8n hands nothing
 * that ties it to the first: its parent is the retry (a new id), not the failed execution.
 */
export function expectNewChildOfTheRetry({ failed, retried }: SubWorkflowRetry) {
	expect(retried.parent).toMatchObject({
		status: 'success',
		mode: 'retry',
		retryOf: failed.parent.id,
	});
	expect(retried.child.id).not.toBe(failed.child.id);
	expect(retried.child.mode).toBe(failed.child.mode);
	expect(retried.child.retryOf ?? null).toBeNull();
	expect(failed.child.data?.parentExecution?.executionId).toBe(failed.parent.id);
	expect(retried.child.data?.parentExecution?.executionId).toBe(retried.parent.id);
}

/**
 * Each quote booked exactly once, although the API would book it again under any new key; the
 * refused one booked after the fix; no 409; every item out of the retried parent.
 */
export async function expectEachQuoteBookedOnce(
	scenario: SubWorkflowRetry,
	retry: SubWorkflowRetryScenario,
) {
	const { failed, retried, quoteIds, refused } = scenario;
	const stored = await retry.bookingsOf(quoteIds);
	expect(stored.map((booking) => booking.quoteId).sort()).toEqual([...quoteIds].sort());

	const posts = postsTo(retried.requests, BOOKINGS);
	const firstPosts = postsTo(failed.requests, BOOKINGS);
	expectBookedAgainButTheRefused(firstPosts, posts, refused, quoteIds);
	expect([...firstPosts, ...posts].filter((post) => post.status === 409)).toEqual([]);

	const out = nodeOutput(retried.parent, CALL);
	expect(out.map((booking) => booking.quoteId)).toEqual(quoteIds);
	expect(out.map((booking) => booking.bookingId).sort()).toEqual(
		stored.map((booking) => booking.bookingId).sort(),
	);
}
