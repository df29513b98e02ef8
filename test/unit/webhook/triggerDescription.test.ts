// Parameter names and values are a public contract: workflows store them. This pins them.
import type { INodeProperties } from 'n8n-workflow';

import { PartnerLogisticsTrigger } from '../../../nodes/PartnerLogistics/PartnerLogisticsTrigger.node';
import { DEFAULT_OPTIONS } from '../../../nodes/PartnerLogistics/webhook/settings';

const { description } = new PartnerLogisticsTrigger();
const property = (name: string) => description.properties.find((p) => p.name === name)!;
const options = property('options').options as INodeProperties[];

describe('Partner Logistics Trigger description', () => {
	it('is a webhook trigger on a fixed path that answers on receipt', () => {
		expect(description).toMatchObject({
			name: 'partnerLogisticsTrigger',
			displayName: 'Partner Logistics Trigger',
			group: ['trigger'],
			version: [1, 1.1],
			defaultVersion: 1.1,
			inputs: [],
			credentials: [{ name: 'partnerLogisticsApi', required: true }],
			webhooks: [
				{
					name: 'default',
					httpMethod: 'POST',
					responseMode: 'onReceived',
					path: 'partner-logistics',
				},
			],
		});
		expect(description.usableAsTool).toBeUndefined();
	});

	it('keeps its parameter names and values', () => {
		expect(description.properties.map((p) => p.name)).toEqual([
			'webhookUrlNotice',
			'signatureScheme',
			'noSignatureWarning',
			'events',
			'options',
		]);
		expect(property('signatureScheme').default).toBe('standardWebhooks');
		expect(property('signatureScheme').options!.map((o) => 'value' in o && o.value)).toEqual([
			'hmacHeader',
			'none',
			'standardWebhooks',
			'stripe',
		]);
		expect(DEFAULT_OPTIONS).toEqual({
			toleranceSeconds: 300,
			rememberEventIdsHours: 24,
			timestampUnit: 'auto',
			eventTypeField: 'type',
			eventTypeHeader: '',
			eventIdField: 'id',
			stripeHeaderName: 'Stripe-Signature',
			hmacHeaderName: 'X-Signature',
			hmacAlgorithm: 'sha256',
			hmacEncoding: 'hex',
			hmacPrefix: '',
		});
		expect(
			options.find((o) => o.name === 'hmacAlgorithm')!.options!.map((o) => 'value' in o && o.value),
		).toEqual(['sha256', 'sha512']);
		expect(
			options.find((o) => o.name === 'hmacEncoding')!.options!.map((o) => 'value' in o && o.value),
		).toEqual(['base64', 'hex']);
		expect(
			options.find((o) => o.name === 'timestampUnit')!.options!.map((o) => 'value' in o && o.value),
		).toEqual(['auto', 'milliseconds', 'seconds']);
	});

	it('lists its options alphabetically by name, as n8n lint asks', () => {
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('offers an event type header, named by the user since the API documentation names none', () => {
		const header = options.find((o) => o.name === 'eventTypeHeader')!;
		expect(header).toMatchObject({
			displayName: 'Event Type Header',
			type: 'string',
			default: '',
			placeholder: 'e.g. X-Event-Type',
		});
		expect(header.description).toMatch(/only when the payload has no Event Type Field/);
		expect(header.description).toMatch(
			/of your choosing: the Partner Logistics API documentation names no such header/,
		);
		expect(header.displayOptions).toBeUndefined();
	});

	it('tells the user which URL goes into the partner portal', () => {
		const notice = property('webhookUrlNotice').displayName;
		expect(notice).toMatch(/Production URL/);
		expect(notice).toMatch(/partner portal/);
		// Where to find it: n8n shows the URLs in a section at the top of the panel.
		expect(notice).toMatch(/^Open "Webhook URLs" at the top of this panel, choose Production URL/);
		expect(notice).toMatch(/Test URL only answers while this node is listening for a test event/);
	});

	it('warns when verification is switched off, and only then', () => {
		expect(property('noSignatureWarning').displayOptions).toEqual({
			show: { signatureScheme: ['none'] },
		});
	});

	it('describes every field, with a placeholder on every free-text one', () => {
		for (const field of [...description.properties, ...options]) {
			if (field.type === 'notice') continue;
			expect([field.name, Boolean(field.description ?? field.hint)]).toEqual([field.name, true]);
			if (field.type === 'string')
				expect([field.name, field.placeholder]).toEqual([field.name, expect.any(String)]);
		}
	});
});

test("describes the package: n8n's node panel shows the trigger's description for the merged entry", () => {
	expect(description.description).toBe(
		'Quote, book, pay and track Partner Logistics deliveries; start workflows on signed events',
	);
	expect(property('options').placeholder).toBe('Add Option');
});
