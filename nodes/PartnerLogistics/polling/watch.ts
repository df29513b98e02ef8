import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from '../pipeline/operation';

/** Reads one of the trigger's parameters (its value as saved, expressions resolved). */
export type PollParameterReader = (name: string) => unknown;

/**
 * One thing the polling trigger can watch, declared as an operation is: the operation whose GET it
 * reuses, how a record is told apart, its own fields. `polling/` runs every watch alike.
 */
export interface WatchSpec {
	/** Trigger On as the picker shows it; shortened, the canvas subtitle and node panel action. */
	name: string;
	/** Trigger On's value: saved in workflows, so never renamed. */
	value: string;
	description: string;
	/** For messages: "quote request", "quote requests". */
	record: string;
	records: string;
	/** The operation whose GET the watch sends: a list once per poll, a record once per listed ID. */
	operation: OperationSpec;
	/** A list's records by an ID field (a parameter), a record by the listed ID it was read by. */
	identity: { idField: INodeProperties } | { listedIds: INodeProperties };
	/** A list watch's query, from the trigger's parameters. */
	query?: (read: PollParameterReader) => IDataObject;
	/** What narrows the records, for `watching`: changing it starts over (Status; not Limit). */
	narrowedBy?: (read: PollParameterReader) => string;
	/** Further fields of the watch, e.g. the Status and Limit of a list. */
	fields?: INodeProperties[];
}

/** Text of a parameter, trimmed; empty when not set. */
export const textOf = (value: unknown): string => String(value ?? '').trim();

/** A record watch's identity: the parameter listing the IDs it reads, one GET each per poll. */
export function byListedIds(
	name: string,
	displayName: string,
	what: string,
	example: string,
	hint: string,
): { listedIds: INodeProperties } {
	return {
		listedIds: {
			displayName,
			name,
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${example}`,
			description: `The ${what} to look up on each poll, separated by commas, spaces or new lines; an expression may also give a list`,
			hint: `${hint} An ID the API answers 404 for is reported once as an item with change "notFound"; the others go on.`,
		},
	};
}
