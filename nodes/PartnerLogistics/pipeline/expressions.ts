import { deepCopy } from 'n8n-workflow';

import { hasOwn } from '../shared/valueAt';

/**
 * An item's parameters in one expression, not one each (n8n pays a data proxy and, in 2.x, an
 * isolate call per expression); one that only reads a field (`{{ $json.pickupAddress }}`, what the
 * editor writes for a field dragged in) is not evaluated at all: the field is read off the item.
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
 * One expression giving the array of the codes' values, each on its own lines (so a `// comment`
 * cannot swallow the next); an object or function comes back as a marker: n8n evaluates that one.
 */
export function batchExpression(codes: string[]): string {
	const values = codes.map((code) => `(\n${code}\n)`).join(',\n');
	return `{{ [\n${values}\n].map((value) => value !== null && (typeof value === 'object' || typeof value === 'function') ? { unbatchable: true } : value) }}`;
}

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

/** The item's value at `field` when text, a number, a boolean or null; else undefined (n8n's). */
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
