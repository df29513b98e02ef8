import type { IDataObject } from 'n8n-workflow';

/** What is wrong with one field of an item, in words the user can act on. */
export interface Problem {
	/** The API's name of the field, e.g. `pickupLatitude` or `stops[1].latitude`. */
	field: string;
	value: unknown;
	/** Completes "<field> …", e.g. "must be between −90 and 90". */
	rule: string;
}

/** A value a message must not repeat (card data, text that failed to parse as JSON). */
export const HIDDEN = Symbol('hidden');

/** Thrown by pure body builders; the pipeline turns it into the item's NodeOperationError. */
export class ProblemError extends Error {
	constructor(readonly problem: Problem) {
		super(`${problem.field} ${problem.rule}`);
	}
}

export function fail(problem: Problem): never {
	throw new ProblemError(problem);
}

export const DIRECT_SERVICES = ['CLICK', 'GO_LIGHT', 'EXPRESS'];
const MANUAL_SERVICES: Record<string, string> = {
	GO_BULK: 'use the Quote Request resource (manual GO_BULK quotation) instead',
	HAUL: 'use the Haulage Quotation resource (manual HAUL quotation) instead',
};

/** The route fields a booking must repeat from its quote (spec: Booking). */
export const ROUTE_FIELDS = [
	'serviceType',
	'deliveryMode',
	'packageWeightKg',
	'orderMode',
	'stops',
	'pickupMethod',
	'pickupAddress',
	'pickupLatitude',
	'pickupLongitude',
	'pickupHubId',
	'dropoffMethod',
	'dropoffAddress',
	'dropoffLatitude',
	'dropoffLongitude',
	'dropoffHubId',
];

const PHONE_FIELDS = ['pickupPhone', 'dropoffPhone'];

/**
 * Checks a direct quote or booking body against the spec's nine request forms, its bounds and
 * enumerations. Returns the first problem, or undefined when the body may be sent.
 */
export function validateRoute(body: IDataObject): Problem | undefined {
	const service = body.serviceType ?? 'CLICK';
	if (typeof service !== 'string' || !DIRECT_SERVICES.includes(service)) {
		const manual = typeof service === 'string' ? MANUAL_SERVICES[service] : undefined;
		return {
			field: 'serviceType',
			value: service,
			rule: manual
				? `${String(service)} is not booked with a direct quote: ${manual}`
				: 'must be CLICK, GO_LIGHT or EXPRESS',
		};
	}
	return (
		(body.orderMode !== undefined || body.stops !== undefined
			? validateMultiStop(body, service)
			: validateEnds(body, service)) ??
		validateWeight(body, service) ??
		oneOf(body, 'deliveryMode', ['STANDARD', 'EXPRESS']) ??
		oneOf(body, 'vehicleType', ['BIKE', 'VAN', 'TRUCK']) ??
		firstProblem(PHONE_FIELDS.map((field) => phone(body[field], field))) ??
		isoDateTime(body.scheduledAt, 'scheduledAt')
	);
}

function validateMultiStop(body: IDataObject, service: string): Problem | undefined {
	if (service !== 'CLICK') {
		return { field: 'serviceType', value: service, rule: 'must be CLICK for a multi-stop order' };
	}
	if (body.orderMode !== 'MULTI_STOP') {
		return { field: 'orderMode', value: body.orderMode, rule: 'must be MULTI_STOP with stops' };
	}
	const stops = body.stops;
	if (!Array.isArray(stops) || stops.length !== 3) {
		return {
			field: 'stops',
			value: Array.isArray(stops) ? `${stops.length} stops` : stops,
			rule: 'must hold exactly 3 stops',
		};
	}
	return firstProblem(
		stops.map((stop, index) => {
			const at = (name: string) => `stops[${index}].${name}`;
			const record = (stop ?? {}) as IDataObject;
			return (
				oneOf(record, 'type', ['PICKUP', 'DROPOFF'], at('type'), true) ??
				text(record.address, at('address')) ??
				coordinate(record.latitude, at('latitude'), 90) ??
				coordinate(record.longitude, at('longitude'), 180) ??
				phone(record.phone, at('phone'))
			);
		}),
	);
}

