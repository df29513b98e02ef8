import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { eachConcurrently } from '../shared/concurrency';
import { readListPage, readRecords } from '../shared/records';
import { previewItem, refuseLeftover } from './dryRun';
import { runKeys, type RunKeys } from './idempotency';
import { isReadOnly, itemError, referentOf, requestOf } from './operation';
import type { BodyInput, OperationSpec } from './operation';
import { isGiven } from './problem';
import { parameterReaders } from './parameters';
import { runSession, type ApiSession, type ItemRequest } from './request';

/** What every item of one run shares. */
interface Run {
	spec: OperationSpec;
	api: ApiSession;
	idempotencyKeys: RunKeys | undefined;
	dryRun: boolean;
	node: INode;
}

/** Items run Concurrency at once; a cancel or a failure without Continue On Fail starts no more. */
export async function runOperation(
	context: IExecuteFunctions,
	resource: string,
	spec: OperationSpec,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const mutating = !isReadOnly(spec);
	const api = await runSession(context, { capability: spec.capability, mutating });
	const { baseUrl } = api.settings.transport;
	const run: Run = {
		spec,
		api,
		idempotencyKeys: mutating ? runKeys(context, `${resource}.${spec.value}`, baseUrl) : undefined,
		dryRun: context.getNodeParameter('options.dryRun', 0, false) === true,
		node: context.getNode(),
	};
	const readers = parameterReaders(context);
	const signal = context.getExecutionCancelSignal();
	const continueOnFail = context.continueOnFail();
	const results: INodeExecutionData[][] = [];
	let firstError: ReturnType<typeof itemError> | undefined;
	await eachConcurrently(
		items.length,
		api.settings.pacer.concurrency,
		async (itemIndex) => {
			const pairedItem = { item: itemIndex };
			const input: BodyInput = { read: readers(itemIndex), item: items[itemIndex].json };
			try {
				const records = await runItem(run, itemIndex, input);
				results[itemIndex] = records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				const failed = itemError(spec, input, itemIndex, run.node, error);
				if (!continueOnFail) {
					firstError ??= failed;
					return;
				}
				results[itemIndex] = [{ json: { error: failed.message }, error: failed, pairedItem }];
			}
		},
		{ beforeEach: turnTaker(), stop: () => !!firstError || !!signal?.aborted },
	);
	if (firstError) throw firstError;
	if (run.dryRun)
		context.addExecutionHints({
			message:
				'Dry Run: nothing was sent to the API. Each item is the request a real run would send; turn off Options › Dry Run to send.',
			type: 'warning',
			location: 'outputPane',
		});
	if (!signal?.aborted) run.idempotencyKeys?.finished();
	return [results.flat()];
}

/** One item: its request(s), and the records its answer(s) hold. */
async function runItem(run: Run, itemIndex: number, input: BodyInput): Promise<IDataObject[]> {
	// A preview reaching a real run (left in Dry Run upstream, pinned, copied) is never sent.
	if (!run.dryRun) refuseLeftover(run.node, itemIndex, { item: input.item });
	const request = prepare(run, input, itemIndex);
	// The one place a dry run parts from a real one: everything above wrote nothing.
	if (run.dryRun) {
		const given = givenKey(input) !== '';
		return [await previewItem(run, request, { node: run.node.name, item: input.item, given })];
	}
	refuseLeftover(run.node, itemIndex, { request });
	if (run.spec.list) return await listRecords(run, request, input);
	const read = async () => await run.api.read(request, 'a JSON record');
	const { spec, idempotencyKeys: keys } = run;
	const { idempotencyKey: key, body: sent = {} } = request;
	const keyed = keys && key !== undefined;
	if (keyed) request.idempotencyKeyHeldForOtherBody = keys.sending(key, request.body);
	// A 2xx answer (a failure throws): its records, shaped by the operation.
	const { response, body } = await (keyed ? keys.send(key, read) : read());
	const records = readRecords(body);
	if (spec.requires && !records.every((record) => isGiven(record[spec.requires!]))) {
		throw run.api.unusable(
			response,
			`The API answered ${response.status} without a ${spec.requires}. Check that the credential's Base URL points at the Partner Logistics API.`,
			'This is not a usable answer, so nothing is output for this item.',
		);
	}
	return spec.output ? records.map((record) => spec.output!(record, sent)) : records;
}

/** The item's request (`requestOf`) and its Idempotency-Key. */
function prepare({ spec, idempotencyKeys }: Run, input: BodyInput, itemIndex: number): ItemRequest {
	const request: ItemRequest = { ...requestOf(spec, input), itemIndex };
	if (!idempotencyKeys) return request;
	const referent = referentOf(spec, input, request.body);
	const given = givenKey(input);
	request.idempotencyKey = given || idempotencyKeys.keyOf(itemIndex, referent?.values);
	if (referent && !given) request.referent = referent.label;
	return request;
}

/** Options › Idempotency Key (e.g. from an order ID), or '' for the derived default. */
function givenKey(input: BodyInput): string {
	const given = input.read('options.idempotencyKey');
	return typeof given === 'string' || typeof given === 'number' ? String(given).trim() : '';
}

/** A list operation: one page, or every page while the API reveals a cursor (Return All). */
async function listRecords(run: Run, request: ItemRequest, input: BodyInput) {
	const returnAll = input.read('returnAll') === true;
	const limit = Number(input.read('limit'));
	const all: IDataObject[] = [];
	const seen = new Set<string>();
	let qs = request.qs;
	// A safety stop at 1,000 pages, should an API keep handing out cursors.
	for (let page = 0; page < 1000; page++) {
		const { body } = await run.api.read({ ...request, qs }, 'a JSON list');
		const { records, cursor } = readListPage(body);
		all.push(...records);
		if (!returnAll || cursor === undefined || seen.has(cursor)) break;
		seen.add(cursor);
		qs = { ...(qs ?? {}), cursor };
	}
	return !returnAll && Number.isInteger(limit) && limit > 0 ? all.slice(0, limit) : all;
}

/** Resolves at once, or after a turn of the event loop (the editor's) once this one ran 10 ms. */
function turnTaker(): () => Promise<void> {
	let turnStartedAt = Date.now();
	return async () => {
		if (Date.now() - turnStartedAt < 10) return;
		await sleep(0);
		turnStartedAt = Date.now();
	};
}
