import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BodyValue, ParameterReader } from './routeBody';
import { describeProblem, type Problem } from './validate';

/**
 * Reads the current item's parameters (a path such as `additionalFields.extraBody` too); one the
 * chosen form hides reads as undefined, and a hub picker reads as its ID (our pickers have no
 * URL mode, so the value needs no extraction rule).
 */
export function parameterReader(context: IExecuteSingleFunctions): ParameterReader {
	return (name) => {
		const value = context.getNodeParameter(name, null) as BodyValue;
		if (value === null) return undefined;
		const locator = value as IDataObject;
		return typeof value === 'object' && locator.__rl === true
			? (locator.value as BodyValue)
			: value;
	};
}

export function collection(context: IExecuteSingleFunctions, name: string): IDataObject {
	return (context.getNodeParameter(name, {}) ?? {}) as IDataObject;
}

/** Stops the item before any request leaves: names the field, the value and the item. */
export function failItem(context: IExecuteSingleFunctions, problem: Problem): never {
	const itemIndex = context.getItemIndex();
	throw new NodeOperationError(context.getNode(), describeProblem(problem, itemIndex), {
		itemIndex,
		description: 'Nothing was sent to the API for this item. Correct the value and run again.',
	});
}

export function assertValid(context: IExecuteSingleFunctions, problem: Problem | undefined) {
	if (problem) failItem(context, problem);
}
