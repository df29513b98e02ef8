import { expectSucceeded, onlyItem } from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

const suite = loadSuite();

describe('HAUL: quotation -> accept -> pay -> truck and trip tracking', () => {
	let execution: Execution;

	beforeAll(async () => {
		execution = await suite.client.runManually(WORKFLOW_IDS.haul);
	});

	it('succeeds', () => expectSucceeded(execution));

	it('walks the quotation through requested, quoted and accepted', () => {
		const created = onlyItem(execution, 'Request a HAUL quotation');
		expect(created).toMatchObject({
			quotationId: expect.stringMatching(/^hq_/),
			serviceType: 'HAUL',
			status: 'REQUESTED',
			details: expect.objectContaining({ cargo: '20 pallets of tiles' }),
		});
		expect(onlyItem(execution, 'Get the quotation')).toMatchObject({
			quotationId: created.quotationId,
			status: 'QUOTED',
			quotation: expect.objectContaining({ amount: 650000 }),
		});
		expect(onlyItem(execution, 'Accept the quotation')).toMatchObject({
			quotationId: created.quotationId,
			status: 'ACCEPTED',
		});
	});

	it('pays upfront with the saved card', () => {
		const created = onlyItem(execution, 'Request a HAUL quotation');
		expect(onlyItem(execution, 'Pay upfront with saved card')).toMatchObject({
			reference: expect.stringMatching(/^pay_/),
			paymentMethod: 'SAVED_CARD',
			paymentStage: 'UPFRONT',
			resourceType: 'HAULAGE_QUOTATION',
			resourceId: created.quotationId,
		});
	});

	it('tracks the assigned truck and its trip', () => {
		const created = onlyItem(execution, 'Request a HAUL quotation');
		const assigned = onlyItem(execution, 'Sandbox operator: assign a truck');
		expect(onlyItem(execution, 'Get the truck')).toMatchObject({
			assignmentId: assigned.assignmentId,
			tripId: assigned.tripId,
			quotationId: created.quotationId,
			truck: expect.anything(),
			lastPosition: expect.objectContaining({ recordedAt: expect.any(String) }),
		});
		expect(onlyItem(execution, 'Get the trip')).toMatchObject({
			tripId: assigned.tripId,
			assignmentId: assigned.assignmentId,
		});
		const listed = nodeOutput(execution, 'List tracked trucks').map((truck) => truck.assignmentId);
		expect(listed).toContain(assigned.assignmentId);
	});
});