function validateEnds(body: IDataObject, service: string): Problem | undefined {
	const pickup = body.pickupMethod ?? 'HOME_PICKUP';
	const dropoff = body.dropoffMethod ?? 'HOME_DELIVERY';
	if (pickup !== 'HOME_PICKUP' && pickup !== 'HUB_DROPOFF') {
		return { field: 'pickupMethod', value: pickup, rule: 'must be HOME_PICKUP or HUB_DROPOFF' };
	}
	if (dropoff !== 'HOME_DELIVERY' && dropoff !== 'HUB_PICKUP') {
		return { field: 'dropoffMethod', value: dropoff, rule: 'must be HOME_DELIVERY or HUB_PICKUP' };
	}
	if (service === 'CLICK' && (pickup !== 'HOME_PICKUP' || dropoff !== 'HOME_DELIVERY')) {
		const field = pickup !== 'HOME_PICKUP' ? 'pickupMethod' : 'dropoffMethod';
		return {
			field,
			value: body[field],
			rule: 'must be a home method for CLICK: CLICK goes home to home or multi-stop; choose GO_LIGHT or EXPRESS for hub routes',
		};
	}
	return (
		end(body, 'pickup', pickup === 'HUB_DROPOFF') ?? end(body, 'dropoff', dropoff === 'HUB_PICKUP')
	);
}

function end(body: IDataObject, side: 'pickup' | 'dropoff', viaHub: boolean): Problem | undefined {
	if (viaHub) return text(body[`${side}HubId`], `${side}HubId`);
	return (
		text(body[`${side}Address`], `${side}Address`) ??
		coordinate(body[`${side}Latitude`], `${side}Latitude`, 90) ??
		coordinate(body[`${side}Longitude`], `${side}Longitude`, 180)
	);
}

function validateWeight(body: IDataObject, service: string): Problem | undefined {
	const weight = body.packageWeightKg;
	if (weight === undefined) {
		return service === 'EXPRESS'
			? { field: 'packageWeightKg', value: weight, rule: 'is required for EXPRESS' }
			: undefined;
	}
	if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0.01 || weight > 50) {
		return { field: 'packageWeightKg', value: weight, rule: 'must be a number from 0.01 to 50' };
	}
	return undefined;
}

function oneOf(
	record: IDataObject,
	name: string,
	allowed: string[],
	field = name,
	isRequired = false,
): Problem | undefined {
	const value = record[name];
	if (value === undefined || value === '') return isRequired ? required(field, value) : undefined;
	return typeof value === 'string' && allowed.includes(value)
		? undefined
		: { field, value, rule: `must be one of ${allowed.join(', ')}` };
}

function text(value: unknown, field: string): Problem | undefined {
	return typeof value === 'string' && value.trim() !== '' ? undefined : required(field, value);
}

/** An empty required field: the one rule text for every "not given". */
export function required(field: string, value?: unknown): Problem {
	return { field, value, rule: 'is required' };
}

function coordinate(value: unknown, field: string, limit: number): Problem | undefined {
	if (value === undefined || value === null || value === '') return required(field, value);
	return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit
		? undefined
		: { field, value, rule: `must be a number between −${limit} and ${limit}` };
}

