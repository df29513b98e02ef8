import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { hasOwn, isObject, valueAt } from '../shared/valueAt';
import type { BodyInput } from './operation';

/**
 * Reads each item's parameters once, only those asked for: hidden as undefined, a hub picker as its
 * ID, without an expression as stored (none of ours has a `validateType` n8n would convert by).
 * From the second item on, its expressions are evaluated as one (n8n pays a data proxy and, in 2.x,
 * an isolate call per expression); one only reading a field (`{{ $json.a }}`) is read off the item.
 */
export function parameterReaders(
	context: IExecuteFunctions,
): (itemIndex: number) => BodyInput['read'] {
	const parameters = context.getNode().parameters;
	const items = context.getInputData();
	/** Each parameter's stored value and its expressions: the same for every item of the run. */
	const storedOf = new Map<string, Stored>();
	const stored = (name: string): Stored => {
		if (!storedOf.has(name)) {
			const value = valueAt(parameters, name) as Value; // by path: `options.dryRun`
			storedOf.set(name, { value, leaves: expressionLeaves(value) });
		}
		return storedOf.get(name)!;
	};
	/** Parameters read by expression so far, and the one expression that evaluates them all. */
	const batch: string[] = [];
	let batchCode: { expression: string; count: number } | undefined;
	let batching = true;

	/** This item's batched parameters' values, by name; what could not be batched is left out. */
	const evaluateBatch = (itemIndex: number): Map<string, Value> => {
		const values = new Map<string, Value>();
		if (!batching) return values;
		if (!batchCode) {
			const leaves = batch.flatMap((name) => stored(name).leaves!);
			const codes = leaves.filter((leaf) => !leaf.field).map((leaf) => leaf.code);
			batchCode = { expression: batchExpression(codes), count: codes.length };
		}
		let results: unknown[] = [];
		try {
			// One expression is as well read on its own: n8n reads it (its own conversion applies).
			if (batchCode.count > 1) {
				results = context.evaluateExpression(batchCode.expression, itemIndex) as unknown[];
			}
		} catch {
			// The item's data or the batch is at fault: each parameter is read the usual way (one that
			// fails will again, naming itself); a batch failing where each works is not retried this run.
			for (const name of batch) {
				try {
					values.set(name, evaluate(name, itemIndex));
				} catch {
					// read again (and reported) if the operation needs it
				}
			}
			batching = values.size < batch.length;
			return values;
		}
		const item = items[itemIndex]?.json;
		let offset = 0;
		for (const name of batch) {
			const { value, leaves } = stored(name);
			// Undefined (a field missing or not plain, an expression not evaluated): n8n reads it.
			const own = leaves!.map((leaf) =>
				leaf.field ? readItemField(item, leaf.field) : results[offset++],
			);
			if (own.every((found) => found !== undefined && isBatchable(found))) {
				values.set(name, withValues(value, leaves!, own) as Value);
			}
		}
		return values;
	};

	const evaluate = (name: string, itemIndex: number): Value =>
		context.getNodeParameter(name, itemIndex, null) as Value;

	return (itemIndex) => {
		let cache: Map<string, Value> | undefined;
		return (name) => {
			cache ??= evaluateBatch(itemIndex);
			if (cache.has(name)) return unwrap(cache.get(name));
			const { value, leaves } = stored(name);
			// Without an expression, a copy as n8n reads it; a batchable one joins the batch.
			const read = leaves?.length === 0 ? (deepCopy(value) as Value) : evaluate(name, itemIndex);
			if (leaves?.length && !batch.includes(name)) {
				batch.push(name);
				batchCode = undefined; // rebuilt with the new parameter
			}
			cache.set(name, read);
			return unwrap(read);
		};
	};
}

type Value = IDataObject[string];
/** A parameter as stored on the node, and the expressions it holds (undefined: not batchable). */
type Stored = { value: Value; leaves: ExpressionLeaf[] | undefined };
/** Where one expression sits in a stored value, its code, and the item field it only reads. */
type ExpressionLeaf = { path: Array<string | number>; code: string; field?: string[] };

function unwrap(value: Value): Value {
	if (value === null) return undefined;
	return isObject(value) && value.__rl === true ? (value.value as Value) : value;
}

/**
 * The expressions a stored value holds, or undefined when one cannot join a batch: a template (text
 * around `{{ }}`, rendered as text) or `$parameter` (resolved against the parameter's siblings).
 */
export function expressionLeaves(
	value: unknown,
	path: Array<string | number> = [],
): ExpressionLeaf[] | undefined {
	if (typeof value === 'string') {
		if (!value.startsWith('=')) return [];
		const code = /^=\{\{([\s\S]*)\}\}$/.exec(value)?.[1]; // `={{ code }}` and nothing else
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
