import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { problemMessage } from '../pipeline/operation';
import { pathIdProblem } from '../pipeline/problem';
import type { CompareOptions } from './changes';
import { DEFAULT_POLL_OPTIONS } from './description';
import { type PollParameterReader, textOf, type WatchSpec } from './watch';
import { WATCHES } from './watches';

/** What one poll is to do, read from the trigger's parameters before anything is sent. */
export interface WatchSettings {
	watch: WatchSpec;
	/** A list watch's ID field and query (its numbers checked), or a record watch's listed IDs. */
	idField?: string;
	query?: IDataObject;
	ids?: string[];
	compare: CompareOptions;
}

type Fail = (message: string, description?: string) => NodeOperationError;

/** The chosen watch's parameters; one that cannot work stops the poll, named, before a request. */
export function readWatchSettings(context: IPollFunctions): WatchSettings {
	const fail: Fail = (message, description) =>
		new NodeOperationError(context.getNode(), message, { description });
	const read: PollParameterReader = (name) => context.getNodeParameter(name, undefined);
	const watch = WATCHES.find((spec) => spec.value === read('watch'));
	if (!watch) {
		throw fail(
			'This version of the Partner Logistics Polling Trigger cannot watch the Trigger On chosen',
			`Got ${JSON.stringify(read('watch'))}. Open the trigger and choose Trigger On again.`,
		);
	}
	const options = (read('options') ?? {}) as IDataObject;
	const maxRecords = options.maxRecords ?? DEFAULT_POLL_OPTIONS.maxRecords;
	if (typeof maxRecords !== 'number' || !Number.isInteger(maxRecords) || maxRecords < 1) {
		throw fail(
			'Options › Max Records Remembered (maxRecords) must be a whole number of at least 1',
			`Got ${JSON.stringify(maxRecords)}.`,
		);
	}
	const fields = changeFields(read, fail);
	const parts = [watch.value, watch.narrowedBy?.(read)];
	let target: Pick<WatchSettings, 'idField' | 'ids'>;
	if ('idField' in watch.identity) {
		const { name, displayName } = watch.identity.idField;
		const idField = textOf(read(name));
		if (idField === '') {
			throw fail(
				`${displayName} (${name}) is empty`,
				'Name the field of a record that identifies it.',
			);
		}
		target = { idField };
		parts.push(`id=${idField}`);
	} else {
		target = { ids: ids(read, watch, watch.identity.listedIds, maxRecords, fail) };
	}
	if (fields !== undefined) parts.push(`fields=${fields.join(',')}`);
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
	const compare = {
		maxRecords,
		emitCurrentState: options.emitCurrentState === true,
		includePrevious: options.includePrevious === true,
		fields,
		watching: parts.filter((part) => part !== undefined).join(' '),
	};
	return { watch, ...target, query, compare };
}

/** Changes That Count: undefined for any field, else the fields named, sorted, each once. */
function changeFields(read: PollParameterReader, fail: Fail): string[] | undefined {
	if (read('changesThatCount') !== 'namedFields') return undefined;
	const given = read('changeFields');
	const fields = textOf(given)
		.split(',')
		.map((field) => field.trim())
		.filter((field) => field !== '');
	if (fields.length === 0) {
		throw fail(
			'Field Names (changeFields) names no field',
			`Got ${JSON.stringify(given ?? '')}. Name the fields whose changes count, separated by commas, or set Changes That Count to Any Field.`,
		);
	}
	return [...new Set(fields)].sort();
}

/** A record watch's IDs; one leaving its path (`..`), or too many to remember, stops the poll. */
function ids(
	read: PollParameterReader,
	watch: WatchSpec,
	{ name, displayName }: INodeProperties,
	maxRecords: number,
	fail: Fail,
) {
	const listed = listedIds(read(name));
	for (const [index, id] of listed.entries()) {
		const problem = pathIdProblem(name, id);
		if (problem) {
			throw fail(
				`${displayName} (${name}): ID ${index + 1} of the list cannot be "${id}"`,
				`Nothing was sent to the API. An ID ${problem.rule}. Correct the list and the next poll reads it.`,
			);
		}
	}
	if (listed.length > maxRecords) {
		throw fail(
			`${displayName} lists ${listed.length} ${watch.records}, more than Options › Max Records Remembered (${maxRecords})`,
			'Nothing was sent to the API, emitted or remembered. Raise Max Records Remembered, or list fewer.',
		);
	}
	return listed;
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
