import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import {
	batchExpression,
	expressionLeaves,
	isBatchable,
	withValues,
	type ExpressionLeaf,
} from './expressions';
import type { BodyValue, ParameterReader } from './body';

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
	const parameters = context.getNode().parameters;
	/** Each parameter's stored value and its expressions: the same for every item of the run. */
	const storedOf = new Map<string, Stored>();
	const stored = (name: string): Stored => {
		let found = storedOf.get(name);
		if (!found) {
			const value = at(parameters, name);
			found = { value, leaves: expressionLeaves(value) };
			storedOf.set(name, found);
		}
		return found;
	};
	/** Parameters read by expression so far, and the one expression that evaluates them all. */
	const batch: string[] = [];
	let batchCode: { expression: string; count: number } | undefined;
	let batching = true;

	/** The values of this item's batched parameters, by name; what could not be batched is left out. */
	const evaluateBatch = (itemIndex: number): Map<string, BodyValue> => {
		const values = new Map<string, BodyValue>();
		if (!batching) return values;
		if (!batchCode) {
			const codes = batch.flatMap((name) => stored(name).leaves!.map((leaf) => leaf.code));
			batchCode = { expression: batchExpression(codes), count: codes.length };
		}
		if (batchCode.count < 2) return values;
		let results: unknown[];
		try {
			results = context.evaluateExpression(batchCode.expression, itemIndex) as unknown[];
		} catch {
			// The item's data or the batch itself is at fault: each parameter is read the usual
			// way, and one that fails is left to fail again when the operation reads it, naming
			// itself. A batch that fails where each of its parameters works on its own is not tried
			// again in this run.
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
		let offset = 0;
		for (const name of batch) {
			const { value, leaves } = stored(name);
			const own = results.slice(offset, (offset += leaves!.length));
			if (own.every(isBatchable)) values.set(name, withValues(value, leaves!, own) as BodyValue);
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
			const { value, leaves } = stored(name);
			let read: BodyValue;
			if (leaves?.length === 0) {
				read = (typeof value === 'object' && value !== null ? deepCopy(value) : value) as BodyValue;
			} else {
				read = evaluate(name, itemIndex);
				if (leaves && !batch.includes(name)) {
					batch.push(name);
					batchCode = undefined;
				}
			}
			cache.set(name, read);
			return unwrap(read);
		};
	};
}

/** A parameter as stored on the node, and the expressions it holds (undefined: not batchable). */
interface Stored {
	value: unknown;
	leaves: ExpressionLeaf[] | undefined;
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
