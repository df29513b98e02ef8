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
 * Reads each item's parameters, each at most once, only those the operation asks for. A hidden
 * parameter reads as undefined, a hub picker as its ID (our pickers have no URL mode). From the
 * second item on, the parameters read by expression are batched (see expressions.ts).
 * If a field read straight off the first item differs from what n8n gave, none is read so for the
 * rest of the run. Values without an expression are taken as stored, as getNodeParameter gives
 * them: none of our properties declares a `validateType` for n8n's schema check to convert.
 */
export function parameterReaders(context: IExecuteFunctions): ParameterReaders {
	const parameters = context.getNode().parameters;
	const items = context.getInputData();
	/** Fields are read straight off the items until one read differs from n8n's. */
	let direct = true;
	const isDirect = (leaf: ExpressionLeaf) => direct && leaf.field !== undefined;
	/** Each parameter's stored value and its expressions: the same for every item of the run. */
	const storedOf = new Map<string, Stored>();
	const stored = (name: string): Stored => {
		let found = storedOf.get(name);
		if (!found) {
			// By its n8n path, e.g. `options.idempotencyKey`.
			const value = valueAt(parameters, name);
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
					.leaves!.filter((leaf) => !isDirect(leaf))
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
		const evaluated = batchCode.count > 1;
		let offset = 0;
		for (const name of batch) {
			const { value, leaves } = stored(name);
			const own: unknown[] = [];
			// A field missing or not plain (an object, a date), or a lone expression: n8n reads it.
			let complete = true;
			for (const leaf of leaves!) {
				if (isDirect(leaf)) {
					own.push(readItemField(item, leaf.field!));
					complete &&= own.at(-1) !== undefined;
				} else if (evaluated) {
					own.push(results[offset++]);
				} else {
					complete = false;
				}
			}
			if (complete && own.every(isBatchable)) {
				values.set(name, withValues(value, leaves!, own) as IDataObject[string]);
			}
		}
		return values;
	};

	/** n8n's first read of a parameter whose expressions all read fields: the same off the item? */
	const checkDirect = (name: string, itemIndex: number, read: IDataObject[string]) => {
		const { value, leaves } = stored(name);
		if (!direct || !leaves?.length || !leaves.every(isDirect)) return;
		const own = leaves.map((leaf) => readItemField(items[itemIndex]?.json, leaf.field!));
		if (own.some((field) => field === undefined)) return;
		direct = JSON.stringify(withValues(value, leaves, own)) === JSON.stringify(read);
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
					checkDirect(name, itemIndex, read);
					batch.push(name);
					// Rebuilt with the new parameter, and without direct reads if checkDirect ended them.
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

function unwrap(value: IDataObject[string]): IDataObject[string] {
	if (value === null) return undefined;
	return isObject(value) && value.__rl === true ? (value.value as IDataObject[string]) : value;
}
