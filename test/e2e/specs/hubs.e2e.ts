import { expectSucceeded } from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

const suite = loadSuite();

describe('Hub › Get Many in real n8n', () => {
	it('loads the package under its community package type names', async () => {
		const nodes = await suite.client.editorGet<Array<{ name: string }>>('/types/nodes.json');
		const names = nodes.body.map((node) => node.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'n8n-nodes-partner-logistics.partnerLogistics',
				'n8n-nodes-partner-logistics.partnerLogisticsTrigger',
			]),
		);
		const credentials =
			await suite.client.editorGet<Array<{ name: string }>>('/types/credentials.json');
		expect(credentials.body.map((credential) => credential.name)).toContain('partnerLogisticsApi');
	});

	it('lists the active hubs, one item each', async () => {
		const execution = await suite.client.runManually(WORKFLOW_IDS.hubs);
		expectSucceeded(execution);
		expect(execution.mode).toBe('manual');
		const hubs = nodeOutput(execution, 'Get hubs');
		expect(hubs.map((hub) => hub.id).sort()).toEqual([...suite.sandbox.hubs.active].sort());
		expect(hubs[0]).toEqual(
			expect.objectContaining({ name: expect.any(String), latitude: expect.any(Number) }),
		);
	});
});
