// Parameter names and values are a public contract: workflows store them. This pins them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { DirectoryLoader } from 'n8n-core';

import { PartnerLogisticsPollingTrigger } from '../../../nodes/PartnerLogistics/PartnerLogisticsPollingTrigger.node';
import { DEFAULT_POLL_OPTIONS } from '../../../nodes/PartnerLogistics/polling/description';

const { description } = new PartnerLogisticsPollingTrigger();
const property = (name: string) => description.properties.find((p) => p.name === name)!;

/** The parameters the editor shows for the values chosen, as n8n's NodeHelpers decide. */
function shown(values: INodeParameters): string[] {
	const node = { parameters: values, typeVersion: 1 } as INode;
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		values,
		true,
		false,
		node,
		description,
	);
	return Object.keys(parameters ?? {});
}

describe('Partner Logistics Polling Trigger description', () => {
	it("is a polling trigger (n8n's Poll Times, no webhook), not an AI tool", () => {
		expect(description).toMatchObject({
			name: 'partnerLogisticsPollingTrigger',
			displayName: 'Partner Logistics Polling Trigger',
			group: ['trigger'],
			version: 1,
			polling: true,
			inputs: [],
			credentials: [{ name: 'partnerLogisticsApi', required: true, testedBy: 'testApiKey' }],
		});
		expect(description.webhooks).toBeUndefined();
		expect(description.usableAsTool).toBeUndefined();
		const trigger = new PartnerLogisticsPollingTrigger();
		expect(typeof trigger.poll).toBe('function');
		expect(trigger).not.toHaveProperty('webhook');
	});

	it("gets n8n's Poll Times once per node type loaded, every minute by default", () => {
		const loaded = new PartnerLogisticsPollingTrigger();
		// What n8n's loader does to a node with `polling: true`.
		(
			DirectoryLoader.prototype as unknown as {
				applySpecialNodeParameters(type: PartnerLogisticsPollingTrigger): void;
			}
		).applySpecialNodeParameters.call({}, loaded);
		expect(loaded.description.properties[0]).toMatchObject({
			name: 'pollTimes',
			default: { item: [{ mode: 'everyMinute' }] },
		});
		expect(new PartnerLogisticsPollingTrigger().description.properties[0].name).toBe(
			'pollingNotice',
		);
	});

	it('keeps its parameter names, values and defaults', () => {
		expect(description.properties.map((p) => p.name)).toEqual([
			'pollingNotice',
			'watch',
			'status',
			'limit',
			'caseIdField',
			'assignmentIdField',
			'references',
			'quoteRequestIds',
			'quotationIds',
			'tripIds',
			'assignmentIds',
			'changesThatCount',
			'changeFields',
			'options',
			'requestOptions',
		]);
		expect(property('watch').default).toBe('supportCase');
		expect(property('watch').options!.map((o) => 'value' in o && o.value)).toEqual([
			'haulageQuotation',
			'payment',
			'quoteRequest',
			'supportCase',
			'trip',
			'truck',
			'truckTracking',
		]);
		expect(property('changesThatCount').default).toBe('anyField');
		expect(property('changeFields').default).toBe('');
		expect(property('status').default).toBe('OPEN');
		expect(property('limit').default).toBe(50);
		expect(property('caseIdField').default).toBe('caseId');
		expect(property('assignmentIdField').default).toBe('assignmentId');
		expect(DEFAULT_POLL_OPTIONS).toEqual({
			emitCurrentState: false,
			includePrevious: false,
			maxRecords: 1000,
		});
	});

	it('labels the inferred ID fields as inferred', () => {
		for (const name of ['caseIdField', 'assignmentIdField']) {
			expect(property(name).hint).toMatch(
				/^Inferred: the API documentation names \w+ as the path parameter/,
			);
		}
	});

	it('labels the inferred paths of the quote request and haulage quotation watches', () => {
		const described = Object.fromEntries(
			property('watch').options!.map((o) => [
				'value' in o && o.value,
				'description' in o && o.description,
			]),
		);
		for (const watch of ['quoteRequest', 'haulageQuotation']) {
			expect(described[watch]).toMatch(/Path not in the published API documentation: inferred/);
		}
		for (const watch of ['payment', 'supportCase', 'trip', 'truck', 'truckTracking']) {
			expect(described[watch]).not.toMatch(/inferred/);
		}
	});

	it('shows the fields of what is watched only, and Field Names only for named fields', () => {
		const common = ['pollingNotice', 'watch', 'changesThatCount', 'options', 'requestOptions'];
		const fieldsOf = (watch: string) => shown({ watch }).sort();
		expect(fieldsOf('supportCase')).toEqual([...common, 'status', 'limit', 'caseIdField'].sort());
		expect(fieldsOf('truck')).toEqual([...common, 'assignmentIdField'].sort());
		expect(fieldsOf('payment')).toEqual([...common, 'references'].sort());
		expect(fieldsOf('quoteRequest')).toEqual([...common, 'quoteRequestIds'].sort());
		expect(fieldsOf('haulageQuotation')).toEqual([...common, 'quotationIds'].sort());
		expect(fieldsOf('trip')).toEqual([...common, 'tripIds'].sort());
		expect(fieldsOf('truckTracking')).toEqual([...common, 'assignmentIds'].sort());
		expect(shown({ watch: 'trip', changesThatCount: 'namedFields' })).toContain('changeFields');
	});

	it('says what counts as a change by default, and why', () => {
		const [anyField, named] = property('changesThatCount').options as Array<{
			value: string;
			description: string;
		}>;
		expect(anyField.value).toBe('anyField');
		expect(anyField.description).toMatch(/the API documentation shows no record fields/);
		expect(named.value).toBe('namedFields');
	});

	it("offers the pipeline's options but no Idempotency Key, alphabetically as n8n lint asks", () => {
		const options = property('options').options as INodeProperties[];
		expect(options.map((o) => o.name)).toEqual([
			'concurrency',
			'faultRetries',
			'emitCurrentState',
			'includePrevious',
			'maxRecords',
			'maxRequestsPerSecond',
			'maxRetries',
		]);
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		const requestOptions = property('requestOptions').options as INodeProperties[];
		expect(requestOptions.map((o) => o.name)).toEqual([
			'allowUnauthorizedCerts',
			'proxy',
			'timeout',
		]);
	});

	it('reads as one action per watch in the node panel', () => {
		// n8n's node panel turns a trigger's "Trigger On" options into its actions.
		expect(property('watch').displayName).toBe('Trigger On');
		expect(property('watch').options!.map((o) => 'action' in o && o.action)).toEqual([
			'On new or changed haulage quotation',
			'On new or changed payment',
			'On new or changed quote request',
			'On new or changed support case',
			'On new or changed trip',
			'On new or changed truck assignment',
			'On new or changed truck tracking',
		]);
	});

	it('names the watch on the canvas in its Trigger On words', () => {
		const words = JSON.parse(/(\{".*\})\[/.exec(String(description.subtitle))![1]) as object;
		expect(words).toMatchObject({
			quoteRequest: 'Quote Request (GO_BULK)',
			truckTracking: 'Truck Tracking',
		});
		expect(Object.keys(words)).toHaveLength(7);
	});
});

describe('the docs show a watch as it is', () => {
	const read = (path: string) => readFileSync(join(__dirname, '../../..', path), 'utf8');
	/** A watch's entry in polling/watches.ts, from its `{` to its `}`, one tab less deep. */
	function declaration(value: string) {
		const entries = read('nodes/PartnerLogistics/polling/watches.ts').split('\n\t{\n');
		const entry = entries.find((text) => text.includes(`\n\t\tvalue: '${value}',\n`));
		return `\t{\n${entry!.slice(0, entry!.indexOf('\n\t}') + 3)}`.replace(/^\t/gm, '');
	}

	it.each([
		['README.md', 'quoteRequest'],
		['docs/architecture.md', 'trip'],
	])('%s shows the %s watch whole', (doc, watch) => {
		expect(read(doc)).toContain(`\`\`\`ts\n${declaration(watch)}\n\`\`\``);
	});
});
