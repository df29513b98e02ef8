import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { problemMessage } from '../pipeline/operation';
import { pathIdProblem } from '../pipeline/problem';
import type { CompareOptions } from './changes';
import { DEFAULT_POLL_OPTIONS } from './description';
import { type PollParameterReader, textOf, WATCHES } from './watches';

/** What one poll is to do: a list watch's ID field and query, or a record watch's listed IDs. */
export type WatchSettings = ReturnType<typeof readWatchSettings>;

/** The chosen watch's parameters; one that cannot work stops the poll, named, before a request. */
export function readWatchSettings(context: IPollFunctions) {
	const fail = (message: string, description: string) =>
		new NodeOperationError(context.getNode(), message, { description });
	const read: PollParameterReader = (name) => context.getNodeParameter(name, undefined);
	const watch = WATCHES.find((spec) => spec.value === read('watch'));
	if (!watch)
		throw fail(
			'This version of the Partner Logistics Polling Trigger cannot watch the Trigger On chosen',
			`Got ${JSON.stringify(read('watch'))}. Open the trigger and choose Trigger On again.`,
		);
	const options = (read('options') ?? {}) as IDataObject;
	const maxRecords = options.maxRecords ?? DEFAULT_POLL_OPTIONS.maxRecords;
	if (typeof maxRecords !== 'number' || !Number.isInteger(maxRecords) || maxRecords < 1)
		throw fail(
			'Options › Max Records Remembered (maxRecords) must be a whole number of at least 1',
			`Got ${JSON.stringify(maxRecords)}.`,
		);
	// Changes That Count: any field (undefined), or the fields named, sorted, each once.
	let fields: string[] | undefined;
	if (read('changesThatCount') === 'namedFields') {
		const given = read('changeFields');
		fields = [...new Set(textOf(given).split(/\s*,\s*/))].filter(Boolean).sort();
		if (fields.length === 0)
			throw fail(
				'Field Names (changeFields) names no field',
				`Got ${JSON.stringify(given ?? '')}. Name the fields whose changes count, separated by commas, or set Changes That Count to Any Field.`,
			);
	}
	const { name, displayName } = watch.identity;
	const idField = watch.operation.list ? textOf(read(name)) : undefined;
	if (idField === '')
		throw fail(
			`${displayName} (${name}) is empty`,
			'Name the field of a record that identifies it.',
		);
	// A record watch's IDs: one leaving its path (`..`), or too many to remember, stops the poll.
	const ids = watch.operation.list ? undefined : listedIds(read(name));
	for (const [index, id] of (ids ?? []).entries()) {
		const problem = pathIdProblem(name, id);
		if (problem)
			throw fail(
				`${displayName} (${name}): ID ${index + 1} of the list cannot be "${id}"`,
				`Nothing was sent to the API. An ID ${problem.rule}. Correct the list and the next poll reads it.`,
			);
	}
	if (ids && ids.length > maxRecords)
		throw fail(
			`${displayName} lists ${ids.length} ${watch.records}, more than Options › Max Records Remembered (${maxRecords})`,
			'Nothing was sent to the API, emitted or remembered. Raise Max Records Remembered, or list fewer.',
		);
	let query: IDataObject | undefined;
	try {
		query = watch.query?.(read);
	} catch (error) {
		// A value the API cannot take, e.g. a Limit of -1.
		throw fail(
			problemMessage(error, watch.fields) ?? String(error),
			'Nothing was sent to the API. Correct it and the next poll reads it.',
		);
	}
	const watching = [
		watch.value,
		watch.narrowedBy?.(read),
		idField && `id=${idField}`,
		fields && `fields=${fields.join(',')}`,
	];
	const compare: CompareOptions = {
		maxRecords,
		emitCurrentState: options.emitCurrentState === true,
		includePrevious: options.includePrevious === true,
		fields,
		watching: watching.filter(Boolean).join(' '),
	};
	return { watch, idField, ids, query, compare };
}

/** The IDs listed: a list (an expression) or text split on commas, semicolons, spaces; unique. */
export function listedIds(value: unknown): string[] {
	const parts: unknown[] = Array.isArray(value)
		? value.flat()
		: typeof value === 'string' || typeof value === 'number'
			? String(value).split(/[\s,;]+/)
			: [];
	const ids = parts
		.filter((part) => typeof part === 'string' || typeof part === 'number')
		.map((part) => String(part).trim())
		.filter((part) => part !== '');
	return [...new Set(ids)];
}
