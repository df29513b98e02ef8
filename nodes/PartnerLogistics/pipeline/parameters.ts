import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { isObject, valueAt } from '../shared/valueAt';
import {
	batchExpression,
	expressionLeaves,
	isBatchable,
	readItemField,
	withValues,
	type ExpressionLeaf,
} from './expressions';
import type { BodyInput } from './operation';

/** The parameter reader of each item of one run. */
export type ParameterReaders = (itemIndex: number) => BodyInput['read'];

/**
 * Reads each item's parameters once each, only those asked for: hidden as undefined, a hub picker
 * as its ID, by expression batched from the second item on (expressions.ts); without one as stored
 * (none of ours declares a `validateType` that n8n would convert by).
 */
export function parameterReaders(context: IExecuteFunctions): ParameterReaders {
	const parameters = context.getNode().parameters;
	const items = context.getInputData();
	/** Each parameter's stored value and its expressions: the same for every item of the run. */
	const storedOf = new Map<string, Stored>();
	const stored = (name: string): Stored => {
		let found = storedOf.get(name);
		if (!found) {
			const value = valueAt(parameters, name); // by its path, e.g. `options.idempotencyKey`
			found = { value, leaves: expressionLeaves(value) };
			storedOf.set(name, found);
		}
		return found;
	};
	/** Parameters read by expression so far, and the one expression that evaluates them all. */
	const batch: string[] = [];
	let batchCode: { expression: string; count: number } | undefined;
	let batching = true;

	/** This item's batched parameters' values, by name; what could not be batched is left out. */
	const evaluateBatch = (itemIndex: number): Map<string, IDataObject[string]> => {
		const values = new Map<string, IDataObject[string]>();
		if (!batching) return values;
		if (!batchCode) {
			const codes = batch.flatMap((name) =>
				stored(name)
					.leaves!.filter((leaf) => !leaf.field)
					.map((leaf) => leaf.code),
			);
			batchCode = { expression: batchExpression(codes), count: codes.length };
		}
		let results: unknown[] = [];
		try {
			// One expression is as well read on its own (n8n's own conversion then applies).
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
		// One expression alone was not evaluated: n8n reads it, as a field missing or not plain.
		const evaluated = batchCode.count > 1;
		let offset = 0;
		for (const name of batch) {
			const { value, leaves } = stored(name);
			const own = leaves!.map((leaf) =>
				leaf.field ? readItemField(item, leaf.field) : evaluated ? results[offset++] : undefined,
			);
			if (own.every((found) => found !== undefined && isBatchable(found))) {
				values.set(name, withValues(value, leaves!, own) as IDataObject[string]);
			}
		}
		return values;
	};

	const evaluate = (name: string, itemIndex: number): IDataObject[string] =>
		context.getNodeParameter(name, itemIndex, null) as IDataObject[string];

	return (itemIndex) => {
		let cache: Map<string, IDataObject[string]> | undefined;
		return (name) => {
			cache ??= evaluateBatch(itemIndex);
			if (cache.has(name)) return unwrap(cache.get(name));
			const { value, leaves } = stored(name);
			let read: IDataObject[string];
			if (leaves?.length === 0) {
				read = (
					typeof value === 'object' && value !== null ? deepCopy(value) : value
				) as IDataObject[string];
			} else {
				read = evaluate(name, itemIndex);
				if (leaves && !batch.includes(name)) {
					batch.push(name);
					batchCode = undefined; // rebuilt with the new parameter
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

function unwrap(value: IDataObject[string]): IDataObject[string] {
	if (value === null) return undefined;
	return isObject(value) && value.__rl === true ? (value.value as IDataObject[string]) : value;
}
