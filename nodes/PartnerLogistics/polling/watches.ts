import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { INFERRED_PATH } from '../descriptions/fields';
import type { OperationSpec } from '../pipeline/operation';
import { compact } from '../pipeline/problem';
import { haulageQuotationGet } from '../resources/haulageQuotation/get';
import { paymentGet } from '../resources/payment/get';
import { quoteRequestGet } from '../resources/quoteRequest/get';
import { caseLimit, caseStatus, supportCaseGetMany } from '../resources/supportCase/getAll';
import { trackingGetTrucks } from '../resources/tracking/getAssignedTrucks';
import { trackingGetTrip } from '../resources/tracking/getTrip';
import { trackingGetTruck } from '../resources/tracking/getTruck';
import { numberOf } from '../route/numbers';

export type PollParameterReader = (name: string) => unknown;

/** What the polling trigger can watch, declared as an operation is; `polling/` runs each alike. */
export interface WatchSpec {
	/** Trigger On as the picker shows it; shortened, the canvas subtitle and node panel action. */
	name: string;
	/** Trigger On's value: saved in workflows, so never renamed. */
	value: string;
	description: string;
	/** For messages: "quote request", "quote requests". */
	record: string;
	records: string;
	/** Its GET: a list operation's once per poll, a record operation's once per listed ID. */
	operation: OperationSpec;
	/** The parameter telling records apart: a list's ID field, or the IDs a record watch reads. */
	identity: INodeProperties;
	query?: (read: PollParameterReader) => IDataObject;
	/** What narrows the records, for `watching`: changing it starts over (Status; not Limit). */
	narrowedBy?: (read: PollParameterReader) => string;
	fields?: INodeProperties[];
}

export const textOf = (value: unknown): string => String(value ?? '').trim();

/** A record watch's identity: the IDs it looks up, one GET each per poll. */
const listedIds = (
	name: string,
	displayName: string,
	what: string,
	example: string,
	hint: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${example}`,
	description: `The ${what} to look up on each poll, separated by commas, spaces or new lines; an expression may also give a list`,
	hint: `${hint} An ID the API answers 404 for is reported once as an item with change "notFound"; the others go on.`,
});

/** Every watch of the polling trigger, in the order their fields show (docs/architecture.md). */
export const WATCHES: WatchSpec[] = [
	{
		name: 'New or Changed Support Case',
		value: 'supportCase',
		description: 'Lists support cases by status (needs the support:read capability)',
		record: 'support case',
		records: 'support cases',
		operation: supportCaseGetMany,
		identity: {
			displayName: 'Case ID Field',
			name: 'caseIdField',
			type: 'string',
			default: 'caseId',
			placeholder: 'e.g. caseId',
			description: 'The field of a case record that identifies the case',
			hint: 'Inferred: the API documentation names caseId as the path parameter of a case but shows no record fields. Change it if your cases carry their identifier in another field. Dots read nested fields.',
		},
		query: (read) =>
			compact({
				status: textOf(read('status')),
				limit: numberOf(read('limit') as string, 'limit'),
			}),
		narrowedBy: (read) => `status=${textOf(read('status'))}`,
		fields: [
			{
				...caseStatus,
				description: 'Only cases with this status are listed and watched',
				hint: `${caseStatus.hint}. A case that leaves this status is no longer listed, so its change is not seen.`,
			},
			{
				...caseLimit,
				hint: 'Each poll watches the cases one list request returns; raise it if more cases than this have the status',
			},
		],
	},
	{
		name: 'New or Changed Truck Assignment',
		value: 'truck',
		description: 'Lists the trucks assigned to your haulage quotations',
		record: 'truck',
		records: 'assigned trucks',
		operation: trackingGetTrucks,
		identity: {
			displayName: 'Assignment ID Field',
			name: 'assignmentIdField',
			type: 'string',
			default: 'assignmentId',
			placeholder: 'e.g. assignmentId',
			description: 'The field of an assigned truck record that identifies the assignment',
			hint: 'Inferred: the API documentation names assignmentId as the path parameter of a truck assignment but shows no record fields. Change it if yours carry their identifier in another field. Dots read nested fields.',
		},
	},
	{
		name: 'New or Changed Payment',
		value: 'payment',
		description: 'Looks up the status of each payment reference you list, on every poll',
		record: 'payment',
		records: 'payment references',
		operation: paymentGet,
		identity: listedIds(
			'references',
			'Payment References',
			'payment references',
			'pay_123, pay_456',
			'Each payment is identified by the reference you list, the one its lookup takes.',
		),
	},
	{
		name: 'New or Changed Quote Request (GO_BULK)',
		value: 'quoteRequest',
		description: `Looks up each GO_BULK quote request you list (Quote Request › Get), e.g. to learn when the operator sends its quotation. ${INFERRED_PATH}.`,
		record: 'quote request',
		records: 'quote requests',
		operation: quoteRequestGet,
		identity: listedIds(
			'quoteRequestIds',
			'Quote Request IDs',
			'quote request IDs',
			'qr_123, qr_456',
			'The quoteRequestId values Quote Request › Create returned.',
		),
	},
	{
		name: 'New or Changed Haulage Quotation (HAUL)',
		value: 'haulageQuotation',
		description: `Looks up each HAUL quotation you list (Haulage Quotation › Get), e.g. to learn when the operator quotes it or assigns a truck. ${INFERRED_PATH}.`,
		record: 'haulage quotation',
		records: 'haulage quotations',
		operation: haulageQuotationGet,
		identity: listedIds(
			'quotationIds',
			'Quotation IDs',
			'haulage quotation IDs',
			'hq_123, hq_456',
			'The quotationId values Haulage Quotation › Create returned.',
		),
	},
	{
		name: 'New or Changed Trip',
		value: 'trip',
		description: 'Looks up each haulage trip you list (Tracking › Get Trip), on every poll',
		record: 'trip',
		records: 'trips',
		operation: trackingGetTrip,
		identity: listedIds(
			'tripIds',
			'Trip IDs',
			'trip IDs',
			'trip_123',
			"A trip's ID comes with its truck assignment.",
		),
	},
	{
		name: 'New or Changed Truck Tracking',
		value: 'truckTracking',
		description:
			'Looks up the tracking of each truck assignment you list (Tracking › Get Truck), on every poll',
		record: 'truck assignment',
		records: 'truck assignments',
		operation: trackingGetTruck,
		identity: listedIds(
			'assignmentIds',
			'Assignment IDs',
			'truck assignment IDs',
			'asg_123',
			'A truck that reports its position often changes at every poll: set Changes That Count to the fields you follow, e.g. status.',
		),
	},
];
