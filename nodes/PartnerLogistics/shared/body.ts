import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { assertValid, failItem, parameterReader } from './parameters';
import type { ParameterReader } from './routeBody';
import type { Problem } from './validate';

/** Stops the item with a problem; given to body builders so they stay free of n8n. */
export type Fail = (problem: Problem) => never;
export type BodyBuilder = (read: ParameterReader, fail: Fail) => IDataObject;
export type BodyCheck = (body: IDataObject) => Problem | undefined;

/**
 * preSend for an operation whose body is built from its parameters, plus the optional Extra
 * Body Fields (JSON), which may add fields but not change one set by a named field (so, e.g., a
 * booking payment can never become CREDIT through them). The body is checked before sending.
 */
export function sendBody(build: BodyBuilder, check?: BodyCheck): PreSendAction {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const read = parameterReader(this);
		const fail: Fail = (problem) => failItem(this, problem);
		const extra = jsonObject(read('additionalFields.extraBody'), 'extraBody', fail, {});
		const named = build(read, fail);
		assertValid(this, conflict(extra, named));
		const body = { ...extra, ...named };
		assertValid(this, check?.(body));
		// n8n's request helper drops an empty object and sends no body at all; '{}' stays valid JSON
		// for a server that expects one (accept, decline, credit acceptance have no fields).
		return { ...requestOptions, body: Object.keys(body).length ? body : '{}' };
	};
}

function conflict(extra: IDataObject, named: IDataObject): Problem | undefined {
	const key = Object.keys(extra).find(
		(name) => name in named && JSON.stringify(extra[name]) !== JSON.stringify(named[name]),
	);
	if (key === undefined) return undefined;
	return {
		field: `extraBody.${key}`,
		value: extra[key],
		rule: `conflicts with the value the node sends for ${key} (${JSON.stringify(named[key])}); remove it from Extra Body Fields`,
	};
}

/** preSend: every listed path id must be set, so no request goes to a path with a hole. */
export function requireIds(ids: string[]): PreSendAction {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const read = parameterReader(this);
		for (const id of ids) {
			const value = read(id);
			const missing = value === undefined || String(value).trim() === '';
			assertValid(this, missing ? { field: id, value, rule: 'is required' } : undefined);
		}
		return requestOptions;
	};
}

/**
 * A JSON object parameter, given as text (a JSON field) or as an object (an expression).
 * Empty gives `empty`; anything but an object fails naming the field.
 */
export function jsonObject(
	value: unknown,
	field: string,
	fail: Fail,
	empty?: IDataObject,
): IDataObject {
	if ((value === undefined || value === null || value === '') && empty) return empty;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			return fail({ field, value, rule: 'must be valid JSON' });
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		return fail({ field, value, rule: 'must be a JSON object, e.g. {"key": "value"}' });
	}
	return parsed as IDataObject;
}
