/** How a delivery's timestamp is written: `auto` reads values above 1e10 as milliseconds. */
export type TimestampUnit = 'auto' | 'seconds' | 'milliseconds';

export type TimestampCheck =
	| { ok: true; ms: number }
	| { ok: false; reason: 'malformed-header' | 'stale-timestamp' | 'future-timestamp' };

// 1e10 seconds is the year 2286 and 1e10 milliseconds is April 1970: the same cut n8n's own
// webhook-signature-verification helper uses to tell the units apart.
const MILLISECONDS_ABOVE = 1e10;
const DIGITS = /^\d{1,16}$/;

/** Accepts a timestamp within `toleranceSeconds` of `now` either way: a sender clock ahead too. */
export function checkTimestamp(
	value: string,
	toleranceSeconds: number,
	unit: TimestampUnit,
	now: number,
): TimestampCheck {
	if (!DIGITS.test(value)) return { ok: false, reason: 'malformed-header' };
	const number = Number(value);
	const inMilliseconds =
		unit === 'milliseconds' || (unit === 'auto' && number > MILLISECONDS_ABOVE);
	// Whole seconds for second timestamps, as the Standard Webhooks library and n8n's helper count.
	const scale = inMilliseconds ? 1 : 1000;
	const age = Math.floor(now / scale) - number;
	const tolerance = (toleranceSeconds * 1000) / scale;
	if (age > tolerance) return { ok: false, reason: 'stale-timestamp' };
	if (-age > tolerance) return { ok: false, reason: 'future-timestamp' };
	return { ok: true, ms: number * scale };
}
