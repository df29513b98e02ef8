import { deepCopy } from 'n8n-workflow';

import { hasOwn } from '../shared/valueAt';

/**
 * Evaluating an item's parameters in one expression instead of one per parameter.
 *
 * n8n evaluates every `={{ … }}` parameter on its own: a fresh data proxy and, in n8n 2.x, a call
 * into its sandboxed expression isolate each; a route mapped by seven expressions paid that seven
 * times per item. Whole `{{ … }}` expressions are instead evaluated together, as one array, per
 * item; one that only reads a field of the item (`{{ $json.pickupAddress }}`, what the editor
 * writes when a field is dragged in) is not evaluated at all: the field is read straight off it.
 */

/** Where one expression sits in a parameter's stored value, and its code. */
export interface ExpressionLeaf {
	path: Array<string | number>;
	code: string;
	/** The field of the item the code reads and nothing else (`$json.a`), when it is only that. */
	field?: string[];
}

/** `={{ code }}` and nothing else, with no template inside the code. */
const WHOLE_EXPRESSION = /^=\{\{([\s\S]*)\}\}$/;

/**
 * The expressions a stored parameter value holds, or undefined when one of them cannot join a
 * batch: text around `{{ }}` (a template, which n8n renders as text), or `$parameter`, which n8n
 * resolves against the parameter's siblings and so depends on where the expression sits.
 */
export function expressionLeaves(
	value: unknown,
	path: Array<string | number> = [],
): ExpressionLeaf[] | undefined {
	if (typeof value === 'string') {
		if (!value.startsWith('=')) return [];
		const code = WHOLE_EXPRESSION.exec(value)?.[1];
		if (code === undefined || /\{\{|\}\}|\$parameter/.test(code)) return undefined;
		return [{ path, code, field: itemField(code) }];
	}
	if (!value || typeof value !== 'object') return [];
	const leaves: ExpressionLeaf[] = [];
	for (const [step, child] of Object.entries(value)) {
		const found = expressionLeaves(child, [...path, Array.isArray(value) ? Number(step) : step]);
		if (!found) return undefined;
		leaves.push(...found);
	}
	return leaves;
}

/**
 * One expression giving the array of the codes' values. Each code stands on its own lines, so a
 * trailing `// comment` cannot swallow the next. A function or object (a date, a list) comes back
 * as a marker: the caller evaluates that parameter the usual way, for n8n's message or conversion.
 */
export function batchExpression(codes: string[]): string {
	const values = codes.map((code) => `(\n${code}\n)`).join(',\n');
	return `{{ [\n${values}\n].map((value) => value !== null && (typeof value === 'object' || typeof value === 'function') ? { unbatchable: true } : value) }}`;
}

/** `$json.a.b`, `$json['a b']`: the field an expression that only reads the item reads. */
const ITEM_FIELD =
	/^\s*\$json((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*(?:'[^'\\]*'|"[^"\\]*")\s*\])+)\s*$/;
const STEP = /\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/g;
const NOT_DATA = new Set(['__proto__', 'constructor', 'prototype']);

/** The path an expression only reading the item reads: `$json.a.b`, `$json['a b']`. */
export function itemField(code: string): string[] | undefined {
	const steps = ITEM_FIELD.exec(code)?.[1];
	if (steps === undefined) return undefined;
	const field = [...steps.matchAll(STEP)].map((step) => step[1] ?? step[2] ?? step[3]);
	return field.some((name) => NOT_DATA.has(name)) ? undefined : field;
}

/**
 * The item's value at `field` when text, a number, a boolean or null (what n8n's `$json.…` gives);
 * else (missing, an object, a date) undefined: n8n evaluates that one itself.
 */
export function readItemField(item: unknown, field: string[]): unknown {
	let value = item;
	for (const name of field) {
		if (!value || typeof value !== 'object' || !hasOwn(value, name)) return undefined;
		value = (value as Record<string, unknown>)[name];
	}
	return value === null || ['string', 'number', 'boolean'].includes(typeof value)
		? value
		: undefined;
}

/** A value batched as is: a scalar, never the marker of batchExpression. */
export function isBatchable(value: unknown): boolean {
	return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/** A copy of `stored` with each leaf's expression replaced by its value. */
export function withValues(stored: unknown, leaves: ExpressionLeaf[], values: unknown[]): unknown {
	if (leaves.length === 1 && leaves[0].path.length === 0) return values[0];
	const copy = deepCopy(stored as object) as Record<string | number, unknown>;
	leaves.forEach(({ path }, index) => {
		let parent = copy;
		for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
		parent[path[path.length - 1]] = values[index];
	});
	return copy;
}
