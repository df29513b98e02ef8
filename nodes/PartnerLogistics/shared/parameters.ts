import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import {
	batchExpression,
	expressionLeaves,
	isBatchable,
	withValues,
	type ExpressionLeaf,
} from './expressions';
import type { BodyValue, ParameterReader } from './routeBody';

/** The parameter reader of each item of one run. */
export type ParameterReaders = (itemIndex: number) => ParameterReader;

/**
 * Reads each item's parameters, each at most once, and only those the operation asks for. A
 * parameter the chosen form hides reads as undefined, and a hub picker reads as its ID (our
 * pickers have no URL mode, so no extraction rule applies).
 *
 * The parameters an item read by expression are remembered, and from the next item on their
 * expressions are evaluated together, in one call per item (see expressions.ts). Values without
 * an expression are taken as stored, which is what n8n's getNodeParameter gives for them: none of
 * our properties declares a `validateType` for n8n's schema check to convert.
 */
export function parameterReaders(context: IExecuteFunctions): ParameterReaders {
	const stored = context.getNode().parameters;
	/** Parameters read by expression so far, with their expressions. */
	const batch = new Map<string, ExpressionLeaf[]>();
	let batching = true;

	/** The values of this item's batched parameters, by name; what could not be batched is left out. */
	const evaluateBatch = (itemIndex: number): Map<string, BodyValue> => {
		const values = new Map<string, BodyValue>();
		const names = [...batch.keys()];
		const codes = names.flatMap((name) => batch.get(name)!.map((leaf) => leaf.code));
		if (!batching || codes.length < 2) return values;
		let results: unknown[];
		try {
			results = context.evaluateExpression(batchExpression(codes), itemIndex) as unknown[];
		} catch {
			// The item's data or the batch itself is at fault: each parameter is read the usual
			// way, and one that fails is left to fail again when the operation reads it, naming
			// itself. A batch that fails where each of its parameters works on its own is not tried
			// again in this run.
			for (const name of names) {
				try {
					values.set(name, evaluate(name, itemIndex));
				} catch {
					// read again (and reported) if the operation needs it
				}
			}
			batching = values.size < names.length;
			return values;
		}
		let offset = 0;
		for (const name of names) {
			const leaves = batch.get(name)!;
			const own = results.slice(offset, (offset += leaves.length));
			if (own.every(isBatchable))
				values.set(name, withValues(at(stored, name), leaves, own) as BodyValue);
		}
		return values;
	};

	const evaluate = (name: string, itemIndex: number): BodyValue =>
		context.getNodeParameter(name, itemIndex, null) as BodyValue;

	return (itemIndex) => {
		let cache: Map<string, BodyValue> | undefined;
		return (name) => {
			cache ??= evaluateBatch(itemIndex);
			if (cache.has(name)) return unwrap(cache.get(name));
			const value = at(stored, name);
			const leaves = expressionLeaves(value);
			let read: BodyValue;
			if (leaves?.length === 0) {
				read = (typeof value === 'object' && value !== null ? deepCopy(value) : value) as BodyValue;
			} else {
				read = evaluate(name, itemIndex);
				if (leaves) batch.set(name, leaves);
			}
			cache.set(name, read);
			return unwrap(read);
		};
	};
}

/** A stored parameter by its n8n path (`options.idempotencyKey`). */
function at(parameters: INodeParameters, name: string): unknown {
	let value: unknown = parameters;
	for (const key of name.split('.')) {
		if (!value || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

function unwrap(value: BodyValue): BodyValue {
	if (value === null) return undefined;
	const locator = value as IDataObject;
	return typeof value === 'object' && locator.__rl === true ? (locator.value as BodyValue) : value;
}
