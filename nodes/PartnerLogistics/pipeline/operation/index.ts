import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fitMessage, MAX_MESSAGE_CHARS } from '../../shared/message';
import { fail, HIDDEN, isGiven, jsonObject, pathIdProblem, ProblemError } from '../problem';
import type { Problem } from '../problem';
import type { BodyInput, OperationSpec } from './spec';

// What an operation declares (form, request, answer), and the item's request and error it makes.
export { isReadOnly, selectedOperation } from './spec';
export type { BodyInput, OperationSpec, ResourceSpec } from './spec';

/** How each operation's form labels its fields, read once per operation. */
const labelsBySpec = new WeakMap<OperationSpec, Labels>();
const labelsFor = (spec: OperationSpec): Labels =>
	labelsBySpec.get(spec) ?? labelsBySpec.set(spec, labelsOf(spec.fields ?? [])).get(spec)!;

/** The item's request as its operation declares it, before its key; a problem throws (itemError). */
export function requestOf(spec: OperationSpec, input: BodyInput) {
	return {
		method: spec.method,
		url: pathOf(spec.path, input.read),
		...(spec.body && { body: bodyOf(spec, input) }),
		...(spec.query && { qs: spec.query(input.read) }),
	};
}

/** Each `{id}` read, trimmed, checked (or thrown), URL-encoded: `a/b` is one segment, `a%2Fb`. */
export const pathOf = (path: string, read: (name: string) => unknown): string =>
	path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = read(name);
		const problem = pathIdProblem(name, value);
		if (problem) fail(problem);
		return encodeURIComponent(String(value).trim());
	});

/**
 * The body of one item: what the operation builds, plus Extra Body Fields, which may add fields
 * but not change a named one (a booking payment never becomes CREDIT through them); checked whole.
 */
function bodyOf(spec: OperationSpec, input: BodyInput): IDataObject {
	const additional = (input.read('additionalFields') ?? {}) as IDataObject;
	const extra = jsonObject(additional.extraBody, 'extraBody', {});
	const named = spec.body!(input);
	const body = { ...extra, ...named };
	const same = (name: string) => JSON.stringify(extra[name]) === JSON.stringify(named[name]);
	const field = Object.keys(extra).find((name) => name in named && !same(name));
	if (field !== undefined) {
		fail({
			field: `extraBody.${field}`,
			value: extra[field],
			rule: `conflicts with the node's value (${JSON.stringify(named[field])})`,
			hint: 'Remove it from Extra Body Fields.',
		});
	}
	const problem = spec.check?.(body, input);
	if (problem) fail(problem);
	return body;
}

/** The item's error, whatever was thrown: a problem names the field as the form does. */
export function itemError(
	spec: OperationSpec,
	input: BodyInput,
	itemIndex: number,
	node: INode,
	error: unknown,
): NodeOperationError | NodeApiError {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
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
	const labels = labelsFor(spec);
	const named = spec.referent.map((name) => {
		const value = spec.path.includes(`{${name}}`) ? input.read(name) : body?.[name];
		return { name, value: isGiven(value) ? String(value).trim() : '' };
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

/** Field labels as the editor shows them, by API name, from an operation's own form. */
type Labels = Map<string, string>;

/** The labels of a form's fields, in collections too, so a message names a field as shown. */
function labelsOf(fields: INodeProperties[], labels: Labels = new Map()): Labels {
	for (const field of fields) {
		if (field.type !== 'notice' && !labels.has(field.name))
			labels.set(field.name, field.displayName);
		for (const option of field.options ?? []) {
			if ('values' in option) labelsOf(option.values, labels);
			else if ('displayName' in option && 'type' in option) labelsOf([option], labels);
		}
	}
	return labels;
}

/**
 * "Item 2 (externalReference ORD-7): Pickup Latitude (pickupLatitude) <rule>, got <value>"; a
 * poll's settings start at the field; a stop reads "Stop 2 Latitude (stops[1].latitude)".
 */
function describeProblem(
	problem: Problem,
	labels: Labels,
	itemIndex: number | undefined,
	reference?: string,
): string {
	const { field } = problem;
	const stop = /^stops\[(\d+)\]\.(\w+)$/.exec(field);
	const label = stop
		? labels.has(stop[2]) && `Stop ${Number(stop[1]) + 1} ${labels.get(stop[2])}`
		: (problem.label ?? labels.get(field.startsWith('extraBody.') ? 'extraBody' : field));
	const item =
		itemIndex === undefined ? '' : `Item ${itemIndex + 1}${reference ? ` (${reference})` : ''}: `;
	const named = `${item}${label ? `${label} (${field})` : field} ${problem.rule}`;
	if (problem.value === HIDDEN) return named;
	const shown = !isGiven(problem.value)
		? 'nothing'
		: typeof problem.value === 'string'
			? `"${problem.value}"`
			: JSON.stringify(problem.value);
	return `${named}, got ${shown}`;
}
