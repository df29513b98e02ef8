// Counts n8n expression evaluations: on this engine each costs a fraction of a millisecond, so
// their number per item explains most of what a declarative node costs over plain HTTP.
import { Expression } from 'n8n-workflow';

type Resolve = Expression['resolveSimpleParameterValue'];

/**
 * Evaluations of `={{ … }}` values while `fn` runs. It wraps an n8n-workflow method, so it is
 * undefined should a later n8n-workflow no longer evaluate through it.
 */
export async function countEvaluations(fn: () => Promise<unknown>): Promise<number | undefined> {
	const proto = Expression.prototype;
	const original = proto.resolveSimpleParameterValue;
	if (typeof original !== 'function') return undefined;
	let count = 0;
	proto.resolveSimpleParameterValue = function (this: Expression, ...args: Parameters<Resolve>) {
		count++;
		return original.apply(this, args);
	};
	try {
		await fn();
	} finally {
		proto.resolveSimpleParameterValue = original;
	}
	return count;
}
