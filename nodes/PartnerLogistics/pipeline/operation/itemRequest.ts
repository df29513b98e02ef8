import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fitMessage, MAX_MESSAGE_CHARS } from '../../shared/message';
import { fail, jsonObject, pathIdProblem, ProblemError, type Problem } from '../problem';
import { describeProblem, labelsOf, type Labels } from './labels';
import { pathIds, type BodyInput, type OperationSpec } from './spec';

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
		...(spec.body && { body: bodyOf(input, spec.body, spec.check) }),
		...(spec.query && { qs: spec.query(input.read) }),
	};
}

/**
 * `/cases/{caseId}/close` with each id read, trimmed, checked (a bad one throws a ProblemError) and
 * URL-encoded, so an id can only name its own record (`a/b` stays one segment: `a%2Fb`).
 */
export function pathOf(path: string, read: (name: string) => unknown): string {
	let url = path;
	for (const name of pathIds(path)) {
		const value = read(name);
		const problem = pathIdProblem(name, value);
		if (problem) fail(problem);
		url = url.replace(`{${name}}`, encodeURIComponent(String(value).trim()));
	}
	return url;
}

/**
 * The body of one item: what the operation builds, plus Extra Body Fields, which may add fields
 * but not change a named one (a booking payment never becomes CREDIT through them); checked whole.
 */
function bodyOf(
	input: BodyInput,
	build: Required<OperationSpec>['body'],
	check: OperationSpec['check'],
): IDataObject {
	const additional = (input.read('additionalFields') ?? {}) as IDataObject;
	const extra = jsonObject(additional.extraBody, 'extraBody', {});
	const named = build(input);
	const body = { ...extra, ...named };
	const problem = conflict(extra, named) ?? check?.(body, input);
	if (problem) fail(problem);
	return body;
}

function conflict(extra: IDataObject, named: IDataObject): Problem | undefined {
	const field = Object.keys(extra).find(
		(name) => name in named && JSON.stringify(extra[name]) !== JSON.stringify(named[name]),
	);
	if (field === undefined) return undefined;
	return {
		field: `extraBody.${field}`,
		value: extra[field],
		rule: `conflicts with the node's value (${JSON.stringify(named[field])})`,
		hint: 'Remove it from Extra Body Fields.',
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
	const said = (reference?: string) =>
		describeProblem(error.problem, labelsFor(spec), itemIndex, reference);
	// Too long a message leaves out the item's reference first, then goes on in the description.
	const full = said(spec.reference?.(input));
	const { hint } = error.problem;
	const { message, description } = fitMessage(
		full.length > MAX_MESSAGE_CHARS ? said() : full,
		`${hint ? `${hint} ` : ''}Nothing was sent to the API for this item. Correct the value and run again.`,
	);
	return new NodeOperationError(node, message, { itemIndex, description });
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
