import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { BodyValue, ParameterReader } from './routeBody';

/**
 * Reads one item's parameters, each at most once (an expression is evaluated once per item), and
 * only those the operation asks for. A parameter the chosen form hides reads as undefined, and a
 * hub picker reads as its ID (our pickers have no URL mode, so no extraction rule applies).
 */
export function parameterReader(context: IExecuteFunctions, itemIndex: number): ParameterReader {
	const cache = new Map<string, BodyValue>();
	return (name) => {
		if (cache.has(name)) return cache.get(name);
		const value = unwrap(context.getNodeParameter(name, itemIndex, null) as BodyValue);
		cache.set(name, value);
		return value;
	};
}

function unwrap(value: BodyValue): BodyValue {
	if (value === null) return undefined;
	const locator = value as IDataObject;
	return typeof value === 'object' && locator.__rl === true ? (locator.value as BodyValue) : value;
}
