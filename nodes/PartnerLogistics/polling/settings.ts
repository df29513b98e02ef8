import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { problemMessage } from '../pipeline/operation';
import { pathIdProblem } from '../pipeline/problem';
import type { CompareOptions } from './changes';
import { DEFAULT_POLL_OPTIONS } from './description';
import { listedIds } from './identity';
import { type PollParameterReader, textOf, type WatchSpec } from './watch';
import { WATCHES } from './watches';

/** What one poll is to do, read from the trigger's parameters before anything is sent. */
export interface WatchSettings {
	watch: WatchSpec;
	/** A list watch's ID field. */
	idField?: string;
	/** A record watch's listed IDs, checked: none can leave its path. */
	ids?: string[];
	/** A list watch's query, its numbers checked. */
	query?: IDataObject;
	/** How this poll's records compare with the memory, and what the memory belongs to. */
	compare: CompareOptions;
}

/** The chosen watch's parameters; one that cannot work stops the poll, named, before a request. */
export function readWatchSettings(context: IPollFunctions): WatchSettings {
	const watch = selectedWatch(context);
	const read: PollParameterReader = (name) => context.getNodeParameter(name, undefined);
	const options = readOptions(context);
	const fields = changeFields(context);
	const target =
		'idField' in watch.identity
			? { idField: idField(context, watch.identity.idField) }
			: { ids: ids(context, watch, options.maxRecords) };
	const parts = [watch.value, watch.narrowedBy?.(read)];
	if (target.idField !== undefined) parts.push(`id=${target.idField}`);
	if (fields !== undefined) parts.push(`fields=${fields.join(',')}`);
	const watching = parts.filter((part) => part !== undefined).join(' ');
	const query = watchQuery(context, watch, read);
	return { watch, ...target, query, compare: { ...options, fields, watching } };
}

/** A list watch's query; a value the API cannot take (a Limit of -1) stops the poll, named. */
function watchQuery(context: IPollFunctions, watch: WatchSpec, read: PollParameterReader) {
	try {
		return watch.query?.(read);
	} catch (error) {
		const message = problemMessage(error, watch.fields);
		if (message === undefined) throw new NodeOperationError(context.getNode(), error as Error);
		throw nodeError(
			context,
			message,
			'Nothing was sent to the API. Correct it and the next poll reads it.',
		);
	}
}

function selectedWatch(context: IPollFunctions): WatchSpec {
	const value = context.getNodeParameter('watch') as string;
	const watch = WATCHES.find((spec) => spec.value === value);
	if (watch) return watch;
	throw nodeError(
		context,
		`This version of the Partner Logistics Polling Trigger cannot watch "${value}"`,
		'Open the trigger and choose Trigger On again.',
	);
}

function nodeError(context: IPollFunctions, message: string, description: string) {
	return new NodeOperationError(context.getNode(), message, { description });
}

/** The trigger's Options; a value out of range stops the poll with the rule. */
function readOptions(context: IPollFunctions) {
	const options = (context.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const maxRecords = options.maxRecords ?? DEFAULT_POLL_OPTIONS.maxRecords;
	if (typeof maxRecords !== 'number' || !Number.isInteger(maxRecords) || maxRecords < 1) {
		const message = `Options › Max Records Remembered (maxRecords) must be a whole number of at least 1, got ${JSON.stringify(maxRecords)}`;
		throw new NodeOperationError(context.getNode(), message);
	}
	return {
		maxRecords,
		emitCurrentState: options.emitCurrentState === true,
		includePrevious: options.includePrevious === true,
	};
}

/** Changes That Count: undefined for any field, else the fields named, sorted, each once. */
function changeFields(context: IPollFunctions): string[] | undefined {
	if (context.getNodeParameter('changesThatCount', 'anyField') !== 'namedFields') return undefined;
	const given = context.getNodeParameter('changeFields', '');
	const fields = textOf(given)
		.split(',')
		.map((field) => field.trim())
		.filter((field) => field !== '');
	if (fields.length === 0) {
		throw nodeError(
			context,
			`Field Names (changeFields) names no field, got ${JSON.stringify(given ?? '')}`,
			'Name the fields whose changes count, separated by commas, or set Changes That Count to Any Field.',
		);
	}
	return [...new Set(fields)].sort();
}

function idField(context: IPollFunctions, { name, displayName }: INodeProperties) {
	const field = textOf(context.getNodeParameter(name, ''));
	if (field === '') {
		throw nodeError(
			context,
			`${displayName} (${name}) is empty`,
			'Name the field of a record that identifies it.',
		);
	}
	return field;
}

/** A record watch's IDs; one leaving its path (`..`), or too many to remember, stops the poll. */
function ids(context: IPollFunctions, watch: WatchSpec, maxRecords: number): string[] {
	const { name, displayName } = (watch.identity as { listedIds: INodeProperties }).listedIds;
	const listed = listedIds(context.getNodeParameter(name, ''));
	for (const [index, id] of listed.entries()) {
		const problem = pathIdProblem(name, id);
		if (problem) {
			throw nodeError(
				context,
				`${displayName} (${name}): ID ${index + 1} of the list ${problem.rule}, got "${id}"`,
				'Nothing was sent to the API. Correct the list and the next poll reads it.',
			);
		}
	}
	if (listed.length > maxRecords) {
		throw nodeError(
			context,
			`${displayName} lists ${listed.length} ${watch.records}, more than Options › Max Records Remembered (${maxRecords})`,
			'Nothing was sent to the API, emitted or remembered. Raise Max Records Remembered, or list fewer.',
		);
	}
	return listed;
}
