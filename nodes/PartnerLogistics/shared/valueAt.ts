/** A field of a JSON object by exact name, else by dotted path (`data.type`), never into a list. */
export function valueAt(value: unknown, field: string): unknown {
	if (!isObject(value)) return undefined;
	if (hasOwn(value, field)) return value[field];
	let found: unknown = value;
	for (const part of field.split('.')) {
		if (!isObject(found) || !hasOwn(found, part)) return undefined;
		found = found[part];
	}
	return found;
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `constructor` or `toString` is no field of a record. */
export function hasOwn(value: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(value, key);
}
