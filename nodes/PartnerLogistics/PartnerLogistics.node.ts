import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bookingDescription } from './resources/booking';
import { haulageQuotationDescription } from './resources/haulageQuotation';
import { hubDescription } from './resources/hub';
import { paymentDescription } from './resources/payment';
import { quoteDescription } from './resources/quote';
import { quoteRequestDescription } from './resources/quoteRequest';
import { supportCaseDescription } from './resources/supportCase';
import { trackingDescription } from './resources/tracking';
import { searchHubs } from './shared/hubs';
import { optionsDescription } from './shared/options';
import { sendRequest } from './shared/request';

export class PartnerLogistics implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics',
		name: 'partnerLogistics',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Quote and book deliveries, run GO_BULK and HAUL quotations, pay, track and manage support cases with the Partner Logistics API',
		defaults: { name: 'Partner Logistics' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnerLogisticsApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
			// Error statuses reach our postReceive, which explains them (shared/errors.ts).
			ignoreHttpStatusErrors: true,
		},
		requestOperations: { pagination: sendRequest },
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Booking',
						value: 'booking',
						description: 'Book a quoted CLICK, GO_LIGHT or EXPRESS delivery, and pay for it',
					},
					{
						name: 'Haulage Quotation',
						value: 'haulageQuotation',
						description: 'HAUL: request, accept or decline, and pay a manual quotation',
					},
					{
						name: 'Hub',
						value: 'hub',
						description: 'The active hubs, for hub drop-off and hub pickup routes',
					},
					{
						name: 'Payment',
						value: 'payment',
						description: 'The status of a payment, by its reference',
					},
					{
						name: 'Quote',
						value: 'quote',
						description: 'Price a CLICK, GO_LIGHT or EXPRESS delivery before booking it',
					},
					{
						name: 'Quote Request',
						value: 'quoteRequest',
						description: 'GO_BULK: request, fetch and pay a manual quotation',
					},
					{
						name: 'Support Case',
						value: 'supportCase',
						description: 'Open, comment on, close and reopen support cases',
					},
					{
						name: 'Tracking',
						value: 'tracking',
						description: 'Where HAUL trucks and trips are',
					},
				],
				default: 'quote',
			},
			...hubDescription,
			...quoteDescription,
			...bookingDescription,
			...quoteRequestDescription,
			...haulageQuotationDescription,
			...paymentDescription,
			...trackingDescription,
			...supportCaseDescription,
			...optionsDescription,
		],
	};

	methods = {
		listSearch: { searchHubs },
	};
}
