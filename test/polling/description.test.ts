// Parameter names and values are a public contract: workflows store them. This pins them.
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { DirectoryLoader } from 'n8n-core';

import { PartnerLogisticsPollingTrigger } from '../../nodes/PartnerLogistics/PartnerLogisticsPollingTrigger.node';
import { DEFAULT_POLL_OPTIONS } from '../../nodes/PartnerLogistics/polling/description';

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
			'options',
			'requestOptions',
		]);
		expect(property('watch').default).toBe('supportCase');
		expect(property('watch').options!.map((o) => 'value' in o && o.value)).toEqual([
			'payment',
			'supportCase',
			'truck',
		]);
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

	it('shows the fields of what is watched only', () => {
		const common = ['pollingNotice', 'watch', 'options', 'requestOptions'];
		expect(shown({ watch: 'supportCase' }).sort()).toEqual(
			[...common, 'status', 'limit', 'caseIdField'].sort(),
		);
		expect(shown({ watch: 'truck' }).sort()).toEqual([...common, 'assignmentIdField'].sort());
		expect(shown({ watch: 'payment' }).sort()).toEqual([...common, 'references'].sort());
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

	it('reads as three actions in the node panel', () => {
		// n8n's node panel turns a trigger's "Trigger On" options into its actions.
		expect(property('watch').displayName).toBe('Trigger On');
		expect(property('watch').options!.map((o) => 'action' in o && o.action)).toEqual([
			'On new or changed payment',
			'On new or changed support case',
			'On new or changed truck assignment',
		]);
	});
});
