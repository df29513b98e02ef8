import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { buildBody, type BodyInput } from './body';
import { pathOf } from './path';
import { ProblemError } from '../problem';
import { describeProblem, labelsOf, type Labels } from './labels';
import { pathIds, type OperationSpec } from './spec';

/** How each operation's form labels its fields, read once per operation. */
const labelsBySpec = new WeakMap<OperationSpec, Labels>();

function labelsFor(spec: OperationSpec): Labels {
	let labels = labelsBySpec.get(spec);
	if (!labels) labelsBySpec.set(spec, (labels = labelsOf(spec.fields ?? [])));
	return labels;
}

/** The item's request as its operation declares it, before its key; a problem throws (itemError). */
export function requestOf(spec: OperationSpec, input: BodyInput) {
	return {
		method: spec.method,
		url: pathOf(spec.path, input.read),
		...(spec.body && { body: buildBody(input, spec.body, spec.check) }),
		...(spec.query && { qs: spec.query(input.read) }),
	};
}

/** The item's error for what went wrong reading it: a problem names the field as the form does. */
export function itemError(
	spec: OperationSpec,
	input: BodyInput,
	itemIndex: number,
	node: INode,
	error: unknown,
): NodeOperationError {
	if (!(error instanceof ProblemError)) {
		return new NodeOperationError(node, error as Error, { itemIndex });
	}
	const reference = spec.reference?.(input);
	const message = describeProblem(error.problem, labelsFor(spec), itemIndex, reference);
	const { hint } = error.problem;
	return new NodeOperationError(node, message, {
		itemIndex,
		description: `${hint ? `${hint} ` : ''}Nothing was sent to the API for this item. Correct the value and run again.`,
	});
}

/**
 * What the item's action acts on (OperationSpec.referent) as sent, so its key names what the API is
 * asked: a path id as read, a body field after Extra Body Fields; and its label ("Quote ID qt_7").
 */
export function referentOf(
	spec: OperationSpec,
	input: BodyInput,
	body: IDataObject | undefined,
): { values: string[]; label: string } | undefined {
	if (!spec.referent) return undefined;
	const inPath = pathIds(spec.path);
	const labels = labelsFor(spec);
	const named = spec.referent.map((name) => {
		const value = inPath.includes(name) ? input.read(name) : body?.[name];
		return { name, value: value === undefined || value === null ? '' : String(value).trim() };
	});
	return {
		values: named.map(({ value }) => value),
		label: named
			.filter(({ value }) => value !== '')
			.map(({ name, value }) => `${labels.get(name) ?? name} ${value}`)
			.join(', '),
	};
}

/** What a ProblemError thrown reading `fields` (a poll's, no item) says; other errors: nothing. */
export function problemMessage(error: unknown, fields: INodeProperties[] = []): string | undefined {
	if (!(error instanceof ProblemError)) return undefined;
	return describeProblem(error.problem, labelsOf(fields), undefined);
}