/** International format: + then 8 to 15 digits (spaces and dashes are stripped before this). */
export function phone(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' && /^\+\d{8,15}$/.test(value)
		? undefined
		: { field, value, rule: 'must be in international format: + then 8 to 15 digits' };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isoDateTime(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
		? undefined
		: { field, value, rule: 'must be an ISO 8601 date-time, e.g. 2026-11-23T14:30:00+01:00' };
}

function firstProblem(problems: Array<Problem | undefined>): Problem | undefined {
	return problems.find((problem) => problem !== undefined);
}

/**
 * The first route field in which a booking differs from the route its quote was priced for,
 * comparing after the spec's defaults (CLICK, HOME_PICKUP, HOME_DELIVERY).
 */
export function routeMismatch(booking: IDataObject, quoted: IDataObject): Problem | undefined {
	const withDefaults = (body: IDataObject) => ({
		...body,
		serviceType: body.serviceType ?? 'CLICK',
		pickupMethod: body.orderMode ? undefined : (body.pickupMethod ?? 'HOME_PICKUP'),
		dropoffMethod: body.orderMode ? undefined : (body.dropoffMethod ?? 'HOME_DELIVERY'),
	});
	const sent = withDefaults(booking);
	const priced = withDefaults(quoted);
	const field = ROUTE_FIELDS.find(
		(name) =>
			JSON.stringify(sent[name as keyof typeof sent]) !==
			JSON.stringify(priced[name as keyof typeof priced]),
	);
	if (!field) return undefined;
	return {
		field,
		value: sent[field as keyof typeof sent],
		rule: `differs from the route the quote was priced for (quoted: ${JSON.stringify(priced[field as keyof typeof priced]) ?? 'not set'}); a booking must repeat its quote's route`,
	};
}

/** Payment fields the spec forbids clients to send, compared without case, `_` or `-`. */
const FORBIDDEN_PAYMENT_FIELDS = [
	'amount',
	'totalamount',
	'card',
	'cardnumber',
	'pan',
	'cvc',
	'cvv',
	'expiry',
	'expirydate',
	'expirymonth',
	'expiryyear',
	'expmonth',
	'expyear',
	'proof',
	'paymentproof',
	'providerreference',
	'providerref',
	'providertransactionid',
	'status',
	'paymentstatus',
];

/**
 * Checks a payment body: the methods the endpoint takes, a card id with SAVED_CARD, and none of
 * the fields the spec says a client must never send (card details, amounts, provider
 * references, proofs, statuses), at any depth.
 */
export function validatePayment(body: IDataObject, methods: string[]): Problem | undefined {
	const method = body.paymentMethod;
	if (typeof method !== 'string' || !methods.includes(method)) {
		return {
			field: 'paymentMethod',
			value: method,
			rule:
				methods.length === 1
					? `must be ${methods[0]}: this payment takes a saved card only (CREDIT is not accepted for direct bookings)`
					: `must be one of ${methods.join(', ')}`,
		};
	}
	if (method === 'SAVED_CARD') {
		const problem = text(body.paymentMethodId, 'paymentMethodId');
		if (problem) return { ...problem, rule: 'is required with SAVED_CARD (the saved card ID)' };
	}
	return forbiddenField(body, '');
}

/** A body next to a payment (credit acceptance) must not carry what a payment may not either. */
export function validateNoPaymentDetails(body: IDataObject): Problem | undefined {
	return forbiddenField(body, '');
}

function forbiddenField(value: unknown, path: string): Problem | undefined {
	if (!value || typeof value !== 'object') return undefined;
	for (const [key, inner] of Object.entries(value)) {
		const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
		if (
			!Array.isArray(value) &&
			FORBIDDEN_PAYMENT_FIELDS.includes(key.toLowerCase().replace(/[-_]/g, ''))
		) {
			return {
				field: at,
				value: HIDDEN,
				rule: 'must not be sent: clients never send card details, amounts, provider references, payment proofs or payment statuses',
			};
		}
		const problem = forbiddenField(inner, at);
		if (problem) return problem;
	}
	return undefined;
}

/** The labels the editor shows, by API field name: messages name a field as the user sees it. */
const LABELS: Record<string, string> = {
	serviceType: 'Service Type',
	deliveryMode: 'Delivery Mode',
	vehicleType: 'Vehicle Type',
	packageWeightKg: 'Package Weight (Kg)',
	orderMode: 'Order Mode',
	stops: 'Stops',
	pickupMethod: 'Pickup Method',
	pickupAddress: 'Pickup Address',
	pickupLatitude: 'Pickup Latitude',
	pickupLongitude: 'Pickup Longitude',
	pickupHubId: 'Pickup Hub',
	pickupPhone: 'Pickup Phone',
	dropoffMethod: 'Drop-Off Method',
	dropoffAddress: 'Drop-Off Address',
	dropoffLatitude: 'Drop-Off Latitude',
	dropoffLongitude: 'Drop-Off Longitude',
	dropoffHubId: 'Drop-Off Hub',
	dropoffPhone: 'Drop-Off Phone',
	scheduledAt: 'Scheduled At',
	quoteId: 'Quote ID',
	quotedRoute: 'Quoted Route',
	itemDescription: 'Item Description',
	quantity: 'Quantity',
	paymentMethod: 'Payment Method',
	paymentMethodId: 'Saved Card ID',
	paymentStage: 'Payment Stage',
	extraBody: 'Extra Body Fields (JSON)',
	shipmentDetails: 'Shipment Details (JSON)',
	bookingId: 'Booking ID',
	quoteRequestId: 'Quote Request ID',
	quotationId: 'Quotation ID',
	reference: 'Payment Reference',
	assignmentId: 'Assignment ID',
	tripId: 'Trip ID',
	caseId: 'Case ID',
	message: 'Message',
	note: 'Note',
	reason: 'Reason',
};

/** "Pickup Latitude (pickupLatitude)", "Stop 2 Latitude (stops[1].latitude)", or the API name. */
export function fieldName(field: string): string {
	const stop = /^stops\[(\d+)\]\.(\w+)$/.exec(field);
	const label = stop
		? `Stop ${Number(stop[1]) + 1} ${stop[2].charAt(0).toUpperCase()}${stop[2].slice(1)}`
		: LABELS[field.startsWith('extraBody.') ? 'extraBody' : field];
	return label ? `${label} (${field})` : field;
}

/**
 * The message for a problem: the item (counted from 1, as people count, with its own reference
 * when it has one), the field as the editor labels it, the rule, and the value it got.
 */
export function describeProblem(problem: Problem, itemIndex: number, reference?: unknown): string {
	if (problem.value === HIDDEN)
		return `Item ${itemIndex + 1}${referenceOf(reference)}: ${fieldName(problem.field)} ${problem.rule}`;
	const shown =
		problem.value === undefined || problem.value === null || problem.value === ''
			? 'nothing'
			: typeof problem.value === 'string'
				? `"${problem.value}"`
				: JSON.stringify(problem.value);
	return `Item ${itemIndex + 1}${referenceOf(reference)}: ${fieldName(problem.field)} ${problem.rule}, got ${shown}`;
}

function referenceOf(reference: unknown): string {
	return typeof reference === 'string' || typeof reference === 'number'
		? ` (externalReference ${String(reference)})`
		: '';
}

/**
 * Checks a GO_BULK quote request: the hub rules the spec shows, and types and bounds of what is
 * given. The spec names no required field, so none is demanded beyond a hub for a hub method.
 */
export function validateQuoteRequest(body: IDataObject): Problem | undefined {
	const pickupHub = body.pickupMethod === 'HUB_DROPOFF';
	const dropoffHub = body.dropoffMethod === 'HUB_PICKUP';
	const quantity = body.quantity;
	return (
		oneOf(body, 'pickupMethod', ['HOME_PICKUP', 'HUB_DROPOFF']) ??
		oneOf(body, 'dropoffMethod', ['HOME_DELIVERY', 'HUB_PICKUP']) ??
		(pickupHub ? text(body.pickupHubId, 'pickupHubId') : undefined) ??
		(dropoffHub ? text(body.dropoffHubId, 'dropoffHubId') : undefined) ??
		(quantity === undefined ||
		(typeof quantity === 'number' && Number.isInteger(quantity) && quantity > 0)
			? undefined
			: { field: 'quantity', value: quantity, rule: 'must be a whole number of at least 1' }) ??
		firstProblem(
			(['pickupLatitude', 'dropoffLatitude'] as const).map((field) =>
				body[field] === undefined ? undefined : coordinate(body[field], field, 90),
			),
		) ??
		firstProblem(
			(['pickupLongitude', 'dropoffLongitude'] as const).map((field) =>
				body[field] === undefined ? undefined : coordinate(body[field], field, 180),
			),
		)
	);
}
