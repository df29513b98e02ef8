import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { textField } from '../descriptions/fields';
import { fail, type Problem } from '../pipeline/problem';

/** What a number field takes, in the words both its hint and its rule use. */
type NumberRule = { min: number; max?: number; whole?: boolean; says: string };

const LATITUDE: NumberRule = { min: -90, max: 90, says: 'a number between −90 and 90' };
const LONGITUDE: NumberRule = { min: -180, max: 180, says: 'a number between −180 and 180' };
const COUNT: NumberRule = { min: 1, whole: true, says: 'a whole number of at least 1' };

const NUMBERS: Record<string, NumberRule> = {
	packageWeightKg: { min: 0.01, max: 50, says: 'a number from 0.01 to 50' },
	pickupLatitude: LATITUDE,
	pickupLongitude: LONGITUDE,
	dropoffLatitude: LATITUDE,
	dropoffLongitude: LONGITUDE,
	latitude: LATITUDE,
	longitude: LONGITUDE,
	quantity: COUNT,
	// The spec shows no maximum: any whole number JavaScript holds exactly is sent as given.
	limit: { ...COUNT, max: Number.MAX_SAFE_INTEGER },
};

export const isNumberField = (name: string) => name in NUMBERS;

/**
 * A number field as text: empty until typed (nothing is sent that nobody typed), never clamped by
 * the editor (120 typed into a bounded number field leaves 12); out of range, the item fails.
 */
export function numberField(
	name: string,
	displayName: string,
	description: string,
	example: string,
	hint = (says: string) => `${says.charAt(0).toUpperCase()}${says.slice(1)}`,
): INodeProperties {
	return textField(name, displayName, description, example, { hint: hint(NUMBERS[name].says) });
}

/** The number field `name` checked at `field` (e.g. `stops[1].latitude`): its problem, if any. */
export function checkNumber(value: unknown, name: string, field = name): Problem | undefined {
	const { min, max, whole, says } = NUMBERS[name];
	const fits =
		typeof value === 'number' &&
		Number.isFinite(value) &&
		value >= min &&
		(max === undefined || value <= max) &&
		(!whole || Number.isInteger(value));
	return fits ? undefined : { field, value, rule: `must be ${says}` };
}

/** The number field `name` as sent, nothing when empty; out of its rule, the item fails. */
export function numberOf(value: IDataObject[string], name: string): number | undefined {
	const number = toNumber(value);
	if (number === undefined || number === null) return undefined;
	const problem = checkNumber(number, name);
	if (problem) fail({ ...problem, value });
	return number as number;
}

/** A numeric string as a number; anything else unchanged, for the check to name. */
export function toNumber(value: IDataObject[string]): IDataObject[string] {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		if (trimmed === '') return undefined;
		if (!Number.isNaN(Number(trimmed))) return Number(trimmed);
	}
	return value;
}
